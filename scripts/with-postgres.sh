#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL 15:
#   scripts/with-postgres.sh .venv/bin/python -m pytest -m db -q
# initdb + pg_ctl in a temp dir, listening on 127.0.0.1 on a free port; the
# command gets TAVERN_DATABASE_URL=postgresql+psycopg://…; the server is
# stopped and its directory removed on exit, whatever happens.
# PostgreSQL refuses to run as root: as root the server runs as the
# "postgres" system user (created by the Debian package) via runuser.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }

PGBIN=${PGBIN:-}
if [ -z "$PGBIN" ]; then
  for d in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { PGBIN=$d; break; }
  done
fi
if [ -z "$PGBIN" ] && command -v initdb >/dev/null 2>&1; then
  PGBIN=$(dirname "$(command -v initdb)")
fi
[ -n "$PGBIN" ] || { echo "with-postgres: no PostgreSQL binaries (apt-get install postgresql-15)" >&2; exit 2; }

if [ "$(id -u)" = 0 ]; then
  PGUSER_OS=postgres
  id "$PGUSER_OS" >/dev/null 2>&1 || { echo "with-postgres: as root, a 'postgres' system user is needed" >&2; exit 2; }
  as_pg() { runuser -u "$PGUSER_OS" -- "$@"; }
else
  as_pg() { "$@"; }
fi

PGTMP=$(mktemp -d "${TMPDIR:-/tmp}/tavern-pg.XXXXXX")
chmod 755 "$PGTMP"
[ "$(id -u)" = 0 ] && chown "$PGUSER_OS" "$PGTMP"
PGDATA="$PGTMP/data"

cleanup() {
  as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$PGTMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
as_pg "$PGBIN/initdb" -D "$PGDATA" -U tavern --auth=trust -E UTF8 --locale=C.UTF-8 >"$PGTMP/initdb.log" 2>&1 \
  || { cat "$PGTMP/initdb.log" >&2; exit 1; }
# fsync off: a throwaway server, speed matters more than crash safety.
as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGTMP/server.log" -w \
  -o "-h 127.0.0.1 -p $PORT -k $PGTMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
  start >/dev/null || { cat "$PGTMP/server.log" >&2; exit 1; }
as_pg "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U tavern tavern

export TAVERN_DATABASE_URL="postgresql+psycopg://tavern@127.0.0.1:$PORT/tavern"
# For a command that restarts the server itself (bench/bench_faults.py):
# "$WITH_POSTGRES_PGBIN/pg_ctl" -D "$WITH_POSTGRES_PGDATA" restart (as $WITH_POSTGRES_OSUSER when set).
export WITH_POSTGRES_PGDATA="$PGDATA" WITH_POSTGRES_PGBIN="$PGBIN" WITH_POSTGRES_OSUSER="${PGUSER_OS:-}"
echo "with-postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT" >&2
set +e
"$@"
status=$?
set -e
exit $status
