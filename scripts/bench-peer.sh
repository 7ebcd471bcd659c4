#!/usr/bin/env bash
# Peer benchmark (`make bench-peer SIZE=...`): the load test's seeded catalogue of SIZE clinics
# (default 1500; seeded and indexed once into .local/load-SIZE, as scripts/load-test.sh does) is
# copied into a PostGIS table in the same database (schema peer: geography point with GiST,
# geometry point with GiST, tsvector of the indexed names with GIN), then the same query classes
# run against PostGIS (bare SQL, one connection) and Nearcare's HTTP API (a release server, one
# keep-alive client), interleaved, over the same origins. Prints p50/p95 per class, the ratio,
# and exits non-zero when answers differ (scripts/bench-peer.py says what "the same" means).
# ORIGINS (200) and ROUNDS (3) are passed on; PEER_REBUILD=1 recopies the PostGIS table.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-1500}
local_dir=.local/load-${size}

if [ ! -d /usr/share/postgresql/15/extension ] || [ ! -f /usr/share/postgresql/15/extension/postgis.control ] \
  || ! /usr/bin/python3 -c 'import psycopg2' 2>/dev/null; then
  echo "== installing PostGIS and psycopg2 from Debian's packages" >&2
  apt-get update -qq && apt-get install -y -qq postgresql-15-postgis-3 python3-psycopg2 >/dev/null
fi
cargo build --release --quiet -p api -p indexer
indexer() { ./target/release/indexer --local-dir "$local_dir" "$@"; }
if [ ! -f "$local_dir/seeded" ]; then
  echo "== seeding ${size} clinics and building their index (once) in ${local_dir}" >&2
  indexer seed --clinics "$size" --replace >/dev/null
  indexer rebuild >/dev/null
  touch "$local_dir/seeded"
fi
url=$(indexer pg start)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DATABASE_URL="$url" NEARCARE_LOCAL_DIR="$local_dir" PORT=$port RUST_LOG=warn ./target/release/nearcare-server \
  >"$local_dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; ./target/release/indexer --local-dir "$local_dir" pg stop >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 600); do
  curl -fs "http://127.0.0.1:${port}/ready" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { tail -20 "$local_dir/server.log"; exit 1; }
  sleep 0.1
done
# Debian's python3-psycopg2 is for the system interpreter, whatever python3 comes first on PATH.
/usr/bin/python3 scripts/bench-peer.py --self-test >/dev/null
/usr/bin/python3 scripts/bench-peer.py "$url" "http://127.0.0.1:${port}"
