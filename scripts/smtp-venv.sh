#!/usr/bin/env bash
# Creates .local/smtp-venv with aiosmtpd 1.4.6 (the real SMTP server the email tests talk to)
# and prints its python. Run again, it only checks the venv.
#   PYTHON=$(scripts/smtp-venv.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.local/smtp-venv
if ! "$venv/bin/python" -c 'import aiosmtpd, sys; sys.exit(aiosmtpd.__version__ != "1.4.6")' 2>/dev/null; then
  rm -rf "$venv"
  mkdir -p .local
  # A Debian python3 without its venv module gets it from apt (the test command runs as root).
  python3 -m venv "$venv" >&2 2>/dev/null || { rm -rf "$venv"; apt-get install -y -qq python3-venv >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }; python3 -m venv "$venv" >&2; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'aiosmtpd==1.4.6' >&2
fi
echo "$(pwd)/$venv/bin/python"
