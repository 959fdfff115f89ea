#!/usr/bin/env bash
# noded_restart_test.sh - droverd killed with SIGKILL and restarted finds its jobs and steps again
# in its spool: batch scripts and steps keep running, the ends that happen while it is away or
# after it is back are recorded once, a step whose srun went with the old droverd still ends and
# is recorded, registration keeps the controller from ending the jobs as lost (and ends on the
# node a job the controller no longer has), and a launch that met a dead droverd is tried again. ctld_restart_test checks that a repeated launch starts
# nothing.
source "$(dirname "$0")/lib.sh"
start_cluster 3
cd "$T"

# n1: runs across the kill. n2: ends while droverd is away. n3: a step runs across the kill
# (its srun loses the node's connection and returns; the script goes on). Each goes on until the
# test opens its gate.
long=$(sbatch --parsable -w n1 -o long.out --wrap 'echo $SLURM_JOB_ID >> ran.txt; '"$(gate long)"'; echo finished')
short=$(sbatch --parsable -w n2 -o short.out --wrap 'echo $SLURM_JOB_ID >> ran.txt; '"$(gate short)"'; exit 7')
stepjob=$(sbatch --parsable -w n3 -o step.out --wrap \
  'echo $SLURM_JOB_ID >> ran.txt; srun sh -c "'"$(gate step)"'; echo tasks >> stepran.txt; exit 3"; '"$(gate stepjob)")
wait_running "$long" && wait_running "$short" && wait_running "$stepjob" || fail "the jobs did not start"
wait_until 60 bash -c "[ \"\$(squeue -h --steps -j $stepjob -o %i | grep -c '\.0$')\" = 1 ]" ||
  fail "the step did not start"

# Whether the process a spool record names (pid=) is alive (not a zombie) and has that name.
alive_as() {  # NAME RECORD...
  local name=$1 f pid; shift
  for f in "$@"; do
    pid=$(sed -n 's/^pid=//p' "$f")
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || return 1
    [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ] || return 1
  done
}
for i in 1 2 3; do kill_node "$i" KILL; done
# The short job ends meanwhile: its keeper records the end and exits.
open_gate short
short_ended() { ! alive_as drover_keeper "$T"/c/spool/n2/job*/batch; }
wait_until 60 short_ended || fail "the short job's keeper did not end"
alive_as drover_keeper "$T"/c/spool/n1/job*/batch "$T"/c/spool/n3/job*/batch &&
  ok "the batch scripts' keepers outlived droverd" || fail "a keeper died with droverd"
alive_as drover_shepherd "$T"/c/spool/n3/step*/step && ok "the step's shepherd outlived droverd" ||
  fail "the shepherd died with droverd"
for i in 1 2 3; do start_node "$T/c" "$i"; done

wait_job "$short"
assert_eq FAILED "$(job_state "$short")" "the job that ended while droverd was away is recorded"
assert_eq "7:0" "$(sacct -j "$short" -X -n -o ExitCode | tr -d ' ')" "with its script's exit code"
assert_eq RUNNING "$(job_state "$long")" "the job that runs across the restart is still running"
assert_contains "still runs" "$(cat "$T"/c/log/droverd-n1.log)" "droverd found it again"

open_gate long
wait_job "$long"
assert_eq COMPLETED "$(job_state "$long")" "the long job completed"
assert_eq finished "$(cat long.out)" "its script ran to its end"
assert_eq 1 "$(sacct -j "$long" -X -n -o State | grep -c COMPLETED)" "its end is recorded once"

open_gate step
wait_until 60 bash -c "sacct -j $stepjob.0 -n -o State | grep -q FAILED" &&
  ok "the step that ran across the restart is recorded when it ends" ||
  fail "step $stepjob.0: [$(sacct -j "$stepjob" -n -o JobID,State,ExitCode)]"
assert_eq "3:0" "$(sacct -j "$stepjob.0" -n -o ExitCode | head -1 | tr -d ' ')" "with its task's exit code"
assert_eq tasks "$(cat stepran.txt 2>/dev/null)" "its task ran to its end, once"
open_gate stepjob
wait_job "$stepjob"
assert_eq COMPLETED "$(job_state "$stepjob")" "the step's job completed"

sort ran.txt | uniq -d > twice.txt
assert_eq "" "$(cat twice.txt)" "no job ran twice"
assert_eq 3 "$(wc -l < ran.txt)" "every job ran"
assert_eq "" "$(find "$T/c/spool" -mindepth 2)" "acknowledged ends leave nothing in the spool"

# A job started on a node whose droverd is down (not yet found out by the controller) waits for
# it: the launch is tried again, or droverd's registration brings it, and it runs once.
kill_node 2 KILL
late=$(sbatch --parsable -w n2 -o late.out --wrap 'echo $SLURM_JOB_ID >> ran.txt; echo ran')
wait_running "$late" || fail "job $late did not start"
wait_until 60 grep -q "job $late: cannot launch it on its node" "$T/c/log/droverctld.log" ||
  fail "the launch of job $late did not meet the dead droverd"
start_node "$T/c" 2
wait_job "$late"
assert_eq COMPLETED "$(job_state "$late")" "a job whose launch met a dead droverd runs once it is back"
assert_eq 1 "$(grep -cx "$late" ran.txt)" "and runs once"

# A node that registers with a job the controller does not have running (a cold start forgot it)
# is told to end it: its batch script on the batch host, its steps on the others.
# Its tasks sleep for a time of this test's own (MARK0 on n1, MARK1 on n2), which other tests
# running beside this one do not have.
mark=$((300000 + RANDOM))
orphan=$(sbatch --parsable -N2 -w n1,n2 -o orphan.out --wrap "srun -N2 sh -c 'sleep $mark\$SLURM_NODEID'")
wait_running "$orphan" || fail "job $orphan did not start"
wait_until 60 bash -c "pgrep -f 'sleep ${mark}[0]' && pgrep -f 'sleep ${mark}[1]'" || fail "the orphan's step did not start"
kill_ctld TERM
restart_ctld -c
wait_until 60 sinfo -h || fail "controller did not come back cold"
kill_node 2 KILL
start_node "$T/c" 2
wait_until 60 bash -c "! pgrep -f 'sleep ${mark}[1]'" &&
  ok "a job's step the controller no longer knows is ended on its node" || fail "the orphan's step still runs on n2"
kill_node 1 KILL
start_node "$T/c" 1
wait_until 60 bash -c "! pgrep -f 'sleep ${mark}[0]'" &&
  ok "a batch job the controller no longer knows is ended on its node" || fail "the orphan still runs on n1"
finish
