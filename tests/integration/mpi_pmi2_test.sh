#!/usr/bin/env bash
# mpi_pmi2_test.sh - srun --mpi=pmi2 runs MPICH programs (tests/integration/mpi/*.c) as Slurm's
# mpi/pmi2 plugin does: every task is a rank of one MPI_COMM_WORLD across four nodes (hello,
# allreduce, ring), from salloc and from a batch script; the tasks' PMI environment; MpiDefault=pmi2
# makes plain srun do the same and --mpi=none undoes it; a rank that exits early or calls
# MPI_Abort ends the step instead of leaving the others in a barrier; --mpi=list and an unknown
# --mpi as Slurm words them. Needs MPICH (mpicc.mpich); skipped without it.
source "$(dirname "$0")/lib.sh"
if ! command -v mpicc.mpich >/dev/null 2>&1; then
  echo "mpi_pmi2_test: needs mpicc.mpich (packages mpich, libmpich-dev); skipped"; exit 0
fi

source "$ROOT/tests/integration/mpi/lib.sh"
build_programs mpicc.mpich

mpi_cluster
cd "$T"

# salloc -N4 -n8 srun --mpi=pmi2: eight ranks of one world, two on each node (block distribution).
run hello "-N4 -n8" srun --mpi=pmi2 "$MPI/hello"
assert_eq 0 "$?" "srun --mpi=pmi2 hello exits 0"
assert_eq 8 "$(wc -l < hello.out)" "hello prints one line per rank"
hello_ok hello.out 8 && ok "every rank is one of 8, on this host, on a node of the job" ||
  fail "hello's lines: [$(cat hello.out)] [$(cat hello.err)]"
assert_eq "0/8 n1 1/8 n1 2/8 n2 3/8 n2 4/8 n3 5/8 n3 6/8 n4 7/8 n4" "$(ranks hello.out)" \
  "ranks 0-7 each once, in block order over n1-n4"
assert_eq "n1 n2 n3 n4" "$(awk '{print $NF}' hello.out | sort -u | xargs)" "the ranks cover all four nodes"

run allreduce "-N4 -n8" srun --mpi=pmi2 "$MPI/allreduce"
assert_eq 0 "$?" "allreduce exits 0 (every rank saw the right sum)"
assert_eq "sum 36 of 8 ranks" "$(cat allreduce.out)" "MPI_Allreduce over 8 ranks on 4 nodes"

run ring "-N4 -n8" srun --mpi=pmi2 "$MPI/ring"
assert_eq 0 "$?" "ring exits 0"
assert_eq "ring 8 ranks token 28" "$(cat ring.out)" "a token passed round all 8 ranks"

# A step of fewer tasks in the allocation: one rank on each node.
run hello4 "-N4 -n8" srun -N4 -n4 --mpi=pmi2 "$MPI/hello"
assert_eq 0 "$?" "srun -N4 -n4 --mpi=pmi2 hello exits 0"
hello_ok hello4.out 4 && ok "every rank is one of 4" || fail "hello -n4's lines: [$(cat hello4.out)] [$(cat hello4.err)]"
assert_eq "0/4 n1 1/4 n2 2/4 n3 3/4 n4" "$(ranks hello4.out)" "ranks 0-3, one on each node"

# srun A : B (MPMD): one step, each component's tasks running its program, one MPI world.
run mpmd "-N4 -n8" srun --mpi=pmi2 -n2 "$MPI/hello" : -n6 "$MPI/hello"
assert_eq 0 "$?" "srun --mpi=pmi2 -n2 hello : -n6 hello exits 0"
hello_ok mpmd.out 8 && ok "its 8 ranks are one world" || fail "mpmd's lines: [$(cat mpmd.out)] [$(cat mpmd.err)]"
run mpmd2 "-N2 -n3" srun -n1 bash -c 'echo "A $SLURM_PROCID $0"' 'x y' : -n2 bash -c 'echo "B $SLURM_PROCID"'
assert_eq "A 0 x y|B 1|B 2" "$(sort mpmd2.out | tr '\n' '|' | sed 's/|$//')" \
  "each component's tasks run its own program and arguments"

# srun --mpi=pmi2 in a batch script.
job=$(sbatch --parsable -N4 -n8 -o batch.out -e batch.err --wrap "srun --mpi=pmi2 $MPI/ring")
wait_job "$job" 120
assert_eq COMPLETED "$(job_state "$job")" "a batch job's srun --mpi=pmi2 completes"
assert_eq "ring 8 ranks token 28" "$(cat batch.out)" "and its ranks form one world"

# The PMI-2 wire (which Debian's MPICH does not use): a task that speaks it itself gets every
# rank's key after the fence, the process mapping, and a node attribute another task put.
run pmi2wire "-N4 -n8" srun --mpi=pmi2 python3 "$SRC/pmi_client.py" v2
assert_eq 0 "$?" "a PMI-2 client's step exits 0"
assert_eq "$(for r in 0 1 2 3 4 5 6 7; do echo "rank $r got from;$(((r + 1) % 8)) map (vector,(0,4,2)) attr $((r / 2 * 2))"; done)" \
  "$(sort -n -k2 pmi2wire.out)" "each rank reads the next rank's key, the mapping and its node's attribute"

# A task that sends PMI garbage is told so; its step ends, no daemon is hurt.
run garbage "-N2 -n2" srun --mpi=pmi2 python3 "$SRC/pmi_client.py" garbage
assert_match "rank 0 reply cmd=error rc=-1 msg=request_does_not_start_with_cmd=" "$(cat garbage.out)" \
  "garbage on the PMI channel gets an error reply"
run after "-N4 -n8" srun --mpi=pmi2 "$MPI/allreduce"
assert_eq "0 sum 36 of 8 ranks" "$? $(cat after.out)" "and every node daemon still serves MPI steps"

# SLURM_MPI_TYPE is srun's input variable for --mpi, as in Slurm.
SLURM_MPI_TYPE=pmi2 run envtype "-N2 -n4" srun "$MPI/allreduce"
assert_eq "0 sum 10 of 4 ranks" "$? $(cat envtype.out)" "SLURM_MPI_TYPE=pmi2 does what --mpi=pmi2 does"

# The tasks' PMI environment, as mpi/pmi2 sets it: PMI_FD (the task's end of its PMI socket),
# PMI_RANK (SLURM_PROCID), PMI_SIZE, PMI_JOBID (JOBID.STEPID) and SLURM_MPI_TYPE=pmi2.
run env "-N4 -n8" srun --mpi=pmi2 bash -c \
  'echo "$PMI_RANK/$PMI_SIZE $([ "$PMI_RANK" = "$SLURM_PROCID" ] && echo rank-ok) fd=${PMI_FD:+set}'\
' $SLURM_MPI_TYPE $([ "$PMI_JOBID" = "$SLURM_JOB_ID.$SLURM_STEP_ID" ] && echo jobid-ok)"'
assert_eq 0 "$?" "a non-MPI program runs under --mpi=pmi2 too"
assert_eq "$(for r in 0 1 2 3 4 5 6 7; do echo "$r/8 rank-ok fd=set pmi2 jobid-ok"; done)" "$(sort -n env.out)" \
  "each task has PMI_FD, PMI_RANK, PMI_SIZE, PMI_JOBID and SLURM_MPI_TYPE"

# Without --mpi (MpiDefault is none) the tasks have no PMI: each program is a world of its own.
run plain "-N2 -n2" srun bash -c 'echo "fd=[${PMI_FD:-}]"; exec "$0"' "$MPI/hello"
assert_eq 0 "$?" "plain srun hello exits 0"
assert_eq 2 "$(grep -c '^fd=\[\]$' plain.out)" "plain srun hands the tasks no PMI_FD"
assert_eq 2 "$(grep -c '^rank 0 of 1 ' plain.out)" "so each task is MPI's singleton"

# A rank that exits without MPI_Finalize while the others wait in MPI_Barrier: the step ends
# (no hang), srun says which task failed and exits non-zero.
run die "-N4 -n8" srun --mpi=pmi2 "$MPI/die"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && ok "an early exit of rank 1 ends the step (rc $rc)" ||
  fail "the step of die did not end as it should (rc $rc; 124: still running after 120 s)"
assert_contains "rank 1 ready" "$(cat die.out)" "rank 1 got through MPI_Init before it left"
assert_contains "task 1: Exited with exit code 3" "$(cat die.err)" "srun names the task and its exit code"
assert_eq 1 "$(grep -c 'ended without MPI_Finalize' die.err)" "srun says once which rank died before finalizing"
assert_match "srun: Job step aborted: Waiting up to [0-9]+ seconds for job step to finish." "$(cat die.err)" \
  "and that the step is aborted, in Slurm's words"
wait_until 60 bash -c '[ -z "$(squeue -h -t running,completing -o %i)" ]'
assert_eq "" "$(squeue -h -t running,completing -o %i)" "and nothing of the job is left running"
end_jobs  # one that hung would hold every CPU from the next

# MPI_Abort(MPI_COMM_WORLD, 7) on rank 1 ends the whole step.
run abort "-N4 -n8" srun --mpi=pmi2 "$MPI/die" abort
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && ok "MPI_Abort on rank 1 ends the step (rc $rc)" ||
  fail "the step of die abort did not end as it should (rc $rc; 124: still running after 120 s)"
assert_contains "application called MPI_Abort(MPI_COMM_WORLD, 7) - process 1" "$(cat abort.err)" "MPICH's abort message reaches srun's stderr"
assert_match "srun: Job step aborted: Waiting up to [0-9]+ seconds for job step to finish." "$(cat abort.err)" \
  "srun says the step is aborted, in Slurm's words"
assert_match "STEP [0-9]+\.0 ON n[1-4] CANCELLED AT" "$(cat abort.err)" "and each node's part is cancelled"
assert_eq 0 "$(grep -c 'ended without MPI_Finalize' abort.err)" "an abort is no early death"
end_jobs

# --mpi=list and an unknown type, in Slurm's words.
tab=$'\t'
out=$(srun --mpi=list 2> list.err)
assert_eq 0 "$?" "srun --mpi=list exits 0"
assert_eq "MPI plugin types are...|${tab}none" "$(head -2 <<<"$out" | tr '\n' '|' | sed 's/|$//')" "--mpi=list starts as Slurm's does"
assert_eq "${tab}pmi2" "$(grep -x "${tab}pmi2" <<<"$out")" "and lists pmi2"
assert_eq "" "$(grep -v "^${tab}[a-z0-9_]*\$" <<<"$out" | grep -v '^MPI plugin types are\.\.\.$' | grep -v '^specific pmix plugin versions available: ')" \
  "and nothing but plugin lines"
srun --mpi=bogus true > bogus.out 2> bogus.err
assert_eq 1 "$?" "srun --mpi=bogus fails"
assert_contains "srun: error: Invalid MPI type 'bogus', --mpi=list for acceptable types" "$(cat bogus.err)" "with Slurm's message"
assert_eq "" "$(cat bogus.out)" "and runs nothing"

# MpiDefault=pmi2 in slurm.conf: plain srun runs MPI programs; --mpi=none still opts out.
end_jobs
cluster_stop "$T/c"
rm -rf "$T/c"
mpi_cluster "MpiDefault=pmi2"
cd "$T"
run dhello "-N4 -n8" srun "$MPI/hello"
assert_eq 0 "$?" "with MpiDefault=pmi2 plain srun hello exits 0"
hello_ok dhello.out 8 && ok "every rank is one of 8" || fail "hello's lines: [$(cat dhello.out)] [$(cat dhello.err)]"
assert_eq "0/8 n1 1/8 n1 2/8 n2 3/8 n2 4/8 n3 5/8 n3 6/8 n4 7/8 n4" "$(ranks dhello.out)" "ranks 0-7 each once over n1-n4"
run dring "-N4 -n8" srun "$MPI/ring"
assert_eq "0 ring 8 ranks token 28" "$? $(cat dring.out)" "and ring goes round all 8 ranks"
run dnone "-N2 -n2" srun --mpi=none "$MPI/hello"
assert_eq 0 "$?" "srun --mpi=none hello exits 0"
assert_eq 2 "$(grep -c '^rank 0 of 1 ' dnone.out)" "--mpi=none overrides MpiDefault: each task is a singleton"
finish
