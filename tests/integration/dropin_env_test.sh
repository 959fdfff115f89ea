#!/usr/bin/env bash
# dropin_env_test.sh - what Slurm's users and scripts read, checked as Slurm documents it: the
# variables set only when their option was given (-c, --export), the batch script as task 0, the
# step's SLURM_SRUN_COMM_HOST and topology pattern, srun -O/--test-only/--dependency, sbatch -O,
# a node set DOWN ending what its job still runs there (requeued or not), and the refusal to
# requeue a --no-requeue job.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_cluster 2
sed -i 's/^NodeName=DEFAULT CPUs=1/NodeName=DEFAULT CPUs=2/' "$T/c/slurm.conf"
cluster_start "$T/c" 2
cd "$T"

# srun sets SLURM_CPUS_PER_TASK only for -c; without it the tasks keep the job's value.
assert_eq "unset" "$(srun -n1 bash -c 'echo ${SLURM_CPUS_PER_TASK-unset}')" \
  "srun without -c sets no SLURM_CPUS_PER_TASK"
assert_eq "2" "$(srun -n1 -c2 bash -c 'echo ${SLURM_CPUS_PER_TASK-unset}')" "srun -c2 sets 2"
job=$(sbatch --parsable -c2 -o c2.out --wrap 'echo batch=$SLURM_CPUS_PER_TASK
srun -n1 bash -c "echo step=\${SLURM_CPUS_PER_TASK-unset}"
srun -n1 -c1 bash -c "echo step1=\${SLURM_CPUS_PER_TASK-unset}"')
wait_job "$job"
assert_eq "batch=2 step=2 step1=1" "$(xargs < c2.out)" \
  "sbatch -c2: the script and an srun without -c see 2, srun -c1 sees 1"
job=$(sbatch --parsable -c1 -o c1.out --wrap 'echo ${SLURM_CPUS_PER_TASK-unset}')
wait_job "$job"
assert_eq "1" "$(cat c1.out)" "sbatch -c1 sets SLURM_CPUS_PER_TASK=1 (the option was given)"
job=$(sbatch --parsable -o c0.out --wrap 'echo ${SLURM_CPUS_PER_TASK-unset}')
wait_job "$job"
assert_eq "unset" "$(cat c0.out)" "sbatch without -c sets none"

# The batch script is task 0 of node 0, and knows its own pid.
job=$(sbatch --parsable -o task.out --wrap 'echo $SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID; [ "$SLURM_TASK_PID" = $$ ] && echo pid-ok')
wait_job "$job"
assert_eq "0 0 0 pid-ok" "$(xargs < task.out)" "the batch script sees SLURM_PROCID/LOCALID/NODEID 0 and its SLURM_TASK_PID"

# --export other than ALL travels as SLURM_EXPORT_ENV.
job=$(sbatch --parsable --export=NONE -o export.out --wrap 'echo ${SLURM_EXPORT_ENV-unset}')
wait_job "$job"
assert_eq "NONE" "$(cat export.out)" "sbatch --export=NONE sets SLURM_EXPORT_ENV=NONE"

out=$(srun -n1 bash -c 'echo ${SLURM_SRUN_COMM_HOST:+host} $SLURM_TOPOLOGY_ADDR_PATTERN')
assert_eq "host node" "$out" "steps see SLURM_SRUN_COMM_HOST and SLURM_TOPOLOGY_ADDR_PATTERN=node"

# -O: more tasks than CPUs.
err=$(srun -N1 -n3 true 2>&1)
assert_contains "Requested node configuration is not available" "$err" "without -O three tasks do not fit one 2-CPU node"
assert_eq "5" "$(srun -N1 -n5 -O hostname | wc -l)" "srun -O runs five tasks on one node of two CPUs"
job=$(sbatch --parsable -O -n6 -o oc.out --wrap 'echo $SLURM_OVERCOMMIT $SLURM_NTASKS; srun hostname | wc -l')
wait_job "$job"
assert_eq "1 6 6" "$(xargs < oc.out)" "sbatch -O -n6: SLURM_OVERCOMMIT=1, and its srun runs the six tasks"
assert_eq "1" "$(sacct -n -X -j "$job" -o NNodes | xargs)" "on one node (without -O six tasks need three)"

# --test-only says when, and runs nothing.
before=$(squeue -h -t all | wc -l)
out=$(srun --test-only -n1 true 2>&1)
assert_match "^srun: Job [0-9]+ to start at [0-9T:-]+ using 1 processors on nodes n[12] in partition debug$" \
  "$out" "srun --test-only prints when the job would start"
assert_eq "$before" "$(squeue -h -t all | wc -l)" "and makes no job"

# -I: an allocation that cannot start at once is withdrawn (a held one never starts).
err=$(srun -H -I -n1 true 2>&1)
assert_eq "1 srun: error: Unable to allocate resources: Requested nodes are busy" "$? $(echo "$err" | tail -1)" \
  "srun -I of a held job gives up"
assert_eq "" "$(squeue -h -t PD -o %i)" "and leaves no job behind"

# --begin takes Slurm's combined forms; --test-only answers with that time.
out=$(sbatch --test-only --begin=noon-tomorrow --wrap true 2>&1)
assert_match "to start at $(date -d tomorrow +%F)T12:00:00 " "$out" "--begin=noon-tomorrow starts tomorrow at noon"
out=$(sbatch --test-only --begin="tomorrow elevenses" --wrap true 2>&1)
assert_match "to start at $(date -d tomorrow +%F)T11:00:00 " "$out" "--begin='tomorrow elevenses' too"

# --dependency: srun's allocation waits for the job it names.
first=$(sbatch --parsable --wrap "$(gate dep)")
wait_running "$first"
srun -d "afterok:$first" -n1 bash -c 'echo after' > dep.out 2> dep.err &
srun_pid=$!
wait_until 60 bash -c "squeue -h -u root -o '%i %r' | grep -q ' Dependency$'" \
  && ok "srun -d afterok:J waits on its dependency" || fail "srun -d: no job pending on Dependency: $(squeue)"
open_gate dep
wait $srun_pid
assert_eq "after" "$(cat dep.out)" "and runs once the job it waits for has ended"

# srun -v: the lines scripts read the job and step ids from, in Slurm's words.
err=$(srun -v -N1 -n2 true 2>&1 >/dev/null)
assert_match "srun: ntasks +: 2" "$err" "srun -v lists the options given"
assert_match "srun: jobid [0-9]+: nodes\(1\):\`n[12]', cpu counts: 2\(x1\)" "$err" "and the job it got"
assert_match "srun: launching StepId=[0-9]+\.0 on host n[12], 2 tasks: \[0-1\]" "$err" "and the step it launches"

# scontrol write batch_script: the script as submitted, to its owner (and root) only.
printf '#!/bin/bash\n#SBATCH -J scripted\necho "from the script"\n' > job.sh
job=$(sbatch --parsable -o /dev/null job.sh)
assert_eq "batch script for job $job written to slurm-$job.sh" "$(scontrol write batch_script "$job")" \
  "scontrol write batch_script says where it wrote"
assert_eq "" "$(cmp job.sh "slurm-$job.sh" 2>&1)" "and the file is the script as submitted"
assert_eq "$(cat job.sh)" "$(scontrol write bat "$job" -)" "'-' writes it to standard output"
assert_eq "job script retrieval failed: Invalid job id specified" "$(scontrol write batch_script 999999 x.sh 2>&1)" \
  "an unknown job is refused"
assert_eq "no" "$([ -e x.sh ] && echo yes || echo no)" "and leaves no file"
make_test_users
if [ "$MULTI" = 1 ]; then
  err=$(cd /tmp && as drvtest1 scontrol write batch_script "$job" - 2>&1)
  assert_eq "job script retrieval failed: Invalid job id specified" "$err" "another user cannot read the script"
fi

# Slurm's words where scripts match them.
arr=$(sbatch --parsable -a 0-3%1 -o /dev/null --wrap "$(gate arr)")
wait_until 60 bash -c "squeue -h -j ${arr}_0 -o %t | grep -q R" || fail "array task ${arr}_0 did not start"
assert_match "^JobId=$arr ArrayJobId=$arr ArrayTaskId=2 " "$(scontrol show job "${arr}_2" | head -1)" \
  "scontrol show job A_N of a waiting task shows ArrayTaskId=N"
assert_eq "slurm_get_job_steps error: Invalid job id specified" "$(scontrol show step 999999.1 2>&1)" \
  "scontrol show step of an unknown job"
assert_eq "scancel: error: Kill job error on job step id 999999.3: Invalid job id specified" \
  "$(scancel 999999.3 2>&1)" "scancel of a step of an unknown job"
scancel "$arr"
open_gate arr

# sacct -j ARRAY lists every task at every moment: ended, running, and the waiting record.
arr=$(sbatch --parsable -a 0-2%1 -o /dev/null --wrap "[ \$SLURM_ARRAY_TASK_ID = 0 ] || $(gate sacct_arr)")
wait_until 60 bash -c "squeue -h -j ${arr}_1 -o %t | grep -q R" || fail "array task ${arr}_1 did not start"
wait_until 30 bash -c "sacct -n -X -j $arr -o JobID,State | grep -q '${arr}_0 *COMPLETED'" || true
out=$(sacct -n -X -j "$arr" -o JobID%20,State | xargs)
assert_match "${arr}_0 COMPLETED ${arr}_1 RUNNING" "$out" "sacct -j A lists the ended task and the running one"
assert_match "(^| )${arr}[^ ]* PENDING" "$out" "and the waiting ones"
open_gate sacct_arr
wait_until 60 bash -c "[ -z \"\$(squeue -h -j $arr)\" ]" || fail "array $arr did not end"

# A node set DOWN ends what its job still runs there; the requeued job runs once, elsewhere.
job=$(sbatch --parsable -w n1 --requeue -o /dev/null \
  --wrap 'echo $$ > '"$T"'/rq-$SLURMD_NODENAME.pid; sleep 300')
wait_until 60 test -s "$T/rq-n1.pid" || fail "the job did not start on n1"
pid=$(cat "$T/rq-n1.pid")
scontrol update NodeName=n1 State=DOWN Reason=test
wait_until 60 pid_gone "$pid" && ok "State=DOWN ends the batch script on that node" \
  || fail "the script $pid still runs on the DOWN node"
assert_match "Restarts=1" "$(scontrol show job "$job")" "the job is requeued"
scontrol update NodeName=n1 State=RESUME
scancel "$job"
wait_job "$job"
job=$(sbatch --parsable -w n2 --no-requeue -o /dev/null --wrap 'echo $$ > '"$T"'/nr.pid; sleep 300')
wait_until 60 test -s "$T/nr.pid" || fail "the --no-requeue job did not start"
pid=$(cat "$T/nr.pid")
err=$(scontrol requeue "$job" 2>&1)
assert_contains "Requested operation is presently disabled" "$err" \
  "scontrol requeue of a --no-requeue job is refused, to root too"
scontrol update NodeName=n2 State=DOWN Reason=test
wait_job "$job"
assert_eq "NODE_FAIL" "$(job_state "$job")" "a --no-requeue job on a DOWN node ends NODE_FAIL"
wait_until 60 pid_gone "$pid" && ok "and its script is ended there" || fail "the script $pid still runs"
scontrol update NodeName=n2 State=RESUME
finish
