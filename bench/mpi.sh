#!/usr/bin/env bash
# mpi.sh - MPI launch and PMI fence figures of srun --mpi=pmi2 on emulated nodes (one droverd
# process serving many nodes), and the same launch by MPICH's own mpiexec (hydra) on this machine.
#
#   launch   `srun --mpi=pmi2 -N N/8 -n N stamp` inside an allocation of 32 nodes of 8 CPUs, for N =
#            1, 64 and 256: from srun's start until the last rank is past MPI_Init (each rank of
#            stamp, built with mpicc.mpich, prints CLOCK_REALTIME in us right after MPI_Init), and
#            srun's whole wall time; then `mpiexec.mpich -n N stamp` timed the same way. The median
#            of BENCH_RUNS runs. Targets: 256 ranks under 1 s, and below mpiexec's launch time.
#   fence    bench/pmi_fence.c (built here with cc; PMI-1 spoken on PMI_FD, no MPI library), one
#            rank on each of 1,000 emulated nodes of 1 CPU served by BENCH_FENCE_PROCS droverd
#            processes: each rank's time in barrier_in .. barrier_out, the first fence and a second,
#            warm one; max and median over the ranks, and from the last rank in to the last rank
#            out. Target: under 200 ms.
#
#   bench/mpi.sh
#   BENCH_FENCE_NODES=200 BENCH_RUNS=1 bench/mpi.sh     smaller and quicker
#   BENCH_LAUNCH=0 bench/mpi.sh                         the fence only
#
# Knobs: BENCH_SIZES="1 64 256", BENCH_CPN=8 (CPUs and ranks per node of the launch cluster),
# BENCH_RUNS=3, BENCH_LAUNCH_PROCS=8 (droverd processes of the launch cluster), BENCH_MPIEXEC=1 (0: no mpiexec runs), BENCH_LAUNCH=1, BENCH_FENCE=1,
# BENCH_FENCE_NODES=1000, BENCH_FENCE_PROCS=100, BENCH_FENCE_RUNS=3, BENCH_PORT=14001 (first node
# port; the nodes take consecutive ports below the kernel's range for outgoing connections),
# BIN=<repo>/build, BENCH_DIR=/tmp, KEEP=1 keeps the directory (configs, logs, every run's output).
# Slurm's figures are not printed: no Slurm cluster is set up by this script.
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
read -r -a SIZES <<< "${BENCH_SIZES:-1 64 256}"
CPN=${BENCH_CPN:-8}
RUNS=${BENCH_RUNS:-3}
# An emulating droverd launches its nodes' parts of a step one after another on its loop (a fork
# each, slow on this VM), and a node that has not accepted the launch within the per-hop timeout
# (6-7.5 s) fails the step: the nodes are spread over several processes.
LPROCS=${BENCH_LAUNCH_PROCS:-8}
FNODES=${BENCH_FENCE_NODES:-1000}
FPROCS=${BENCH_FENCE_PROCS:-100}
FRUNS=${BENCH_FENCE_RUNS:-3}
PORT=${BENCH_PORT:-14001}

for b in core/ctld/droverctld core/noded/droverd core/cli/srun core/cli/salloc core/cli/sinfo; do
  [ -x "$BIN/$b" ] || { echo "mpi.sh: $BIN/$b is missing; build first" >&2; exit 1; }
done
DIR=$(mktemp -d "${BENCH_DIR:-/tmp}/drover-mpi-bench.XXXXXX")
chmod 755 "$DIR"
trap 'cluster_stop "$DIR/c" >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$DIR"' EXIT
ulimit -n 1048576 2>/dev/null || ulimit -n 65536 2>/dev/null || true
ulimit -u unlimited 2>/dev/null || true
export PATH=$BIN/core/cli:$PATH

# now_us: CLOCK_REALTIME in microseconds, without a fork (what `date +%s%6N` prints).
now_us() { local t=$EPOCHREALTIME; echo "${t/./}"; }
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "?" }'; }

# The programs, readable and runnable by the jobs (they run as the caller).
HAVE_MPI=1
if [ "${BENCH_LAUNCH:-1}" = 1 ]; then
  if command -v mpicc.mpich >/dev/null 2>&1; then
    cat > "$DIR/stamp.c" <<'C'
/* stamp.c - bench/mpi.sh: "stamp RANK US" right after MPI_Init, US = CLOCK_REALTIME in us. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
int main(int argc, char **argv) {
    struct timespec ts;
    int rank;
    MPI_Init(&argc, &argv);
    clock_gettime(CLOCK_REALTIME, &ts);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("stamp %d %lld\n", rank, (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
C
    mpicc.mpich -O2 -o "$DIR/stamp" "$DIR/stamp.c" || { echo "mpi.sh: mpicc.mpich failed" >&2; exit 1; }
  else
    echo "mpi.sh: no mpicc.mpich (packages mpich, libmpich-dev): the launch figures are skipped" >&2
    HAVE_MPI=0
  fi
fi
if [ "${BENCH_FENCE:-1}" = 1 ]; then
  cc -O2 -Wall -o "$DIR/pmi_fence" "$ROOT/bench/pmi_fence.c" || { echo "mpi.sh: cc pmi_fence.c failed" >&2; exit 1; }
fi

# start NAME COUNT CPUS PROCS: a controller and PROCS droverd processes emulating COUNT nodes
# NAME[1-COUNT] of CPUS CPUs (TreeWidth=50) on ports PORT..; waits until all are idle.
start() {
  local name=$1 count=$2 cpus=$3 procs=$4 w i lo hi
  cluster_stop "$DIR/c" >/dev/null 2>&1
  rm -rf "$DIR/c"; mkdir -p "$DIR/c"
  w=${#count}
  # The controller listens below the nodes' ports.
  write_config "$DIR/c" 1 "$(( 11000 + RANDOM % 900 ))" 20000
  sed -i "/^NodeName=/d; /^PartitionName=/d; /^TreeWidth=/d; /^SlurmdTimeout=/d" "$DIR/c/slurm.conf"
  # JobAcctGatherFrequency=0: no sampling of running steps. With proctrack/pgid each sample of a
  # step reads every /proc/PID/stat on the machine, and an emulating droverd samples each of its
  # nodes' steps: 1,000 steps x ~2,600 processes every 30 s starves the droverds' loops (the
  # nodes stop answering pings and go DOWN), which real nodes, one step each, never see.
  cat >> "$DIR/c/slurm.conf" <<CONF
TreeWidth=50
SlurmdTimeout=60
JobAcctGatherFrequency=0
SlurmdParameters=config_overrides
NodeName=$name[$(printf "%0${w}d" 1)-$count] NodeAddr=127.0.0.1 Port=[$PORT-$((PORT + count - 1))] CPUs=$cpus RealMemory=1000
PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$DIR/c/slurm.conf
  start_ctld "$DIR/c"
  for i in $(seq 1 "$procs"); do
    lo=$(( (i - 1) * count / procs + 1 )) hi=$(( i * count / procs ))
    [ "$lo" -le "$hi" ] || continue
    "$BIN/core/noded/droverd" -D -f "$SLURM_CONF" \
      --emulate "$name[$(printf "%0${w}d" "$lo")-$(printf "%0${w}d" "$hi")]" -L "$DIR/c/log/droverd-$i.log" &
    echo $! > "$DIR/c/node-$i.pid"
  done
  for _ in $(seq 1 600); do
    [ "$(sinfo -h -t idle -o %D 2>/dev/null)" = "$count" ] && return 0
    for i in $(seq 1 "$procs"); do
      # A port of the range taken by another program ends droverd at once: no use waiting.
      [ -f "$DIR/c/node-$i.pid" ] && ! kill -0 "$(cat "$DIR/c/node-$i.pid")" 2>/dev/null && break 2
    done
    sleep 0.2
  done
  echo "mpi.sh: the $count nodes did not come up (idle: $(sinfo -h -t idle -o %D 2>/dev/null)); see $DIR/c/log (KEEP=1 keeps it)" >&2
  return 1
}

# launch_figures N START_US END_US RC OUT: "launch_ms total_ms" (launch "?" unless every rank stamped).
launch_figures() {
  awk -v n="$1" -v s="$2" -v e="$3" -v rc="$4" '
    $1 == "stamp" { seen[$2] = 1; if ($3 > max) max = $3 }
    END { k = 0; for (r in seen) k++
          if (k == n && rc == 0) printf "%.1f %.1f\n", (max - s) / 1000, (e - s) / 1000
          else printf "? %.1f\n", (e - s) / 1000 }' "$5"
}

declare -A D_LAUNCH D_TOTAL M_LAUNCH M_TOTAL
if [ "${BENCH_LAUNCH:-1}" = 1 ] && [ "$HAVE_MPI" = 1 ]; then
  maxn=0
  for n in "${SIZES[@]}"; do [ "$n" -gt "$maxn" ] && maxn=$n; done
  lnodes=$(( (maxn + CPN - 1) / CPN ))
  if start lx "$lnodes" "$CPN" "$LPROCS"; then
    # Inside one allocation of every node: each size BENCH_RUNS times, one "N RUN RC START END" line each.
    cat > "$DIR/inside.sh" <<'SH'
#!/usr/bin/env bash
dir=$1 cpn=$2 runs=$3; shift 3
for n in "$@"; do
  for r in $(seq 1 "$runs"); do
    t=$EPOCHREALTIME; s=${t/./}
    timeout 300 srun --mpi=pmi2 -N $(( (n + cpn - 1) / cpn )) -n "$n" "$dir/stamp" > "$dir/drover.$n.$r.out" 2> "$dir/drover.$n.$r.err"
    rc=$?
    t=$EPOCHREALTIME; e=${t/./}
    echo "$n $r $rc $s $e"
  done
done
SH
    chmod 755 "$DIR/inside.sh"
    salloc -N "$lnodes" -n "$((lnodes * CPN))" --exclusive "$DIR/inside.sh" "$DIR" "$CPN" "$RUNS" "${SIZES[@]}" \
      > "$DIR/drover.runs" 2> "$DIR/salloc.err"
    while read -r n r rc s e; do
      read -r l t < <(launch_figures "$n" "$s" "$e" "$rc" "$DIR/drover.$n.$r.out")
      printf 'drover   -n %-4s run %s: launch %8s ms  srun %8s ms  rc %s\n' "$n" "$r" "$l" "$t" "$rc"
      [ "$rc" = 0 ] || sed 's/^/    /' "$DIR/drover.$n.$r.err" | head -5
      echo "$l" >> "$DIR/d_launch.$n"; echo "$t" >> "$DIR/d_total.$n"
    done < "$DIR/drover.runs"
    [ -s "$DIR/drover.runs" ] || { echo "mpi.sh: salloc ran nothing:" >&2; cat "$DIR/salloc.err" >&2; }
    for n in "${SIZES[@]}"; do
      D_LAUNCH[$n]=$(grep -v '?' "$DIR/d_launch.$n" 2>/dev/null | median)
      D_TOTAL[$n]=$(median < "$DIR/d_total.$n" 2>/dev/null)
    done
  fi
  cluster_stop "$DIR/c" >/dev/null 2>&1
  if [ "${BENCH_MPIEXEC:-1}" = 1 ] && command -v mpiexec.mpich >/dev/null 2>&1; then
    for n in "${SIZES[@]}"; do
      for r in $(seq 1 "$RUNS"); do
        s=$(now_us)
        # No SLURM_* in its environment: hydra would take it for a Slurm allocation.
        env -u SLURM_CONF timeout 300 mpiexec.mpich -n "$n" "$DIR/stamp" > "$DIR/mpiexec.$n.$r.out" 2> "$DIR/mpiexec.$n.$r.err"
        rc=$?
        e=$(now_us)
        read -r l t < <(launch_figures "$n" "$s" "$e" "$rc" "$DIR/mpiexec.$n.$r.out")
        printf 'mpiexec  -n %-4s run %s: launch %8s ms  total %7s ms  rc %s\n' "$n" "$r" "$l" "$t" "$rc"
        echo "$l" >> "$DIR/m_launch.$n"; echo "$t" >> "$DIR/m_total.$n"
      done
      M_LAUNCH[$n]=$(grep -v '?' "$DIR/m_launch.$n" | median)
      M_TOTAL[$n]=$(median < "$DIR/m_total.$n")
    done
  fi
fi

# The fence: one rank on each of FNODES nodes of 1 CPU.
F_LINES=()
if [ "${BENCH_FENCE:-1}" = 1 ]; then
  if start fx "$FNODES" 1 "$FPROCS"; then
    cat > "$DIR/fence_inside.sh" <<'SH'
#!/usr/bin/env bash
dir=$1 n=$2 runs=$3
for r in $(seq 1 "$runs"); do
  t=$EPOCHREALTIME; s=${t/./}
  timeout 300 srun --mpi=pmi2 -N "$n" -n "$n" "$dir/pmi_fence" > "$dir/fence.$r.out" 2> "$dir/fence.$r.err"
  rc=$?
  t=$EPOCHREALTIME; e=${t/./}
  echo "$r $rc $s $e"
done
SH
    chmod 755 "$DIR/fence_inside.sh"
    salloc -N "$FNODES" -n "$FNODES" --exclusive "$DIR/fence_inside.sh" "$DIR" "$FNODES" "$FRUNS" \
      > "$DIR/fence.runs" 2> "$DIR/salloc-fence.err"
    [ -s "$DIR/fence.runs" ] || { echo "mpi.sh: salloc ran nothing:" >&2; cat "$DIR/salloc-fence.err" >&2; }
    while read -r r rc s e; do
      # Per run: ranks reported, values read back; fence 1 and 2: max and median per rank, last in
      # to last out; srun's wall time.
      line=$(awk -v s="$s" -v e="$e" '
        $1 == "fence" { k++; ok += $10; f1[k] = $4 / 1000; f2[k] = $5 / 1000
                        if ($6 > in1) in1 = $6; if ($7 > out1) out1 = $7
                        if ($8 > in2) in2 = $8; if ($9 > out2) out2 = $9 }
        function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }; return a[int((n + 1) / 2)] }
        END { if (!k) { print "0 0 ? ? ? ? ? ? ?"; exit }
              n = k; printf "%d %d %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", k, ok,
                med(f1, n), f1[n], (out1 - in1) / 1000, med(f2, n), f2[n], (out2 - in2) / 1000, (e - s) / 1000 }' "$DIR/fence.$r.out")
      F_LINES+=("$line")
      read -r k ok m1 x1 l1 m2 x2 l2 t <<< "$line"
      printf 'fence    %s ranks run %s: ranks %s (next rank read back: %s)  fence1 median %s max %s last-in..last-out %s ms  fence2 median %s max %s last-in..last-out %s ms  srun %s ms  rc %s\n' \
        "$FNODES" "$r" "$k" "$ok" "$m1" "$x1" "$l1" "$m2" "$x2" "$l2" "$t" "$rc"
      [ "$rc" = 0 ] || sort "$DIR/fence.$r.err" | uniq -c | sort -rn | head -5 | sed 's/^/    /'
    done < "$DIR/fence.runs"
  fi
  cluster_stop "$DIR/c" >/dev/null 2>&1
fi

# The table: medians over the runs.
echo
echo "mpi.sh: $(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo ?)"
if [ "${BENCH_LAUNCH:-1}" = 1 ] && [ "$HAVE_MPI" = 1 ]; then
  printf '%-22s %14s %14s %14s %14s   %s\n' "launch (median of $RUNS)" "drover launch" "drover srun" "mpiexec launch" "mpiexec total" target
  for n in "${SIZES[@]}"; do
    dl=${D_LAUNCH[$n]:-?} ml=${M_LAUNCH[$n]:-n/a}
    verdict=""
    if [ "$dl" != "?" ]; then
      [ "$n" -ge 256 ] && verdict="< 1000 ms: $(awk -v d="$dl" 'BEGIN { print (d < 1000) ? "met" : "missed" }')"
      [ "$ml" != "n/a" ] && [ "$ml" != "?" ] &&
        verdict+="${verdict:+; }< mpiexec: $(awk -v d="$dl" -v m="$ml" 'BEGIN { print (d < m) ? "met" : "missed" }')"
    fi
    printf '%-22s %11s ms %11s ms %11s ms %11s ms   %s\n' "-n $n ($(( (n + CPN - 1) / CPN )) node(s))" "$dl" "${D_TOTAL[$n]:-?}" "$ml" "${M_TOTAL[$n]:-n/a}" "$verdict"
  done
fi
if [ "${BENCH_FENCE:-1}" = 1 ] && [ "${#F_LINES[@]}" -gt 0 ]; then
  col() { for l in "${F_LINES[@]}"; do awk -v c="$1" '{ print $c }' <<< "$l"; done | grep -v '?' | median; }
  x2=$(col 7)
  good=$(for l in "${F_LINES[@]}"; do awk '$1 > 0' <<< "$l"; done | wc -l)
  printf '%-38s %10s   %s\n' "fence, $FNODES nodes x 1 rank (median of $good good run(s) of ${#F_LINES[@]})" ms target
  printf '%-38s %10s   %s\n' "fence 1, per rank: median" "$(col 3)" ""
  printf '%-38s %10s   %s\n' "fence 1, per rank: max" "$(col 4)" "(includes waiting for the last rank to start)"
  printf '%-38s %10s   %s\n' "fence 1, last rank in to last out" "$(col 5)" "< 200 ms: $(awk -v d="$(col 5)" 'BEGIN { print (d != "?" && d < 200) ? "met" : "missed" }')"
  printf '%-38s %10s   %s\n' "fence 2 (warm), per rank: median" "$(col 6)" ""
  printf '%-38s %10s   %s\n' "fence 2 (warm), per rank: max" "$x2" "< 200 ms: $(awk -v d="$x2" 'BEGIN { print (d != "?" && d < 200) ? "met" : "missed" }')"
  printf '%-38s %10s   %s\n' "fence 2 (warm), last rank in to last out" "$(col 8)" ""
  printf '%-38s %10s   %s\n' "srun wall time" "$(col 9)" ""
fi
exit 0
