#!/usr/bin/env bash
# noded_epilog_test.sh - the Epilog runs for every job even when droverd is killed with SIGKILL
# after the job's end is kept in its spool and before the Epilog has finished: the restarted
# droverd runs it (again: at least once, never zero times) before it reports the end.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "Epilog=$T/epilog.sh"
# The Epilog runs until the test opens its gate: droverd is killed while it runs.
cat > "$T/epilog.sh" <<E
#!/bin/sh
echo "start \$SLURM_JOB_ID" >> "$T/epilog.log"
$(gate epilog)
echo "end \$SLURM_JOB_ID" >> "$T/epilog.log"
E
chmod 755 "$T/epilog.sh"
start_ctld "$T/c"
start_node "$T/c" 1
wait_for_nodes "$T/c" 1 || fail "the node did not come up"
cd "$T"

job=$(sbatch --parsable -o /dev/null --wrap true)
# The job's end is kept and its Epilog started: droverd dies now.
wait_until 60 grep -q "start $job" epilog.log || fail "the Epilog did not start"
kill_node 1 KILL
assert_eq 1 "$(grep -c "start $job" epilog.log)" "the Epilog had run once when droverd died"
open_gate epilog
start_node "$T/c" 1
wait_job "$job"
assert_eq COMPLETED "$(job_state "$job")" "the job's end was reported after the restart"
assert_eq 2 "$(grep -c "start $job" epilog.log)" "the restarted droverd ran the Epilog whose end it had not marked"
wait_until 60 bash -c "[ \$(grep -c 'end $job' $T/epilog.log) = 2 ]"
assert_eq 2 "$(grep -c "end $job" epilog.log)" "and it ran to its end"

# A job that ends with droverd up runs it once, and a restart afterwards does not run it again.
job2=$(sbatch --parsable -o /dev/null --wrap true)
wait_job "$job2"
wait_until 60 grep -q "end $job2" epilog.log || fail "the Epilog of job $job2 did not run"
kill_node 1 KILL
start_node "$T/c" 1
wait_for_nodes "$T/c" 1 || fail "the node did not come back"
assert_eq 1 "$(grep -c "start $job2" epilog.log)" "an Epilog marked done is not run again after a restart"
finish
