#!/usr/bin/env bash
# scripts/backup and scripts/restore against the throw-away test cluster: a migrated
# Strata database (or, without the binary, tables made with psql) plus rows of our own
# is dumped, dropped, restored and compared. Also the DB_* variables, restoring over an
# existing database, --recreate, and the --compose path (docker stood in for by a shim
# that runs the container's command against the test cluster).
#
# Environment: STRATA_BIN (may be empty), STRATA_PG_DIR.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/lib.sh"
. "$STRATA_ROOT/scripts/lib/pg.sh"

STRATA_BIN="${STRATA_BIN:-}"
WORK="$(mktemp -d /tmp/strata-deploy-backup.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
BACKUP="$STRATA_ROOT/scripts/backup"
RESTORE="$STRATA_ROOT/scripts/restore"
DB=strata_deploy_backup

pg_start >/dev/null 2>&1 || { not_ok "test PostgreSQL cluster starts"; exit 1; }
PORT="$(pg_port)"
PG_TOOLS="$PG_BIN"
for d in /usr/lib/postgresql/*/bin; do if [ -x "$d/pg_dump" ]; then PG_TOOLS="$d"; fi; done
pg_restore() { "$PG_TOOLS/pg_restore" "$@"; }
q() { psql_private -d "$DB" -tA "$@" 2>&1; }
psql_private -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1
psql_private -d postgres -c "CREATE DATABASE $DB" >/dev/null
# Trust authentication accepts any password: this one only proves the scripts pass a
# password (percent-encoded, with pool parameters of the service) through correctly.
URL="postgres://postgres:s3cr%40t%3Aw@127.0.0.1:$PORT/$DB?pool_size=5&max_overflow=2"

# ------------------------------------------------------------------ a database with data
if [ -n "$STRATA_BIN" ] && [ -x "$STRATA_BIN" ]; then
  if DATABASE_URL="$URL" SECRET_KEY="$(printf 'ab%.0s' {1..32})" "$STRATA_BIN" migrate >"$WORK/migrate.log" 2>&1; then
    ok "strata migrate applies the migrations to a new database"
  else
    not_ok "strata migrate applies the migrations to a new database" "$(tail -10 "$WORK/migrate.log")"
  fi
else
  not_ok "strata binary available (schema made with psql instead)" "STRATA_BIN='$STRATA_BIN'"
  q -c "CREATE TABLE items (id serial PRIMARY KEY, sku text UNIQUE NOT NULL, price numeric(12,2))" >/dev/null
fi
q -c "CREATE TABLE deploy_probe (id int PRIMARY KEY, name text NOT NULL, amount numeric(12,4), at timestamptz DEFAULT now())" >/dev/null
q -c "INSERT INTO deploy_probe (id, name, amount) SELECT g, 'row ' || g, g * 1.5 FROM generate_series(1, 250) g" >/dev/null

# A fingerprint of the whole database: every table of public with its row count and
# an md5 of its rows in a stable order.
fingerprint() {
  local table out=""
  for table in $(psql_private -d "$DB" -tA -c "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"); do
    out+="$table:$(psql_private -d "$DB" -tA -c "SELECT count(*) || '/' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM public.\"$table\" t") "
  done
  echo "$out"
}
BEFORE="$(fingerprint)"
TABLES="$(q -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")"
expect_match "the test database has tables and rows" 'deploy_probe:250/' "$BEFORE"

# ------------------------------------------------------------------ backup
FILE="$WORK/out/strata.dump"
if DATABASE_URL="$URL" "$BACKUP" "$FILE" >"$WORK/backup.log" 2>&1; then
  ok "scripts/backup with DATABASE_URL (password, pool parameters) succeeds"
else
  not_ok "scripts/backup with DATABASE_URL (password, pool parameters) succeeds" "$(tail -5 "$WORK/backup.log")"
fi
check "backup is a pg_dump custom-format archive" pg_restore --list "$FILE"
if grep -q 's3cr' "$WORK/backup.log"; then not_ok "backup log does not show the password"; else ok "backup log does not show the password"; fi
[ ! -e "$FILE.partial" ] && ok "no partial file left behind" || not_ok "no partial file left behind"

# ------------------------------------------------------------------ restore into a new database
psql_private -d postgres -c "DROP DATABASE $DB" >/dev/null
if DATABASE_URL="$URL" "$RESTORE" "$FILE" >"$WORK/restore.log" 2>&1; then
  ok "scripts/restore creates the dropped database and restores it"
else
  not_ok "scripts/restore creates the dropped database and restores it" "$(tail -5 "$WORK/restore.log")"
fi
expect_eq "restored database: same tables and rows" "$BEFORE" "$(fingerprint)"
expect_eq "restored database: 250 probe rows" 250 "$(q -c 'SELECT count(*) FROM deploy_probe')"
expect_eq "restored database: row content" "row 42|63.0000" "$(q -c 'SELECT name, amount FROM deploy_probe WHERE id = 42')"

if [ -n "$STRATA_BIN" ] && [ -x "$STRATA_BIN" ]; then
  if DATABASE_URL="$URL" SECRET_KEY="$(printf 'ab%.0s' {1..32})" "$STRATA_BIN" migrate >"$WORK/migrate2.log" 2>&1; then
    ok "strata migrate on the restored database has nothing left to apply"
  else
    not_ok "strata migrate on the restored database has nothing left to apply" "$(tail -10 "$WORK/migrate2.log")"
  fi
  expect_eq "restored database: migrate changed nothing" "$BEFORE" "$(fingerprint)"
fi

# ------------------------------------------------------------------ restore over an existing database
q -c "DELETE FROM deploy_probe WHERE id > 100" >/dev/null
q -c "CREATE TABLE after_backup (id int)" >/dev/null
if "$RESTORE" --url "$URL" "$FILE" >"$WORK/restore2.log" 2>&1; then
  ok "scripts/restore --url over an existing database (--clean --if-exists)"
else
  not_ok "scripts/restore --url over an existing database (--clean --if-exists)" "$(tail -5 "$WORK/restore2.log")"
fi
expect_eq "restore over existing: rows back, none doubled" 250 "$(q -c 'SELECT count(*) FROM deploy_probe')"
expect_eq "restore over existing: tables newer than the backup are kept" 1 "$(q -c "SELECT count(*) FROM pg_tables WHERE tablename = 'after_backup'")"

if "$RESTORE" --recreate --url "$URL" "$FILE" >"$WORK/restore3.log" 2>&1; then
  ok "scripts/restore --recreate"
else
  not_ok "scripts/restore --recreate" "$(tail -5 "$WORK/restore3.log")"
fi
expect_eq "restore --recreate: exactly the backup's tables and rows" "$BEFORE" "$(fingerprint)"
expect_eq "restore --recreate: same table count" "$TABLES" "$(q -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")"

# A failing restore changes nothing (single transaction).
echo "not a dump" >"$WORK/garbage.dump"
if "$RESTORE" --url "$URL" "$WORK/garbage.dump" >"$WORK/restore4.log" 2>&1; then
  not_ok "scripts/restore refuses a file that is not a dump"
else
  ok "scripts/restore refuses a file that is not a dump"
fi

# ------------------------------------------------------------------ DB_* variables
FILE2="$WORK/dbvars.dump"
if env -u DATABASE_URL DB_HOST=127.0.0.1 DB_PORT="$PORT" DB_NAME="$DB" DB_USER=postgres DB_PASSWORD='p@ss:word' \
    "$BACKUP" "$FILE2" >"$WORK/backup2.log" 2>&1 && pg_restore --list "$FILE2" | grep deploy_probe >/dev/null; then
  ok "scripts/backup with the DB_* variables"
else
  not_ok "scripts/backup with the DB_* variables" "$(tail -5 "$WORK/backup2.log")"
fi

# ------------------------------------------------------------------ --compose (docker shim)
mkdir -p "$WORK/bin"
cat >"$WORK/bin/docker" <<SHIM
#!/usr/bin/env bash
# Stand-in for \`docker compose -f FILE exec -T db sh -c SCRIPT\`: runs SCRIPT here with
# the db container's environment pointed at the test cluster.
echo "\$*" >>"$WORK/docker-calls"
[ "\$1" = compose ] && [ "\$2" = -f ] && [ "\$4 \$5 \$6" = "exec -T db" ] || { echo "unexpected: \$*" >&2; exit 99; }
shift 6
export POSTGRES_USER=postgres POSTGRES_DB="$DB" PGHOST=127.0.0.1 PGPORT="$PORT" PATH="$PG_TOOLS:\$PATH"
exec "\$@"
SHIM
chmod +x "$WORK/bin/docker"
FILE3="$WORK/compose.dump"
if PATH="$WORK/bin:$PATH" "$BACKUP" --compose "$FILE3" >"$WORK/backup3.log" 2>&1 && pg_restore --list "$FILE3" | grep deploy_probe >/dev/null; then
  ok "scripts/backup --compose (pg_dump inside the db service)"
else
  not_ok "scripts/backup --compose (pg_dump inside the db service)" "$(tail -5 "$WORK/backup3.log")"
fi
expect_match "scripts/backup --compose uses docker/compose.yml" "^compose -f $STRATA_ROOT/docker/compose.yml exec -T db sh -c" "$(head -1 "$WORK/docker-calls" 2>/dev/null)"
q -c "DROP TABLE deploy_probe" >/dev/null
if PATH="$WORK/bin:$PATH" "$RESTORE" --compose --recreate "$FILE3" >"$WORK/restore5.log" 2>&1; then
  ok "scripts/restore --compose --recreate"
else
  not_ok "scripts/restore --compose --recreate" "$(tail -5 "$WORK/restore5.log")"
fi
expect_eq "restore --compose: the backup's tables and rows" "$BEFORE" "$(fingerprint)"

psql_private -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1
exit 0
