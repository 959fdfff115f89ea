#!/usr/bin/env bash
# ctld_restart_test.sh - droverctld -R after a SIGKILL recovers everything: pending, held and
# running jobs with their ids (a running job is not started again), and running steps (listed by
# squeue --steps and scontrol show step, still holding their CPUs, their ends recorded in sacct,
# step ids going on from where they were).
# -c discards the jobs and steps, and a -R after it finds none of them.
source "$(dirname "$0")/lib.sh"
start_cluster 2
cd "$T"

held=$(sbatch --parsable --hold -J held --wrap true)
later=$(sbatch --parsable --begin=now+1hour -J later --wrap true)
# Step 0 runs until the test opens its gate, after the restart.
job=$(sbatch --parsable -w n1 -J withsteps -o steps.out --wrap \
  'echo $SLURM_JOB_ID >> ran.txt; srun -n1 sh -c "'"$(gate step0)"'; exit 5"; srun -n1 true; echo "after $?"')
wait_until 60 bash -c "squeue -h --steps -j $job -o %i | grep -q '\.0$'" || fail "step $job.0 did not start"

kill_ctld KILL
restart_ctld -R
wait_until 60 squeue -h || fail "controller did not come back"

assert_eq "PENDING JobHeldUser" "$(squeue -h -j "$held" -o '%T %r')" "the held job is back, held"
assert_eq "PENDING BeginTime" "$(squeue -h -j "$later" -o '%T %r')" "the job waiting for its begin time is back"
assert_eq RUNNING "$(squeue -h -j "$job" -o %T)" "the running job is back, running"
assert_contains "$job.0" "$(squeue -h --steps -j "$job" -o %i)" "squeue --steps lists the step that was running"
assert_contains "StepId=$job.0" "$(scontrol show step "$job.0")" "scontrol show step shows it"
assert_contains "n1" "$(scontrol show step "$job.0")" "on its node"
# The restarted controller repeats the launch of the running job (it cannot know whether its
# first launch left before the kill): the node, which has it, ignores it.
wait_until 60 grep -q "job $job: launch of run 0 ignored" "$T/c/log/droverd-n1.log" &&
  ok "a repeated launch of a job already running is ignored" || fail "no repeated launch reached n1"

srun --jobid="$job" -n1 true 2> waited.err &
srun_pid=$!
wait_until 60 grep -q "temporarily disabled" waited.err
assert_contains "temporarily disabled" "$(cat waited.err)" "the recovered step still holds its CPU: a new step waits for it"
open_gate step0
wait "$srun_pid"

wait_job "$job"
assert_eq COMPLETED "$(job_state "$job")" "the job completed"
steps=$(sacct -j "$job" -n -P -o JobID,State,ExitCode)
assert_contains "$job.0|FAILED|5:0" "$steps" "the step's end after the restart is recorded in sacct"
assert_contains "$job.1|COMPLETED|0:0" "$steps" "step ids go on after the restart"
assert_eq "after 0" "$(tail -1 steps.out)" "the step created after the restart ran"
assert_eq "$job" "$(cat ran.txt)" "the job ran once"

kill_ctld TERM
restart_ctld -c
wait_until 60 sinfo -h || fail "controller did not come back cold"
assert_eq "" "$(squeue -h -t all)" "-c starts with no jobs"
assert_eq "" "$(squeue -h --steps)" "and no steps"
kill_ctld KILL
restart_ctld -R
wait_until 60 sinfo -h || fail "controller did not come back"
assert_eq "" "$(squeue -h -t all)" "the jobs -c discarded stay gone"
next=$(sbatch --parsable --hold --wrap true)
[ "$next" -gt "$job" ] && ok "job ids go on after -c ($next)" || fail "job id $next after $job"
finish
