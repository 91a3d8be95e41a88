# Shared shell helpers for scripts/run, scripts/test and scripts/db.
# Sourced, never executed. Everything here is idempotent: a second call is cheap.

# The repository root, whatever directory the caller started in.
STRATA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export STRATA_ROOT

log() { printf '\033[1;34m==>\033[0m %s\n' "$*" >&2; }
warn() { printf '\033[1;33mwarning:\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }

is_root() { [ "$(id -u)" = "0" ]; }

# apt-get update runs at most once per script invocation, and only when something is missing.
_apt_updated=""
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "missing packages ($*) and no apt-get to install them"
  local sudo=""
  is_root || sudo="sudo"
  if [ -z "$_apt_updated" ]; then
    log "apt-get update"
    $sudo apt-get update -qq >/dev/null || die "apt-get update failed"
    _apt_updated=1
  fi
  log "installing $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null \
    || die "apt-get install $* failed"
}

# Rust: the toolchain comes with the machine (rustup); fmt and clippy are components of it.
ensure_rust() {
  if ! command -v cargo >/dev/null 2>&1; then
    [ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
  fi
  command -v cargo >/dev/null 2>&1 || die "cargo not found: install the Rust toolchain with rustup (https://rustup.rs)"
  for component in rustfmt clippy; do
    if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
      log "adding rust component $component"
      rustup component add "$component" >/dev/null 2>&1 || warn "could not add $component"
    fi
  done
}

# PostgreSQL 15 server binaries (initdb, pg_ctl, postgres).
PG_BIN=""
ensure_postgres() {
  local dir
  for dir in /usr/lib/postgresql/15/bin /usr/lib/postgresql/16/bin /usr/lib/postgresql/17/bin; do
    if [ -x "$dir/pg_ctl" ]; then PG_BIN="$dir"; break; fi
  done
  if [ -z "$PG_BIN" ] && command -v pg_ctl >/dev/null 2>&1; then
    PG_BIN="$(dirname "$(readlink -f "$(command -v pg_ctl)")")"
  fi
  if [ -z "$PG_BIN" ]; then
    apt_install postgresql-15 || apt_install postgresql
    for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/pg_ctl" ] && PG_BIN="$dir"; done
  fi
  [ -n "$PG_BIN" ] || die "PostgreSQL server binaries not found"
  if [ ! -x "$PG_BIN/psql" ] && ! command -v psql >/dev/null 2>&1; then
    apt_install postgresql-client
  fi
  export PG_BIN
}

# Node.js and npm for the single-page app.
ensure_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm
  fi
}

# Debian's Chromium for the browser tests (never a downloaded browser).
ensure_chromium() {
  [ -x /usr/bin/chromium ] || apt_install chromium
}

# A free TCP port on the loopback interface.
free_port() {
  python3 - <<'PY' 2>/dev/null || echo $(( 20000 + RANDOM % 20000 ))
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

# Installs the SPA's npm dependencies when package-lock.json changed since the last install.
ensure_frontend_deps() {
  local dir="$STRATA_ROOT/frontend"
  [ -f "$dir/package.json" ] || return 0
  ensure_node
  local stamp="$dir/node_modules/.strata-lock-stamp"
  local want
  want="$(sha256sum "$dir/package-lock.json" 2>/dev/null | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing the SPA's npm dependencies"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed"
    echo "$want" >"$stamp"
  fi
}
