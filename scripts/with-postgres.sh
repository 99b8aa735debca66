#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL pointing at a throwaway PostgreSQL cluster (trust auth,
# loopback only, removed afterwards). Uses TEST_DATABASE_URL as given when already set.
set -euo pipefail

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec "$@"
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "with-postgres: PostgreSQL is not installed (run: bash scripts/install-system-deps.sh)" >&2
  exit 1
fi

datadir=$(mktemp -d /tmp/compliance-lens-pg.XXXXXX)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$datadir"
  # From /: the checkout may sit where the postgres user cannot enter (a 0700 mktemp -d, /root/…).
  as_pg=(env --chdir=/ runuser -u postgres --)
fi

cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$datadir" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$datadir"
}
trap cleanup EXIT

"${as_pg[@]}" "$bindir/initdb" -D "$datadir" -U postgres --auth=trust -E UTF8 >/dev/null
"${as_pg[@]}" "$bindir/pg_ctl" -D "$datadir" -w -l "$datadir/server.log" \
  -o "-p $port -k $datadir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
