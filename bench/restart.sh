#!/usr/bin/env bash
# restart.sh - controller restart time with many pending jobs (target: under 2 s for 100,000).
#
#   bench/restart.sh                  100,000 pending jobs, 5 restarts
#   BENCH_JOBS=20000 bench/restart.sh
#
# Fills a fresh state store with BENCH_JOBS pending jobs (build/bench/state_fill: job and script
# records as `sbatch --wrap` submissions leave them), then BENCH_RUNS times starts `droverctld -R`
# on it and times, from the start of the process, until `scontrol ping` first answers (the
# controller serves requests only once it has recovered everything), then kills it with SIGKILL
# as a crash would. Prints each run, the median, and the controller's own figure for reading the
# job records (its "recovered N jobs ... in X ms" log line). No node daemon runs: the jobs stay
# pending, as they would on a full cluster.
#
# Knobs: BENCH_JOBS=100000, BENCH_RUNS=5, BIN=<repo>/build, BENCH_DIR=/tmp, KEEP=1 keeps the
# directory (config, state, log).
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
JOBS=${BENCH_JOBS:-100000}
RUNS=${BENCH_RUNS:-5}

for b in core/ctld/droverctld core/cli/scontrol bench/state_fill; do
  [ -x "$BIN/$b" ] || { echo "restart.sh: $BIN/$b is missing; build first" >&2; exit 1; }
done

DIR=$(mktemp -d "${BENCH_DIR:-/tmp}/drover-restart-bench.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$DIR"' EXIT
write_config "$DIR/c" 1 "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
sed -i "/^PartitionName=/i MaxJobCount=$((JOBS * 2 + 10))" "$DIR/c/slurm.conf"
export SLURM_CONF=$DIR/c/slurm.conf

echo "restart.sh: $(git -C "$ROOT" log -1 --format=%h 2>/dev/null) $(grep -m1 CMAKE_BUILD_TYPE: "$BIN/CMakeCache.txt" | cut -d= -f2)," \
     "load $(cut -d' ' -f1-3 /proc/loadavg), state on $(df -T "$DIR" | awk 'NR==2 {print $2}'), $(nproc) CPU(s)"
"$BIN/bench/state_fill" "$DIR/c/state" "$JOBS" debug || exit 1
echo "state file: $(du -m "$DIR/c/state/data.mdb" | cut -f1) MB"

times=()
for r in $(seq 1 "$RUNS"); do
  log=$DIR/c/log/run$r.log
  s=$EPOCHREALTIME
  "$BIN/core/ctld/droverctld" -D -R -f "$SLURM_CONF" -L "$log" &
  pid=$!
  until "$BIN/core/cli/scontrol" ping >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "restart.sh: the controller died; see $log" >&2; exit 1; }
    sleep 0.005
  done
  e=$EPOCHREALTIME
  ms=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.0f", (e - s) * 1000 }')
  times+=("$ms")
  read_ms=$(sed -n 's/.*recovered \([0-9]*\) jobs.* in \([0-9]*\) ms.*/\2/p' "$log" | tail -1)
  recovered=$(sed -n 's/.*recovered \([0-9]*\) jobs.*/\1/p' "$log" | tail -1)
  printf "run %d: answering after %5d ms (recovered %s jobs; reading the job records took %s ms)\n" \
    "$r" "$ms" "${recovered:-?}" "${read_ms:-?}"
  kill -9 "$pid"
  wait "$pid" 2>/dev/null
  pid=
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
verdict=$([ "$median" -lt 2000 ] && echo met || echo missed)
printf "restart_%d_pending  %d ms (median of %d)  target < 2000 ms: %s\n" "$JOBS" "$median" "$RUNS" "$verdict"
