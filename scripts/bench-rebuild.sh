#!/usr/bin/env bash
# Measures `indexer rebuild` from PostgreSQL (wall time, peak memory) at the sizes given
# (default 10,000 and 1,000,000 locations), each in its own private cluster under
# .local/bench-rebuild so the development database is untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${*:-10000 1000000}
cargo build --release --quiet -p indexer
indexer=./target/release/indexer
for size in $sizes; do
  dir=.local/bench-rebuild/$size
  $indexer --local-dir "$dir" seed --clinics "$size" --replace | tail -1
  $indexer --local-dir "$dir" rebuild
  $indexer --local-dir "$dir" pg stop >/dev/null
done
