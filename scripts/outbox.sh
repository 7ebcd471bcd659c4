#!/usr/bin/env bash
# Development helper: prints the newest messages of the email outbox with their state and, while
# it is kept (until sent over SMTP; always with the development mailbox), their link. The
# development mailbox page (/dev/mailbox) shows the same, rendered.
# Uses DATABASE_URL, else the private cluster the server started in .local/postgres.
#   scripts/outbox.sh                      # the 10 newest messages
#   scripts/outbox.sh jane@example.com 3   # the 3 newest to one address
set -euo pipefail
cd "$(dirname "$0")/.."
url=${DATABASE_URL:-}
if [ -z "$url" ]; then
  port_file=${NEARCARE_LOCAL_DIR:-.local}/postgres/port
  [ -f "$port_file" ] || { echo "no private cluster found: start the server (make run) or set DATABASE_URL" >&2; exit 1; }
  url="postgres://postgres@127.0.0.1:$(cat "$port_file")/nearcare"
fi
psql "$url" -X -q -v email="${1:-}" -v count="${2:-10}" <<'SQL'
select id, created_at::timestamp(0) as created, state, attempts, to_email, kind, coalesce(link, facts::text) as link_or_facts
from email_outbox
where :'email' = '' or to_email = lower(:'email')
order by id desc
limit :count;
SQL
