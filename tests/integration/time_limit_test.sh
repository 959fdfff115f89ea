#!/usr/bin/env bash
# time_limit_test.sh - (slow: about 70 s) a job past its time limit gets SIGTERM, then SIGKILL
# after KillWait, and ends TIMEOUT; --signal warns it first. A step past its --time ends TIMEOUT
# with srun exiting 152, as workflow tools expect; its limit can be lowered while it runs
# (scontrol update StepId=).
source "$(dirname "$0")/lib.sh"
start_cluster 2 "KillWait=3"
cd "$T"
# A step with --time inside a longer allocation (as Torc runs them), beside the batch job above.
cat > step.sh <<'JOB'
#!/bin/bash
srun -t 5 --signal=USR1@20 bash -c 'trap "echo step-warned" USR1; trap "" TERM; while true; do sleep 1; done' 2> step.err
echo "srun exit $?"
JOB
step_job=$(sbatch --parsable -w n2 -t 5 -o step.out step.sh)
# The step asks for 5 minutes; lowered to 1 while it runs, it ends then.
step_runs() { squeue -h -s -j "$step_job" -o %i | grep -qx "$step_job.0"; }
wait_until 60 step_runs || fail "step $step_job.0 did not start"
assert_match "TimeLimit=00:05:00" "$(scontrol show step "$step_job.0")" "the step's limit as srun asked"
scontrol update StepId="$step_job.0" TimeLimit=1 || fail "scontrol update StepId=$step_job.0 TimeLimit=1"
assert_match "TimeLimit=00:01:00" "$(scontrol show step "$step_job.0")" "scontrol update StepId= lowers it"
cat > tl.sh <<'JOB'
#!/bin/bash
trap 'echo "got USR1 at $SECONDS"' USR1
trap 'echo "got TERM"; sleep 30' TERM
while true; do sleep 1; done
JOB
id=$(sbatch --parsable -t 1 --signal=B:USR1@20 -o tl.out tl.sh)
wait_running "$id"
wait_job "$id" 150
assert_eq TIMEOUT "$(job_state "$id")" "a job past its limit ends TIMEOUT"
assert_match "JobState=TIMEOUT Reason=TimeLimit " "$(scontrol show job "$id")" "with Slurm's reason"
out=$(cat tl.out)
assert_match "got USR1 at (3[5-9]|4[0-9])" "$out" "--signal=USR1@20 arrives about 20 s before the limit"
assert_match "got TERM" "$out" "then SIGTERM at the limit"
assert_match "slurmstepd: error: \*\*\* JOB $id ON n[0-9]+ CANCELLED AT [0-9T:-]+ DUE TO TIME LIMIT \*\*\*" "$out" \
  "the script's stderr says why it was cancelled, as Slurm's step daemon writes it"
start=$(squeue -h -t all -j "$id" -o %S); end=$(squeue -h -t all -j "$id" -o %e)
elapsed=$(( $(date -d "$end" +%s) - $(date -d "$start" +%s) ))
[ "$elapsed" -ge 60 ] && [ "$elapsed" -le 70 ] && ok "killed KillWait after the limit (${elapsed}s)" || fail "ran ${elapsed}s"
assert_match "^$id\|TIMEOUT\|0:0 $id\.batch\|CANCELLED\|0:(15|9)$" "$(sacct -j "$id" -n -P -o JobID,State,ExitCode | xargs)" \
  "sacct: the job TIMEOUT 0:0, the signal that ended it on its batch step, as Slurm records them"
wait_job "$step_job"
assert_eq "step-warned|srun exit 152" "$(tr '\n' '|' < step.out | sed 's/|$//')" "--signal warns the step, and srun of a step past its --time exits 152"
assert_contains "DUE TO TIME LIMIT" "$(cat step.err)" "srun says why the step ended"
assert_eq TIMEOUT "$(sacct -j "$step_job.0" -n -P -o State)" "sacct shows the step TIMEOUT"
assert_eq COMPLETED "$(job_state "$step_job")" "and the job goes on to finish"
finish
