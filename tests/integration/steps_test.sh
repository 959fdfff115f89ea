#!/usr/bin/env bash
# steps_test.sh - srun steps as a user sees them: task environment, labels and output order,
# stdin, exit codes and signals, --multi-prog, steps sharing an allocation with --exact (and
# waiting for CPUs), squeue --steps, scontrol show step, scancel of one step, and sacct rows.
source "$(dirname "$0")/lib.sh"
make_cluster 2
sed -i 's/^NodeName=DEFAULT CPUs=1/NodeName=DEFAULT CPUs=2/' "$T/c/slurm.conf"
cluster_start "$T/c" 2
cd "$T"

# Outside an allocation srun makes one; every task sees its place in the step.
out=$(srun -N2 -n4 -l bash -c 'echo $SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID $SLURM_STEP_ID $SLURM_STEPID $SLURM_STEP_NODELIST $SLURM_STEP_NUM_TASKS $SLURM_TASKS_PER_NODE ${SLURM_CPUS_PER_TASK-unset} $SLURMD_NODENAME' | sort)
assert_eq "0: 0 0 0 0 0 n[1-2] 4 2(x2) unset n1
1: 1 1 0 0 0 n[1-2] 4 2(x2) unset n1
2: 2 0 1 0 0 n[1-2] 4 2(x2) unset n2
3: 3 1 1 0 0 n[1-2] 4 2(x2) unset n2" "$out" "each task gets SLURM_PROCID/LOCALID/NODEID/STEP_* and --label prefixes"
out=$(srun -n4 -N2 -m cyclic -l bash -c 'echo $SLURMD_NODENAME' | sort | tr '\n' ' ')
assert_eq "0: n1 1: n2 2: n1 3: n2 " "$out" "-m cyclic deals tasks round the nodes"

# Output keeps each task's order; stdin goes to task 0.
srun -n1 bash -c 'for i in $(seq 1 2000); do echo line$i; done' > order.txt
assert_eq "2000 line1 line2000" "$(wc -l < order.txt) $(head -1 order.txt) $(tail -1 order.txt)" "output arrives whole and in order"
seq 1 2000 | sort > want.txt
assert_eq "" "$(paste -d' ' <(sed 's/line//' order.txt) <(seq 1 2000) | awk '$1 != $2' | head -1)" "every line in its place"
assert_eq "hello there" "$(echo 'hello there' | srun -n1 cat)" "stdin goes to task 0"
assert_eq "2" "$(printf 'x\n' | srun -n2 -i all cat | wc -l)" "-i all gives every task the input"
assert_eq "out-only" "$(srun -n1 bash -c 'echo out-only; echo err-only >&2' 2>/dev/null)" "stdout and stderr stay apart"
srun -n2 -o "$T/task-%t.out" bash -c 'echo from $SLURM_PROCID'
assert_eq "from 0|from 1" "$(cat task-0.out)|$(cat task-1.out)" "-o with %t writes a file per task"

# --pty: task 0 runs on a terminal, fed from srun's input.
assert_contains "both-tty" "$(srun --pty -n1 bash -c 'test -t 0 && test -t 1 && echo both-tty')" "--pty gives task 0 a terminal"
assert_contains "typed" "$(printf 'echo typed; exit\n' | srun --pty bash 2>/dev/null)" "and what is typed reaches it"

# Exit codes: the highest task's; a signal counts as 128+signal; Slurm's error lines.
srun -n2 bash -c 'exit $((SLURM_PROCID + 2))' 2> err.txt
assert_eq 3 "$?" "srun exits with the highest task exit code"
assert_contains "task 1: Exited with exit code 3" "$(cat err.txt)" "and names the task"
srun -n1 bash -c 'kill -9 $$' 2> err.txt
assert_eq 137 "$?" "a task killed by SIGKILL makes srun exit 137"
assert_contains "task 0: Killed" "$(cat err.txt)" "and is reported Killed"
srun -n1 /no/such/program 2> err.txt
assert_eq 2 "$?" "a program that cannot run exits 2"
assert_contains "No such file or directory" "$(cat err.txt)" "with the reason"
start=$(date +%s)
srun -n2 -K bash -c '[ $SLURM_PROCID = 1 ] && exit 5; sleep 300' 2>/dev/null
rc=$?
# Left alone, task 0 would run 300 s.
[ "$rc" -ne 0 ] && [ $(( $(date +%s) - start )) -lt 200 ] && ok "-K ends the step when a task fails (rc $rc)" || fail "-K did not end the step (rc $rc)"

# --multi-prog: a program per task.
printf '0 echo first %%t\n1-2 echo rest %%t %%o\n' > mp.conf
out=$(srun -n3 -l --multi-prog mp.conf | sort | tr '\n' '|')
assert_eq "0: first 0|1: rest 1 0|2: rest 2 1|" "$out" "--multi-prog runs each task's line with %t and %o"
printf '0 echo only\n' > bad.conf
srun -n2 --multi-prog bad.conf 2> err.txt
assert_eq 1 "$?" "--multi-prog with a task missing fails"
assert_contains "no program for task 1" "$(cat err.txt)" "and says which"

# Steps inside a batch job: concurrent --exact steps that hold every CPU until the test opens
# their gate, one that waits for CPUs meanwhile, and the step list.
cat > steps.sh <<SCRIPT
#!/bin/bash
#SBATCH -N2 -n4 -o steps.out
srun -n2 --exact -J long sh -c "touch running.long.\\\$SLURM_PROCID; $(gate steps)" &
srun -n2 --exact -J short sh -c "touch running.short.\\\$SLURM_PROCID; $(gate steps)" &
until [ \$(ls running.* 2>/dev/null | wc -l) = 4 ]; do sleep 0.2; done
srun -n1 --exact -J waiter echo waited &
wait
srun -l -J last hostname
SCRIPT
job=$(sbatch --parsable steps.sh)
wait_until 60 grep -q "temporarily disabled" steps.out || fail "the waiting step did not wait"
steps=$(squeue -h --steps -j "$job" -o '%i|%j' | sort | tr '\n' ' ')
assert_match "^$job\.[01]\|(long|short) $job\.[01]\|(long|short) $job\.batch\|batch $" "$steps" "squeue --steps -o '%i|%j' lists each step by id and name"
assert_match "StepId=$job.0 UserId=0 .*Tasks=2 Name=(long|short)" "$(scontrol show step "$job.0" | tr '\n' ' ')" "scontrol show step"
open_gate steps
wait_job "$job"
assert_contains "step creation temporarily disabled, retrying (Requested nodes are busy)" "$(cat steps.out)" "a step waits while the allocation's CPUs are busy"
assert_contains "waited" "$(cat steps.out)" "and runs when they free up"
assert_eq "$job|$job.batch|$job.0|$job.1|$job.2|$job.3" "$(sacct -j "$job" -n -P -o JobID | tr '\n' '|' | sed 's/|$//')" "sacct has the job, .batch and every step"
assert_eq "last long short waiter" "$(sacct -j "$job" -n -P -o JobName | tail -4 | sort | tr '\n' ' ' | sed 's/ $//')" "with their names"

# scancel of one step: that step ends CANCELLED, the job goes on.
cat > cancel.sh <<'SCRIPT'
#!/bin/bash
#SBATCH -N1 -n1 -o cancel.out
srun -J victim sleep 60
echo "srun said $?"
SCRIPT
job=$(sbatch --parsable cancel.sh)
wait_until 60 bash -c "squeue -h -s -j $job -o %i | grep -q '$job.0'"
scancel "$job.0"
wait_job "$job"
assert_eq "COMPLETED" "$(sacct -j "$job" -X -n -P -o State)" "the job outlives its cancelled step"

assert_match "^CANCELLED" "$(sacct -j "$job.0" -n -P -o State)" "the step ends CANCELLED"
assert_contains "CANCELLED AT" "$(cat cancel.out)" "and srun says so"

# DerivedExitCode: the highest exit code of the job's srun steps, while the job's own ExitCode
# is its script's (scontrol -d show job, sacct).
job=$(sbatch --parsable -N1 -n1 -o /dev/null --wrap 'srun sh -c "exit 3"; srun sh -c "exit 1"; exit 0')
wait_job "$job"
assert_contains "ExitCode=0:0" "$(scontrol show job "$job")" "the job's exit code is its script's"
assert_contains "DerivedExitCode=3:0" "$(scontrol -d show job "$job")" "scontrol -d: the highest of its steps'"
assert_eq "0:0|3:0" "$(sacct -j "$job" -X -n -P -o ExitCode,DerivedExitCode)" "sacct agrees"
finish
