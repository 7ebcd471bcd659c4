#!/usr/bin/env bash
# Times `indexer import` on a large Plan-Net file: a catalogue of SIZE clinics (default 21,000:
# about 100,000 resources) is seeded, served and exported through /fhir/r4 into NDJSON (gzipped),
# then imported into a fresh database with the release CLI, which prints its time and peak
# memory (and /usr/bin/time's); then the same file again ("no changes"). Everything lives in
# its own private cluster in .local/import-bench-SIZE (the export is kept for later runs).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-21000}
local_dir=.local/import-bench-${size}
cargo build --release --quiet -p api -p indexer
indexer() { ./target/release/indexer --local-dir "$local_dir" "$@"; }
url=$(indexer pg start)
admin="${url%/*}/postgres"
trap 'kill ${server:-} 2>/dev/null; wait ${server:-} 2>/dev/null || true; indexer pg stop >/dev/null 2>&1 || true' EXIT
export_file="$local_dir/export.ndjson.gz"
if [ ! -f "$export_file" ]; then
  psql "$admin" -qc "drop database if exists bench_source with (force)" -c "create database bench_source" >/dev/null
  DATABASE_URL="${admin%/*}/bench_source" NEARCARE_INDEX_DIR="$local_dir/source-index" indexer seed --clinics "$size" >/dev/null
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  DATABASE_URL="${admin%/*}/bench_source" NEARCARE_LOCAL_DIR="$local_dir/server" NEARCARE_SEED_CLINICS=0 PORT=$port \
    ./target/release/nearcare-server >"$local_dir/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do curl -fs "http://127.0.0.1:${port}/ready" >/dev/null 2>&1 && break; sleep 0.2; done
  echo "== exporting ${size} clinics through /fhir/r4" >&2
  python3 - "http://127.0.0.1:${port}/fhir/r4" "$export_file" <<'PY'
import gzip, json, sys, urllib.request
base, path = sys.argv[1], sys.argv[2]
count = 0
with gzip.open(path, "wt") as out:
    for kind in ["Organization", "Location", "HealthcareService", "Practitioner", "PractitionerRole", "InsurancePlan"]:
        url = f"{base}/{kind}?_count=100"
        while url:
            bundle = json.load(urllib.request.urlopen(url))
            for entry in bundle.get("entry", []):
                out.write(json.dumps(entry["resource"]) + "\n")
                count += 1
            url = next((link["url"] for link in bundle["link"] if link["relation"] == "next"), None)
print(f"exported {count} resources", file=sys.stderr)
PY
  kill $server; wait $server 2>/dev/null || true; server=
fi
resources=$(zcat "$export_file" | wc -l)
psql "$admin" -qc "drop database if exists bench_target with (force)" -c "create database bench_target" >/dev/null
echo "== importing ${resources} resources ($(du -h "$export_file" | cut -f1) gzipped) into a fresh database" >&2
DATABASE_URL="${admin%/*}/bench_target" NEARCARE_INDEX_DIR="$local_dir/target-index" \
  /usr/bin/time -f "wall %e s, max RSS %M KB (/usr/bin/time)" ./target/release/indexer import "$export_file" --source bench
echo "== the same file again" >&2
DATABASE_URL="${admin%/*}/bench_target" NEARCARE_INDEX_DIR="$local_dir/target-index" \
  /usr/bin/time -f "wall %e s, max RSS %M KB (/usr/bin/time)" ./target/release/indexer import "$export_file" --source bench
