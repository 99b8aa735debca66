#!/usr/bin/env bash
# Installs the system packages the tests need on a Debian machine: Chromium (Playwright cannot
# download browsers here), PostgreSQL (the server suite also runs against it) and Firefox ESR (the
# Firefox smoke test). Idempotent.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/lib/chromium/chromium ] || need+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
command -v firefox-esr >/dev/null 2>&1 || command -v firefox >/dev/null 2>&1 || need+=(firefox-esr)

if [ ${#need[@]} -eq 0 ]; then
  echo "system deps: chromium, postgresql and firefox-esr already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "system deps: missing ${need[*]}; run this script as root (or: sudo apt-get install -y ${need[*]})" >&2
  exit 1
fi

echo "system deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" fonts-liberation >/dev/null
echo "system deps: done"
