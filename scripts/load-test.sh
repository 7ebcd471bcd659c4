#!/usr/bin/env bash
# Load test on loopback: throughput of the search endpoint and of the FHIR API's Location `near`
# against a trivial endpoint (/health) on the same release server, measured in one run with wrk,
# with PostgreSQL's `select 1` as the floor, at a catalogue size of SIZE clinics
# (default 1500; e.g. SIZE=1000000). Each size keeps its own private cluster and index in
# .local/load-SIZE (seeded and indexed once). Also measures the server's start-up (until /ready
# answers) and memory, and the p50 of one keep-alive client. A bare axum server's /health beside
# it is the machine's own floor, and the host's steal time is printed. Prints a table for the README.
#
# METRICS_COMPARE=1 measures the cost of metrics instead: two servers of the same build on the
# same data, one recording metrics (NEARCARE_METRICS_ADDR on a free port) and one with
# NEARCARE_METRICS_ADDR=off, searched in alternating rounds (throughput with each server's CPU
# time per search, then one client's p50), and prints the medians of each and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-1500}
duration=${DURATION:-10s}
connections=${CONNECTIONS:-32}
local_dir=.local/load-${size}

command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
if [ -n "${METRICS_COMPARE:-}" ]; then
  metrics_addr=127.0.0.1:$(free_port)
  export NEARCARE_METRICS_ADDR=$metrics_addr
fi
. scripts/seeded-server.sh
ready_seconds=$(python3 -c "import time; print(f'{time.time() - ${started}:.1f}')")
memory() { awk -v key="$1:" '$1 == key {printf "%.0f", $2 / 1024}' "/proc/${server}/status"; }
ready_rss=$(memory VmRSS)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
base="http://127.0.0.1:${port}"
# Both endpoints go through the same Lua request loop over requests formatted once, in init, so
# wrk's Lua costs the same per request for each and the two are measured alike. Each run's
# `done` prints one machine-readable line: requests/s and the p50, p99 and p99.9 latency in µs.
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
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %d %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
LUA
}

# Searches start from ORIGINS (200) places drawn across the country: clinics' own positions,
# sampled with a fixed seed, so the origins follow where clinics (and people) are, the way
# national traffic does, and each search meets a different part of the index. Each origin is
# searched within 30 miles (slider 5) with and without the new-patients filter.
# FILTERS=listings uses the listing filters instead (docs/listings-contract.md): a language
# alone (Spanish, Chinese), an accessibility code alone, and a language with new patients.
origin_count=${ORIGINS:-200}
psql "$url" -Atq -c "select setseed(0.28)" \
  -c "select lat || ',' || lng from locations where not is_virtual order by random() limit ${origin_count}" \
  | grep , > "$local_dir/origins.csv"
lua_origins=$(sed 's/.*/{&}/' "$local_dir/origins.csv" | paste -s -d, -)
case ${FILTERS:-default} in
  default) lua_filters='"\"newPatients\":true", "\"newPatients\":false"' ;;
  listings) lua_filters='"\"selectedLanguages\":[\"es\"]", "\"selectedLanguages\":[\"zh\"]", "\"selectedAccessibility\":[\"handiaccess\"]", "\"newPatients\":true,\"selectedLanguages\":[\"es\"]"' ;;
  *) echo "FILTERS is default or listings, not ${FILTERS}" >&2; exit 2 ;;
esac
search_init=$(cat <<LUA
  local origins = { ${lua_origins} }
  local filters = { ${lua_filters} }
  for _, filter in ipairs(filters) do
    for _, origin in ipairs(origins) do
      local body = '{"search":{"filters":{"searchDistance":5,' .. filter .. '}}}'
      local path = string.format("/member/app/market/search?page=1&limit=6&lat=%.6f&lng=%.6f", origin[1], origin[2])
      requests[#requests + 1] = wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
    end
  end
LUA
)
request_loop "$search_init" > .local/search.lua
request_loop '  for i = 1, 20 do requests[i] = wrk.format("GET", "/health") end' > .local/health.lua
# The public FHIR API's `near` (docs/fhir-contract.md) from the same origins: Locations within
# 30 miles in true distance order, FHIR's default page of 20, each with its distance.
near_init=$(cat <<LUA
  local origins = { ${lua_origins} }
  for _, origin in ipairs(origins) do
    local path = string.format("/fhir/r4/Location?near=%.6f%%7C%.6f%%7C30%%7Cmi", origin[1], origin[2])
    requests[#requests + 1] = wrk.format("GET", path, { ["Accept"] = "application/fhir+json" })
  end
LUA
)
request_loop "$near_init" > .local/near.lua

if [ -n "${METRICS_COMPARE:-}" ]; then
  # The same build and data without metrics, on its own port; stopped with the first.
  off_port=$(free_port)
  DATABASE_URL="$url" NEARCARE_LOCAL_DIR="$local_dir" PORT=$off_port NEARCARE_METRICS_ADDR=off RUST_LOG=warn \
    NEARCARE_MAX_CONNECTIONS_PER_ADDRESS=0 \
    ./target/release/nearcare-server >"$local_dir/server-off.log" 2>&1 &
  off_server=$!
  trap 'kill $server $off_server 2>/dev/null; wait $server $off_server 2>/dev/null || true; stop_own_cluster' EXIT
  until curl -fs "http://127.0.0.1:${off_port}/ready" >/dev/null 2>&1; do
    kill -0 "$off_server" 2>/dev/null || { tail -20 "$local_dir/server-off.log"; exit 1; }
    sleep 0.1
  done
fi

# wrk with the run's settings; shows its report on stderr, prints "requests/s p50 p99 p99.9" (µs).
# (Through the shell's own stderr: `tee /dev/stderr` opens the file again at offset 0, so a
# redirected log kept only what the last report overwrote.)
wrk_result() { wrk --latency "$@" | awk '{print | "cat >&2"} /^RESULT / {print $2, $3, $4, $5}'; }
run() { wrk_result -t2 -c"$connections" -d"$duration" "$@"; }
single() { wrk_result -t1 -c1 -d"${SINGLE_DURATION:-5s}" "$@"; }
median() { python3 -c "import statistics,sys; print(statistics.median(float(v) for v in sys.argv[1:]))" "$@"; }
ms() { python3 -c "import sys; print(f'{float(sys.argv[1]) / 1000:.3f}')" "$1"; }
# PostgreSQL's protocol floor, measured by the C client of its own: `select 1` over one
# prepared connection; prints "p50 p99 p99.9" in µs from pgbench's per-transaction log, with
# the samples wrk adds to its own before it reports percentiles (wrk.c's `stats_correct`: a
# request that took n µs, where the mean interval is e, adds n - e, n - 2e, ... while above e;
# scripts/wrk_stats.py, which the peer benchmark uses too). Uncorrected, pgbench's one-client p99 is a
# different statistic from wrk's, which is the length of the run's longest stalls.
single_seconds() { local duration=${SINGLE_DURATION:-5s}; echo "${duration%s}"; }
pg_floor() {
  rm -rf "$local_dir/pgbench" && mkdir -p "$local_dir/pgbench"
  echo 'select 1;' > "$local_dir/pgbench/select1.sql"
  (cd "$local_dir/pgbench" && pgbench -n -c1 -M prepared -T"$(single_seconds)" -l -f select1.sql "$url" >&2)
  cat "$local_dir"/pgbench/pgbench_log.* | python3 -c "
import sys
sys.path.insert(0, 'scripts')
from wrk_stats import corrected_as_wrk
measured = [int(line.split()[2]) for line in sys.stdin]
times = sorted(corrected_as_wrk(measured, $(single_seconds) * 1_000_000, 1))
print(*(times[min(len(times) - 1, int(len(times) * q))] for q in (0.5, 0.99, 0.999)))"
}

# The server's CPU time (user + system, in clock ticks) from /proc: a search's CPU cost is
# steadier on a shared machine than its throughput, which the neighbours' load moves.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# The CPU of this shell's finished children (wrk, and the small filters of its pipeline): the
# client shares the two cores with the server, so its cost per answer bounds the throughput too.
children_ticks() { awk '{print $16 + $17}' "/proc/$$/stat"; }
ticks_per_second=$(getconf CLK_TCK)
per_request_us() { python3 -c "print(f'{$1 / ${ticks_per_second} * 1e6 / max($2 * ${duration%s}, 1):.1f}')"; }

if [ -n "${METRICS_COMPARE:-}" ]; then
  rounds=${ROUNDS:-5}
  declare -A rps p50 cpu
  for round in $(seq 1 "$rounds"); do
    # Which server goes first alternates, so neither always follows the other.
    if [ $((round % 2)) -eq 1 ]; then order="on off"; else order="off on"; fi
    for side in $order; do
      if [ "$side" = on ]; then side_port=$port; else side_port=$off_port; fi
      echo "== round $round: metrics $side" >&2
      if [ "$side" = on ]; then side_pid=$server; else side_pid=$off_server; fi
      ticks_before=$(cpu_ticks "$side_pid")
      read -r side_rps _ < <(run -s .local/search.lua "http://127.0.0.1:${side_port}/member/app/market/search")
      ticks_used=$(( $(cpu_ticks "$side_pid") - ticks_before ))
      cpu[$side]+="$(python3 -c "print(f'{${ticks_used} / ${ticks_per_second} * 1e6 / (${side_rps} * ${duration%s}):.1f}')") "
      read -r _ side_p50 _ < <(single -s .local/search.lua "http://127.0.0.1:${side_port}/member/app/market/search")
      rps[$side]+="$side_rps " p50[$side]+="$(ms "$side_p50") "
      # Prometheus would scrape the server with metrics now and then; so do we, once a round.
      if [ "$side" = on ]; then curl -fs "http://${metrics_addr}/metrics" >/dev/null; fi
    done
  done
  searches=$(curl -fs "http://${metrics_addr}/metrics" | awk '/^nearcare_http_requests_total\{.*route="\/member\/app\/market\/search"/ {s += $2} END {print s + 0}')
  rps_on=$(median ${rps[on]}) rps_off=$(median ${rps[off]}) p50_on=$(median ${p50[on]}) p50_off=$(median ${p50[off]})
  echo
  cpu_on=$(median ${cpu[on]}) cpu_off=$(median ${cpu[off]})
  echo "| metrics | search requests/s (median of ${rounds}) | runs | one client p50 (median) | runs | server CPU per search (median) | runs |"
  echo "|---|---|---|---|---|---|---|"
  echo "| on | ${rps_on} | ${rps[on]}| ${p50_on} ms | ${p50[on]}| ${cpu_on} µs | ${cpu[on]}|"
  echo "| off | ${rps_off} | ${rps[off]}| ${p50_off} ms | ${p50[off]}| ${cpu_off} µs | ${cpu[off]}|"
  python3 -c "print(f'with metrics: throughput {${rps_on}/${rps_off}*100:.1f}% of without, one client p50 {${p50_on}/${p50_off}*100:.1f}% of without, server CPU per search {${cpu_on}/${cpu_off}*100:.1f}% of without')"
  echo "catalogue: ${size} clinics; ${origin_count} origins; the server with metrics counted ${searches} searches; ${connections} connections, ${duration} per run, 2 wrk threads"
  exit 0
fi

# The machine's own floor: axum answering /health with nothing around it, on as many threads
# (benches/examples/bare-http.rs). What it shows too (a p50, a tail) is the machine's, not the
# server's; what Nearcare adds above it is.
cargo build --release --quiet -p benches --example bare-http
bare_port=$(free_port)
./target/release/examples/bare-http "$bare_port" 2>/dev/null &
bare=$!
trap 'kill $server $bare 2>/dev/null; wait $server $bare 2>/dev/null || true; stop_own_cluster' EXIT
until curl -fs "http://127.0.0.1:${bare_port}/health" >/dev/null 2>&1; do
  kill -0 "$bare" 2>/dev/null || { echo "the bare HTTP server did not start" >&2; exit 1; }
  sleep 0.1
done
# The time the host kept this machine's CPUs from running (steal, /proc/stat), as a share of
# all CPU time during the runs: a shared host's contention, which moves every figure here.
cpu_times() { awk '/^cpu / {total = 0; for (i = 2; i <= NF; i++) total += $i; print $9, total}' /proc/stat; }
read -r steal_before total_before < <(cpu_times)

# The machine is shared: the endpoints alternate, ROUNDS times, and the medians are compared.
rounds=${ROUNDS:-3}
declare -A results cpu
for round in $(seq 1 "$rounds"); do
  for endpoint in health search near bare; do
    echo "== round $round: $endpoint, ${connections} connections" >&2
    if [ "$endpoint" = bare ]; then
      results[bare-many]+="$(run -s .local/health.lua "http://127.0.0.1:${bare_port}/health");"
      echo "== round $round: $endpoint, one client" >&2
      results[bare-one]+="$(single -s .local/health.lua "http://127.0.0.1:${bare_port}/health");"
      continue
    fi
    case $endpoint in
      health) path=/health ;;
      search) path=/member/app/market/search ;;
      near) path=/fhir/r4/Location ;;
    esac
    server_before=$(cpu_ticks "$server") client_before=$(children_ticks)
    many=$(run -s .local/$endpoint.lua "$base$path")
    results[$endpoint-many]+="$many;"
    server_used=$(( $(cpu_ticks "$server") - server_before )) client_used=$(( $(children_ticks) - client_before ))
    cpu[$endpoint-server]+="$(per_request_us "$server_used" "${many%% *}") "
    cpu[$endpoint-client]+="$(per_request_us "$client_used" "${many%% *}") "
    # One keep-alive client: the latency of a single request, unqueued.
    echo "== round $round: $endpoint, one client" >&2
    results[$endpoint-one]+="$(single -s .local/$endpoint.lua "$base$path");"
  done
  echo "== round $round: PostgreSQL select 1, one client (pgbench)" >&2
  results[floor]+="0 $(pg_floor);"
done
# "rps p50 p99 p999;..." of the rounds -> the median of each column, in ms for latencies.
medians() {
  python3 -c "
import statistics, sys
rows = [r.split() for r in sys.argv[1].split(';') if r.strip()]
cols = [statistics.median(float(r[i]) for r in rows) for i in range(4)]
print(f'{cols[0]:.0f}', *(f'{c / 1000:.3f}' for c in cols[1:]))" "$1"
}
read -r health_rps health_p50 health_p99 health_p999 < <(medians "${results[health-many]}")
read -r search_rps search_p50 search_p99 search_p999 < <(medians "${results[search-many]}")
read -r _ one_health_p50 one_health_p99 one_health_p999 < <(medians "${results[health-one]}")
read -r _ one_search_p50 one_search_p99 one_search_p999 < <(medians "${results[search-one]}")
read -r near_rps near_p50 near_p99 near_p999 < <(medians "${results[near-many]}")
read -r _ one_near_p50 one_near_p99 one_near_p999 < <(medians "${results[near-one]}")
read -r _ floor_p50 floor_p99 floor_p999 < <(medians "${results[floor]}")
read -r bare_rps bare_p50 bare_p99 bare_p999 < <(medians "${results[bare-many]}")
read -r _ one_bare_p50 one_bare_p99 one_bare_p999 < <(medians "${results[bare-one]}")
read -r steal_after total_after < <(cpu_times)
steal_share=$(python3 -c "print(f'{(${steal_after} - ${steal_before}) / max(${total_after} - ${total_before}, 1) * 100:.0f}')")
ratio() { python3 -c "print(f'{$1/$2:.1f}')"; }
echo
echo "| clients | what | requests/s | p50 ms | p99 ms | p99.9 ms |"
echo "|---|---|---|---|---|---|"
echo "| ${connections} | GET /health | ${health_rps} | ${health_p50} | ${health_p99} | ${health_p999} |"
echo "| ${connections} | POST /member/app/market/search | ${search_rps} | ${search_p50} | ${search_p99} | ${search_p999} |"
echo "| ${connections} | GET /fhir/r4/Location?near=… (20 a page) | ${near_rps} | ${near_p50} | ${near_p99} | ${near_p999} |"
echo "| 1 | GET /health | | ${one_health_p50} | ${one_health_p99} | ${one_health_p999} |"
echo "| 1 | POST /member/app/market/search | | ${one_search_p50} | ${one_search_p99} | ${one_search_p999} |"
echo "| 1 | GET /fhir/r4/Location?near=… (20 a page) | | ${one_near_p50} | ${one_near_p99} | ${one_near_p999} |"
echo "| ${connections} | bare axum GET /health (the machine's floor) | ${bare_rps} | ${bare_p50} | ${bare_p99} | ${bare_p999} |"
echo "| 1 | bare axum GET /health (the machine's floor) | | ${one_bare_p50} | ${one_bare_p99} | ${one_bare_p999} |"
echo "| 1 | PostgreSQL \`select 1\` (pgbench -M prepared) | | ${floor_p50} | ${floor_p99} | ${floor_p999} |"
echo "medians of ${rounds} rounds; search throughput = $(python3 -c "print(f'{${search_rps}/${health_rps}*100:.0f}')")% of /health (${connections} connections, ${duration} per run, 2 wrk threads; filters: ${FILTERS:-default}; ${origin_count} origins)"
echo "one client: search p50 $(ratio "$one_search_p50" "$one_health_p50")x /health, FHIR near p50 $(ratio "$one_near_p50" "$one_health_p50")x /health; p99/p50: /health $(ratio "$one_health_p99" "$one_health_p50")x, search $(ratio "$one_search_p99" "$one_search_p50")x; /health p50 $(ratio "$one_health_p50" "$floor_p50")x PostgreSQL's select 1"
echo "CPU per request at ${connections} connections (medians): server /health $(median ${cpu[health-server]}) µs, search $(median ${cpu[search-server]}) µs, FHIR near $(median ${cpu[near-server]}) µs; the client (wrk) $(median ${cpu[health-client]}) / $(median ${cpu[search-client]}) / $(median ${cpu[near-client]}) µs"
echo "the machine: bare axum /health one-client p99/p50 $(ratio "$one_bare_p99" "$one_bare_p50")x, PostgreSQL select 1 $(ratio "$floor_p99" "$floor_p50")x; Nearcare /health p50 $(ratio "$one_health_p50" "$one_bare_p50")x the bare server's, throughput $(python3 -c "print(f'{${health_rps}/${bare_rps}*100:.0f}')")% of it; the host stole ${steal_share}% of the CPU time during the runs"
echo "catalogue: ${size} clinics; server ready after ${ready_seconds} s with ${ready_rss} MB RSS; after the load $(memory VmRSS) MB RSS, peak $(memory VmHWM) MB; load average before: ${load_before}"
