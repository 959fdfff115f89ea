#!/usr/bin/env bash
# users.sh - real test users for integration tests, sourced after lib.sh: make_test_users creates
# drvtest1 and drvtest2 (useradd, no home) and sets MULTI=1 when it can (root and useradd), else
# MULTI=0; as USER CMD... runs a command as that user with the test's slurm.conf and PATH.
make_test_users() {
  MULTI=0
  [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null || return 0
  local u
  for u in drvtest1 drvtest2; do
    id "$u" >/dev/null 2>&1 || useradd -M -s /bin/bash "$u" || { fail "useradd $u"; return 0; }
  done
  MULTI=1
}
as() { local u=$1; shift; runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" "$@"; }
