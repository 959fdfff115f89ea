#!/usr/bin/env bash
# steps_alloc_test.sh - interactive work: salloc runs a command in an allocation and gives it
# back; srun inside it; Ctrl-C on srun; the end of an allocation ends its steps CANCELLED; the
# Prolog and Epilog run as root on each node of a job.
source "$(dirname "$0")/lib.sh"
make_cluster 2 "Prolog=$T/prolog.sh" "Epilog=$T/epilog.sh"
cat > "$T/prolog.sh" <<'P'
#!/bin/bash
echo "$(id -u) $SLURM_JOB_ID" > "$(dirname "$0")/prolog.$SLURM_JOB_ID.$SLURMD_NODENAME"
P
cat > "$T/epilog.sh" <<'P'
#!/bin/bash
echo "$(id -u) $SLURM_JOB_ID" > "$(dirname "$0")/epilog.$SLURM_JOB_ID.$SLURMD_NODENAME"
P
chmod 755 "$T/prolog.sh" "$T/epilog.sh"
cluster_start "$T/c" 2
cd "$T"

# salloc: the allocation's environment, srun inside it, and the allocation given back.
out=$(salloc -N2 bash -c 'echo "job=$SLURM_JOB_ID nodes=$SLURM_JOB_NODELIST n=$SLURM_NNODES"; srun -l hostname | sort | tr "\n" " "' 2> salloc.err)
rc=$?
assert_eq 0 "$rc" "salloc exits with its command's status"
assert_match "^job=[0-9]+ nodes=n\[1-2\] n=2" "$out" "the command sees SLURM_JOB_ID, SLURM_JOB_NODELIST, SLURM_NNODES"
assert_match "0: .* 1: " "$out" "and srun runs a step in the allocation"
job=$(sed -n 's/.*job=\([0-9]*\).*/\1/p' <<<"$out")
assert_match "salloc: Granted job allocation $job" "$(cat salloc.err)" "salloc says the allocation was granted"
assert_match "salloc: Relinquishing job allocation $job" "$(cat salloc.err)" "and when it gives it back"
wait_job "$job"
assert_eq COMPLETED "$(job_state "$job")" "the allocation ends when the command does"
salloc -N1 bash -c 'exit 3' 2>/dev/null
assert_eq 3 "$?" "a failing command's status comes back"

# Prolog and Epilog ran as root on both nodes of the salloc job.
wait_until 60 test -f "$T/epilog.$job.n2"
assert_eq "0 $job|0 $job" "$(cat "$T/prolog.$job.n1")|$(cat "$T/prolog.$job.n2")" "the Prolog ran as root on each node"
assert_eq "0 $job|0 $job" "$(cat "$T/epilog.$job.n1")|$(cat "$T/epilog.$job.n2")" "and so did the Epilog"

# Ctrl-C on srun: one interrupt reaches the tasks; two within a second end the step. Each task
# says "ready" once its trap is set, and the interrupts come after that.
srun -n1 bash -c 'trap "echo got-int; exit 7" INT; echo ready; sleep 300 & wait' > int.out 2> int.err &
srun_pid=$!
wait_until 60 grep -q ready int.out || fail "the task did not start"
kill -INT "$srun_pid"
wait "$srun_pid"
assert_eq 7 "$?" "Ctrl-C once: the tasks get SIGINT and srun returns their exit code"
assert_eq "ready got-int" "$(xargs < int.out)" "the task saw the interrupt"
assert_contains "interrupt (one more within 1 sec to abort)" "$(cat int.err)" "srun says what one more would do"
start=$(date +%s)
srun -n1 bash -c 'trap "" INT; echo ready; sleep 300' > int2.out 2> int2.err &
srun_pid=$!
wait_until 60 grep -q ready int2.out || fail "the task did not start"
kill -INT "$srun_pid"; sleep 0.2; kill -INT "$srun_pid"
wait "$srun_pid"
rc=$?
# Left alone, the task would run 300 s.
[ "$rc" -ne 0 ] && [ $(( $(date +%s) - start )) -lt 200 ] && ok "Ctrl-C twice ends the step (rc $rc)" || fail "Ctrl-C twice did not end the step (rc $rc)"

# The end of the allocation ends its steps CANCELLED.
job=$(sbatch --parsable -o alloc.out --wrap 'srun -J inner sleep 60')
wait_until 60 bash -c "squeue -h -s -j $job -o %j | grep -q inner"
scancel "$job"
wait_job "$job"
assert_match "^CANCELLED" "$(sacct -j "$job.0" -n -P -o State)" "a step of a cancelled job ends CANCELLED"
wait_until 60 bash -c "! squeue -h -s -o %i | grep -q '^ *$job\\.'"
assert_eq "" "$(squeue -h -s -j "$job" -o %i 2>/dev/null)" "and is gone from squeue --steps"
finish
