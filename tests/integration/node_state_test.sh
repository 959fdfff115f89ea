#!/usr/bin/env bash
# node_state_test.sh - node states as admins and users see them: a node with less memory than
# configured is DOWN with the reason, drain and resume with running work, a node daemon that dies
# goes DOWN "Not responding" after SlurmdTimeout while its tree neighbours stay up, and comes back.
source "$(dirname "$0")/lib.sh"
make_cluster 5 "SlurmdTimeout=3"
sed -i 's/^NodeName=n5 \(.*\)$/NodeName=n5 \1 RealMemory=99999999/' "$SLURM_CONF"
start_ctld "$T/c"
for i in 1 2 3 4 5; do start_node "$T/c" "$i"; done
cd "$T"
wait_until 60 bash -c '[ "$(sinfo -h -N -n n5 -o %t)" = down ]' || fail "n5 did not go down"
assert_eq down "$(node_state n5)" "a node with less memory than configured is DOWN"
assert_match "Reason=Low RealMemory \(reg=[0-9]+ < config=99999999\)" "$(scontrol show node n5)" "with Slurm's reason"
assert_match "Low RealMemory .* n5" "$(sinfo -R -h)" "sinfo -R lists it"
wait_until 60 bash -c '[ "$(sinfo -h -N -o %t | grep -c idle)" = 4 ]' || fail "n1-n4 not idle"

# Drain a node with a job on it: DRAINING while the job runs (until its gate opens), DRAINED
# after; no new work lands there.
jid=$(sbatch --parsable -w n1 -J onn1 --wrap "$(gate onn1)")
wait_running "$jid"
busy=$(squeue -h -j "$jid" -o %N)
scontrol update NodeName="$busy" State=DRAIN Reason="disk swap"
assert_eq drng "$(node_state "$busy")" "a drained node with a job is draining"
assert_match "Reason=disk swap" "$(scontrol show node "$busy")" "the reason is kept"
open_gate onn1
wait_job "$jid"
assert_eq drain "$(node_state "$busy")" "and drained once the job ends"
ids=""
for i in 1 2 3 4; do ids="$ids $(sbatch --parsable --wrap 'sleep 1')"; done
for id in $ids; do wait_job "$id"; done
used=$(for id in $ids; do squeue -h -t all -j "$id" -o %N; done | sort -u)
[[ "$used" != *"$busy"* ]] && ok "no new job ran on the drained node" || fail "a job ran on drained $busy: $used"
err=$(scontrol update NodeName=n2 State=DRAIN 2>&1)
assert_match "You must specify a reason" "$err" "draining without a reason is refused"
scontrol update NodeName="$busy" State=RESUME
assert_eq idle "$(node_state "$busy")" "RESUME returns it to service"

# A dead node daemon: first not responding, then DOWN "Not responding". With TreeWidth=2 the
# controller's pings go to n1 (for n1-n3) and n4 (for n4-n5): killing n1 must not hide n2 and n3.
kill_node 1
wait_until 60 bash -c '[ "$(sinfo -h -N -n n1 -o %t)" = "down*" ]' || fail "n1 never went down"
assert_eq "down*" "$(node_state n1)" "a silent node goes DOWN and not responding"
assert_match "Reason=Not responding" "$(scontrol show node n1)" "with reason Not responding"
# Two more ping rounds without n1: the nodes behind it in the tree are still heard from.
log=$T/c/log/droverctld.log
rounds0=$(grep -c "ping round:" "$log")
two_more_rounds() { [ "$(grep -c "ping round:" "$log")" -ge $((rounds0 + 2)) ]; }
wait_until 60 two_more_rounds || fail "no ping rounds"
assert_eq idle "$(node_state n2)" "n2, behind n1 in the tree, still answers"
assert_eq idle "$(node_state n3)" "n3, behind n1 in the tree, still answers"
assert_eq idle "$(node_state n4)" "n4 in the other subtree still answers"
start_node "$T/c" 1
wait_until 60 bash -c '[ "$(sinfo -h -N -n n1 -o %t)" = idle ]' || fail "n1 did not come back"
assert_eq idle "$(node_state n1)" "with ReturnToService=1 the node returns when it registers"
finish
