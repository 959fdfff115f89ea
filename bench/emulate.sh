#!/usr/bin/env bash
# emulate.sh - large-cluster figures with an emulated cluster (one droverd serving every node):
#   ping_broadcast   a ping round to every node through the fan-out tree (TreeWidth 50), from the
#                    controller's send until the aggregated reply: median of the rounds, ms
#   ctld_rss_delta   controller RSS with BENCH_RSS_NODES registered nodes minus with one, KB
#                    (the design paper expected about 1 MB for 16k nodes)
#   down_killed      BENCH_LOST nodes (10 % of the nodes; their own droverd, the last of the
#                    cluster's names) are lost at once by kill -9 of that droverd: seconds until
#                    the controller shows every one of them DOWN "Not responding", and the longest
#                    ping round meanwhile (SlurmdTimeout=9: pings every 3 s)
#   down_hung        the same with SIGSTOP: the nodes accept connections but never answer, so each
#                    costs the tree a per-hop timeout instead of a refused connection
#
#   bench/emulate.sh                  10,000 nodes for the ping, 16,384 for the memory
#   BENCH_NODES=2000 bench/emulate.sh smaller
#
# Knobs: BENCH_NODES=10000, BENCH_RSS_NODES=16384, BENCH_ROUNDS=5, BENCH_LOST=N/10, BIN=<repo>/build,
# BENCH_DIR=/tmp, KEEP=1. Ports 12001.. (below the kernel's range for outgoing connections).
set -uo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
N=${BENCH_NODES:-10000}
N_RSS=${BENCH_RSS_NODES:-16384}
ROUNDS=${BENCH_ROUNDS:-5}
DIR=$(mktemp -d "${BENCH_DIR:-/tmp}/drover-emulate-bench.XXXXXX")
trap 'cluster_stop "$DIR/c" >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$DIR"' EXIT
ulimit -n 1048576 2>/dev/null || ulimit -n 65536 2>/dev/null || true

# start COUNT [LOST]: a controller and one droverd emulating COUNT nodes (two when LOST is set: the
# second emulates the last LOST of them); waits until all are idle.
start() {
  local count=$1 lost=${2:-0}
  cluster_stop "$DIR/c" >/dev/null 2>&1
  rm -rf "$DIR/c"; mkdir -p "$DIR/c"
  # The controller listens below the nodes' port range.
  write_config "$DIR/c" 1 "$(( 11000 + RANDOM % 900 ))" 20000
  sed -i "/^NodeName=/d; /^PartitionName=/d; /^TreeWidth=/d; /^SlurmdTimeout=/d" "$DIR/c/slurm.conf"
  cat >> "$DIR/c/slurm.conf" <<CONF
TreeWidth=50
SlurmdTimeout=9
SlurmdParameters=config_overrides
NodeName=lx[00001-$(printf %05d "$count")] NodeAddr=127.0.0.1 Port=[12001-$((12000 + count))] CPUs=32 RealMemory=128000
PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$DIR/c/slurm.conf
  start_ctld "$DIR/c"
  local kept=$((count - lost))
  "$BIN/core/noded/droverd" -D -f "$SLURM_CONF" --emulate "lx[00001-$(printf %05d "$kept")]" \
    -L "$DIR/c/log/droverd.log" &
  echo $! > "$DIR/c/node-emu.pid"
  if [ "$lost" -gt 0 ]; then
    "$BIN/core/noded/droverd" -D -f "$SLURM_CONF" --emulate "lx[$(printf %05d $((kept + 1)))-$(printf %05d "$count")]" \
      -L "$DIR/c/log/droverd-lost.log" &
    echo $! > "$DIR/c/node-lost.pid"
  fi
  for _ in $(seq 1 600); do
    [ "$("$BIN/core/cli/sinfo" -h -t idle -o %D 2>/dev/null)" = "$count" ] && return 0
    # A port of the range taken by another program ends droverd at once: no use waiting.
    kill -0 "$(cat "$DIR/c/node-emu.pid")" 2>/dev/null || break
    sleep 0.2
  done
  echo "emulate.sh: the $count nodes did not come up; see $DIR/c/log" >&2
  return 1
}
ctld_rss() { awk '/^VmRSS/ {print $2}' "/proc/$(cat "$DIR/c/ctld.pid")/status"; }

start "$N" || exit 0
# Pings go every SlurmdTimeout/3 seconds; take the rounds after every node has registered.
before=$(grep -c "ping round:" "$DIR/c/log/droverctld.log")
for _ in $(seq 1 $((ROUNDS * 4 + 10))); do
  [ $(( $(grep -c "ping round:" "$DIR/c/log/droverctld.log") - before )) -ge "$ROUNDS" ] && break
  sleep 1
done
ping_ms=$(grep "ping round:" "$DIR/c/log/droverctld.log" | tail -n "$ROUNDS" | sed 's/.* in \([0-9]*\) ms/\1/' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
answered=$(grep "ping round:" "$DIR/c/log/droverctld.log" | tail -1 | sed 's/.*round: \([0-9]*\) of \([0-9]*\).*/\1\/\2/')

printf '%-16s %12s   %s\n' figure drover target
printf '%-16s %9s ms   %s\n' ping_broadcast "${ping_ms:-?}" "$N nodes, TreeWidth 50 (last round: $answered answered)"

# lose SIGNAL: sends SIGNAL to the droverd of the last LOST nodes and prints the seconds until all of
# them are DOWN, and the longest ping round from then until that moment.
lose() {
  local sig=$1 t0 t1 down rounds_before
  rounds_before=$(grep -c "ping round:" "$DIR/c/log/droverctld.log")
  t0=$(date +%s.%N)
  kill -"$sig" "$(cat "$DIR/c/node-lost.pid")"
  for _ in $(seq 1 1200); do
    down=$("$BIN/core/cli/sinfo" -h -N -o "%t" 2>/dev/null | grep -c '^down')
    [ "$down" -ge "$LOST" ] && break
    sleep 0.1
  done
  t1=$(date +%s.%N)
  local longest
  longest=$(grep "ping round:" "$DIR/c/log/droverctld.log" | tail -n +"$((rounds_before + 1))" | sed 's/.* in \([0-9]*\) ms/\1/' | sort -n | tail -1)
  printf '%-16s %9.1f s    %s\n' "down_$2" "$(awk "BEGIN {print $t1 - $t0}")" \
    "$down of $LOST lost nodes DOWN; longest ping round meanwhile ${longest:-?} ms (SlurmdTimeout 9 s + a ping interval of 3 s)"
  kill -CONT "$(cat "$DIR/c/node-lost.pid")" 2>/dev/null
}
LOST=${BENCH_LOST:-$((N / 10))}
if start "$N" "$LOST"; then
  sleep 4
  lose KILL killed
  start "$N" "$LOST" && { sleep 4; lose STOP hung; }
fi

start 1 || exit 0
sleep 2
rss1=$(ctld_rss)
start "$N_RSS" || exit 0
sleep 2
rssN=$(ctld_rss)
printf '%-16s %9s KB   %s\n' ctld_rss_delta "$(( rssN - rss1 ))" "about 1024 KB for $N_RSS nodes (the design paper)"
exit 0
