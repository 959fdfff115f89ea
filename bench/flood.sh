#!/usr/bin/env bash
# flood.sh - `scontrol ping` latency and node states on a 3-node loopback cluster: idle, during a
# flood of idle connections to the controller's port from `nobody` (an account with no
# credential), and during a flood of bad frames at a given rate. The target is what the Security
# issue asks: every node stays up and ping's p99 stays within a small multiple of the idle figure.
#
#   bench/flood.sh
#   BENCH_CONNS=20000 BENCH_BAD_RATE=1000 BENCH_PINGS=100 bench/flood.sh
#
# Each phase times BENCH_PINGS pings one after another and prints p50, p99 and max in ms, and the
# nodes not up when it ends. Knobs: BENCH_CONNS=20000, BENCH_BAD_RATE=1000 (frames a second),
# BENCH_PINGS=100, BIN=<repo>/build, KEEP=1 keeps the directory. Slurm's figures are not printed:
# a Slurm controller is not set up by this script.
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
CONNS=${BENCH_CONNS:-20000}
RATE=${BENCH_BAD_RATE:-1000}
PINGS=${BENCH_PINGS:-100}
TOOL=$BIN/tests/integration/frame_tool

for b in core/ctld/droverctld core/noded/droverd core/cli/scontrol tests/integration/frame_tool; do
  [ -x "$BIN/$b" ] || { echo "flood.sh: $BIN/$b is missing; build first" >&2; exit 1; }
done
DIR=$(mktemp -d /tmp/drover-flood-bench.XXXXXX)
chmod 755 "$DIR"
stop_all() { cluster_stop "$DIR" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$DIR"; }
trap stop_all EXIT
write_config "$DIR" 3 "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
sed -i "/^PartitionName=/i SlurmdTimeout=10" "$DIR/slurm.conf"
export SLURM_CONF=$DIR/slurm.conf PATH=$BIN/core/cli:$PATH
cluster_start "$DIR" 3 >/dev/null || exit 1
port=$(awk -F= '/^SlurmctldPort/ {print $2}' "$SLURM_CONF")
runas=(runuser -u nobody --)
[ "$(id -u)" -eq 0 ] || runas=()

# PINGS pings, one after another: "p50 p99 max" in ms, and failures.
pings() {
  local i t0 t1 failed=0
  : > "$DIR/ms"
  for i in $(seq 1 "$PINGS"); do
    t0=$(date +%s%N)
    scontrol ping 2>&1 | grep -q "is UP" || failed=$((failed + 1))
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 )) >> "$DIR/ms"
  done
  sort -n "$DIR/ms" | awk -v f="$failed" '{a[NR] = $1} END {
    i50 = int(NR * 0.5) + 1; i99 = int(NR * 0.99) + 1; if (i99 > NR) i99 = NR
    printf "p50 %4d ms  p99 %4d ms  max %4d ms  failed %d", a[i50], a[i99], a[NR], f }'
}
not_up() { sinfo -h -N -o '%N %t' | awk '$2 !~ /^(idle|alloc|mix)$/ {printf "%s ", $1}'; }
phase() { printf '%-34s %s  nodes not up: [%s]\n' "$1" "$(pings)" "$(not_up)"; }

echo "flood.sh: 3 nodes on loopback, $PINGS pings a phase ($(nproc) cores)"
phase "idle"
"${runas[@]}" "$TOOL" 127.0.0.1 "$port" "$DIR/auth.socket" localhost flood "$CONNS" 600 > "$DIR/flood.out" 2>/dev/null &
flood=$!
until grep -q opened "$DIR/flood.out" 2>/dev/null; do sleep 0.2; done
phase "$(cut -d' ' -f2 "$DIR/flood.out") idle connections held"
kill "$flood" 2>/dev/null; wait "$flood" 2>/dev/null
( end=$((SECONDS + 600))
  while [ $SECONDS -lt $end ]; do
    "${runas[@]}" "$TOOL" 127.0.0.1 "$port" "$DIR/auth.socket" localhost garbage "$RATE" >/dev/null
    sleep 1
  done ) &
bad=$!
phase "about $RATE bad frames a second"
kill "$bad" 2>/dev/null; wait "$bad" 2>/dev/null
phase "after"
echo "target: no node down in any phase; ping p99 under load within a few times idle"
