#!/usr/bin/env bash
# requeue_exit_test.sh - jobs put back in the queue, as slurm.conf(5) and scontrol(1) describe
# them: a batch script that exits with a code RequeueExit lists runs again; one RequeueExitHold
# lists waits held in SPECIAL_EXIT until released; scontrol requeuehold State=SpecialExit does the
# same; --no-requeue keeps a job from either; and a requeued job waits AuthInfo's cred_expire
# before it runs again (Reason BeginTime meanwhile). The output of a run requeued or cancelled
# ends with the line Slurm's step daemon writes.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "RequeueExit=3" "RequeueExitHold=4,10-12"
cluster_start "$T/c" 1
cd "$T"

show() { scontrol show job "$1"; }
shown() { squeue -h -j "$1" -o '%t %r' 2>/dev/null; }
is() { [ "$(shown "$1")" = "$2" ]; }
# A script that exits CODE on its first run and 0 on the next, counting its runs in a file.
once() { echo "n=\$(cat $T/runs.$1 2>/dev/null || echo 0); echo \$((n+1)) > $T/runs.$1; [ \$n -gt 0 ] || exit $2"; }
runs() { cat "$T/runs.$1" 2>/dev/null || echo 0; }
# ends_with FILE REGEX: the file's last line is Slurm's step daemon's line matching REGEX.
ends_with() { [[ "$(tail -1 "$1" 2>/dev/null)" =~ ^"slurmstepd: error: *** "$2$ ]]; }

cfg=$(scontrol show config)
assert_match "RequeueExit += 3$" "$(grep '^RequeueExit ' <<< "$cfg")" "show config says RequeueExit"
assert_match "RequeueExitHold += 4,10-12$" "$(grep '^RequeueExitHold ' <<< "$cfg")" "and RequeueExitHold as written"

# ---- RequeueExit: the job runs again, after the requeue delay ----
j=$(sbatch --parsable -o /dev/null --wrap "$(once a 3)")
wait_until 60 is "$j" "PD BeginTime" || fail "job $j exiting 3 was not requeued to wait (got: $(shown "$j"))"
assert_eq 1 "$(runs a)" "it ran once so far"
assert_match "Restarts=1" "$(show "$j")" "the requeue is counted"
eligible=$(show "$j" | grep -o 'EligibleTime=[^ ]*' | cut -d= -f2)
delay=$(( $(date -d "$eligible" +%s) - $(date +%s) ))
[ "$delay" -ge 1 ] && [ "$delay" -le 11 ] && ok "it may run again cred_expire (10 s) after the requeue" ||
  fail "EligibleTime $eligible is $delay s away"
wait_job "$j" 90 || fail "job $j did not run again"
assert_eq "COMPLETED" "$(sacct -X -n -j "$j" -o State%20 | tr -d ' ')" "its second run completed"
assert_eq 2 "$(runs a)" "after two runs"
assert_match "REQUEUED +3:0" "$(sacct -D -X -n -P -j "$j" -o State,ExitCode | tr '|' ' ')" \
  "sacct -D shows the first run REQUEUED with its exit code"

# ---- RequeueExitHold: held in SPECIAL_EXIT until released ----
h=$(sbatch --parsable -o /dev/null --wrap "$(once b 11)")
wait_until 60 is "$h" "SE JobHeldUser" || fail "job $h exiting 11 is not SPECIAL_EXIT (got: $(shown "$h"))"
assert_match "JobState=SPECIAL_EXIT Reason=JobHeldUser" "$(show "$h")" "scontrol show job says SPECIAL_EXIT"
assert_eq "SPECIAL_EXIT" "$(squeue -h -j "$h" -o %T)" "squeue's long state"
assert_eq "$h" "$(squeue -h -t SE -o %i)" "squeue -t SE finds it"
assert_eq "$h" "$(squeue -h -t special_exit -o %i)" "and -t SPECIAL_EXIT"
scontrol release "$h" || fail "scontrol release $h"
assert_match "^PD" "$(shown "$h")" "released, it is PENDING again"
wait_job "$h" 90 || fail "job $h did not run after release"
assert_eq "COMPLETED" "$(sacct -X -n -j "$h" -o State%20 | tr -d ' ')" "and completes"

# ---- --no-requeue: an exit code in either list ends the job ----
n=$(sbatch --parsable --no-requeue -o /dev/null --wrap 'exit 3')
wait_job "$n" || fail "job $n did not end"
assert_eq "FAILED 3:0" "$(sacct -X -n -j "$n" -o State%20,ExitCode | xargs)" "a --no-requeue job exiting 3 FAILED"
assert_match "Restarts=0" "$(show "$n")" "and was not requeued"
o=$(sbatch --parsable -o /dev/null --wrap 'exit 5')
wait_job "$o" || fail "job $o did not end"
assert_eq "FAILED" "$(sacct -X -n -j "$o" -o State%20 | tr -d ' ')" "an exit code in neither list fails the job"

# ---- scontrol requeuehold State=SpecialExit ----
r=$(sbatch --parsable -o /dev/null --wrap 'sleep 300')
wait_running "$r" || fail "job $r did not start"
out=$(scontrol requeuehold State=bogus "$r" 2>&1); rc=$?
assert_eq 1 "$rc" "an unknown requeue state is refused"
assert_eq "scontrol: error: Invalid state specification State=bogus" "$out" "with Slurm's message"
assert_eq "R" "$(squeue -h -j "$r" -o %t)" "and the job goes on"
scontrol requeuehold State=SpecialExit "$r" || fail "scontrol requeuehold State=SpecialExit $r"
wait_until 60 is "$r" "SE JobHeldUser" || fail "job $r is not SPECIAL_EXIT (got: $(shown "$r"))"
kill_ctld
restart_ctld
assert_eq "SE JobHeldUser" "$(shown "$r")" "SPECIAL_EXIT survives a controller restart"
scontrol release "$r"
assert_match "^PD" "$(shown "$r")" "released, PENDING"
scancel "$r"

# ---- scontrol requeue: the same delay ----
q=$(sbatch --parsable -o "$T/q.out" --wrap 'sleep 300')
wait_running "$q" || fail "job $q did not start"
submitted() { date -d "$(scontrol show job "$1" | grep -o 'SubmitTime=[^ ]*' | cut -d= -f2)" +%s; }
first_submit=$(submitted "$q")
sleep 1  # the requeue comes in a later second than the submission, so that the two differ
requeued_at=$(date +%s)
scontrol requeue "$q" || fail "scontrol requeue $q"
[ "$(submitted "$q")" -ge "$requeued_at" ] && [ "$(submitted "$q")" -gt "$first_submit" ] &&
  ok "a requeued job's SubmitTime is the requeue's, as Slurm's" ||
  fail "SubmitTime after the requeue: $(scontrol show job "$q" | grep -o 'SubmitTime=[^ ]*')"
wait_until 60 is "$q" "PD BeginTime" || fail "requeued job $q does not wait for its begin time (got: $(shown "$q"))"
# Its stderr says why its run ended, as Slurm's step daemon writes it.
wait_until 30 ends_with "$T/q.out" "JOB $q ON n1 CANCELLED AT [0-9T:-]+ DUE TO JOB REQUEUE \*\*\*" &&
  ok "the requeued run's output ends DUE TO JOB REQUEUE" || fail "q.out ends: $(tail -1 "$T/q.out")"
wait_running "$q" 60 || fail "job $q did not run again after the delay"
scancel "$q"
wait_job "$q" || fail "job $q did not end"
wait_until 30 ends_with "$T/q.out" "JOB $q ON n1 CANCELLED AT [0-9T:-]+ \*\*\*" &&
  ok "a cancelled job's output ends CANCELLED AT" || fail "q.out ends: $(tail -1 "$T/q.out")"
finish
