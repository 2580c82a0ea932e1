#!/usr/bin/env bash
# A private PostgreSQL server for the tests of the server package (its contract suite runs
# every store against it as well as against the embedded one). Debian's `postgresql`
# package, a cluster in a folder of its own, on the loopback address only:
#
#   scripts/postgres.sh start [DIR] [PORT]   starts it (initdb on first use); prints its URL
#   scripts/postgres.sh stop [DIR]           stops it
#
# PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user.
set -euo pipefail
command=${1:-start}
dir=$(realpath -m "${2:-${TMPDIR:-/tmp}/agent-chat-postgres}")
port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
  echo "PostgreSQL is not installed: sudo apt-get install -y postgresql" >&2
  exit 1
fi
as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}
case "$command" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "'$bin/initdb' -D '$dir/data' -A trust -U postgres" >"$dir/initdb.log" 2>&1
    fi
    if ! as_owner "'$bin/pg_ctl' -D '$dir/data' status" >/dev/null 2>&1; then
      as_owner "'$bin/pg_ctl' -D '$dir/data' -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1\" -l '$dir/log' -w start" >/dev/null
    fi
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_owner "'$bin/pg_ctl' -D '$dir/data' -m fast stop" >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: scripts/postgres.sh start|stop [DIR] [PORT]" >&2
    exit 2
    ;;
esac
