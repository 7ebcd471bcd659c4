#!/usr/bin/env bash
# Peer benchmark (`make bench-peer SIZE=...`): the load test's seeded catalogue of SIZE clinics
# (default 1500; seeded and indexed once into .local/load-SIZE, as scripts/load-test.sh does) is
# copied into a PostGIS table in the same database (schema peer: geography point with GiST,
# geometry point with GiST, tsvector of the indexed names with GIN), then the same query classes
# run against PostGIS (bare SQL, one connection) and Nearcare's HTTP API (a release server, one
# keep-alive client), interleaved, over the same origins. Prints p50/p95 per class, the ratio,
# and exits non-zero when answers differ (scripts/bench-peer.py says what "the same" means).
# Then the same queries run in-process (benches/examples/peer-inprocess.rs: the engine's call and
# the answer's JSON on the server's generation folder, no HTTP), compared and tabled alike.
# Then the C-client mode: the same classes' requests and statements for the first C_ORIGINS (100)
# origins through wrk (Nearcare) and pgbench -M prepared (PostGIS), at 1 and C_CONNECTIONS (32)
# connections, C_ROUNDS (2) interleaved rounds of C_DURATION (3) seconds: p50, p99, throughput.
# C_CLIENTS=0 skips it.
# ORIGINS (200), ROUNDS (3) and CLASSES (a "|"-separated list of parts of class names, e.g.
# CLASSES="pins zoom 14"; all classes when unset) are passed on; PEER_REBUILD=1 recopies the
# PostGIS table.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-1500}
local_dir=.local/load-${size}

if [ ! -d /usr/share/postgresql/15/extension ] || [ ! -f /usr/share/postgresql/15/extension/postgis.control ] \
  || ! /usr/bin/python3 -c 'import psycopg2' 2>/dev/null; then
  echo "== installing PostGIS and psycopg2 from Debian's packages" >&2
  apt-get update -qq && apt-get install -y -qq postgresql-15-postgis-3 python3-psycopg2 >/dev/null
fi
. scripts/seeded-server.sh
# Debian's python3-psycopg2 is for the system interpreter, whatever python3 comes first on PATH.
/usr/bin/python3 scripts/bench-peer.py --self-test >/dev/null
# The same queries in-process on the generation the server serves (the newest in its folder).
cargo build --release --quiet -p benches --example peer-inprocess
generation=$(find "$local_dir/index" -maxdepth 1 -name 'gen-[0-9]*' ! -name '*.fetching-*' | sort | tail -1)
command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
mkdir -p "$local_dir/peer-c"
C_FOLDER=$local_dir/peer-c /usr/bin/python3 scripts/bench-peer.py "$url" "http://127.0.0.1:${port}" target/release/examples/peer-inprocess "$generation"
