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
  echo "No NEARCARE_SMTP_URL: emails are not sent; read them at http://${HOST:-127.0.0.1}:${PORT:-8080}/dev/mailbox"
fi
exec ./target/release/nearcare-server
