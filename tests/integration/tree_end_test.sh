#!/usr/bin/env bash
# tree_end_test.sh - a job's end reaches every node it ran on through the fan-out tree: 40
# emulated nodes with TreeWidth=3, a cancelled 40-node job with a step on every node, and the
# Epilog, which each node runs when it hears the job ended, runs on all 40; also when one node
# daemon of the tree is gone (its part is sent again around it, and the dead node is reported).
# scontrol reconfigure reaches the node daemons the same way; the node daemon that was gone ends,
# once back, the step it kept of the job that ended meanwhile.
source "$(dirname "$0")/lib.sh"
cat > "$T/epilog.sh" <<'E'
#!/bin/sh
touch "$(dirname "$0")/ended.$SLURM_JOB_ID.$SLURMD_NODENAME"
E
chmod 755 "$T/epilog.sh"
# Ports in a window no other test uses (emulate_test takes 12000-17199, tree_hung_test
# 17200-17499, cluster.sh 20000-30999, tree_step_test 31100-32699).
make_emulated_cluster tr 40 17500 19940 TreeWidth=3 SlurmdTimeout=30 "Epilog=$T/epilog.sh"
emulate_nodes 'tr[01-39]' emu
"$BIN/core/noded/droverd" -D -f "$SLURM_CONF" -N tr40 -L "$T/c/log/droverd-tr40.log" &
echo $! > "$T/c/node-tr40.pid"
wait_until 60 bash -c '[ "$(sinfo -h -t idle -o %D)" = 40 ]' || fail "the 40 nodes did not come up"

ended() { ls "$T" | grep -c "^ended\.$1\."; }
# The nodes of job JOB whose Epilog has not run (to say which, should one be missing).
missing() { for i in $(seq -w 1 40); do [ -e "$T/ended.$1.tr$i" ] || printf 'tr%s ' "$i"; done; }
# NODES nodes have launched step JOB.0.
step_on() { [ "$(cat "$T"/c/log/droverd-*.log | grep -c "step $1.0 launched")" = "$2" ]; }
job=$(sbatch --parsable -N 40 -o /dev/null --wrap 'srun sleep 300')
wait_until 60 step_on "$job" 40 || fail "job $job's step did not start on the 40 nodes"
scancel "$job"
wait_until 120 bash -c "[ \$(ls $T | grep -c '^ended\.$job\.') = 40 ]" ||
  echo "tree_end_test: no Epilog of job $job on $(missing "$job")"
assert_eq 40 "$(ended "$job")" "the Epilog ran on all 40 nodes: the end reached each through the tree"

# One node daemon gone (tr40, the last node of the last part): the others still hear of the end.
job=$(sbatch --parsable -N 40 -o /dev/null --wrap 'srun sleep 300')
wait_until 60 step_on "$job" 40 || fail "job $job's step did not start on the 40 nodes"
kill -9 "$(cat "$T/c/node-tr40.pid")"
scancel "$job"
wait_until 120 bash -c "[ \$(ls $T | grep -c '^ended\.$job\.') = 39 ]" ||
  echo "tree_end_test: no Epilog of job $job on $(missing "$job")"
assert_eq 39 "$(ended "$job")" "with tr40 gone, the other 39 nodes still ran the Epilog"
wait_until 60 grep -q "job $job: cannot announce its end on tr40" "$T/c/log/droverctld.log" &&
  ok "the controller names the node it could not reach" || fail "tr40's failure was not reported"

# scontrol reconfigure travels the same tree: every live node daemon re-reads the file.
scontrol reconfigure && ok "scontrol reconfigure succeeds" || fail "scontrol reconfigure failed"
assert_contains "re-read here and by 39 node daemons; node and partition changes take effect at restart; not re-read by tr40" \
  "$(grep 'reconfigure: configuration' "$T/c/log/droverctld.log")" "the controller counts the node daemons that re-read it and names the one that did not"
assert_contains "re-read and valid" "$(cat "$T/c/log/droverd-emu.log")" "the emulating node daemon re-read it"

# tr40 comes back: its spool still holds the step of the job that ended while it was gone, and
# the controller, told which jobs have steps there, has it ended.
"$BIN/core/noded/droverd" -D -f "$SLURM_CONF" -N tr40 -L "$T/c/log/droverd-tr40.log" &
echo $! > "$T/c/node-tr40.pid"
wait_until 60 grep -q "step $job.0 ended here" "$T/c/log/droverd-tr40.log" &&
  ok "tr40, back, ends the step of the job that ended while it was gone" ||
  fail "tr40 kept the step of the job that ended while it was gone"
finish
