#!/usr/bin/env bash
# tree_step_test.sh - step launches and step signals travel the fan-out tree: 30 emulated nodes
# with TreeWidth=3. srun -N 30 launches with one request down the tree and every node's output
# comes back; a step signal from the controller reaches every node; with the node daemon of a
# node inside the tree gone, srun names it as failed and the launch still reaches the 29 others.
# Users may forward what they may send a node themselves, and every node of the tree holds the
# request to the user's rights: a user's forwarded JobKillRequest, or a signal for another
# user's step, is refused by all 30 nodes.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
# Ports in a window no other test uses (emulate_test takes 12000-17199, tree_end_test
# 17500-19939, cluster.sh 20000-30999, tree_hung_test 17200-17499).
make_emulated_cluster tt 30 31100 32700 TreeWidth=3 SlurmdTimeout=300
TOOL=$BIN/tests/integration/step_tool
# tt11 has a daemon of its own: srun's tree (30 nodes, width 3) sends its second part to tt11,
# which forwards to tt12-tt20.
emulate_nodes 'tt[01-10,12-30]' emu
"$BIN/core/noded/droverd" -D -f "$SLURM_CONF" -N tt11 -L "$T/c/log/droverd-tt11.log" &
echo $! > "$T/c/node-tt11.pid"
wait_until 60 bash -c '[ "$(sinfo -h -t idle -o %D)" = 30 ]' || fail "the 30 nodes did not come up"
mkdir -p "$T/w" && chmod 777 "$T/w" && cd "$T/w"
launched() { cat "$T"/c/log/droverd-*.log | grep -c "step $1 launched"; }
names() { sort -u | tr '\n' ' ' | sed 's/ $//'; }
all=$(for i in $(seq -w 1 30); do echo "tt$i"; done | names)

# One launch down the tree: every node runs its task, and its output comes back to srun.
out=$(timeout 120 srun -N 30 sh -c 'echo "out $SLURMD_NODENAME $SLURM_PROCID"' 2>"$T/srun.err"); rc=$?
assert_eq 0 "$rc" "srun -N 30 succeeds"
assert_eq "$all" "$(sed -n 's/^out \(tt[0-9]*\) .*/\1/p' <<<"$out" | names)" "every one of the 30 nodes ran its task and its output came back"
assert_eq "$(seq 0 29 | tr '\n' ' ' | sed 's/ $//')" "$(awk '{print $3}' <<<"$out" | sort -n | tr '\n' ' ' | sed 's/ $//')" \
  "each node started its own share of the tasks, found in the one request"

# A step signal from the controller (scancel --signal) reaches every node through the tree.
job=$(sbatch --parsable -N 30 -o /dev/null --wrap 'sleep 300')
wait_running "$job" || fail "job $job did not start"
timeout 120 srun --jobid="$job" -N 30 --overlap sh -c \
  'trap "echo usr1 \$SLURMD_NODENAME; exit 0" USR1; echo ready; sleep 100 & wait' > "$T/sig.out" 2>&1 &
srun_pid=$!
wait_until 60 bash -c "[ \$(grep -c ready $T/sig.out) = 30 ]" || fail "the step's 30 tasks did not start"
scancel --signal=USR1 "$job.0"
wait "$srun_pid"; rc=$?
assert_eq 0 "$rc" "the step ended when its tasks had the signal"
assert_eq "$all" "$(sed -n 's/^usr1 \(tt[0-9]*\)$/\1/p' "$T/sig.out" | names)" "scancel --signal reached the step on all 30 nodes"

# Terminating a step (scancel JOB.STEP) reaches every node the same way.
timeout 120 srun --jobid="$job" -N 30 --overlap sleep 100 > /dev/null 2>&1 &
srun_pid=$!
wait_until 60 bash -c "[ \$(cat $T/c/log/droverd-*.log | grep -c 'step $job.1 launched') = 30 ]" ||
  fail "step $job.1 did not start on 30 nodes"
scancel "$job.1"
wait_until 60 bash -c "! kill -0 $srun_pid 2>/dev/null" && ok "scancel of the step ended srun" || fail "srun still waits after scancel $job.1"
assert_eq 30 "$(cat "$T"/c/log/droverd-*.log | grep -c "step $job.1: terminating")" "every node terminated its part of the step"
scancel "$job"
wait_job "$job"

if [ "$(id -u)" -eq 0 ]; then make_test_users; else MULTI=0; fi
if [ "$MULTI" = 1 ]; then
  u1=$(id -u drvtest1)
  job1=$(as drvtest1 sbatch --parsable -N 30 -o /dev/null --wrap 'sleep 300')
  wait_running "$job1" || fail "drvtest1's job did not start"
  as drvtest1 timeout 120 srun --jobid="$job1" -N 30 --overlap sleep 100 > /dev/null 2>&1 &
  srun_pid=$!
  wait_until 60 bash -c "[ \"\$(squeue -h --steps -j $job1 -o %i | grep -c '^$job1\.0$')\" = 1 ]" || fail "drvtest1's step did not start"
  wait_until 60 bash -c "[ \$(cat $T/c/log/droverd-*.log | grep -c 'step $job1.0 launched') = 30 ]"

  # A user's forwarded JobKillRequest (admin-only): every node of the tree refuses it.
  out=$(as drvtest1 "$TOOL" forward 'tt[01-30]' - kill "$job1")
  assert_eq 30 "$(grep -c ' -1 only the controller may ask this of a node$' <<<"$out")" \
    "a user's forwarded JobKillRequest is refused by all 30 nodes, the first and those behind it"
  assert_eq "$all" "$(awk '{print $1}' <<<"$out" | names)" "the aggregated reply names every node"
  assert_eq RUNNING "$(job_state "$job1")" "and the job keeps running"
  # A user cannot make a forward act for root.
  out=$(as drvtest1 "$TOOL" forward 'tt[01-30]' 0 kill "$job1")
  assert_match "^refused: a forward from uid $u1 may not act for uid 0" "$out" "a user's forward naming root as its origin is refused"

  # Another user's forwarded signal for drvtest1's step: refused on all 30 nodes.
  out=$(as drvtest2 "$TOOL" forward 'tt[01-30]' - signal "$job1" 0 9)
  assert_eq 30 "$(grep -c ' -1 Access/permission denied$' <<<"$out")" "another user's forwarded step signal is refused by all 30 nodes"
  # Root passing drvtest2's request on (as a forwarding node does): still drvtest2's rights on every node.
  out=$("$TOOL" forward 'tt[01-30]' "$(id -u drvtest2)" signal "$job1" 0 9)
  assert_eq 30 "$(grep -c ' -1 Access/permission denied$' <<<"$out")" \
    "a forward acting for drvtest2 is held to drvtest2's rights by every node down the tree"
  kill -0 "$srun_pid" 2>/dev/null && ok "drvtest1's step still runs" || fail "drvtest1's step was killed"
  # The owner's forwarded signal reaches the step on every node.
  out=$(as drvtest1 "$TOOL" forward 'tt[01-30]' - signal "$job1" 0 9)
  assert_eq 30 "$(grep -c ' 0 $' <<<"$out")" "the owner's forwarded step signal is taken by all 30 nodes"
  wait_until 60 bash -c "! kill -0 $srun_pid 2>/dev/null" && ok "and the step's tasks ended" || fail "the owner's signal did not end the step"
  scancel "$job1"
  wait_job "$job1"
else
  echo "# forwarding as other users needs root and useradd; skipped"
fi

# tt11, a node inside the tree, is gone: srun names it, and the launch reaches the 29 others
# (tt11's part is sent again around it).
job=$(sbatch --parsable -N 30 -o /dev/null --wrap 'sleep 300')
wait_running "$job" || fail "job $job did not start"
kill -9 "$(cat "$T/c/node-tt11.pid")"
t0=$SECONDS
out=$(timeout 120 srun --jobid="$job" -N 30 --overlap sh -c 'echo "out $SLURMD_NODENAME"' 2>"$T/srun.err"); rc=$?
[ "$rc" -ne 0 ] && ok "srun fails when a node cannot start its tasks" || fail "srun exited 0"
assert_match "srun: error: Task launch for StepId=$job\.0 failed on node tt11: " "$(cat "$T/srun.err")" "srun names the node that failed"
assert_eq 1 "$(grep -c 'Task launch for StepId' "$T/srun.err")" "and only that node"
assert_eq 29 "$(launched "$job.0")" "the other 29 nodes, tt12-tt20 behind tt11 too, started their tasks"
[ $((SECONDS - t0)) -lt 30 ] && ok "srun did not wait on the dead node" || fail "srun took $((SECONDS - t0)) s"
scancel "$job"
finish
