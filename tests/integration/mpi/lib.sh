# mpi/lib.sh - what the MPI tests share (sourced after lib.sh): the test programs built with an
# MPI's compiler, a four-node cluster, and a step run in an allocation of its own.
SRC=$ROOT/tests/integration/mpi
MPI=$T/mpi

# build_programs MPICC: hello, allreduce, ring and die built into $MPI (readable by the jobs'
# user), warning-free.
build_programs() {
  local p warnings
  mkdir -p "$MPI"
  for p in hello allreduce ring die; do
    warnings=$("$1" -O1 -Wall -o "$MPI/$p" "$SRC/$p.c" 2>&1) || { fail "$1 $p.c: $warnings"; finish; exit 1; }
    assert_eq "" "$warnings" "$p.c compiles without warnings"
  done
  chmod 755 "$MPI" "$MPI"/*
}

# mpi_cluster [CONFIG LINES...]: four node daemons n1-n4 of two CPUs each.
mpi_cluster() {
  make_cluster 4 "SlurmdParameters=config_overrides" "$@"
  sed -i 's/^NodeName=DEFAULT CPUs=1/NodeName=DEFAULT CPUs=2/' "$SLURM_CONF"
  cluster_start "$T/c" 4
}

# run NAME "SALLOC OPTIONS" CMD...: CMD in an allocation of its own, given 120 s at most (a hang
# fails here rather than at ctest's timeout); its stdout in NAME.out, its stderr without salloc's
# own lines in NAME.err; returns its status (salloc's is its command's; 124 when timed out).
run() {
  local name=$1 opts=$2 rc; shift 2
  # shellcheck disable=SC2086 # the options are words
  timeout 120 salloc $opts "$@" < /dev/null > "$name.out" 2> "$name.all"
  rc=$?
  grep -v '^salloc: ' "$name.all" > "$name.err"
  return $rc
}
# ranks FILE: hello's lines as "RANK/SIZE NODE", sorted by rank, on one line.
ranks() { awk '{print $2 "/" $4, $NF}' "$1" | sort -n | tr '\n' ' ' | sed 's/ $//'; }
# hello_ok FILE SIZE: every line is hello's, on this host, of SIZE ranks.
hello_ok() { ! grep -qvE "^rank [0-9]+ of $2 on $(hostname) node n[1-4]$" "$1"; }

