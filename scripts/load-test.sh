#!/usr/bin/env bash
# Load test on loopback: throughput of the search endpoint against a trivial endpoint (/health)
# on the same release server, measured in one run with wrk, at a catalogue size of SIZE clinics
# (default 1500; e.g. SIZE=1000000). Each size keeps its own private cluster and index in
# .local/load-SIZE (seeded and indexed once). Also measures the server's start-up (until /ready
# answers) and memory, and the p50 of one keep-alive client. Prints a table for the README.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-1500}
duration=${DURATION:-10s}
connections=${CONNECTIONS:-32}
local_dir=.local/load-${size}

command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
. scripts/seeded-server.sh
ready_seconds=$(python3 -c "import time; print(f'{time.time() - ${started}:.1f}')")
memory() { awk -v key="$1:" '$1 == key {printf "%.0f", $2 / 1024}' "/proc/${server}/status"; }
ready_rss=$(memory VmRSS)
base="http://127.0.0.1:${port}"
# Both endpoints go through the same Lua request loop over requests formatted once, in init, so
# wrk's Lua costs the same per request for each and the two are measured alike.
request_loop() {
  cat <<LUA
local requests = {}
local counter = 0
init = function(args)
$1
end
request = function()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end
LUA
}

# Searches rotate through metro ZIPs, with and without the new-patients filter, so the load is
# not one answer. FILTERS=listings rotates the listing filters instead (docs/listings-contract.md):
# a language alone (Spanish, Chinese), an accessibility code alone, and a language with new
# patients.
# The ZIP codes are benches/load-test-zips.txt, which the in-process search-loop example reads too.
lua_zips=$(sed 's/.*/"&"/' benches/load-test-zips.txt | paste -s -d, -)
case ${FILTERS:-default} in
  default) lua_filters='"\"newPatients\":true", "\"newPatients\":false"' ;;
  listings) lua_filters='"\"selectedLanguages\":[\"es\"]", "\"selectedLanguages\":[\"zh\"]", "\"selectedAccessibility\":[\"handiaccess\"]", "\"newPatients\":true,\"selectedLanguages\":[\"es\"]"' ;;
  *) echo "FILTERS is default or listings, not ${FILTERS}" >&2; exit 2 ;;
esac
search_init=$(cat <<LUA
  local zips = { ${lua_zips} }
  local filters = { ${lua_filters} }
  for _, zip in ipairs(zips) do
    for _, filter in ipairs(filters) do
      local body = '{"search":{"filters":{"zipCode":"' .. zip .. '",' .. filter .. '}}}'
      requests[#requests + 1] =
        wrk.format("POST", "/member/app/market/search?page=1&limit=6", { ["Content-Type"] = "application/json" }, body)
    end
  end
LUA
)
request_loop "$search_init" > .local/search.lua
request_loop '  for i = 1, 20 do requests[i] = wrk.format("GET", "/health") end' > .local/health.lua

run() { wrk -t2 -c"$connections" -d"$duration" --latency "$@" | tee /dev/stderr | awk '/Requests\/sec/ {print $2} /^ +50%/ {print $2}' | paste -s -d' '; }
median() { python3 -c "import statistics,sys; print(statistics.median(float(v) for v in sys.argv[1:]))" "$@"; }
# The machine is shared: the endpoints alternate, ROUNDS times, and the medians are compared.
rounds=${ROUNDS:-3}
health_rps=() health_p50=() search_rps=() search_p50=()
for round in $(seq 1 "$rounds"); do
  echo "== round $round: GET /health" >&2
  read -r p50 rps < <(run -s .local/health.lua "$base/health")
  health_rps+=("$rps") health_p50+=("$p50")
  echo "== round $round: POST /member/app/market/search" >&2
  read -r p50 rps < <(run -s .local/search.lua "$base/member/app/market/search")
  search_rps+=("$rps") search_p50+=("$p50")
done
to_ms() { for v in "$@"; do case $v in *ms) echo "${v%ms}";; *us) python3 -c "print(${v%us}/1000)";; *) echo "$v";; esac; done; }
health_median=$(median "${health_rps[@]}")
search_median=$(median "${search_rps[@]}")
ratio=$(python3 -c "print(f'{${search_median}/${health_median}*100:.0f}')")
echo
echo "| endpoint | requests/s (median of ${rounds}) | runs | p50 latency (median) |"
echo "|---|---|---|---|"
echo "| GET /health | ${health_median} | ${health_rps[*]} | $(median $(to_ms "${health_p50[@]}")) ms |"
echo "| POST /member/app/market/search | ${search_median} | ${search_rps[*]} | $(median $(to_ms "${search_p50[@]}")) ms |"
echo "search throughput = ${ratio}% of /health (${connections} connections, ${duration} per run, 2 wrk threads, same machine; filters: ${FILTERS:-default})"

# One keep-alive client: the latency of a single request, unqueued.
single() { wrk -t1 -c1 -d"${SINGLE_DURATION:-5s}" --latency "$@" | awk '/^ +50%/ {print $2}'; }
health_single=$(to_ms "$(single -s .local/health.lua "$base/health")")
search_single=$(to_ms "$(single -s .local/search.lua "$base/member/app/market/search")")
single_ratio=$(python3 -c "print(f'{${search_single}/${health_single}:.1f}')")
echo "one keep-alive client, p50: /health ${health_single} ms, search ${search_single} ms (${single_ratio}x /health)"
echo "catalogue: ${size} clinics; server ready after ${ready_seconds} s with ${ready_rss} MB RSS; after the load $(memory VmRSS) MB RSS, peak $(memory VmHWM) MB"
