#!/usr/bin/env bash
# Fuzzes the API against its own OpenAPI document with schemathesis (PyPI, in a venv under
# .local/), signed out, signed in as a member and signed in as a provider account, with bounded
# examples; fails on any failure.
#
#   scripts/api-fuzz.sh                # builds nothing: needs target/debug/nearcare-server
#
# It starts its own server (rate limits off, so the fuzzer's repeated logins and search records
# are not 429s) on a
# fresh database: on the server of DATABASE_URL when set (scripts/test.sh sets it), else on a
# private cluster in .local/fuzz. FUZZ_EXAMPLES (default 25) bounds the examples per operation.
set -euo pipefail
cd "$(dirname "$0")/.."

examples=${FUZZ_EXAMPLES:-25}
venv=.local/fuzz-venv
log=.local/fuzz-server.log

cleanup() {
  if [ -n "${fuzz_server:-}" ]; then kill "$fuzz_server" 2>/dev/null || true; wait "$fuzz_server" 2>/dev/null || true; fi
  if [ -n "${fuzz_db:-}" ]; then psql "$admin_url" -qc "drop database if exists ${fuzz_db} with (force)" >/dev/null 2>&1 || true; fi
  if [ -n "${fuzz_cluster:-}" ]; then ./target/debug/indexer --local-dir .local/fuzz pg stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

if [ ! -x "$venv/bin/schemathesis" ]; then
  # A Debian python3 without its venv module gets it from apt (the test command runs as root).
  python3 -m venv "$venv" 2>/dev/null || { rm -rf "$venv"; apt-get install -y -qq python3-venv >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }; python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet 'schemathesis==4.*'
fi
[ -x target/debug/nearcare-server ] || { echo "build first: cargo build -p api --bin nearcare-server"; exit 1; }

if [ -n "${DATABASE_URL:-}" ]; then
  admin_url="${DATABASE_URL%/*}/postgres"
else
  fuzz_cluster=1
  url=$(./target/debug/indexer --local-dir .local/fuzz pg start)
  admin_url="${url%/*}/postgres"
fi
fuzz_db="fuzz_$$"
psql "$admin_url" -qc "create database ${fuzz_db}" >/dev/null
db_url="${admin_url%/*}/${fuzz_db}"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:${port}"
DATABASE_URL="$db_url" PORT=$port NEARCARE_LOCAL_DIR=.local/fuzz/server NEARCARE_SEED_CLINICS=300 \
  NEARCARE_RATE_LIMIT_PER_CLIENT=0 NEARCARE_RATE_LIMIT_PER_EMAIL=0 NEARCARE_METADATA_PER_MINUTE=0 \
  ./target/debug/nearcare-server >"$log" 2>&1 &
fuzz_server=$!
for _ in $(seq 1 120); do
  curl -fs "${base}/ready" >/dev/null 2>&1 && break
  kill -0 "$fuzz_server" 2>/dev/null || { tail -20 "$log"; exit 1; }
  sleep 1
done

json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
post() { curl -fsS -H 'content-type: application/json' -d "$2" "${base}$1"; }
# Opens the newest emailed link of kind $2 to $1 (a set-password link), sets a password with it
# and logs in: prints the access token.
signed_in_through_link() {
  local link token new_token
  link=$(psql "$db_url" -Atc "select link from email_outbox where to_email = '$1' and kind = '$2' order by id desc limit 1")
  token=${link#*token=}
  token=${token%%&*}
  new_token=$(post /member/app/validate/token "{\"token\":\"${token}\"}" | json "['newToken']")
  post /member/app/password/reset "{\"password\":\"Fuzz!12345\",\"token\":\"${new_token}\"}" >/dev/null
  post /member/app/login "{\"email\":\"$1\",\"password\":\"Fuzz!12345\"}" | json "['accessToken']"
}
# A member to fuzz the signed-in calls as: signs up, then sets a password from the verification.
email="fuzz-$$@example.com"
post /member/app/signup "{\"email\":\"${email}\",\"employerId\":1}" >/dev/null
access=$(signed_in_through_link "$email" verify_email)
# A provider account to fuzz as: the demo provider the server invited when it seeded the
# catalogue, through its invitation.
provider_email=$(psql "$db_url" -Atc "select to_email from email_outbox where kind = 'provider_invite' order by id limit 1")
provider_access=$(signed_in_through_link "$provider_email" provider_invite)

# Checks: all but positive_data_acceptance. That one fails every 400 for a value the schema
# allows, and the server rightly refuses values no JSON Schema can describe (an unknown company
# alias or ZIP, an email that only looks like one). The coverage phase is left out: schemathesis
# 4.32 crashes in it on this document (an internal "AST constructor recursion depth mismatch").
run() {
  local label=$1
  shift
  echo "== schemathesis, ${label}"
  # Run from .local so schemathesis's own cache folder stays out of the checkout.
  (cd .local && timeout 300 "../$venv/bin/schemathesis" --config-file ../scripts/schemathesis.toml \
    run "${base}/openapi.json" --url "$base" \
    --max-examples "$examples" --phases examples,fuzzing --seed 1 --workers 2 \
    --checks all --exclude-checks positive_data_acceptance \
    --generation-database none --no-color --output-truncate true "$@")
}
failed=0
run "signed out" || failed=1
# Signing out ends the session the signed-in run uses, so it is fuzzed last, on its own.
# Signing out, or ending a session by an id the fuzzer happens to pick (ids are small numbers,
# so it may be this token's own), would answer every later call 401 session_ended: both are
# left to the last run or to the API tests (sessions::).
run "signed in as a member" -H "x-access-token: ${access}" --exclude-path /member/app/logout --exclude-path '/member/app/sessions/{id}' || failed=1
run "signed in as a provider" -H "x-access-token: ${provider_access}" --exclude-path /member/app/logout --exclude-path '/member/app/sessions/{id}' || failed=1
run "signed in as a member, signing out last" -H "x-access-token: ${access}" --include-path /member/app/logout || failed=1
exit $failed
