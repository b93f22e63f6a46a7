#!/usr/bin/env bash
# The scaled setup on one machine, without Docker: PostgreSQL and redis-server
# from the Debian packages, the demo village, and N uvicorn workers sharing
# the tables on one port (docs/architecture.md "Several workers").
#   scripts/scaled.sh [WORKERS]        (default 3; serves http://127.0.0.1:8000)
# The database is a throwaway one (scripts/with-postgres.sh): it goes away,
# with Redis, when the server stops (Ctrl-C).
set -euo pipefail
cd "$(dirname "$0")/.."
WORKERS=${1:-3}
PORT=${TAVERN_PORT:-8000}
make -s install
command -v redis-server >/dev/null 2>&1 || bash scripts/system-deps.sh
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi

REDIS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tavern-redis.XXXXXX")
REDIS_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$REDIS_DIR" \
  --daemonize yes --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log"
cleanup() { kill "$(cat "$REDIS_DIR/redis.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$REDIS_DIR"; }
trap cleanup EXIT

export TAVERN_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export TAVERN_WORKERS="$WORKERS"
# Every worker must sign sessions with the same key.
export TAVERN_SECRET_KEY=${TAVERN_SECRET_KEY:-$(python3 -c 'import secrets; print(secrets.token_hex(32))')}
export TAVERN_ALLOWED_ORIGINS=${TAVERN_ALLOWED_ORIGINS:-http://127.0.0.1:$PORT,http://localhost:$PORT}
echo "scaled: redis-server on 127.0.0.1:$REDIS_PORT, $WORKERS workers on http://127.0.0.1:$PORT" >&2
scripts/with-postgres.sh sh -c "
  .venv/bin/alembic upgrade head && .venv/bin/tavern seed &&
  exec .venv/bin/uvicorn tavern.web.app:create_app --factory --host 127.0.0.1 --port $PORT --workers $WORKERS --ws tavern.web.wsproto:TableSocketProtocol"
