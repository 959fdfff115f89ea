#!/usr/bin/env bash
# listpids_test.sh - scontrol listpids [JOBID[.STEPID]] [NODENAME] as Slurm prints it: the
# processes of the batch scripts and steps a node daemon runs, tasks with their local and global
# ids, the rest with "-"; a user sees only their own; Slurm's messages when there is nothing.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
start_cluster 1
cd "$T"
chmod 755 "$T"

header="PID      JOBID    STEPID   LOCALID GLOBALID"
out=$(scontrol listpids '*' n1 2>&1); rc=$?
assert_eq "1 $header
No job steps exist on this node." "$rc $out" "nothing runs: Slurm's header and message"

j=$(sbatch --parsable -o /dev/null --wrap "srun sleep 300")
wait_running "$j" || fail "job $j did not start"
step_task() { scontrol listpids "$j.0" n1 2>/dev/null | awk '$3 == "0" && $4 == "0" && $5 == "0" {print $1}'; }
task_listed() { [ -n "$(step_task)" ]; }
wait_until 60 task_listed || fail "no task 0 in: $(scontrol listpids "$j.0" n1 2>&1)"
pid=$(step_task)
assert_eq sleep "$(ps -o comm= -p "$pid")" "step $j.0's task 0 is the sleep, pid $pid"
all=$(scontrol listpids "$j" n1)
assert_eq "$header" "$(head -1 <<< "$all")" "the header first"
assert_match "(^|
)[0-9]+ +$j +batch +0 +0 *(
|$)" "$all" "the batch script is the batch step's task 0"
script=$(awk -v j="$j" '$2 == j && $3 == "batch" && $4 == "0" {print $1}' <<< "$all")
assert_eq slurm_script "$(ps -o comm= -p "$script")" "its pid is the script's"
assert_match "$pid +$j +0 +0 +0" "$all" "and the step's task is listed with the job"
assert_eq "$all" "$(scontrol listpids '*' n1)" "'*' lists every job"

out=$(as drvtest1 scontrol listpids "$j" n1 2>&1); rc=$?
assert_eq "1 $header
There are no steps for job $j on node n1." "$rc $out" "another user's job is not listed"
out=$(scontrol listpids "$j.7" n1 2>&1); rc=$?
assert_eq "1 $header
StepId=$j.7 does not exist on node n1." "$rc $out" "a step that is not there"
out=$(scontrol listpids abc n1 2>&1); rc=$?
assert_eq "1 \"abc\" does not look like a jobid" "$rc $out" "a job id that is none"
scancel "$j"
finish
