#!/usr/bin/env bash
# preempt_test.sh - preemption on a live cluster. preempt/partition_prio: a job of a partition
# with a higher PriorityTier takes the node of a running job of a lower one, which is requeued
# (PreemptMode=REQUEUE: it runs again afterwards) or ends PREEMPTED (a partition's
# PreemptMode=CANCEL); jobs of the same tier preempt nothing. preempt/qos: a QOS preempts the
# QOS in its Preempt= list. slurm.conf values Drover does not support are refused.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "PreemptType=preempt/partition_prio" "PreemptMode=REQUEUE"
cat >> "$T/c/slurm.conf" <<CONF
PartitionName=low Nodes=n1 PriorityTier=1
PartitionName=cheap Nodes=n1 PriorityTier=1 PreemptMode=CANCEL
PartitionName=high Nodes=n1 PriorityTier=10
CONF
cluster_start "$T/c" 1
cd "$T"

conf=$(scontrol show config)
assert_match "PreemptType += preempt/partition_prio" "$conf" "show config: PreemptType"
assert_match "PreemptMode += REQUEUE" "$conf" "show config: PreemptMode"

state() { squeue -h -j "$1" -o %t 2>/dev/null; }
running() { [ "$(state "$1")" = R ]; }

# ---- REQUEUE: the preempted job goes back to the queue and runs again ----
low=$(sbatch --parsable -p low --wrap "sleep 300")
wait_until 30 running "$low" || fail "the low job did not start"
# Each preemptor runs a few seconds: long enough to be seen running on a busy machine.
high=$(sbatch --parsable -p high --wrap "sleep 4")
wait_until 60 running "$high" && ok "the high-tier job starts on the preempted node" \
  || fail "high job: $(squeue -h -j "$high" -o '%t %r')"
assert_eq "PD" "$(state "$low")" "the low-tier job is pending again"
assert_match "Restarts=1" "$(scontrol show job "$low")" "requeued once"
assert_match "REQUEUED" "$(sacct -n -D -X -P -j "$low" -o State)" "sacct shows its first run REQUEUED"
# Its stderr has the line of Slurm's step daemon (tools resubmit a job whose output says so).
banner() { grep -q "$2" "$T/slurm-$1.out" 2>/dev/null; }
wait_until 30 banner "$low" "^slurmstepd: error: \*\*\* JOB $low ON n1 CANCELLED AT [0-9T:-]* DUE TO PREEMPTION \*\*\*$" &&
  ok "the preempted job's output ends DUE TO PREEMPTION" || fail "slurm-$low.out ends: $(tail -1 "$T/slurm-$low.out")"
wait_until 60 running "$low" && ok "after the high job the requeued job runs again" \
  || fail "low job after: $(squeue -h -j "$low" -o '%t %r')"
scancel "$low"; wait_job "$low" 60

# ---- CANCEL: the preempted job ends PREEMPTED ----
cheap=$(sbatch --parsable -p cheap --wrap "sleep 300")
wait_until 30 running "$cheap" || fail "the cheap job did not start"
high=$(sbatch --parsable -p high --wrap "sleep 4")
wait_until 60 running "$high" || fail "high job (cancel): $(squeue -h -j "$high" -o '%t %r')"
wait_job "$cheap" 60
assert_eq "PREEMPTED" "$(sacct -n -X -P -j "$cheap" -o State)" "PreemptMode=CANCEL ends the job PREEMPTED"
wait_job "$high" 60

# ---- the same tier preempts nothing ----
a=$(sbatch --parsable -p low --wrap "sleep 300")
wait_until 30 running "$a" || fail "job a did not start"
b=$(sbatch --parsable -p cheap --wrap true)
wait_until 30 pending_for "$b" Resources && ok "a job of the same tier waits for Resources" \
  || fail "job b: $(squeue -h -j "$b" -o '%t %r')"
assert_eq "R" "$(state "$a")" "and the running one keeps running"
scancel "$a" "$b"; wait_job "$a" 60

# ---- preempt/qos ----
kill_ctld TERM
sed -i 's|^PreemptType=.*|PreemptType=preempt/qos|' "$T/c/slurm.conf"
restart_ctld
sacctmgr -i add cluster local >/dev/null
sacctmgr -i add qos scavenger PreemptMode=cancel >/dev/null
sacctmgr -i add qos urgent Preempt=scavenger >/dev/null
assert_eq "scavenger" "$(sacctmgr -n -P show qos urgent format=preempt)" "sacctmgr shows the Preempt list"
s=$(sbatch --parsable -q scavenger --wrap "sleep 300")
wait_until 30 running "$s" || fail "the scavenger job did not start"
n=$(sbatch --parsable -q normal --wrap true)
wait_until 30 pending_for "$n" Resources || fail "normal job: $(squeue -h -j "$n" -o '%t %r')"
assert_eq "R" "$(state "$s")" "a QOS outside the Preempt list preempts nothing"
scancel "$n"
u=$(sbatch --parsable -q urgent --wrap "sleep 4")
wait_until 60 running "$u" && ok "the urgent QOS preempts the scavenger job" \
  || fail "urgent job: $(squeue -h -j "$u" -o '%t %r')"
wait_job "$s" 60
assert_eq "PREEMPTED" "$(sacct -n -X -P -j "$s" -o State)" "the QOS's PreemptMode=cancel"
wait_job "$u" 60

# ---- GraceTime: SIGTERM first, the end (and the preemptor's start) GraceTime later ----
sacctmgr -i modify qos scavenger set GraceTime=6 >/dev/null
assert_eq "00:00:06" "$(sacctmgr -n -P show qos scavenger format=gracetime)" "sacctmgr shows GraceTime"
s=$(sbatch --parsable -q scavenger -o "$T/grace.out" \
  --wrap 'trap "date +%s > $PWD/grace.term; sleep 120" TERM; while :; do sleep 1; done')
wait_until 30 running "$s" || fail "the scavenger job did not start"
# The preemption is decided after this second, and the preemptor starts GraceTime after it.
before=$(date +%s)
u=$(sbatch --parsable -q urgent -o /dev/null --wrap "sleep 4")
wait_until 60 test -s "$T/grace.term" || fail "the preempted job got no SIGTERM"
wait_until 60 running "$u" || fail "urgent job after grace: $(squeue -h -j "$u" -o '%t %r')"
started=$(date -d "$(squeue -h -j "$u" -o %S)" +%s)
[ "$(cat "$T/grace.term")" -le "$started" ] && ok "SIGTERM comes before the preemptor starts" ||
  fail "SIGTERM at $(cat "$T/grace.term"), the preemptor started at $started"
[ $(( started - before )) -ge 6 ] && ok "the preemptor starts GraceTime after the preemption" ||
  fail "the urgent job started $(( started - before ))s after it was submitted (GraceTime=6)"
wait_job "$s" 60
assert_eq "PREEMPTED" "$(sacct -n -X -P -j "$s" -o State)" "the job that outlived its grace is PREEMPTED"
# The job's shell may still print after it (bash's "Terminated" for its killed sleep).
assert_match "slurmstepd: error: \*\*\* JOB $s ON n1 CANCELLED AT [0-9T:-]* DUE TO PREEMPTION \*\*\*" \
  "$(cat "$T/grace.out")" "its output says why"

# ---- what Drover refuses ----
sed 's|^PreemptMode=.*|PreemptMode=GANG|' "$T/c/slurm.conf" > "$T/bad.conf"
out=$(SLURM_CONF=$T/bad.conf sinfo 2>&1); rc=$?
assert_eq 1 "$rc" "PreemptMode=GANG alone (time-slicing) is refused"
assert_match "PreemptMode.*GANG alone .time-slicing. is not supported yet" "$out" "with a line saying so"

finish
