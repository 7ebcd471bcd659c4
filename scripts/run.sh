#!/usr/bin/env bash
# Runs the product: builds the SPA and the server, then serves both on one port. With no
# DATABASE_URL the server starts a private PostgreSQL in .local/postgres, seeds demo data and
# builds the search index on first run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Missing, or older than the lock file (a pull that added a package).
if [ ! web/node_modules/.package-lock.json -nt web/package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund)
fi
(cd web && npm run build)
cargo build --release -p api -p indexer
echo "Nearcare is starting on http://${HOST:-127.0.0.1}:${PORT:-8080}/"
if [ -z "${NEARCARE_SMTP_URL:-}" ]; then
  # The local demo reads its emails in the development mailbox; the server serves it only on a
  # loopback address with a loopback public URL, and says so in its start-up log.
  export NEARCARE_DEV_MAILBOX=${NEARCARE_DEV_MAILBOX:-true}
fi
exec ./target/release/nearcare-server
