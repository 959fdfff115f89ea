#!/usr/bin/env bash
# lib.sh - helpers for integration tests: a real cluster on loopback in a temporary directory,
# assertions that print what a user would have seen when they fail, and cleanup on any exit.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"

TEST_NAME=$(basename "$0" .sh)
T=$(mktemp -d "/tmp/drover-$TEST_NAME.XXXXXX")
chmod 755 "$T"
FAILS=0
PASSES=0

cleanup() {
  cluster_stop "$T/c" 2>/dev/null
  if [ "$FAILS" -ne 0 ]; then
    echo "--- logs of $T/c/log ---"
    tail -n 30 "$T"/c/log/*.log 2>/dev/null
  fi
  [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

# make_cluster [NODES] [EXTRA CONFIG LINES...]: writes the config without starting anything.
make_cluster() {
  local nodes=${1:-2}; shift || true
  mkdir -p "$T/c"
  write_config "$T/c" "$nodes" "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
  local line
  for line in "$@"; do
    # a later line wins for top-level keys; drop an earlier one of the same key first
    local key=${line%%=*}
    sed -i "/^$key=/d" "$T/c/slurm.conf"
    # partitions come last; keep them after new keys
    sed -i "/^PartitionName=/i $line" "$T/c/slurm.conf"
  done
  export SLURM_CONF=$T/c/slurm.conf
  export PATH=$BIN/core/cli:$PATH
}

# start_cluster [NODES] [EXTRA CONFIG LINES...]: writes the config, then starts the daemons and
# waits until every node is idle.
start_cluster() {
  make_cluster "$@"
  cluster_start "$T/c" "${1:-2}"
}

# free_ports LOW HIGH COUNT: the first of COUNT consecutive ports in [LOW, HIGH) that nobody
# listens on (20 tries at random), for emulated nodes; fails when it finds none.
free_ports() {
  local low=$1 high=$2 count=$3 port p busy
  for _ in $(seq 1 20); do
    port=$(( low + RANDOM % (high - low - count + 1) ))
    busy=0
    for p in $(seq "$port" $((port + count - 1))); do
      (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && { busy=1; break; }
    done
    [ "$busy" = 0 ] && { echo "$port"; return 0; }
  done
  return 1
}

# make_emulated_cluster NAME COUNT LOW HIGH [CONFIG LINES...]: a controller for COUNT nodes
# NAME[01-COUNT] (CPUs=2, 1000 MB; emulated: SlurmdParameters=config_overrides) on COUNT
# consecutive free ports in [LOW, HIGH) (each test that emulates nodes keeps a window of its own),
# in one partition "all"; the lines given (TreeWidth=, SlurmdTimeout=, ...) replace the defaults.
# The node daemons are started with emulate_nodes. Exits the test when no ports are free.
make_emulated_cluster() {
  local name=$1 count=$2 low=$3 high=$4 line; shift 4
  mkdir -p "$T/c"
  write_config "$T/c" 1 "$(free_port)" 20000
  local port; port=$(free_ports "$low" "$high" "$count") || { fail "no $count free ports in $low-$((high - 1))"; finish; exit; }
  sed -i "/^NodeName=/d; /^PartitionName=/d" "$T/c/slurm.conf"
  for line in SlurmdParameters=config_overrides "$@"; do sed -i "/^${line%%=*}=/d" "$T/c/slurm.conf"; echo "$line" >> "$T/c/slurm.conf"; done
  local last; last=$(printf '%02d' "$count")
  cat >> "$T/c/slurm.conf" <<CONF
NodeName=$name[01-$last] NodeAddr=127.0.0.1 Port=[$port-$((port + count - 1))] CPUs=2 RealMemory=1000
PartitionName=all Nodes=$name[01-$last] Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$T/c/slurm.conf PATH=$BIN/core/cli:$PATH
  start_ctld "$T/c"
}

# emulate_nodes HOSTLIST TAG: one droverd serving the nodes of HOSTLIST (its pid in
# $T/c/node-TAG.pid, its log in $T/c/log/droverd-TAG.log).
emulate_nodes() {
  "$BIN/core/noded/droverd" -D -f "$SLURM_CONF" --emulate "$1" -L "$T/c/log/droverd-$2.log" &
  echo $! > "$T/c/node-$2.pid"
}

node_state() { sinfo -h -N -n "$1" -o %t 2>/dev/null | head -1; }

restart_ctld() {
  start_ctld "$T/c" "$@"
}

kill_ctld() {
  local sig=${1:-TERM}
  local pid; pid=$(cat "$T/c/ctld.pid")
  kill -"$sig" "$pid" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$T/c/ctld.pid"
}

ok() { PASSES=$((PASSES + 1)); echo "ok - $*"; }
fail() { FAILS=$((FAILS + 1)); echo "not ok - $*"; }

assert_eq() {  # expected actual message
  if [ "$1" == "$2" ]; then ok "$3"; else fail "$3: expected [$1] got [$2]"; fi
}
assert_match() {  # regex actual message
  if [[ "$2" =~ $1 ]]; then ok "$3"; else fail "$3: [$2] does not match /$1/"; fi
}
assert_contains() {  # needle haystack message
  if [[ "$2" == *"$1"* ]]; then ok "$3"; else fail "$3: [$2] lacks [$1]"; fi
}

# wait_until TIMEOUT_S COMMAND...: polls until the command succeeds.
wait_until() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  while [ $SECONDS -lt $end ]; do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

job_state() { squeue -h -j "$1" -t all -o "%T" 2>/dev/null; }
job_done() { local s; s=$(job_state "$1"); [ -n "$s" ] && [ "$s" != PENDING ] && [ "$s" != RUNNING ] && [ "$s" != COMPLETING ]; }
wait_job() { wait_until "${2:-30}" job_done "$1"; }

finish() {
  echo "$TEST_NAME: $PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
