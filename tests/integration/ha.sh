# ha.sh - helpers for tests with a primary and backup controllers: each controller gets its own
# config copy and StateSaveLocation (no shared filesystem; HA_SHARED_STATE=1 gives them one), and
# is started, killed and restarted on its own. Sourced after lib.sh.

# make_ha_cluster NODES CONTROLLERS [EXTRA CONFIG LINES...]: controllers ctlI at
# ${HA_ADDR_PREFIX}I (default 127.0.0.I), each run in network namespace $(printf "$HA_NETNS" I) when
# HA_NETNS is set.
make_ha_cluster() {
  local nodes=$1 ctls=$2; shift 2
  make_cluster "$nodes" SlurmctldTimeout=3 "$@"
  sed -i "s/NodeAddr=127.0.0.1/NodeAddr=${HA_NODE_ADDR:-127.0.0.1}/" "$T/c/slurm.conf"
  write_ha_configs "$T/c" "$ctls" "${HA_ADDR_PREFIX:-127.0.0.}"
  local i
  HA_CTLS=$ctls
  for i in $(seq 1 "$ctls"); do start_controller "$i"; done
  for i in $(seq 1 "$nodes"); do start_node "$T/c" "$i"; done
  wait_for_nodes "$T/c" "$nodes" || fail "nodes did not come up"
}

start_controller() { start_controller_of "$T/c" "$@"; }  # INDEX [droverctld options]

kill_controller() {  # INDEX [SIGNAL]
  local pid; pid=$(cat "$T/c/ctl$1.pid")
  kill -"${2:-TERM}" "$pid" 2>/dev/null
  wait_gone "$pid"
}

# in_control I: scontrol ping says controller I is in control.
in_control() { scontrol ping | grep -q "at ctl$1 is UP (in control)"; }
# only_in_control I: controller I is in control and every other one is up and standing by.
only_in_control() {
  local out i; out=$(scontrol ping)
  for i in $(seq 1 "$HA_CTLS"); do
    if [ "$i" = "$1" ]; then grep -q "at ctl$i is UP (in control)$" <<<"$out" || return 1
    else grep -q "at ctl$i is UP$" <<<"$out" || return 1; fi
  done
}

# missing_jobs FILE: how many jobs sbatch reported in FILE the controller does not know.
missing_jobs() {
  comm -23 <(awk '/^Submitted batch job/ {print $4}' "$1" | sort) <(squeue -h -t all -o %i | sort) | wc -l
}
