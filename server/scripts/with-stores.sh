#!/usr/bin/env bash
# Runs a command with a throwaway Postgres cluster and Redis server on free loopback ports, then
# stops them and removes their files, whatever the command's outcome:
#
#   server/scripts/with-stores.sh cargo test -p llm-memory-server
#
# The command sees LLM_MEMORY_TEST_POSTGRES and LLM_MEMORY_TEST_REDIS (URLs) and finds pg_dump
# and redis-cli on PATH. Postgres refuses to run as root: as root, the cluster runs as the
# `postgres` user the Debian package creates.
set -euo pipefail

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ] || ! command -v redis-server >/dev/null; then
  echo "with-stores.sh: needs Debian's postgresql and redis-server (make test-server installs them)" >&2
  exit 1
fi

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

work=$(mktemp -d /tmp/llm-memory-stores.XXXXXX)
chmod 755 "$work"
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$work"
  as_pg=(runuser -u postgres --)
fi

stop() {
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  sleep 0.2
  rm -rf "$work"
}
trap stop EXIT

pg_port=$(free_port)
"${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg" -U postgres -A trust --no-sync >"$work/initdb.log" 2>&1 ||
  { cat "$work/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -o \
  "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null ||
  { cat "$work/pg.log" >&2; exit 1; }

redis_port=$(free_port)
# No snapshot, no append-only file: the tests read what a store holds through the client.
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
  --pidfile "$work/redis.pid" --dir "$work" --logfile "$work/redis.log"
for _ in $(seq 50); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.1
done

export LLM_MEMORY_TEST_POSTGRES="postgres://postgres@127.0.0.1:$pg_port/postgres"
export LLM_MEMORY_TEST_REDIS="redis://127.0.0.1:$redis_port/"
export PATH="$pg_bin:$PATH"
echo "with-stores.sh: postgres on 127.0.0.1:$pg_port, redis on 127.0.0.1:$redis_port"
"$@"
