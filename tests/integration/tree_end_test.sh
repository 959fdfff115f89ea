#!/usr/bin/env bash
# tree_end_test.sh - a job's end reaches every node it ran on through the fan-out tree: 40
# emulated nodes with TreeWidth=3, a cancelled 40-node job with a step on every node, and the
# Epilog, which each node runs when it hears the job ended, runs on all 40; also when one node
# daemon of the tree is gone (its part is sent again around it, and the dead node is reported).
# scontrol reconfigure reaches the node daemons the same way.
source "$(dirname "$0")/lib.sh"
mkdir -p "$T/c"
write_config "$T/c" 1 "$(free_port)" 20000
# 40 ports nobody listens on, in a window no other test uses (emulate_test takes 12000-17199,
# cluster.sh 20000-30999, tree_step_test 31100-32699).
port=$(free_ports 17500 19940 40) || fail "no 40 free ports in 17500-19939"
sed -i "/^NodeName=/d; /^PartitionName=/d; /^TreeWidth=/d" "$T/c/slurm.conf"
cat > "$T/epilog.sh" <<'E'
#!/bin/sh
touch "$(dirname "$0")/ended.$SLURM_JOB_ID.$SLURMD_NODENAME"
E
chmod 755 "$T/epilog.sh"
cat >> "$T/c/slurm.conf" <<CONF
SlurmdParameters=config_overrides
TreeWidth=3
SlurmdTimeout=30
Epilog=$T/epilog.sh
NodeName=tr[01-39] NodeAddr=127.0.0.1 Port=[$port-$((port + 38))] CPUs=2 RealMemory=1000
NodeName=tr40 NodeAddr=127.0.0.1 Port=$((port + 39)) CPUs=2 RealMemory=1000
PartitionName=all Nodes=tr[01-40] Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/c/slurm.conf PATH=$BIN/core/cli:$PATH
start_ctld "$T/c"
"$BIN/core/noded/droverd" -D -f "$SLURM_CONF" --emulate 'tr[01-39]' -L "$T/c/log/droverd-emu.log" &
echo $! > "$T/c/node-emu.pid"
"$BIN/core/noded/droverd" -D -f "$SLURM_CONF" -N tr40 -L "$T/c/log/droverd-tr40.log" &
echo $! > "$T/c/node-tr40.pid"
wait_until 20 bash -c '[ "$(sinfo -h -t idle -o %D)" = 40 ]' || fail "the 40 nodes did not come up"

ended() { ls "$T" | grep -c "^ended\.$1\."; }
job=$(sbatch --parsable -N 40 --wrap 'srun sleep 60')
wait_until 15 bash -c "squeue -h --steps -j $job -o %i | grep -q '^$job\.0$'" || fail "job $job's step did not start"
sleep 1
scancel "$job"
wait_until 20 bash -c "[ \$(ls $T | grep -c '^ended\.$job\.') = 40 ]"
assert_eq 40 "$(ended "$job")" "the Epilog ran on all 40 nodes: the end reached each through the tree"

# One node daemon gone (tr40, the last node of the last part): the others still hear of the end.
job=$(sbatch --parsable -N 40 --wrap 'srun sleep 60')
wait_until 15 bash -c "squeue -h --steps -j $job -o %i | grep -q '^$job\.0$'" || fail "job $job's step did not start"
sleep 1
kill -9 "$(cat "$T/c/node-tr40.pid")"
scancel "$job"
wait_until 20 bash -c "[ \$(ls $T | grep -c '^ended\.$job\.') = 39 ]"
assert_eq 39 "$(ended "$job")" "with tr40 gone, the other 39 nodes still ran the Epilog"
wait_until 20 grep -q "job $job: cannot announce its end on tr40" "$T/c/log/droverctld.log" &&
  ok "the controller names the node it could not reach" || fail "tr40's failure was not reported"

# scontrol reconfigure travels the same tree: every live node daemon re-reads the file.
scontrol reconfigure && ok "scontrol reconfigure succeeds" || fail "scontrol reconfigure failed"
assert_contains "re-read here and by 39 node daemons; node and partition changes take effect at restart; not re-read by tr40" \
  "$(grep 'reconfigure: configuration' "$T/c/log/droverctld.log")" "the controller counts the node daemons that re-read it and names the one that did not"
assert_contains "re-read and valid" "$(cat "$T/c/log/droverd-emu.log")" "the emulating node daemon re-read it"
finish
