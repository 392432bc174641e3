# Shared by check scripts that need PostgreSQL: a private cluster of their own, listening only
# on a Unix socket in a temporary directory, stopped and removed when the script exits.
# Source it, then call `postgres_start`; it sets PG_DIR, PG_PORT and PG_ADMIN_URL (a libpq
# connection string to the `postgres` database). `postgres_database NAME` creates a database
# and prints its connection string. PostgreSQL refuses to run as root, so the cluster runs as
# the `postgres` user through runuser: the script must run as root (scripts/bootstrap installs
# postgresql). The cluster runs with fsync=off unless PG_FSYNC=on.

postgres_bin() {
  local dir
  for dir in /usr/lib/postgresql/15/bin /usr/lib/postgresql/16/bin; do
    if [ -x "$dir/initdb" ]; then
      echo "$dir"
      return 0
    fi
  done
  echo "postgres.sh: no PostgreSQL server programs: run scripts/bootstrap" >&2
  return 1
}

postgres_stop() {
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
  fi
  [ -n "${PG_DIR:-}" ] && rm -rf "$PG_DIR"
  PG_DIR=""
}

postgres_start() {
  if [ "$(id -u)" -ne 0 ] || ! id postgres >/dev/null 2>&1; then
    echo "postgres.sh: the private PostgreSQL cluster runs as the postgres user through" \
      "runuser, which needs root and a postgres user: run this script as root" >&2
    return 1
  fi
  PG_BIN=$(postgres_bin) || return 1
  PG_DIR=$(mktemp -d /tmp/tandem-pg.XXXXXX)
  chown postgres "$PG_DIR"
  # Stop it on exit, after whatever EXIT trap the script set before.
  trap "postgres_stop; $(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")" EXIT
  runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U tandem --no-sync \
    >"$PG_DIR/initdb.log" 2>&1 || {
    cat "$PG_DIR/initdb.log" >&2
    return 1
  }
  local attempt
  for attempt in 1 2 3 4 5; do
    # The socket file is named by the port, in the cluster's own directory: try another port
    # if it is somehow taken.
    PG_PORT=$((30000 + RANDOM % 30000))
    if runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
      -o "-k $PG_DIR -p $PG_PORT -c listen_addresses='' -c fsync=${PG_FSYNC:-off}" \
      start >/dev/null 2>&1; then
      PG_ADMIN_URL="host=$PG_DIR port=$PG_PORT user=tandem dbname=postgres"
      return 0
    fi
  done
  echo "postgres.sh: the cluster did not start; its log:" >&2
  cat "$PG_DIR/log" >&2
  return 1
}

postgres_database() {
  psql -X -q -v ON_ERROR_STOP=1 "$PG_ADMIN_URL" -c "CREATE DATABASE $1" >/dev/null || return 1
  echo "host=$PG_DIR port=$PG_PORT user=tandem dbname=$1"
}
