#!/usr/bin/env bash
# Creates .local/s3-venv with moto's S3-compatible server (the real object store the fleet
# tests talk to, from PyPI) and prints the path of its moto_server. Run again, it only checks.
#   NEARCARE_S3_SERVER=$(scripts/s3-venv.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.local/s3-venv
version=5.2.5
if ! "$venv/bin/python" -c "import moto, sys; sys.exit(moto.__version__ != '$version')" 2>/dev/null; then
  rm -rf "$venv"
  mkdir -p .local
  # A Debian python3 without its venv module gets it from apt (the test command runs as root).
  python3 -m venv "$venv" >&2 2>/dev/null || { rm -rf "$venv"; apt-get install -y -qq python3-venv >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }; python3 -m venv "$venv" >&2; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$version" >&2
fi
echo "$(pwd)/$venv/bin/moto_server"
