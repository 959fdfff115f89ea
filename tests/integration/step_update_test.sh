#!/usr/bin/env bash
# step_update_test.sh - scontrol update StepId=J[.S] TimeLimit=T as Slurm's scontrol(1) takes it:
# the job's owner may lower a step's limit, not raise it; an administrator may do either; another
# user may do neither; "+T"/"-T" move it; StepId=J changes every step of the job; words scontrol
# does not know are refused with Slurm's messages. (time_limit_test.sh shows a lowered limit
# ending its step.)
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
start_cluster 1
chmod 777 "$T" && cd "$T"
[ "$MULTI" = 1 ] || { echo "step_update_test: needs root and useradd; skipped"; exit 0; }

limit() { scontrol show step "$1" | grep -o 'TimeLimit=[^ ]*' | cut -d= -f2; }
steps_run() { [ "$(squeue -h -s -j "$job" -o %i | grep -cE "^$job\.[01]$")" -eq 2 ]; }
# Step 1 is started once step 0 exists: two sruns started together may be numbered either way.
job=$(as drvtest1 sbatch --parsable -o /dev/null --wrap \
  'srun --overlap -t 30 sleep 300 &
   until squeue -h -s -j "$SLURM_JOB_ID" -o %i | grep -q "\.0$"; do sleep 0.2; done
   srun --overlap -t 40 sleep 300 & wait')
wait_until 60 steps_run || fail "the two steps of job $job did not start: $(squeue -s -j "$job")"
assert_eq "00:30:00" "$(limit "$job.0")" "step 0 runs with the 30 minutes srun asked"

# ---- the owner lowers, not raises ----
as drvtest1 scontrol update StepId="$job.0" TimeLimit=20 || fail "the owner could not lower the limit"
assert_eq "00:20:00" "$(limit "$job.0")" "the owner lowers a step's limit"
out=$(as drvtest1 scontrol update StepId="$job.0" TimeLimit=25 2>&1); rc=$?
assert_eq "1 slurm_update error: Access/permission denied" "$rc $out" "but may not raise it"
out=$(as drvtest2 scontrol update StepId="$job.0" TimeLimit=10 2>&1); rc=$?
assert_eq "1 slurm_update error: Access/permission denied" "$rc $out" "another user may not touch it"
assert_eq "00:20:00" "$(limit "$job.0")" "and the limit is as it was"

# ---- an administrator, relative changes, every step of a job ----
scontrol update StepId="$job.0" TimeLimit=1-0 || fail "root could not raise the limit"
assert_eq "1-00:00:00" "$(limit "$job.0")" "an administrator raises it (D-H)"
scontrol update StepId="$job" TimeLimit=-5 || fail "StepId=$job TimeLimit=-5"
assert_eq "23:55:00 00:35:00" "$(limit "$job.0") $(limit "$job.1")" "StepId=J moves every step's limit"
scontrol update stepid="$job.1" timelimit=+1:00:00 || fail "lower-case keys"
assert_eq "01:35:00" "$(limit "$job.1")" "+H:M:S adds, keys in any case"

# ---- refusals ----
out=$(scontrol update StepId="$job.0" TimeLimit=soon 2>&1); rc=$?
assert_eq "1 scontrol: error: Invalid TimeLimit value" "$rc $out" "a time that does not parse"
out=$(scontrol update StepId="$job.0" Name=x 2>&1); rc=$?
assert_eq "1|Update of this parameter is not supported: Name=x|Request aborted" "$rc|$(tr '\n' '|' <<< "$out" | sed 's/|$//')" \
  "a key steps do not have"
out=$(scontrol update StepId="$job.0" 2>&1); rc=$?
assert_eq "1 No changes specified" "$rc $out" "nothing to change"
out=$(scontrol update StepId="$job.7" TimeLimit=5 2>&1); rc=$?
assert_eq "1 slurm_update error: Invalid job id specified" "$rc $out" "a step the job does not have"
out=$(scontrol update StepId=999999.0 TimeLimit=5 2>&1); rc=$?
assert_eq "1 slurm_update error: Invalid job id specified" "$rc $out" "a job that does not exist"
out=$(scontrol update StepId="$job.batch" TimeLimit=5 2>&1); rc=$?
assert_eq "1 scontrol: error: Invalid StepId $job.batch" "$rc $out" "the batch step is not a step to update"
assert_eq "23:55:00" "$(limit "$job.0")" "and none of them changed anything"
scancel "$job"
finish
