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

# end_jobs: cancels what the test left running and waits (briefly) for it to end. Jobs outlive
# their node daemon, as they outlive its restart, and one left running would keep the test's
# output open after the test (ctest then waits for it until its timeout).
end_jobs() {
  [ -f "$T/c/ctld.pid" ] && [ -n "${SLURM_CONF:-}" ] || return 0
  local ids; ids=$(timeout 10 squeue -h -t pending,running,suspended -o %i 2>/dev/null)
  [ -n "$ids" ] || return 0
  timeout 10 scancel $ids 2>/dev/null
  wait_until 30 bash -c '[ -z "$(squeue -h -t running,completing -o %i 2>/dev/null)" ]'
}

# end_leftovers: what still runs of the test's processes once its daemons are stopped (a step
# whose node daemon was killed keeps its shepherd, a fork of droverd, waiting for the next one,
# with the test's output open) is killed and named. Their command lines name the test's directory.
end_leftovers() {
  local left; left=$(pgrep -f -- "$T/" | grep -vx "$$" | tr '\n' ' ')
  [ -n "${left// /}" ] || return 0
  echo "$TEST_NAME: killing what was left running:"
  ps -o pid=,args= -p "$(echo $left | tr ' ' ',')" | cut -c1-160 | head -10
  kill -9 $left 2>/dev/null
  return 0
}

cleanup() {
  end_jobs
  cluster_stop "$T/c" 2>/dev/null
  end_leftovers
  release_ports
  if [ "$FAILS" -ne 0 ]; then
    echo "--- logs of $T/c/log ---"
    tail -n 30 "$T"/c/log/*.log 2>/dev/null
  fi
  [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

# Ports: tests run side by side (ctest -j, other checkouts on the same machine) must not hand
# their daemons the same ones, and checking that nobody listens yet is not enough (the other
# test's daemons may not have bound theirs). Each port a test hands out is reserved as a symlink
# $PORT_LOCKS/PORT -> the test's pid (made atomically), dropped when the test ends; a reservation
# whose test is gone is taken over.
PORT_LOCKS=${TMPDIR:-/tmp}/drover-test-ports

reserve_port() {  # PORT: true when PORT is now this test's and nobody listens on it
  local lock=$PORT_LOCKS/$1 owner
  if ! ln -s "$$" "$lock" 2>/dev/null; then
    owner=$(readlink "$lock")
    [ -n "$owner" ] && kill -0 "$owner" 2>/dev/null && return 1
    rm -f "$lock"
    ln -s "$$" "$lock" 2>/dev/null || return 1
  fi
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# reserve_ports LOW HIGH COUNT: reserves COUNT consecutive ports in [LOW, HIGH), picked at
# random (50 tries), and prints the first; fails when it finds none.
reserve_ports() {
  local low=$1 high=$2 count=$3 first p n
  mkdir -p "$PORT_LOCKS"
  for _ in $(seq 1 50); do
    first=$(( low + RANDOM % (high - low - count + 1) ))
    n=0
    for p in $(seq "$first" $((first + count - 1))); do
      reserve_port "$p" || break
      n=$((n + 1))
    done
    [ "$n" = "$count" ] && { echo "$first"; return 0; }
    for p in $(seq "$first" $((first + n))); do
      [ "$(readlink "$PORT_LOCKS/$p")" = "$$" ] && rm -f "$PORT_LOCKS/$p"
    done
  done
  return 1
}

release_ports() {
  local lock
  for lock in "$PORT_LOCKS"/*; do
    [ "$(readlink "$lock" 2>/dev/null)" = "$$" ] && rm -f "$lock"
  done
  return 0
}

# The controller's (and PostgreSQL's) port: scripts/cluster.sh's free_port, reserved.
free_port() { reserve_ports 20000 31000 1; }

# make_cluster [NODES] [EXTRA CONFIG LINES...]: writes the config without starting anything.
make_cluster() {
  local nodes=${1:-2}; shift || true
  mkdir -p "$T/c"
  local ctld_port first_node_port
  ctld_port=$(free_port) && first_node_port=$(reserve_ports 20000 31000 "$nodes") ||
    { fail "no free ports"; finish; exit 1; }
  write_config "$T/c" "$nodes" "$ctld_port" "$((first_node_port - 1))"
  # A requeued job waits AuthInfo's cred_expire (Slurm's 120 s unless set) before it runs again:
  # 10 s here, about MessageTimeout, so that tests of requeues wait seconds, not minutes.
  sed -i "s|^AuthInfo=.*|&,cred_expire=10|" "$T/c/slurm.conf"
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

# make_emulated_cluster NAME COUNT LOW HIGH [CONFIG LINES...]: a controller for COUNT nodes
# NAME[01-COUNT] (CPUs=2, 1000 MB; emulated: SlurmdParameters=config_overrides) on COUNT
# consecutive ports reserved in [LOW, HIGH) (each test that emulates nodes keeps a window of its own),
# in one partition "all"; the lines given (TreeWidth=, SlurmdTimeout=, ...) replace the defaults.
# The node daemons are started with emulate_nodes. Exits the test when no ports are free.
make_emulated_cluster() {
  local name=$1 count=$2 low=$3 high=$4 line; shift 4
  mkdir -p "$T/c"
  local ctld_port port
  ctld_port=$(free_port) && port=$(reserve_ports "$low" "$high" "$count") ||
    { fail "no $count free ports in $low-$((high - 1))"; finish; exit 1; }
  write_config "$T/c" 1 "$ctld_port" 20000
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

# restart_ctld [droverctld options]: starts the controller again and waits until it answers or
# exits. Its credential socket says nothing here: a node daemon took it over when the last one
# stopped.
restart_ctld() {
  start_ctld "$T/c" "$@"
  wait_until 60 ctld_answers_or_exited "$(cat "$T/c/ctld.pid")"
}
ctld_answers_or_exited() {
  pid_gone "$1" || SLURM_CONF=$T/c/slurm.conf "$BIN/core/cli/scontrol" ping >/dev/null 2>&1
}

# pid_gone PID / wait_gone PID: a daemon killed is gone only when its process has exited (its
# port and state are free for the next one), which on a busy machine takes a while.
pid_gone() { ! kill -0 "$1" 2>/dev/null; }
wait_gone() { wait_until 60 pid_gone "$1" || fail "process $1 did not exit"; }

kill_ctld() {
  local pid; pid=$(cat "$T/c/ctld.pid")
  kill -"${1:-TERM}" "$pid" 2>/dev/null
  wait_gone "$pid"
  rm -f "$T/c/ctld.pid"
}

# kill_node I [SIGNAL]: stops node daemon nI (SIGTERM by default) and waits for its end.
kill_node() {
  local pid; pid=$(cat "$T/c/n$1.pid")
  kill -"${2:-TERM}" "$pid" 2>/dev/null
  wait_gone "$pid"
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
job_done() { local s; s=$(job_state "$1"); [ -n "$s" ] && [ "$s" != PENDING ] && [ "$s" != RUNNING ] && [ "$s" != COMPLETING ] &&
  [ "$s" != CONFIGURING ]; }
wait_job() { wait_until "${2:-60}" job_done "$1"; }
job_running() { [ "$(squeue -h -j "$1" -o %t 2>/dev/null)" = R ]; }
wait_running() { wait_until "${2:-60}" job_running "$1"; }
# pending_for ID REASON: the job waits with that reason. Waiting for it (rather than for a fixed
# time) to see that a job does not start cannot pass by accident: a job that starts is not PD.
pending_for() { [ "$(squeue -h -j "$1" -o '%t %r' 2>/dev/null)" = "PD $2" ]; }

# acked_at_least N FILE...: sbatch acknowledged N submissions or more in the files (a storm's
# output), so that what a test does in the middle of a storm lands in its middle.
acked_at_least() { [ "$(cat "${@:2}" 2>/dev/null | grep -c '^Submitted batch job')" -ge "$1" ]; }

# A job or step that must still be running at a later point of a test waits for a gate that the
# test opens when it is done with it, rather than sleeping for a time a busy machine may outlast.
#   gate NAME        prints a shell command that returns once gate NAME is open
#   open_gate NAME   opens it
gate() { echo "until [ -e '$T/gate.$1' ]; do sleep 0.2; done"; }
open_gate() { touch "$T/gate.$1"; }

finish() {
  echo "$TEST_NAME: $PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
