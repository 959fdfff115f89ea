#!/usr/bin/env bash
# emulate_test.sh - one droverd serving many nodes (--emulate): each registers at its configured
# size, answers the controller's pings through the fan-out tree, and runs its part of jobs and
# steps; killing the process takes all its nodes down.
source "$(dirname "$0")/lib.sh"
mkdir -p "$T/c"
write_config "$T/c" 1 "$(free_port)" 20000
port=$(( 12000 + RANDOM % 5000 ))
sed -i "/^NodeName=/d; /^PartitionName=/d" "$T/c/slurm.conf"
cat >> "$T/c/slurm.conf" <<CONF
SlurmdParameters=config_overrides
SlurmdTimeout=6
NodeName=em[001-200] NodeAddr=127.0.0.1 Port=[$port-$((port + 199))] CPUs=8 RealMemory=16000
PartitionName=all Nodes=em[001-200] Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/c/slurm.conf PATH=$BIN/core/cli:$PATH
start_ctld "$T/c"
"$BIN/core/noded/droverd" -D -f "$SLURM_CONF" --emulate 'em[001-200]' -L "$T/c/log/droverd-emu.log" &
emu=$!
echo "$emu" > "$T/c/node-emu.pid"
wait_until 20 bash -c '[ "$(sinfo -h -t idle -o %D)" = 200 ]'
assert_eq "200 idle" "$(sinfo -h -o '%D %T')" "all 200 emulated nodes register and are idle"
assert_match "CPUTot=8 .*RealMemory=16000" "$(scontrol show node em137 | tr '\n' ' ')" "each at its configured size"
out=$(srun -N20 -l bash -c 'echo $SLURMD_NODENAME' | sort -n | awk '{print $2}' | tr '\n' ' ')
assert_eq "$(printf 'em%03d ' $(seq 1 20))" "$out" "a 20-node step runs one task on each emulated node"
job=$(sbatch --parsable -N 50 -o "$T/batch.out" --wrap 'srun hostname >/dev/null && echo ran-on-$SLURM_JOB_NUM_NODES')
wait_job "$job" 30
assert_eq "ran-on-50" "$(cat "$T/batch.out")" "a 50-node batch job runs its steps across them"
# Pings travel the tree; the nodes stay up across several rounds.
sleep 7
assert_eq "200 idle" "$(sinfo -h -o '%D %T')" "pings through the tree keep them up"
kill -9 "$emu"
wait_until 40 bash -c '[ "$(sinfo -h -t down -o %D)" = 200 ]'
assert_eq "200" "$(sinfo -h -t down -o %D)" "killing the process takes every node it served down"
finish
