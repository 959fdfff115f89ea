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
# (its srun loses the node's connection and returns; the script goes on).
long=$(sbatch --parsable -w n1 -o long.out --wrap 'echo $SLURM_JOB_ID >> ran.txt; sleep 6; echo finished')
short=$(sbatch --parsable -w n2 -o short.out --wrap 'echo $SLURM_JOB_ID >> ran.txt; sleep 1.5; exit 7')
stepjob=$(sbatch --parsable -w n3 -o step.out --wrap \
  'echo $SLURM_JOB_ID >> ran.txt; srun sh -c "sleep 5; echo tasks >> stepran.txt; exit 3"; sleep 9')
running() { [ "$(squeue -h -j "$1" -o %t)" = R ]; }
wait_until 10 running "$long" && wait_until 10 running "$short" && wait_until 10 running "$stepjob" ||
  fail "the jobs did not start"
wait_until 10 bash -c "[ \"\$(squeue -h --steps -j $stepjob -o %i | grep -c '\.0$')\" = 1 ]" ||
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
for i in 1 2 3; do kill -KILL "$(cat "$T/c/n$i.pid")"; done
sleep 2.5  # the short job ends meanwhile
alive_as drover_keeper "$T"/c/spool/n1/job*/batch "$T"/c/spool/n3/job*/batch &&
  ok "the batch scripts' keepers outlived droverd" || fail "a keeper died with droverd"
alive_as drover_shepherd "$T"/c/spool/n3/step*/step && ok "the step's shepherd outlived droverd" ||
  fail "the shepherd died with droverd"
for i in 1 2 3; do start_node "$T/c" "$i"; done

wait_job "$short" 10
assert_eq FAILED "$(job_state "$short")" "the job that ended while droverd was away is recorded"
assert_eq "7:0" "$(sacct -j "$short" -X -n -o ExitCode | tr -d ' ')" "with its script's exit code"
assert_eq RUNNING "$(job_state "$long")" "the job that runs across the restart is still running"
assert_contains "still runs" "$(cat "$T"/c/log/droverd-n1.log)" "droverd found it again"

wait_job "$long" 20
assert_eq COMPLETED "$(job_state "$long")" "the long job completed"
assert_eq finished "$(cat long.out)" "its script ran to its end"
assert_eq 1 "$(sacct -j "$long" -X -n -o State | grep -c COMPLETED)" "its end is recorded once"

wait_until 15 bash -c "sacct -j $stepjob.0 -n -o State | grep -q FAILED" &&
  ok "the step that ran across the restart is recorded when it ends" ||
  fail "step $stepjob.0: [$(sacct -j "$stepjob" -n -o JobID,State,ExitCode)]"
assert_eq "3:0" "$(sacct -j "$stepjob.0" -n -o ExitCode | head -1 | tr -d ' ')" "with its task's exit code"
assert_eq tasks "$(cat stepran.txt 2>/dev/null)" "its task ran to its end, once"
wait_job "$stepjob" 20
assert_eq COMPLETED "$(job_state "$stepjob")" "the step's job completed"

sort ran.txt | uniq -d > twice.txt
assert_eq "" "$(cat twice.txt)" "no job ran twice"
assert_eq 3 "$(wc -l < ran.txt)" "every job ran"
assert_eq "" "$(find "$T/c/spool" -mindepth 2)" "acknowledged ends leave nothing in the spool"

# A job started on a node whose droverd is down (not yet found out by the controller) waits for
# it: the launch is tried again, or droverd's registration brings it, and it runs once.
kill -KILL "$(cat "$T/c/n2.pid")"
late=$(sbatch --parsable -w n2 -o late.out --wrap 'echo $SLURM_JOB_ID >> ran.txt; echo ran')
wait_until 10 running "$late" || fail "job $late did not start"
sleep 1
start_node "$T/c" 2
wait_job "$late" 20
assert_eq COMPLETED "$(job_state "$late")" "a job whose launch met a dead droverd runs once it is back"
assert_eq 1 "$(grep -cx "$late" ran.txt)" "and runs once"

# A node that registers with a job the controller does not have running (a cold start forgot it)
# is told to end it: its batch script on the batch host, its steps on the others.
orphan=$(sbatch --parsable -N2 -w n1,n2 -o orphan.out --wrap "srun -N2 sh -c 'sleep 301\$SLURM_NODEID'")
wait_until 10 running "$orphan" || fail "job $orphan did not start"
wait_until 10 bash -c "pgrep -f 'sleep 301[0]' && pgrep -f 'sleep 301[1]'" || fail "the orphan's step did not start"
kill_ctld TERM
restart_ctld -c
wait_until 10 sinfo -h || fail "controller did not come back cold"
kill -KILL "$(cat "$T/c/n2.pid")"
start_node "$T/c" 2
wait_until 15 bash -c "! pgrep -f 'sleep 301[1]'" &&
  ok "a job's step the controller no longer knows is ended on its node" || fail "the orphan's step still runs on n2"
kill -KILL "$(cat "$T/c/n1.pid")"
start_node "$T/c" 1
wait_until 15 bash -c "! pgrep -f 'sleep 301[0]'" &&
  ok "a batch job the controller no longer knows is ended on its node" || fail "the orphan still runs on n1"
finish
