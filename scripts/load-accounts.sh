#!/usr/bin/env bash
# Load test of the account calls on loopback against a release server with its own private
# PostgreSQL (in .local/load-accounts, started and stopped by the server): p50 latency of login
# (argon2-dominated) and of the signed-in reads. Rate limits are switched off for the run.
# Prints a table for the README.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10s}
connections=${CONNECTIONS:-32}
local_dir=.local/load-accounts

command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --release --quiet -p api --bin nearcare-server
rm -rf "$local_dir" && mkdir -p "$local_dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
NEARCARE_LOCAL_DIR=$local_dir PORT=$port NEARCARE_SEED_CLINICS=300 \
  NEARCARE_RATE_LIMIT_PER_EMAIL=0 NEARCARE_RATE_LIMIT_PER_CLIENT=0 NEARCARE_MAX_CONNECTIONS_PER_ADDRESS=0 RUST_LOG=warn \
  ./target/release/nearcare-server >"$local_dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:${port}/health" >/dev/null 2>&1 && break; sleep 1; done
base="http://127.0.0.1:${port}"
database="postgres://postgres@127.0.0.1:$(cat "$local_dir/postgres/port")/nearcare"

# One member, set up the way a person would: sign up with a clinic chosen, open the emailed
# link, set the password, log in, confirm eligibility as the demo roster's Jane Doe.
email=load@example.com
password='Secret!123'
post() { curl -fsS -H 'content-type: application/json' -H "x-access-token: ${3:-}" -d "$2" "$base$1"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
post '/member/app/signup?company=1&location=1' "{\"email\":\"$email\",\"employerId\":1}" >/dev/null
link=$(psql "$database" -Atc "select link from email_outbox where to_email = '$email' order by id desc limit 1")
new_token=$(post /member/app/validate/token "{\"token\":\"${link##*token=}\"}" | field newToken)
post /member/app/password/reset "{\"token\":\"$new_token\",\"password\":\"$password\"}" >/dev/null
access=$(post /member/app/login "{\"email\":\"$email\",\"password\":\"$password\"}" | field accessToken)
access=$(post /member/app/confirm/info '{"firstName":"Jane","lastName":"Doe","dob":"1985-04-12","gender":"f","memberId":"123-456789","planId":"PLN-1001","payerId":"60054","subscriberRelation":"Self"}' "$access" | field newAccessToken)

cat > "$local_dir/login.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"$email","password":"$password"}'
LUA

# Runs wrk, shows its report on stderr, refuses a run with errors, prints "p50 requests/s".
run() {
  wrk --latency "$@" >"$local_dir/wrk.out"
  cat "$local_dir/wrk.out" >&2
  if grep -qE 'Non-2xx|Socket errors' "$local_dir/wrk.out"; then echo "error: failed requests in this run" >&2; return 1; fi
  awk '/Requests\/sec/ {print $2} /^ +50%/ {print $2}' "$local_dir/wrk.out" | paste -s -d' '
}
rows=()
for concurrency in 1 2 "$connections"; do
  echo "== POST /member/app/login, $concurrency connections" >&2
  read -r p50 rps < <(run -t1 -c"$concurrency" -d"$duration" -s "$local_dir/login.lua" "$base/member/app/login")
  rows+=("| POST /member/app/login | $concurrency | $rps | $p50 |")
done
for path in /member/app/member/info /member/app/home /member/app/account /member/app/plans; do
  echo "== GET $path" >&2
  read -r p50 rps < <(run -t2 -c"$connections" -d"$duration" -H "x-access-token: $access" "$base$path")
  rows+=("| GET $path | $connections | $rps | $p50 |")
done
echo
echo "| call | connections | requests/s | p50 latency |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
