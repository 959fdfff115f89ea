#!/usr/bin/env bash
# server.sh - a throwaway PostgreSQL server for tests, sourced after lib.sh: Debian's binaries,
# a cluster made with initdb in a directory of the test's own, listening on 127.0.0.1 and on a
# socket in that directory only. PostgreSQL refuses to run as root, so when the test runs as root
# the server runs as an unprivileged user (PG_OS_USER, default drvpg, created when missing).
#
#   pg_available        true when the server binaries are installed (PG_BIN, or found)
#   pg_init DIR         initdb in DIR/data (superuser drover_pg_super; local socket trust, TCP
#                       scram-sha-256 passwords)
#   pg_start [PORT]     starts it (PG_PORT, a free port by default); waits until it accepts
#   pg_stop [MODE]      stops it (pg_ctl -m MODE, default fast); nothing when it is not running
#   pg_sql DB SQL       runs SQL as the superuser over the socket; rows as a|b|c, no header
#   pg_create_db DB ROLE PASSWORD   a login role with that password, owning a new database
#   pg_test_setup       what a test of accounting/postgres starts with: skips the test (exit 0)
#                       when the server or the plugin is missing, starts a server in $T/pg that
#                       stops on exit, makes database DB owned by ROLE with password PW, and sets
#                       PGCONF to the slurm.conf lines that point the controller at it
#
# Set PG_DIR and PG_PORT; the caller stops the server in its EXIT trap (pg_stop immediate).
# PG_HOST (with PG_CLIENTS, a CIDR) makes it also listen on that address for those clients, and
# PGCONF name it: for daemons in other network namespaces.

pg_find_bin() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return; }
  done
  d=$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")
  [ -x "$d/initdb" ] && echo "$d"
}
PG_BIN=$(pg_find_bin)
PG_SUPER=drover_pg_super
PG_OS_USER=${PG_OS_USER:-drvpg}

pg_available() { [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] && [ -x "$PG_BIN/psql" ]; }

# Runs a command as the server's owner: PG_OS_USER under root, ourselves otherwise.
pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$PG_OS_USER" -- "$@"
  else
    "$@"
  fi
}

pg_init() {
  PG_DIR=$1
  if [ "$(id -u)" -eq 0 ] && ! id "$PG_OS_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
      "$PG_OS_USER" || return 1
  fi
  mkdir -p "$PG_DIR"
  [ "$(id -u)" -eq 0 ] && chown "$PG_OS_USER" "$PG_DIR"
  chmod 700 "$PG_DIR"
  # cd: the owner may not be able to read the caller's working directory
  (cd "$PG_DIR" && pg_as_owner "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_SUPER" -E UTF8 \
      --no-locale --auth-local=trust --auth-host=scram-sha-256 -N) > "$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  [ -z "${PG_CLIENTS:-}" ] || echo "host all all $PG_CLIENTS scram-sha-256" >> "$PG_DIR/data/pg_hba.conf"
}

pg_start() {
  PG_PORT=${1:-${PG_PORT:-$(free_port)}}
  (cd "$PG_DIR" && pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
      -t 30 start -o "-p $PG_PORT -k $PG_DIR -h 127.0.0.1${PG_HOST:+,$PG_HOST} -c fsync=off -c full_page_writes=off \
      -c synchronous_commit=off -c log_min_messages=warning") > /dev/null 2>&1 \
    || { tail -n 20 "$PG_DIR/server.log" >&2; return 1; }
}

pg_stop() {
  [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ] || return 0
  (cd "$PG_DIR" && pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m "${1:-fast}" -w -t 30 stop) \
    > /dev/null 2>&1
}

pg_sql() {
  local db=$1; shift
  "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" -U "$PG_SUPER" -d "$db" \
    -c "$*"
}

pg_create_db() {
  local db=$1 role=$2 password=$3
  # Through stdin so that psql quotes the values itself (:"name" and :'literal').
  "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" -U "$PG_SUPER" -d postgres \
    -v db="$db" -v role="$role" -v pw="$password" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'pw';
CREATE DATABASE :"db" OWNER :"role";
SQL
}

pg_test_setup() {
  if ! pg_available; then
    echo "$TEST_NAME: skipped: PostgreSQL server binaries not found (Debian: apt install postgresql)"
    exit 0
  fi
  if [ ! -f "$BIN/plugins/lib/accounting_postgres.so" ]; then
    echo "$TEST_NAME: skipped: $BIN/plugins/lib/accounting_postgres.so not built (libpq-dev missing?)"
    exit 0
  fi
  # The server goes down before lib.sh's cleanup removes its directory.
  pg_cleanup() {
    local rc=$?
    if [ "$FAILS" -ne 0 ] && [ -f "$T/pg/server.log" ]; then
      echo "--- $T/pg/server.log ---"
      tail -n 20 "$T/pg/server.log"
    fi
    pg_stop immediate
    cleanup
    exit $rc
  }
  trap pg_cleanup EXIT
  DB=drover_acct_test
  ROLE=drover_acct
  PW="Pw-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  if ! pg_init "$T/pg" || ! pg_start; then
    fail "PostgreSQL server did not start"
    finish
    exit 1
  fi
  pg_create_db "$DB" "$ROLE" "$PW" || fail "creating the database and role"
  ok "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') up on 127.0.0.1:$PG_PORT"
  PGCONF=("AccountingStorageType=accounting/postgres" "AccountingStorageHost=${PG_HOST:-127.0.0.1}"
          "AccountingStoragePort=$PG_PORT" "AccountingStorageUser=$ROLE"
          "AccountingStoragePass=$PW" "AccountingStorageLoc=$DB")
}
