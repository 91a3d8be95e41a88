# Helpers shared by the deployment test suites (sourced).
# Every check prints exactly one line: `ok - NAME` or `not ok - NAME`, followed by
# indented `#` diagnostics on failure. scripts/test-deploy counts these lines.

. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/lib/common.sh"

DEPLOY_FAILED=0

ok() { printf 'ok - %s\n' "$1"; }
not_ok() {
  printf 'not ok - %s\n' "$1"
  shift
  local line
  for line in "$@"; do printf '#   %s\n' "$line"; done
  DEPLOY_FAILED=$((DEPLOY_FAILED + 1))
}

# check NAME COMMAND...: ok when COMMAND succeeds.
check() {
  local name="$1"
  shift
  if "$@" >/dev/null 2>&1; then ok "$name"; else not_ok "$name" "command failed: $*"; fi
}

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
  if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "actual:   $3"; fi
}

# expect_match NAME EXTENDED_REGEX ACTUAL
expect_match() {
  if printf '%s' "$3" | grep -Eq -- "$2"; then ok "$1"; else not_ok "$1" "expected to match: $2" "actual: $3"; fi
}

# wait_http URL SECONDS [STATUS]: waits until URL answers (with STATUS if given).
wait_http() {
  local url="$1" deadline=$((SECONDS + $2)) want="${3:-}" code
  while [ "$SECONDS" -lt "$deadline" ]; do
    code="$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$url" 2>/dev/null || true)"
    if [ -n "$want" ]; then
      [ "$code" = "$want" ] && return 0
    elif [ -n "$code" ] && [ "$code" != "000" ]; then
      return 0
    fi
    sleep 0.2
  done
  return 1
}

# stop_pid PID [SECONDS]: SIGTERM, wait, then SIGKILL. Only for processes we started.
stop_pid() {
  local pid="$1" wait="${2:-10}" i
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < wait * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# A python3 that has PyYAML (installs python3-yaml from Debian when none has it).
python_with_yaml() {
  local py
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import yaml' >/dev/null 2>&1; then
      command -v "$py"
      return 0
    fi
  done
  apt_install python3-yaml >&2
  /usr/bin/python3 -c 'import yaml' >/dev/null 2>&1 || return 1
  echo /usr/bin/python3
}

# The nginx binary; installs Debian's nginx when missing without letting the package
# start a system-wide nginx (policy-rc.d), and without leaving anything running.
ensure_nginx() {
  local bin
  for bin in "$(command -v nginx 2>/dev/null || true)" /usr/sbin/nginx; do
    if [ -n "$bin" ] && [ -x "$bin" ]; then NGINX_BIN="$bin"; return 0; fi
  done
  local policy=/usr/sbin/policy-rc.d created_policy=0
  if is_root && [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
  fi
  ( apt_install nginx )
  local rc=$?
  if [ "$created_policy" = 1 ]; then rm -f "$policy"; fi
  [ "$rc" -eq 0 ] || return 1
  NGINX_BIN=/usr/sbin/nginx
  [ -x "$NGINX_BIN" ]
}
