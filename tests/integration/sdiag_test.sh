#!/usr/bin/env bash
# sdiag_test.sh - sdiag against a real controller: its counters follow the jobs that were
# submitted, started, completed, cancelled and failed; the accounting records waiting for the
# store show as "DBD Agent queue size"; -r starts the counters again and is for administrators.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/users.sh"
make_test_users
start_cluster 1
cd "$T"
count() { sdiag | sed -n "s/^$1: *//p"; }

assert_match "^sdiag output at [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4} \([0-9]+\)$" \
  "$(sdiag | sed -n 2p)" "the banner: when"
assert_eq 0 "$(count "Jobs submitted")" "nothing submitted yet"
a=$(sbatch --parsable --wrap true)
b=$(sbatch --parsable --wrap 'exit 1')
c=$(sbatch --parsable --hold --wrap true)
wait_job "$a"; wait_job "$b"
scancel "$c"; wait_job "$c"
assert_eq "3 2 1 1 1" \
  "$(echo $(count "Jobs submitted") $(count "Jobs started") $(count "Jobs completed") $(count "Jobs canceled") $(count "Jobs failed"))" \
  "submitted, started, completed, canceled, failed"
assert_eq "0 0" "$(echo $(count "Jobs pending") $(count "Jobs running"))" "none pending or running"
assert_eq 0 "$(count "DBD Agent queue size")" "every accounting record delivered"
assert_match "^[1-9][0-9]*$" "$(sdiag | sed -n 's/^\tTotal cycles: //p')" "scheduling cycles counted"
if [ "$MULTI" = 1 ]; then
  out=$(as drvtest1 sdiag -r 2>&1); rc=$?
  assert_eq "1|slurm_reset_statistics: Access/permission denied" "$rc|$out" "only administrators reset"
  assert_match "Jobs submitted: 3" "$(as drvtest1 sdiag)" "anyone may look"
fi
assert_eq "Reset scheduling statistics" "$(sdiag -r)" "sdiag -r"
assert_eq 0 "$(count "Jobs submitted")" "the counters start again"
finish
