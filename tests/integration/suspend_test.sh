#!/usr/bin/env bash
# suspend_test.sh - scontrol suspend and resume on a live cluster, as Slurm's scontrol(1) says:
# operators and administrators only; a suspended job's processes stop (SIGSTOP) and go on after
# resume (SIGCONT); its CPUs go to other jobs meanwhile; the time suspended does not count in its
# RunTime; it stays suspended through a controller restart; cancelling it ends it. And
# PreemptMode=SUSPEND,GANG: a job of a higher PriorityTier partition suspends the lower one,
# which is resumed when the preemptor has ended.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
make_cluster 1 "PreemptType=preempt/partition_prio" "PreemptMode=SUSPEND,GANG"
cat >> "$T/c/slurm.conf" <<CONF
PartitionName=low Nodes=n1 PriorityTier=1
PartitionName=high Nodes=n1 PriorityTier=10
CONF
cluster_start "$T/c" 1
cd "$T"
chmod 777 "$T"

state() { squeue -h -j "$1" -o %t 2>/dev/null; }
in_state() { [ "$(state "$1")" = "$2" ]; }
count() { cat "$T/ticks.$1" 2>/dev/null || echo 0; }
above() { [ "$(count "$1")" -gt "$2" ]; }
grows() { wait_until 30 above "$1" "$(count "$1")"; }
# A job that counts in a file as long as it runs.
ticker() { echo "i=0; while :; do i=\$((i+1)); echo \$i > $T/ticks.$1; sleep 0.2; done"; }

a=$(sbatch --parsable -p debug -o /dev/null --wrap "$(ticker a)")
wait_running "$a" || fail "job $a did not start"
wait_until 30 test -s "$T/ticks.a" || fail "job $a does not count"
b=$(sbatch --parsable -p debug -o /dev/null --wrap "$(ticker b)")
wait_until 30 pending_for "$b" Resources || fail "job $b is not waiting for the node"

# ---- who may ----
out=$(as drvtest1 scontrol suspend "$a" 2>&1); rc=$?
assert_eq 1 "$rc" "a user may not suspend"
assert_eq "Access/permission denied for job $a" "$out" "with Slurm's message"
u=$(as drvtest1 sbatch --parsable -p debug -o /dev/null --wrap "sleep 300")
out=$(as drvtest1 scontrol suspend "$u" 2>&1)
assert_eq "Access/permission denied for job $u" "$out" "not even their own job"
out=$(scontrol suspend "$u" 2>&1); rc=$?
assert_eq "1 Job is pending execution for job $u" "$rc $out" "a pending job is not suspended"
scancel "$u"

# ---- suspend ----
wait_until 30 above a 10 || fail "job $a does not count"  # it has run 2 s or more
out=$(scontrol suspend "$a" 2>&1); rc=$?
assert_eq "0 " "$rc $out" "root suspends the job, silently"
assert_eq S "$(state "$a")" "squeue shows it S"
assert_match "JobState=SUSPENDED" "$(scontrol show job "$a")" "scontrol show job: SUSPENDED"
wait_running "$b" && ok "its CPUs go to the waiting job" || fail "job $b: $(squeue -h -j "$b" -o '%t %r')"
wait_until 30 above b 15 || fail "job $b does not count"  # a is suspended 3 s or more
n=$(count a)
grows b  # the other job goes on meanwhile; the suspended one may not
assert_eq "$n" "$(count a)" "the suspended job's processes are stopped"
assert_match "SUSPENDED" "$(sacct -n -X -P -j "$a" -o State)" "sacct shows it SUSPENDED"
out=$(scontrol suspend "$a" 2>&1)
assert_eq "Job is not running for job $a" "$out" "suspending it again is refused"
show=$(scontrol show job "$a")
assert_match "SuspendTime=[0-9]{4}-" "$show" "SuspendTime is when it was suspended"
pre=$(sed -n 's/.*SecsPreSuspend=\([0-9]*\).*/\1/p' <<< "$show")
[ -n "$pre" ] && [ "$pre" -ge 1 ] && ok "SecsPreSuspend=$pre: what it had run" \
  || fail "SecsPreSuspend in: $show"

# ---- through a controller restart ----
kill_ctld TERM
restart_ctld
assert_eq S "$(state "$a")" "still suspended after a controller restart"
assert_eq R "$(state "$b")" "and the other job still running"

# ---- resume ----
scancel "$b"; wait_job "$b"
out=$(scontrol resume "jobid=$a" 2>&1); rc=$?
assert_eq "0 " "$rc $out" "root resumes it (JobId= accepted)"
assert_eq R "$(state "$a")" "running again"
grows a && ok "its processes go on" || fail "job $a does not count after resume"
out=$(scontrol resume "$a" 2>&1); rc=$?
assert_eq "1 Job is not suspended for job $a" "$rc $out" "resuming a running job is refused"
# The time suspended is not run time: RunTime is well under the time since the start.
used=$(squeue -h -j "$a" -o %M)
secs() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' <<< "$1"; }
started=$(date -d "$(squeue -h -j "$a" -o %S)" +%s)
wall=$(( $(date +%s) - started ))
[ "$(( $(secs "$used") + 3 ))" -le "$wall" ] && ok "RunTime $used leaves out the suspension (wall ${wall}s)" \
  || fail "RunTime $used, wall ${wall}s"

# ---- cancel while suspended ----
scontrol suspend "$a"
wait_until 30 in_state "$a" S || fail "job $a not suspended again"
scancel "$a"
wait_job "$a" 60 && assert_eq CANCELLED "$(job_state "$a")" "a suspended job cancelled ends" \
  || fail "the suspended job did not end on scancel: $(job_state "$a")"

# ---- PreemptMode=SUSPEND ----
low=$(sbatch --parsable -p low -o /dev/null --wrap "$(ticker low)")
wait_running "$low" || fail "the low job did not start"
high=$(sbatch --parsable -p high -o /dev/null --wrap "$(ticker high)")
wait_running "$high" && ok "the high-tier job starts on the suspended job's CPUs" \
  || fail "high job: $(squeue -h -j "$high" -o '%t %r')"
assert_eq S "$(state "$low")" "the low-tier job is suspended, not requeued"
n=$(count low)
grows high || fail "the high job does not count"
assert_eq "$n" "$(count low)" "and its processes are stopped"
scancel "$high"
wait_job "$high" || fail "the high job did not end"
wait_until 60 in_state "$low" R && ok "it runs again once the preemptor has ended" \
  || fail "low job after: $(squeue -h -j "$low" -o '%t %r')"
grows low || fail "the resumed job does not count"
assert_match "Restarts=0" "$(scontrol show job "$low")" "it was never requeued"
scancel "$low"
finish
