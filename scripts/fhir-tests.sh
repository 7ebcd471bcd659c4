#!/usr/bin/env bash
# The FHIR API and the import checked by tools no one here wrote (docs/fhir-contract.md):
#   - every resource type and every search Bundle parsed by fhir.resources (PyPI, R4B models);
#   - a real FHIR client (fhirpy, PyPI) searching near, following next links to the end and
#     reading _include'd resources;
#   - the round trip: the seeded catalogue exported through the API, imported with
#     `indexer import` into a fresh database, and the search answers of both compared (the
#     marketplace's and FHIR's, ids mapped through the import's identities): identical.
#
#   scripts/fhir-tests.sh              # needs target/debug/{nearcare-server,indexer}
#
# Installs fhir.resources and fhirpy into .local/fhir-venv on first use. Uses the PostgreSQL
# server of DATABASE_URL (scripts/test.sh sets it) for two fresh databases, else a private
# cluster in .local/fhir. About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.local/fhir-venv
work=.local/fhir-work
clinics=${FHIR_CLINICS:-300}

cleanup() {
  for pid in ${source_server:-} ${target_server:-}; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  for db in ${source_db:-} ${target_db:-}; do psql "$admin_url" -qc "drop database if exists ${db} with (force)" >/dev/null 2>&1 || true; done
  if [ -n "${own_cluster:-}" ]; then ./target/debug/indexer --local-dir .local/fhir pg stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

if ! "$venv/bin/python" -c 'import fhir.resources, fhirpy' 2>/dev/null; then
  rm -rf "$venv"
  mkdir -p .local
  # A Debian python3 without its venv module gets it from apt (the test command runs as root).
  python3 -m venv "$venv" 2>/dev/null || { rm -rf "$venv"; apt-get install -y -qq python3-venv >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }; python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'fhir.resources==8.3.*' 'fhirpy==2.3.*'
fi
for binary in nearcare-server indexer; do
  [ -x "target/debug/$binary" ] || { echo "build first: cargo build -p api -p indexer"; exit 1; }
done

if [ -n "${DATABASE_URL:-}" ]; then
  admin_url="${DATABASE_URL%/*}/postgres"
else
  own_cluster=1
  url=$(./target/debug/indexer --local-dir .local/fhir pg start)
  admin_url="${url%/*}/postgres"
fi
rm -rf "$work"
mkdir -p "$work"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_server() { # name database seed_clinics -> sets server_pid, server_port
  local name=$1 db=$2 seed=$3
  server_port=$(free_port)
  DATABASE_URL="${admin_url%/*}/${db}" PORT=$server_port NEARCARE_LOCAL_DIR="$work/$name" NEARCARE_SEED_CLINICS=$seed \
    ./target/debug/nearcare-server >"$work/$name.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 180); do
    curl -fs "http://127.0.0.1:${server_port}/ready" >/dev/null 2>&1 && return 0
    kill -0 "$server_pid" 2>/dev/null || { tail -20 "$work/$name.log"; exit 1; }
    sleep 0.5
  done
  echo "the $name server did not get ready"; tail -20 "$work/$name.log"; exit 1
}

# The seeded catalogue, served.
source_db="fhir_source_$$"
psql "$admin_url" -qc "create database ${source_db}" >/dev/null
start_server source "$source_db" "$clinics"
source_server=$server_pid source_port=$server_port

# 1. Export, parse everything with fhir.resources, search with fhirpy.
"$venv/bin/python" scripts/fhir_tests.py check "http://127.0.0.1:${source_port}/fhir/r4" "$work/export.ndjson"

# 2. Import the export into a fresh database with the CLI, serve it, compare the answers.
target_db="fhir_target_$$"
psql "$admin_url" -qc "create database ${target_db}" >/dev/null
DATABASE_URL="${admin_url%/*}/${target_db}" NEARCARE_INDEX_DIR="$work/import-index" \
  ./target/debug/indexer import "$work/export.ndjson" --source roundtrip | tail -3
start_server target "$target_db" 0
target_server=$server_pid target_port=$server_port
psql "${admin_url%/*}/${target_db}" -AtF ' ' \
  -c "select resource_type, resource_id, entity_id from directory_identities where source = 'roundtrip'" >"$work/identities.txt"
"$venv/bin/python" scripts/fhir_tests.py compare "http://127.0.0.1:${source_port}" "http://127.0.0.1:${target_port}" "$work/identities.txt"

# 3. The same file again changes nothing.
again=$(DATABASE_URL="${admin_url%/*}/${target_db}" NEARCARE_INDEX_DIR="$work/import-index" \
  ./target/debug/indexer import "$work/export.ndjson" --source roundtrip)
case "$again" in
  "no changes"*) echo "re-import: ${again}" ;;
  *) echo "re-importing the same file changed something: ${again}"; exit 1 ;;
esac
echo "fhir: round trip identical, fhir.resources and fhirpy checks passed"
