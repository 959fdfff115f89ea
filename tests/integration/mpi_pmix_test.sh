#!/usr/bin/env bash
# mpi_pmix_test.sh - srun --mpi=pmix runs Open MPI programs with no mpirun, as Slurm's mpi/pmix
# does: droverd starts the step's drover-pmix (an OpenPMIx server, as the user) on each node, the
# tasks find it through their PMIX_* variables, and the fences of MPI_Init and the collectives go
# through srun; every task is a rank of one MPI_COMM_WORLD across four nodes; MPI_Abort ends the
# step on every node. Needs Open MPI (mpicc.openmpi); skipped without it.
source "$(dirname "$0")/lib.sh"
if ! command -v mpicc.openmpi >/dev/null 2>&1; then
  echo "mpi_pmix_test: needs mpicc.openmpi (packages openmpi-bin, libopenmpi-dev); skipped"; exit 0
fi
source "$ROOT/tests/integration/mpi/lib.sh"
build_programs mpicc.openmpi
# The four "nodes" are one machine: Open MPI talks between them over loopback TCP (it leaves the
# loopback interface out unless told). Not through shared memory: its segments are named by the
# real host and the local rank, so two "nodes" would share them. No transport a container lacks.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo
export OMPI_MCA_osc=^ucx OMPI_MCA_mtl=^ofi,psm,psm2

mpi_cluster
cd "$T"

run hello "-N4 -n8" srun --mpi=pmix "$MPI/hello"
assert_eq 0 "$?" "srun --mpi=pmix hello exits 0"
hello_ok hello.out 8 && ok "every rank is one of 8, on this host, on a node of the job" ||
  fail "hello's lines: [$(cat hello.out)] [$(cat hello.err)]"
assert_eq "0/8 n1 1/8 n1 2/8 n2 3/8 n2 4/8 n3 5/8 n3 6/8 n4 7/8 n4" "$(ranks hello.out)" \
  "ranks 0-7 each once, in block order over n1-n4"

run allreduce "-N4 -n8" srun --mpi=pmix "$MPI/allreduce"
assert_eq "0 sum 36 of 8 ranks" "$? $(cat allreduce.out)" "MPI_Allreduce over 8 ranks on 4 nodes"
run ring "-N4 -n8" srun --mpi=pmix_v4 "$MPI/ring"
assert_eq "0 ring 8 ranks token 28" "$? $(cat ring.out)" "a token round all 8 ranks (--mpi=pmix_v4)"

# The tasks' PMIx variables, as mpi/pmix sets them.
run env "-N2 -n2" srun --mpi=pmix bash -c 'echo "$PMIX_RANK $PMIX_NAMESPACE ${PMIX_SERVER_URI4:+uri}"'
assert_eq "0 drover.pmix.$(tail -1 env.all | grep -o '[0-9]*' | head -1).0 uri" "$(sort env.out | head -1)" \
  "PMIX_RANK, the step's PMIX_NAMESPACE and the server's address" || cat env.all

# A rank that exits without MPI_Finalize while the others wait in MPI_Barrier: its node's PMIx
# server knew it connected and never finalized, so the step ends instead of hanging.
run die "-N4 -n8" srun --mpi=pmix "$MPI/die"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && ok "a rank dying inside MPI ends the step (rc $rc)" ||
  fail "the step of die did not end as it should (rc $rc; 124: still running after 120 s)"
assert_eq 1 "$(grep -c 'ended without MPI_Finalize' die.err)" "srun says once which rank died before finalizing"
assert_contains "task 1: Exited with exit code 3" "$(cat die.err)" "and the task's exit code"
# A step of programs that never speak PMIx is no early death.
run plain "-N2 -n2" srun --mpi=pmix bash -c 'exit 0'
assert_eq "0 0" "$? $(grep -c 'without MPI_Finalize' plain.err)" "tasks that are not MPI programs end normally"

# MPI_Abort on rank 1 ends the whole step on every node.
run abort "-N4 -n8" srun --mpi=pmix "$MPI/die" abort
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && ok "MPI_Abort on rank 1 ends the step (rc $rc)" ||
  fail "the step of die abort did not end as it should (rc $rc; 124: still running after 120 s)"
assert_match "srun: Job step aborted: Waiting up to [0-9]+ seconds for job step to finish." "$(cat abort.err)" \
  "srun says the step is aborted, in Slurm's words"
end_jobs

# Each node's PMIx server is gone with its step, and its directory with it.
wait_until 30 bash -c '! pgrep -x drover-pmix >/dev/null'
assert_eq "" "$(pgrep -x drover-pmix)" "no drover-pmix outlives its step"
assert_eq "" "$(ls -d /tmp/drover-pmix.* 2>/dev/null)" "nor its directory"

out=$(srun --mpi=list)
assert_contains $'\tpmix' "$out" "--mpi=list lists pmix"
assert_contains "specific pmix plugin versions available: pmix_v4" "$out" "and its version"
finish
