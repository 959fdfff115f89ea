#!/usr/bin/env bash
# emulate_test.sh - one droverd serving many nodes (--emulate): each registers at its configured
# size, answers the controller's pings through the fan-out tree, and runs its part of jobs and
# steps; killing the process takes all its nodes down. One process forks the tasks of every node
# it serves, which on a busy machine keeps it from answering for seconds: SlurmdTimeout is 30 s,
# and TreeWidth=10 keeps the tree shallow enough that each hop has seconds to accept.
source "$(dirname "$0")/lib.sh"
mkdir -p "$T/c"
# Ports in a window no other test uses (tree_hung_test takes 17200-17499, tree_end_test
# 17500-19939, cluster.sh 20000-30999, tree_step_test 31100-32699).
ctld_port=$(free_port) && port=$(reserve_ports 12000 17200 200) || { fail "no free ports"; finish; exit 1; }
write_config "$T/c" 1 "$ctld_port" 20000
sed -i "/^NodeName=/d; /^PartitionName=/d; /^SlurmdTimeout=/d; /^TreeWidth=/d" "$T/c/slurm.conf"
cat >> "$T/c/slurm.conf" <<CONF
SlurmdParameters=config_overrides
SlurmdTimeout=30
TreeWidth=10
NodeName=em[001-200] NodeAddr=127.0.0.1 Port=[$port-$((port + 199))] CPUs=8 RealMemory=16000
PartitionName=all Nodes=em[001-200] Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/c/slurm.conf PATH=$BIN/core/cli:$PATH
start_ctld "$T/c"
"$BIN/core/noded/droverd" -D -f "$SLURM_CONF" --emulate 'em[001-200]' -L "$T/c/log/droverd-emu.log" &
emu=$!
echo "$emu" > "$T/c/node-emu.pid"
wait_until 60 bash -c '[ "$(sinfo -h -t idle -o %D)" = 200 ]'
assert_eq "200 idle" "$(sinfo -h -o '%D %T')" "all 200 emulated nodes register and are idle"
assert_match "CPUTot=8 .*RealMemory=16000" "$(scontrol show node em137 | tr '\n' ' ')" "each at its configured size"
out=$(srun -N20 -l bash -c 'echo $SLURMD_NODENAME' | sort -n | awk '{print $2}' | tr '\n' ' ')
assert_eq "$(printf 'em%03d ' $(seq 1 20))" "$out" "a 20-node step runs one task on each emulated node"
job=$(sbatch --parsable -N 50 -o "$T/batch.out" -e "$T/batch.err" --wrap 'srun hostname >/dev/null && echo ran-on-$SLURM_JOB_NUM_NODES')
wait_job "$job" 120
assert_eq "ran-on-50" "$(cat "$T/batch.out")" "a 50-node batch job runs its steps across them"

# Pings travel the tree; the nodes stay up across rounds (one every 10 s): a round after the job
# hears from every node (on a busy machine one may miss a few, marked not responding until the
# next), and none went DOWN.
log=$T/c/log/droverctld.log
rounds_before=$(grep -c "ping round:" "$log")
all_answered() { tail -n +"$((rounds_before + 1))" "$log" | grep -q "ping round: 200 of 200 nodes answered"; }
wait_until 120 all_answered || fail "no ping round heard from all 200 nodes"
assert_eq "200 idle" "$(sinfo -h -o '%D %T')" "pings through the tree keep them up"
kill -9 "$emu"
wait_until 120 bash -c '[ "$(sinfo -h -t down -o %D)" = 200 ]'
assert_eq "200" "$(sinfo -h -t down -o %D)" "killing the process takes every node it served down"
finish
