#!/usr/bin/env bash
# Load test on loopback: throughput of the search endpoint against a trivial endpoint (/health)
# on the same release server, measured in one run with wrk. Prints a table for the README.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10s}
connections=${CONNECTIONS:-32}

command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --release --quiet -p api -p indexer
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PORT=$port RUST_LOG=warn ./target/release/nearcare-server >.local/load-test-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:${port}/health" >/dev/null 2>&1 && break; sleep 1; done

base="http://127.0.0.1:${port}"
# Searches rotate through metro ZIPs, with and without the new-patients filter, so the load is
# not one answer. The requests are formatted once, in init, so wrk's Lua costs the same per
# request as a static one would and the two endpoints are measured alike.
cat > .local/search.lua <<'LUA'
local requests = {}
local counter = 0
init = function(args)
  local zips = { "80202", "10001", "60601", "94103", "30303", "98101", "02108", "73102", "85004", "37203" }
  for _, zip in ipairs(zips) do
    for _, accepting in ipairs({ "true", "false" }) do
      local body = '{"search":{"filters":{"zipCode":"' .. zip .. '","newPatients":' .. accepting .. '}}}'
      requests[#requests + 1] =
        wrk.format("POST", "/member/app/market/search?page=1&limit=6", { ["Content-Type"] = "application/json" }, body)
    end
  end
end
request = function()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end
LUA

run() { wrk -t2 -c"$connections" -d"$duration" --latency "$@" | tee /dev/stderr | awk '/Requests\/sec/ {print $2} /^ +50%/ {print $2}'; }
echo "== GET /health" >&2
read -r health_p50 health_rps < <(run "$base/health" | paste -s -d' ')
echo "== POST /member/app/market/search" >&2
read -r search_p50 search_rps < <(run -s .local/search.lua "$base/member/app/market/search" | paste -s -d' ')
ratio=$(python3 -c "print(f'{${search_rps}/${health_rps}*100:.0f}')")
echo
echo "| endpoint | requests/s | p50 latency |"
echo "|---|---|---|"
echo "| GET /health | ${health_rps} | ${health_p50} |"
echo "| POST /member/app/market/search | ${search_rps} | ${search_p50} |"
echo "search throughput = ${ratio}% of /health (${connections} connections, ${duration}, 2 wrk threads, same machine)"
