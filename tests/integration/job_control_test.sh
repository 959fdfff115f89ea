#!/usr/bin/env bash
# job_control_test.sh - requeue, scontrol top, --begin, --deadline, a dependency on one task of
# an array, and the scope of scancel's signals (-b, -f), as a user sees them.
source "$(dirname "$0")/lib.sh"
start_cluster 1
cd "$T"

# requeue: a running job goes back to the queue, runs again, and counts the restart
rq=$(sbatch --parsable -o rq.out --wrap 'echo run; sleep 300')
wait_running "$rq"
scontrol requeue "$rq"
wait_until 60 bash -c "scontrol show job $rq | grep -q 'Restarts=1'" || fail "no restart recorded"
assert_match "Restarts=1" "$(scontrol show job "$rq")" "scontrol requeue puts the job back and counts the restart"
wait_running "$rq"
assert_eq R "$(squeue -h -j "$rq" -o %t)" "and it runs again"
scontrol requeuehold "$rq"
wait_until 60 bash -c "[ \"\$(squeue -h -j $rq -o %r)\" = JobHeldUser ]"
assert_eq "PD JobHeldUser" "$(squeue -h -j "$rq" -o '%t %r')" "requeuehold requeues it held"
scancel "$rq"

# scontrol top: the user's job moves ahead of their earlier ones
# The blocker holds the node until both others are queued and one is moved to the top.
blocker=$(sbatch --parsable --wrap "$(gate blocker)")
wait_running "$blocker" || fail "job $blocker did not start"
first=$(sbatch --parsable -J first -o /dev/null --wrap "echo first >> $T/top.txt")
second=$(sbatch --parsable -J second -o /dev/null --wrap "echo second >> $T/top.txt")
scontrol top "$second"
[ "$(squeue -h -j "$second" -o %Q)" -gt "$(squeue -h -j "$first" -o %Q)" ] && ok "top raises the job above the user's others" || fail "top did not raise $second"
open_gate blocker
wait_job "$first"; wait_job "$second"
assert_eq "second first" "$(tr '\n' ' ' < top.txt | sed 's/ $//')" "and it starts first"

# --begin keeps a job waiting with BeginTime; updating StartTime releases it
later=$(sbatch --parsable --begin=now+1hour --wrap true)
assert_eq "PD BeginTime" "$(squeue -h -j "$later" -o '%t %r')" "--begin waits with reason BeginTime"
scontrol update JobId="$later" StartTime=now
wait_job "$later"
assert_eq COMPLETED "$(job_state "$later")" "StartTime=now lets it run"

# --deadline: a job that can no longer finish in time ends DEADLINE
block2=$(sbatch --parsable --wrap 'sleep 5')
dl=$(sbatch --parsable -t 1 --deadline=now+30seconds --wrap true)
wait_job "$dl" 120
assert_eq DEADLINE "$(job_state "$dl")" "a job that cannot finish before its deadline ends DEADLINE"
scancel "$block2"

# a dependency on one task of an array
arr=$(sbatch --parsable --array=0-2 --wrap 'sleep 1')
one=$(sbatch --parsable -d "afterok:${arr}_1" -o one.txt --wrap 'echo after-task-1')
wait_job "$one"
assert_eq after-task-1 "$(cat one.txt)" "afterok on one array task"

# Signal scope, as Slurm has it: scancel -s reaches the job's steps, not its batch shell; -b the
# shell alone (not its children); -f the shell, its children and the steps. Each process writes
# what reached it to a file of its own.
cat > scope.sh <<'SCRIPT'
#!/bin/bash
trap 'echo USR1 >> shell.got' USR1
( trap 'echo USR1 >> child.got' USR1; while :; do sleep 0.2; done ) &
srun --overlap bash -c 'trap "echo USR1 >> step.got" USR1; touch step.ready; while :; do sleep 0.2; done' &
while :; do sleep 0.2; done
SCRIPT
scope=$(sbatch --parsable -o scope.out scope.sh)
wait_until 60 test -f step.ready || fail "the step did not start"
count() { echo "$(wc -l < shell.got 2>/dev/null || echo 0)/$(wc -l < child.got 2>/dev/null || echo 0)/$(wc -l < step.got 2>/dev/null || echo 0)"; }
scancel -s USR1 "$scope"
wait_until 30 bash -c '[ -s step.got ]'
assert_eq "0/0/1" "$(count)" "scancel -s: the step, not the batch shell or its children"
scancel -b -s USR1 "$scope"
wait_until 30 bash -c '[ -s shell.got ]'
assert_eq "1/0/1" "$(count)" "scancel -b: the batch shell alone"
scancel -f -s USR1 "$scope"
wait_until 30 bash -c '[ "$(wc -l < shell.got)" = 2 ] && [ -s child.got ] && [ "$(wc -l < step.got)" -ge 2 ]'
assert_match "^2/1/[23]$" "$(count)" "scancel -f: the shell, its children and the step (srun passes it on too)"
scancel "$scope"
wait_job "$scope"
finish
