#!/usr/bin/env bash
# tree_hung_test.sh - nodes that hang inside the fan-out tree: 30 emulated nodes, TreeWidth=3,
# SlurmdTimeout=6 (a ping round every 2 s). The daemon of tt11-tt15 is stopped (SIGSTOP: it keeps
# its sockets, takes connections and never answers), so the head of the controller's second part
# and the heads of its re-sent rests hang. Each costs the tree one hop timeout, not the round's:
# the other 25 nodes never look unresponsive, the five go DOWN "Not responding" within
# SlurmdTimeout and a ping interval, a job on nodes behind them keeps running, and when the daemon
# resumes the nodes register again and ReturnToService=1 brings them back.
source "$(dirname "$0")/lib.sh"
# Ports in a window no other test uses (emulate_test takes 12000-17199, tree_end_test
# 17500-19939, cluster.sh 20000-30999, tree_step_test 31100-32699).
make_emulated_cluster tt 30 17200 17500 TreeWidth=3 SlurmdTimeout=6 ReturnToService=1
emulate_nodes 'tt[01-10,16-30]' emu
emulate_nodes 'tt[11-15]' hung
wait_until 60 bash -c '[ "$(sinfo -h -t idle -o %D)" = 30 ]' || fail "the 30 nodes did not come up"
mkdir -p "$T/w" && cd "$T/w"
hung='tt11 tt12 tt13 tt14 tt15'
is_hung() { [[ " $hung " == *" $1 "* ]]; }

# A job on nodes that the tree reaches through the hung ones (tt16-tt20 are in tt11's part).
job=$(sbatch --parsable -w 'tt[16-20]' -N 5 -o /dev/null --wrap 'sleep 300')
wait_running "$job" || fail "job $job did not start"
rounds_before=$(grep -c "ping round:" "$T/c/log/droverctld.log")

kill -STOP "$(cat "$T/c/node-hung.pid")"
t0=$SECONDS
bad=""  # live nodes seen not responding or down
down=0
while [ $((SECONDS - t0)) -lt 30 ]; do
  states=$(sinfo -h -N -o '%N %t' 2>/dev/null)
  down=0
  while read -r node state; do
    if is_hung "$node"; then [[ $state == down* ]] && down=$((down + 1))
    elif [[ $state == *'*' || $state == down* ]]; then bad+=" $node:$state"; fi
  done <<<"$states"
  [ "$down" = 5 ] && break
  sleep 0.5
done
took=$((SECONDS - t0))
assert_eq 5 "$down" "the five hung nodes went DOWN"
[ "$took" -le 14 ] && ok "within SlurmdTimeout, a ping interval and the hop timeouts ($took s)" \
  || fail "they took $took s to go DOWN (SlurmdTimeout 6 s)"
assert_eq "" "$bad" "no live node, not those behind the hung ones either, ever looked unresponsive"
for n in $hung; do
  assert_eq "Not responding" "$(scontrol show node "$n" | sed -n 's/^ *Reason=\(.*\) \[.*/\1/p')" "$n's reason"
done
# The rounds while they hung: each hung head cost a hop timeout (6 s / 8), the round stayed
# within its budget (SlurmdTimeout) and named all 30 nodes.
rounds=$(tail -n +"$((rounds_before + 1))" "$T/c/log/droverctld.log" | grep "ping round:")
longest=$(sed 's/.* in \([0-9]*\) ms/\1/' <<<"$rounds" | sort -n | tail -1)
[ -n "$longest" ] && [ "$longest" -lt 6000 ] && ok "the longest ping round took $longest ms (under SlurmdTimeout)" \
  || fail "a ping round took ${longest:-?} ms"
assert_match "25 of 30 nodes answered" "$rounds" "a round named every node and heard from the 25 live ones"
assert_eq RUNNING "$(squeue -h -j "$job" -o %T)" "the job behind the hung nodes kept running"

# The daemon resumes: the nodes answer pings again, are asked to register, and come back.
kill -CONT "$(cat "$T/c/node-hung.pid")"
wait_until 60 bash -c '[ "$(sinfo -h -t idle -o %D)" = 25 ]' && ok "the five came back (ReturnToService=1)" \
  || fail "they did not come back: $(sinfo -h -N -o '%N %t' | grep -v ' idle$\| alloc$' | tr '\n' ' ')"
assert_match "answer again after not responding" "$(cat "$T/c/log/droverctld.log")" "the controller asked them to register"
scancel "$job"
finish
