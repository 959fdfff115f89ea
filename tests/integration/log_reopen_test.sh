#!/usr/bin/env bash
# log_reopen_test.sh - SIGUSR2 makes both daemons open their log files again, as Slurm's do for
# logrotate: after the files are moved away and the signal sent, each daemon writes to a new file
# under its configured name and nothing more to the old one, and goes on serving.
source "$(dirname "$0")/lib.sh"
start_cluster 1
cd "$T"
ctl=$T/c/log/droverctld.log
node=$T/c/log/droverd-n1.log
mv "$ctl" "$ctl.1" && mv "$node" "$node.1" || fail "the logs are not where slurm.conf puts them"
kill -USR2 "$(cat "$T/c/ctld.pid")" "$(cat "$T/c/n1.pid")"
wait_until 30 test -s "$ctl" || fail "the controller did not open a new log"
wait_until 30 test -s "$node" || fail "the node daemon did not open a new log"
assert_contains "SIGUSR2: log file $ctl opened again" "$(cat "$ctl")" "the controller says so in its new log"
assert_contains "SIGUSR2: log file $node opened again" "$(cat "$node")" "the node daemon too"
job=$(sbatch --parsable -o /dev/null --wrap true)
wait_job "$job" || fail "job $job did not run after the signal"
assert_contains "job $job" "$(cat "$ctl")" "the controller logs to the new file"
assert_eq 0 "$(grep -c "job $job" "$ctl.1")" "and nothing more to the old one"
assert_contains "job $job" "$(cat "$node")" "the node daemon logs to its new file"
assert_eq "COMPLETED" "$(sacct -X -n -j "$job" -o State%20 | tr -d ' ')" "the job ran as before"
finish
