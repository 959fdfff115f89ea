#!/usr/bin/env bash
# failover.sh - a primary and a backup controller on loopback (127.0.0.1 and 127.0.0.2, each with
# its own state directory): submissions per second with and without the backup attached (target:
# with it, at least half the rate without), and the time from kill -9 of the primary until the
# backup accepts a submission (target: SlurmctldTimeout + 1 s).
#
#   bench/failover.sh
#   BENCH_CLIENTS=8 BENCH_JOBS=500 BENCH_TIMEOUT=5 bench/failover.sh
#
# Submission rate: BENCH_CLIENTS sbatch loops of BENCH_JOBS held jobs each, timed as a whole,
# first with the primary alone, then with the backup attached (every acknowledged submission is
# then on the backup before sbatch hears of it). Failover: BENCH_RUNS times, the primary is killed
# with SIGKILL and one sbatch (which waits for the takeover) is timed from the kill; the primary
# is then restarted and takes control back before the next run.
#
# Knobs: BENCH_CLIENTS=4, BENCH_JOBS=250, BENCH_RUNS=3, BENCH_TIMEOUT=3 (SlurmctldTimeout),
# BIN=<repo>/build, KEEP=1 keeps the directory. Slurm's figures are printed only when a Slurm
# cluster with a backup controller is configured, which this script does not set up.
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
CLIENTS=${BENCH_CLIENTS:-4}
JOBS=${BENCH_JOBS:-250}
RUNS=${BENCH_RUNS:-3}
TIMEOUT=${BENCH_TIMEOUT:-3}

for b in core/ctld/droverctld core/noded/droverd core/cli/sbatch core/cli/scontrol; do
  [ -x "$BIN/$b" ] || { echo "failover.sh: $BIN/$b is missing; build first" >&2; exit 1; }
done
DIR=$(mktemp -d /tmp/drover-failover-bench.XXXXXX)
stop_all() { cluster_stop "$DIR" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$DIR"; }
trap stop_all EXIT
write_config "$DIR" 1 "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
sed -i "/^PartitionName=/i SlurmctldTimeout=$TIMEOUT\nMaxJobCount=$(( CLIENTS * JOBS * 3 + 100 ))" "$DIR/slurm.conf"
write_ha_configs "$DIR" 2
export SLURM_CONF=$DIR/slurm.conf PATH=$BIN/core/cli:$PATH

in_control() { scontrol ping 2>/dev/null | grep -q "at ctl$1 is UP (in control)"; }
wait_for() {  # SECONDS COMMAND...
  local end=$((SECONDS + $1)); shift
  until "$@"; do [ $SECONDS -lt "$end" ] || return 1; sleep 0.05; done
}
attached() { [ "$(grep -c "backup controller ctl2 attached" "$DIR/log/ctl$1.log" 2>/dev/null)" -gt "${2:-0}" ]; }
# storm: seconds for CLIENTS loops of JOBS held submissions
storm() {
  local s=$EPOCHREALTIME c pids=()
  for c in $(seq 1 "$CLIENTS"); do
    ( for _ in $(seq 1 "$JOBS"); do sbatch --hold --wrap true >/dev/null || echo failed; done ) > "$DIR/storm-$c.out" &
    pids+=($!)
  done
  wait "${pids[@]}"
  awk -v s="$s" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.3f", e - s }'
}

echo "failover.sh: $(git -C "$ROOT" log -1 --format=%h 2>/dev/null) $(grep -m1 CMAKE_BUILD_TYPE: "$BIN/CMakeCache.txt" | cut -d= -f2)," \
     "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPU(s), SlurmctldTimeout=$TIMEOUT"
start_controller_of "$DIR" 1
start_node "$DIR" 1
wait_for 10 in_control 1 || { echo "failover.sh: the primary did not start; see $DIR/log" >&2; exit 1; }

total=$((CLIENTS * JOBS))
alone=$(storm)
failed=$(cat "$DIR"/storm-*.out | grep -c failed)
printf "submissions, primary alone:      %d in %6.2f s = %6.0f jobs/s (%d failed)\n" "$total" "$alone" \
  "$(awk -v n="$total" -v t="$alone" 'BEGIN { print n / t }')" "$failed"
start_controller_of "$DIR" 2
wait_for 20 attached 1 || { echo "failover.sh: the backup did not attach; see $DIR/log" >&2; exit 1; }
paired=$(storm)
failed=$(cat "$DIR"/storm-*.out | grep -c failed)
printf "submissions, backup attached:    %d in %6.2f s = %6.0f jobs/s (%d failed); ratio %.2f (target >= 0.5)\n" \
  "$total" "$paired" "$(awk -v n="$total" -v t="$paired" 'BEGIN { print n / t }')" "$failed" \
  "$(awk -v a="$alone" -v p="$paired" 'BEGIN { print a / p }')"

times=()
for r in $(seq 1 "$RUNS"); do
  pid=$(cat "$DIR/ctl1.pid")
  kill -9 "$pid"
  s=$EPOCHREALTIME
  wait "$pid" 2>/dev/null  # reaped quietly
  sbatch --hold --wrap true >/dev/null || { echo "failover.sh: no controller accepted the submission" >&2; exit 1; }
  ms=$(awk -v s="$s" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (e - s) * 1000 }')
  times+=("$ms")
  printf "failover run %d: kill -9 of the primary to a submission accepted by the backup: %5d ms\n" "$r" "$ms"
  # The primary comes back and takes control back; the backup attaches to it again.
  before=$(grep -c "backup controller ctl2 attached" "$DIR/log/ctl1.log")
  start_controller_of "$DIR" 1
  wait_for 30 in_control 1 && wait_for 20 attached 1 "$before" ||
    { echo "failover.sh: the primary did not take control back; see $DIR/log" >&2; exit 1; }
done
median=$(printf "%s\n" "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
echo "failover median: $median ms (target: SlurmctldTimeout + 1 s = $(( TIMEOUT * 1000 + 1000 )) ms)"
