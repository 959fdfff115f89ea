#!/usr/bin/env bash
# cluster.sh - starts and stops a local Drover cluster on loopback: one controller and N node
# daemons, each node on its own port, state in LMDB under the cluster's directory, key-file auth.
#
#   scripts/cluster.sh start DIR [NODES]   writes DIR/slurm.conf and DIR/drover.key, starts daemons
#   scripts/cluster.sh stop DIR            stops them
#   scripts/cluster.sh env DIR             prints the exports that point commands at the cluster
#
# Sourced by the tests and the demo; BIN (default ./build) says where the binaries are.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}

# A port nobody listens on, below the kernel's range for outgoing connections (32768-60999) so
# that a burst of client connections cannot take it between now and the daemon's bind.
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 11000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  echo "$p"
}

write_config() {
  local dir=$1 nodes=$2 ctld_port=$3 base_port=$4
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  cat > "$dir/slurm.conf" <<CONF
# A local Drover cluster on loopback (scripts/cluster.sh).
ClusterName=local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
AuthType=auth/key
AuthInfo=socket=$dir/auth.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldLogFile=$dir/log/droverctld.log
SelectType=select/linear
SchedulerType=sched/builtin
AccountingStorageType=accounting/lmdb
ProctrackType=proctrack/pgid
SwitchType=switch/none
TreeWidth=2
SlurmdTimeout=30
KillWait=5
MinJobAge=300
ReturnToService=1
NodeName=DEFAULT CPUs=1 RealMemory=100 State=UNKNOWN
CONF
  local i
  for i in $(seq 1 "$nodes"); do
    echo "NodeName=n$i NodeAddr=127.0.0.1 Port=$((base_port + i))" >> "$dir/slurm.conf"
  done
  echo "PartitionName=debug Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP" >> "$dir/slurm.conf"
  [ -f "$dir/drover.key" ] || { head -c 32 /dev/urandom > "$dir/drover.key"; chmod 600 "$dir/drover.key"; }
}

# write_ha_configs DIR CONTROLLERS [ADDR_PREFIX]: turns DIR/slurm.conf (from write_config) into a
# cluster with controllers ctlI at ${ADDR_PREFIX}I (default 127.0.0.I; every 127/8 address is
# loopback), and writes DIR/ctlI.conf for each: the same file with its own StateSaveLocation
# (DIR/stateI) and log, as on hosts that share no filesystem; with HA_SHARED_STATE=1 every
# controller names the same StateSaveLocation (DIR/state), as on hosts that share one.
write_ha_configs() {
  local dir=$1 ctls=$2 prefix=${3:-127.0.0.} lines="" i state
  for i in $(seq 1 "$ctls"); do lines+="SlurmctldHost=ctl$i($prefix$i)\n"; done
  sed -i "s/^SlurmctldHost=.*/${lines%\\n}/" "$dir/slurm.conf"
  for i in $(seq 1 "$ctls"); do
    state=$dir/state$i
    [ "${HA_SHARED_STATE:-0}" = 1 ] && state=$dir/state
    mkdir -p "$state"
    sed -e "s|^StateSaveLocation=.*|StateSaveLocation=$state|" \
        -e "s|^SlurmctldLogFile=.*|SlurmctldLogFile=$dir/log/ctl$i.log|" "$dir/slurm.conf" > "$dir/ctl$i.conf"
  done
}

# start_controller_of DIR I [droverctld options]: starts controller ctlI of an HA cluster, inside
# network namespace $(printf "$HA_NETNS" I) when HA_NETNS is set.
start_controller_of() {
  local dir=$1 i=$2 in=(); shift 2
  [ -n "${HA_NETNS:-}" ] && in=(ip netns exec "$(printf "$HA_NETNS" "$i")")
  "${in[@]}" "$BIN/core/ctld/droverctld" -D -f "$dir/ctl$i.conf" --controller "ctl$i" -L "$dir/log/ctl$i.log" "$@" &
  echo $! > "$dir/ctl$i.pid"
  wait_auth_socket "$dir" $!
}

# wait_auth_socket DIR PID: waits (60 s at most: a busy machine starts daemons slowly) until the
# controller PID serves the credential socket, so that node daemons started next cannot take it.
wait_auth_socket() {
  local end=$((SECONDS + 60))
  while [ $SECONDS -lt $end ] && [ ! -S "$1/auth.socket" ] && kill -0 "$2" 2>/dev/null; do sleep 0.1; done
}

wait_for_nodes() {
  local dir=$1 nodes=$2 end=$((SECONDS + 60)) up
  while [ $SECONDS -lt $end ]; do
    up=$(SLURM_CONF=$dir/slurm.conf "$BIN/core/cli/sinfo" -h -N -o "%N %t" 2>/dev/null | sort -u | grep -c " idle$" || true)
    [ "$up" -ge "$nodes" ] && return 0
    sleep 0.1
  done
  echo "cluster.sh: nodes did not come up within 60 s; see $dir/log" >&2
  return 1
}

start_ctld() {
  local dir=$1; shift
  "$BIN/core/ctld/droverctld" -D -f "$dir/slurm.conf" -L "$dir/log/droverctld.log" "$@" &
  echo $! > "$dir/ctld.pid"
  wait_auth_socket "$dir" $!
}

start_node() {
  local dir=$1 i=$2
  "$BIN/core/noded/droverd" -D -f "$dir/slurm.conf" -N "n$i" -L "$dir/log/droverd-n$i.log" &
  echo $! > "$dir/n$i.pid"
}

cluster_start() {
  local dir=$1 nodes=${2:-3}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ ! -f "$dir/slurm.conf" ]; then
    write_config "$dir" "$nodes" "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
  fi
  start_ctld "$dir"
  local i
  for i in $(seq 1 "$nodes"); do start_node "$dir" "$i"; done
  wait_for_nodes "$dir" "$nodes"
}

cluster_stop() {
  local dir=$1 f
  for f in "$dir"/*.pid; do
    [ -f "$f" ] || continue
    kill "$(cat "$f" 2>/dev/null)" 2>/dev/null || true
  done
  for f in "$dir"/*.pid; do
    [ -f "$f" ] || continue
    local pid; pid=$(cat "$f" 2>/dev/null) || continue  # a daemon removes its own pid file as it ends
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$f"
  done
}

cluster_env() {
  local dir; dir=$(cd "$1" && pwd)
  echo "export SLURM_CONF=$dir/slurm.conf PATH=$BIN/core/cli:\$PATH"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  cmd=${1:-}; shift || true
  case "$cmd" in
    start) cluster_start "$@" ;;
    stop) cluster_stop "$@" ;;
    env) cluster_env "$@" ;;
    *) echo "usage: $0 start DIR [NODES] | stop DIR | env DIR" >&2; exit 2 ;;
  esac
fi
