#!/usr/bin/env bash
# steps.sh - job step benchmark of Drover (and of Slurm, side by side, when one runs here).
#
#   bench/steps.sh                    200 sequential steps, 1000 concurrent steps
#   BENCH_SCALE=0.1 bench/steps.sh    a tenth of each (quick run)
#
# Measures, inside one allocation:
#   step_latency   `srun -n1 true` one after another: median and p99 wall time, ms
#   step_rate      N `srun -n1 --exact true` started at once (the allocation has N CPUs): from
#                  the first start until the last srun exits; steps/s
# and the target: at least 5x Slurm's step rate on the same machine. The target is judged only
# when a Slurm cluster answers here (install slurm-wlm, start slurmctld and slurmd); otherwise
# the Slurm column says n/a.
#
# Knobs: BENCH_SEQ=200, BENCH_CONC=1000, BENCH_NODES=4, BENCH_SLURM=auto|0|1, SLURM_BIN=/usr/bin,
# BIN=<repo>/build, BENCH_DIR=/tmp, KEEP=1 keeps the cluster directory.
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
SCALE=${BENCH_SCALE:-1}
scaled() { awk -v n="$1" -v s="$SCALE" 'BEGIN { v = int(n * s + 0.5); if (v < 10) v = 10; print v }'; }
N_SEQ=${BENCH_SEQ:-$(scaled 200)}
N_CONC=${BENCH_CONC:-$(scaled 1000)}
NODES=${BENCH_NODES:-4}
SLURM_BIN=${SLURM_BIN:-/usr/bin}

for b in core/ctld/droverctld core/noded/droverd core/cli/srun core/cli/salloc; do
  [ -x "$BIN/$b" ] || { echo "steps.sh: $BIN/$b is missing; build first" >&2; exit 1; }
done

# The measurements, run inside an allocation by the given salloc (Drover's or Slurm's).
# Prints "median_ms p99_ms rate".
measure() {
  local salloc=$1 srun=$2 cpus_per_node=$3
  "$salloc" -N "$NODES" -n "$N_CONC" --exclusive bash -c '
    export LC_ALL=C
    srun=$0; nseq=$1; nconc=$2
    for i in $(seq 1 "$nseq"); do
      s=$EPOCHREALTIME; "$srun" -n1 --overlap true; e=$EPOCHREALTIME
      awk -v s="$s" -v e="$e" "BEGIN { printf \"%.3f\\n\", (e - s) * 1000 }"
    done | sort -n > "$TMPDIR/lat.txt"
    med=$(awk "{ a[NR] = \$1 } END { print a[int((NR + 1) / 2)] }" "$TMPDIR/lat.txt")
    p99=$(awk "{ a[NR] = \$1 } END { i = int(NR * 0.99); if (i < 1) i = 1; print a[i] }" "$TMPDIR/lat.txt")
    s=$EPOCHREALTIME
    for i in $(seq 1 "$nconc"); do "$srun" -n1 --exact true & done
    wait
    e=$EPOCHREALTIME
    rate=$(awk -v n="$nconc" -v s="$s" -v e="$e" "BEGIN { printf \"%.1f\", n / (e - s) }")
    echo "$med $p99 $rate"
  ' "$srun" "$N_SEQ" "$N_CONC" 2>/dev/null | tail -1
}

DIR=$(mktemp -d "${BENCH_DIR:-/tmp}/drover-steps-bench.XXXXXX")
trap 'cluster_stop "$DIR/c" >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$DIR"' EXIT
mkdir -p "$DIR/c"
CPN=$(( (N_CONC + NODES - 1) / NODES ))
write_config "$DIR/c" "$NODES" "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
sed -i "s/^NodeName=DEFAULT CPUs=1/NodeName=DEFAULT CPUs=$CPN/" "$DIR/c/slurm.conf"
# More CPUs than the machine has: the nodes are taken at their configured size.
sed -i "/^PartitionName=/i SlurmdParameters=config_overrides" "$DIR/c/slurm.conf"
cluster_start "$DIR/c" "$NODES" >/dev/null || { echo "steps.sh: cluster did not start" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || true
export SLURM_CONF=$DIR/c/slurm.conf TMPDIR=$DIR
read -r d_med d_p99 d_rate < <(measure "$BIN/core/cli/salloc" "$BIN/core/cli/srun" "$CPN")
cluster_stop "$DIR/c" >/dev/null 2>&1

s_med="" s_p99="" s_rate=""
if [ "${BENCH_SLURM:-auto}" != 0 ] && "$SLURM_BIN/sinfo" -h >/dev/null 2>&1; then
  unset SLURM_CONF
  read -r s_med s_p99 s_rate < <(measure "$SLURM_BIN/salloc" "$SLURM_BIN/srun" 0)
elif [ "${BENCH_SLURM:-auto}" = 1 ]; then
  echo "steps.sh: BENCH_SLURM=1 but no Slurm answers here" >&2
fi

printf '%-14s %12s %12s   %s\n' figure drover slurm target
printf '%-14s %9s ms %9s ms\n' step_median "${d_med:-?}" "${s_med:-n/a}"
printf '%-14s %9s ms %9s ms\n' step_p99 "${d_p99:-?}" "${s_p99:-n/a}"
if [ -n "$s_rate" ]; then
  target=$(awk -v b="$s_rate" 'BEGIN { print b * 5 }')
  met=$(awk -v d="${d_rate:-0}" -v t="$target" 'BEGIN { print (d >= t) ? "met" : "missed" }')
  printf '%-14s %8s /s %8s /s   >= %s/s (5x Slurm): %s\n' step_rate "${d_rate:-?}" "$s_rate" "$target" "$met"
else
  printf '%-14s %8s /s %8s /s   5x Slurm: not judged (no Slurm here)\n' step_rate "${d_rate:-?}" n/a
fi
exit 0
