# The private PostgreSQL cluster under .data/pg, used when no database is configured.
# PostgreSQL refuses to run as root, so as root the cluster belongs to a dedicated OS user.
# Sourced after common.sh.

PG_DATA_ROOT="${STRATA_PG_DIR:-$STRATA_ROOT/.data/pg}"
PG_CLUSTER="$PG_DATA_ROOT/cluster"
PG_SOCKET_DIR="$PG_DATA_ROOT/run"
PG_PORT_FILE="$PG_DATA_ROOT/port"
PG_LOG="$PG_DATA_ROOT/postgres.log"
PG_OS_USER="${STRATA_PG_OS_USER:-strata-pg}"
PG_SUPERUSER="postgres"

# Runs a command as the cluster's OS user (root cannot run PostgreSQL).
as_pg_user() {
  if is_root; then
    runuser -u "$PG_OS_USER" -- "$@"
  else
    "$@"
  fi
}

_ensure_pg_os_user() {
  is_root || return 0
  if ! id "$PG_OS_USER" >/dev/null 2>&1; then
    log "creating OS user $PG_OS_USER for the private PostgreSQL cluster"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_OS_USER" \
      || die "could not create OS user $PG_OS_USER"
  fi
  # The cluster's user must be able to reach the data directory.
  local dir="$PG_DATA_ROOT"
  while [ "$dir" != "/" ]; do
    chmod o+x "$dir" 2>/dev/null || true
    dir="$(dirname "$dir")"
  done
}

pg_port() { cat "$PG_PORT_FILE" 2>/dev/null || true; }

pg_is_running() {
  [ -f "$PG_CLUSTER/postmaster.pid" ] && as_pg_user "$PG_BIN/pg_ctl" -D "$PG_CLUSTER" status >/dev/null 2>&1
}

# Starts the cluster (creating it on first use) and waits until it accepts connections.
pg_start() {
  ensure_postgres
  mkdir -p "$PG_DATA_ROOT"
  _ensure_pg_os_user
  if [ ! -f "$PG_CLUSTER/PG_VERSION" ]; then
    log "initialising a private PostgreSQL cluster in $PG_CLUSTER"
    mkdir -p "$PG_CLUSTER" "$PG_SOCKET_DIR"
    if is_root; then chown -R "$PG_OS_USER" "$PG_DATA_ROOT"; fi
    # Trust authentication is safe here only because the cluster listens on loopback and
    # on a socket inside .data/ that only its owner can reach.
    as_pg_user "$PG_BIN/initdb" -D "$PG_CLUSTER" -U "$PG_SUPERUSER" --auth=trust \
      --encoding=UTF8 --locale=C.UTF-8 >"$PG_DATA_ROOT/initdb.log" 2>&1 \
      || { cat "$PG_DATA_ROOT/initdb.log" >&2; die "initdb failed"; }
    cat >>"$PG_CLUSTER/postgresql.conf" <<CONF
# Strata private development cluster
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_SOCKET_DIR'
max_connections = 300
shared_buffers = 128MB
synchronous_commit = off
CONF
    # The test cluster holds only throw-away databases: durability is traded for speed.
    if [ "${STRATA_PG_FAST:-0}" = "1" ]; then
      printf 'fsync = off\nfull_page_writes = off\n' >>"$PG_CLUSTER/postgresql.conf"
    fi
  fi
  mkdir -p "$PG_SOCKET_DIR"
  if is_root; then chown "$PG_OS_USER" "$PG_SOCKET_DIR" "$PG_DATA_ROOT"; fi
  if pg_is_running; then
    return 0
  fi
  local port
  port="$(pg_port)"
  if [ -z "$port" ] || (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    port="$(free_port)"
  fi
  echo "$port" >"$PG_PORT_FILE"
  if is_root; then chown "$PG_OS_USER" "$PG_PORT_FILE"; fi
  touch "$PG_LOG"
  if is_root; then chown "$PG_OS_USER" "$PG_LOG"; fi
  log "starting PostgreSQL on 127.0.0.1:$port"
  as_pg_user "$PG_BIN/pg_ctl" -D "$PG_CLUSTER" -l "$PG_LOG" -o "-p $port" -w -t 60 start >/dev/null \
    || { tail -20 "$PG_LOG" >&2; die "PostgreSQL did not start"; }
}

pg_stop() {
  ensure_postgres
  if pg_is_running; then
    log "stopping PostgreSQL"
    as_pg_user "$PG_BIN/pg_ctl" -D "$PG_CLUSTER" -m fast -w stop >/dev/null
  fi
}

# The connection URL of a database in the private cluster (default: strata).
pg_url() {
  local db="${1:-strata}"
  echo "postgres://$PG_SUPERUSER@127.0.0.1:$(pg_port)/$db"
}

psql_private() {
  local psql="$PG_BIN/psql"
  [ -x "$psql" ] || psql="psql"
  "$psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(pg_port)" -U "$PG_SUPERUSER" "$@"
}

# Creates a database in the private cluster when it does not exist yet.
pg_create_db() {
  local db="$1"
  if ! psql_private -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
    psql_private -d postgres -c "CREATE DATABASE \"$db\"" >/dev/null
  fi
}
