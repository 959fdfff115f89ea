#!/usr/bin/env bash
# power.sh - power saving figures (issue: cloud nodes and power saving):
#   daemon_start     a node daemon started by hand until its node is idle: the daemon's own start,
#                    median of the runs, ms
#   resume_to_run    sbatch of a one-node job on a powered down cloud node, whose ResumeProgram
#                    starts its node daemon at once, until the job is RUNNING: median, ms
#                    (target: under 1 s beyond daemon_start; Slurm's power-save loop adds tens of
#                    seconds)
#   resume_1000      one job on BENCH_NODES powered down nodes (ResumeRate=0: no limit), whose
#                    ResumeProgram starts one droverd emulating them all: sbatch until RUNNING, ms
#
#   bench/power.sh                    5 runs, 1,000 nodes
#   BENCH_NODES=200 bench/power.sh
#
# Knobs: BENCH_RUNS=5, BENCH_NODES=1000, BIN=<repo>/build, BENCH_DIR=/tmp, KEEP=1. Ports 13001..
set -uo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
RUNS=${BENCH_RUNS:-5}
N=${BENCH_NODES:-1000}
DIR=$(mktemp -d "${BENCH_DIR:-/tmp}/drover-power-bench.XXXXXX")
trap 'cluster_stop "$DIR/c" >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$DIR"' EXIT
export PATH=$BIN/core/cli:$PATH

ms_since() { awk -v s="$1" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (e - s) * 1000 }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
until_true() { until "$@" >/dev/null 2>&1; do sleep 0.005; done; }
running() { [ "$(squeue -h -j "$1" -o %t)" = R ]; }
idle() { [ "$(sinfo -h -N -n "$1" -o %t)" = idle ]; }
powered_down() { scontrol show node "$1" | grep -q 'State=IDLE+CLOUD+POWERED_DOWN'; }

# A controller; NODES nodes (emulated when more than one) in partition "cloud", all State=CLOUD,
# and a ResumeProgram that starts their node daemon at once (SuspendProgram stops it).
start() {
  local nodes=$1 last
  cluster_stop "$DIR/c" >/dev/null 2>&1
  rm -rf "$DIR/c"
  mkdir -p "$DIR/c"
  write_config "$DIR/c" 1 "$((11000 + RANDOM % 900))" 20000
  last=$(printf %05d "$nodes")
  cat > "$DIR/resume.sh" <<E
#!/bin/bash
if [ $nodes = 1 ]; then args=(-N "\$1"); else args=(--emulate "\$1"); fi
setsid $BIN/core/noded/droverd -D -f "\$SLURM_CONF" "\${args[@]}" -L $DIR/c/log/droverd.log \\
  < /dev/null > /dev/null 2>&1 &
echo \$! > $DIR/c/node.pid
E
  printf '#!/bin/bash\nkill "$(cat %s/c/node.pid)"\n' "$DIR" > "$DIR/suspend.sh"
  chmod 755 "$DIR"/*.sh
  sed -i "/^NodeName=/d; /^PartitionName=/d; /^TreeWidth=/d" "$DIR/c/slurm.conf"
  cat >> "$DIR/c/slurm.conf" <<CONF
TreeWidth=$((nodes + 1))
SlurmdParameters=config_overrides
ResumeProgram=$DIR/resume.sh
SuspendProgram=$DIR/suspend.sh
SuspendTime=INFINITE
SuspendTimeout=1
ResumeRate=0
NodeName=pw[00001-$last] NodeAddr=127.0.0.1 Port=[13001-$((13000 + nodes))] CPUs=2 RealMemory=1000 State=CLOUD
NodeName=local NodeAddr=127.0.0.1 Port=$((13001 + nodes)) CPUs=2 RealMemory=1000
PartitionName=cloud Nodes=pw[00001-$last] Default=YES MaxTime=INFINITE State=UP
PartitionName=local Nodes=local MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$DIR/c/slurm.conf
  start_ctld "$DIR/c"
}

echo "power.sh: $(git -C "$ROOT" log -1 --format=%h 2>/dev/null) $(grep -m1 CMAKE_BUILD_TYPE: "$BIN/CMakeCache.txt" | cut -d= -f2)," \
     "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPU(s)"
start 1
starts=() resumes=()
for r in $(seq 1 "$RUNS"); do
  s=$EPOCHREALTIME
  "$BIN/core/noded/droverd" -D -f "$SLURM_CONF" -N local -L "$DIR/c/log/local.log" &
  local_pid=$!
  until_true idle local
  starts+=("$(ms_since "$s")")
  kill "$local_pid"
  wait "$local_pid" 2>/dev/null
  s=$EPOCHREALTIME
  job=$(sbatch --parsable -p cloud -o /dev/null --wrap 'sleep 1')
  until_true running "$job"
  resumes+=("$(ms_since "$s")")
  scancel "$job"
  until_true idle pw00001
  scontrol update nodename=pw00001 state=power_down
  until_true powered_down pw00001
done
printf 'daemon_start   %6d ms   (runs: %s)\n' "$(median "${starts[@]}")" "${starts[*]}"
printf 'resume_to_run  %6d ms   (runs: %s)\n' "$(median "${resumes[@]}")" "${resumes[*]}"

start "$N"
s=$EPOCHREALTIME
job=$(sbatch --parsable -p cloud -N "$N" -o /dev/null --wrap 'sleep 1')
until_true running "$job"
printf 'resume_%d    %6d ms\n' "$N" "$(ms_since "$s")"
if command -v slurmctld >/dev/null 2>&1; then
  echo "Slurm: resumes on its power_save_interval (10 s by default) after allocation; not run here"
fi
