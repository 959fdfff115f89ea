#!/usr/bin/env bash
# sacct_test.sh - sacct against a real controller and accounting/lmdb, as users and workflow tools
# call it: the default window (since midnight, or now with -s), -j with jobs, steps and array
# tasks, -S/-E in Slurm's forms, -s, --name, -u/-a, -M/-L, -N, -D with a requeued job's earlier run,
# layouts (-P, -p, -n, -b, -l, -o with widths), Slurm's errors (exit status 1, stderr), and
# PrivateData=jobs for ordinary users.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/users.sh"
make_test_users
start_cluster 1 "PrivateData=Jobs"
cd "$T"

ok_job=$(sbatch --parsable -J alpha --mem=64M --wrap true)
bad=$(sbatch --parsable -J beta --wrap 'exit 4')
arr=$(sbatch --parsable -J gamma -a 1-2 --wrap true)
wait_job "$ok_job"; wait_job "$bad"
wait_until 60 bash -c "[ \"\$(sacct -j $arr -X -n -P -o State | sort -u)\" = COMPLETED ]"

# ---- rows and layouts ----
assert_eq "$ok_job|alpha|COMPLETED|0:0 $ok_job.batch|batch|COMPLETED|0:0" \
  "$(sacct -j "$ok_job" -n -P -o JobID,JobName,State,ExitCode | xargs)" "-P: the job and its batch line"
assert_eq "$ok_job|COMPLETED|" "$(sacct -j "$ok_job" -X -n -p -o JobID,State)" "-p ends each line with the delimiter"
assert_eq "JobID|State|ExitCode" "$(sacct -j "$ok_job" -X -P -b | head -1)" "-b: JobID, State, ExitCode"
assert_eq "JobID|JobIDRaw|JobName|Partition|MaxVMSize|MaxVMSizeNode|MaxVMSizeTask|AveVMSize|MaxRSS|MaxRSSNode|MaxRSSTask|AveRSS|MaxPages|MaxPagesNode|MaxPagesTask|AvePages|MinCPU|MinCPUNode|MinCPUTask|AveCPU|NTasks|AllocCPUS|Elapsed|State|ExitCode|AveCPUFreq|ReqCPUFreqMin|ReqCPUFreqMax|ReqCPUFreqGov|ReqMem|ConsumedEnergy|MaxDiskRead|MaxDiskReadNode|MaxDiskReadTask|AveDiskRead|MaxDiskWrite|MaxDiskWriteNode|MaxDiskWriteTask|AveDiskWrite|ReqTRES|AllocTRES|TRESUsageInAve|TRESUsageInMax|TRESUsageInMaxNode|TRESUsageInMaxTask|TRESUsageInMin|TRESUsageInMinNode|TRESUsageInMinTask|TRESUsageInTot|TRESUsageOutMax|TRESUsageOutMaxNode|TRESUsageOutMaxTask|TRESUsageOutAve|TRESUsageOutTot" \
  "$(sacct -j "$ok_job" -X -P -l | head -1)" "-l: Slurm's long field list"
assert_eq "       JobID      State " "$(sacct -j "$ok_job" -X -o JobID%12,State | head -1)" "-o with %width"
assert_eq "JobID                         " "$(sacct -j "$ok_job" -X -o JobID%-29 | head -1)" "a negative width left-justifies"
assert_eq "$ok_job|64M|0:0|local|$T|$(id -gn)|Unknown" \
  "$(sacct -j "$ok_job" -X -n -P -o JobID,ReqMem,DerivedExitCode,Cluster,WorkDir,Group,Timelimit | sed 's/|[^|]*$/|Unknown/')" \
  "ReqMem, DerivedExitCode, Cluster, WorkDir, Group"
assert_match "^billing=1,cpu=1,mem=64M,node=1\|None\|[0-9T:-]{19}$" \
  "$(sacct -j "$ok_job" -X -n -P -o AllocTRES,Reason,Eligible)" "AllocTRES, Reason, Eligible"

# ---- -j: jobs, steps, array tasks ----
assert_eq "$ok_job.batch" "$(sacct -j "$ok_job.batch" -n -P -o JobID)" "-j J.batch: that step's line only"
assert_eq "${arr}_1 ${arr}_2" "$(sacct -j "$arr" -X -n -P -o JobID | sort | xargs)" "-j ARRAY: every task"
assert_eq "${arr}_2.batch" "$(sacct -j "${arr}_2.batch" -n -P -o JobID)" "-j ARRAY_TASK.batch"
assert_eq "$ok_job $bad" "$(sacct -j "$bad,$ok_job" -X -n -P -o JobID | xargs)" "several ids, in id order"

# ---- filters ----
assert_eq "$bad" "$(sacct -X -n -P -o JobID -S today -s F)" "-s F"
assert_eq "$bad" "$(sacct -X -n -P -o JobID -S today -s failed)" "-s with a long name, any case"
sleep 1.1  # the window starts at now, in whole seconds
assert_eq "" "$(sacct -X -n -P -o JobID -s CD)" "-s without -S looks from now: nothing ended yet"
assert_eq "$ok_job" "$(sacct -X -n -P -o JobID --name alpha)" "--name"
assert_eq "$ok_job $bad" "$(sacct -X -n -P -o JobID -S "$(date +%m%d)" --name alpha,beta | xargs)" "-S MMDD"
assert_eq "$ok_job" "$(sacct -X -n -P -o JobID -S "$(date +%m/%d)-00:00" -E now --name alpha)" "-S MM/DD-HH:MM -E now"
assert_eq "" "$(sacct -X -n -P -o JobID -S 2001-01-01 -E 2001-01-02)" "a window before the jobs: nothing"
assert_eq "$ok_job" "$(sacct -X -n -P -o JobID -M local --name alpha)" "-M this cluster"
assert_eq "" "$(sacct -X -n -P -o JobID -M elsewhere --name alpha)" "-M another cluster: none of its records here"
assert_eq "$ok_job" "$(sacct -X -n -P -o JobID -M all --name alpha)" "-M all"
assert_eq "$ok_job" "$(sacct -X -n -P -o JobID -L --name alpha)" "-L"
node=$(sacct -j "$ok_job" -X -n -P -o NodeList)
assert_eq "$ok_job" "$(sacct -X -n -P -o JobID -N "$node" --name alpha)" "-N the node it ran on"
assert_eq "$ok_job" "$(sacct -X -n -P -o JobID -N "nosuch,$node" --name alpha)" "-N a list naming it"
assert_eq "" "$(sacct -X -n -P -o JobID -N nosuch --name alpha)" "-N another node"

# ---- Slurm's errors: stderr, exit status 1 ----
check_err() {  # expected-stderr args...
  local out err rc
  out=$(sacct "${@:2}" 2>"$T/err"); rc=$?; err=$(cat "$T/err")
  assert_eq "1|$1|" "$rc|$err|$out" "sacct ${*:2}: fails with [$1]"
}
check_err 'sacct: fatal: Bad job/step specified: 12x' -j 12x
check_err 'sacct: fatal: Bad step specified: 12.foo' -j 12.foo
check_err 'sacct: error: Invalid field requested: "Nonsense"' -o JobID,Nonsense
check_err "sacct: fatal: unrecognized job state value 'done'" -s done
check_err 'sacct: error: Invalid time specification: yesterdayish' -S yesterdayish
check_err "sacct: error: Start time (2020-01-02T00:00:00) requested is after end time (2020-01-01T00:00:00)." -S 2020-01-02 -E 2020-01-01
check_err 'sacct: fatal: Invalid unit type' --units=Q

# ---- -D: a requeued job's earlier run is a record of its own ----
rq=$(sbatch --parsable -J again --wrap 'sleep 300')
wait_running "$rq"
scontrol requeue "$rq"
wait_until 60 bash -c "scontrol show job $rq | grep -q 'Restarts=1'" || fail "no restart recorded"
wait_running "$rq" || fail "the requeued job did not run again"
assert_eq "$rq|RUNNING" "$(sacct -j "$rq" -X -n -P -o JobID,State)" "without -D: the current run only"
assert_eq "$rq|REQUEUED $rq|RUNNING" "$(sacct -j "$rq" -X -n -P -D -o JobID,State | xargs)" "-D: the earlier run too, REQUEUED"
assert_match "^$rq\|REQUEUED\|[0-9T:-]{19}\|00:00:[0-9]{2}$" \
  "$(sacct -j "$rq" -X -n -P -D -o JobID,State,End,Elapsed | head -1)" "the earlier run has ended"
scancel "$rq"

# ---- users and PrivateData=Jobs ----
if [ "$MULTI" = 1 ]; then
  mkdir -p "$T/u1" && chown drvtest1: "$T/u1"
  cd "$T/u1"
  mine=$(as drvtest1 sbatch --parsable -J theirs --wrap true)
  wait_job "$mine"
  cd "$T"
  assert_eq "$mine" "$(as drvtest1 sacct -X -n -P -o JobID)" "an ordinary user sees their own jobs by default"
  assert_eq "$mine" "$(as drvtest1 sacct -X -n -P -a -o JobID)" "with PrivateData=jobs, -a still shows only their own"
  assert_eq "" "$(as drvtest1 sacct -X -n -P -o JobID -j "$ok_job")" "and -j of root's job shows nothing"
  assert_eq "" "$(as drvtest2 sacct -X -n -P -u drvtest1 -o JobID)" "another user's records stay private"
  assert_match "(^| )$mine( |$)" "$(sacct -X -n -P -a -o JobID | xargs)" "root sees every user's"
  assert_eq "$mine" "$(sacct -X -n -P -u drvtest1 -o JobID)" "-u picks a user"
  assert_eq "drvtest1" "$(sacct -j "$mine" -X -n -P -o User)" "User"
else
  echo "sacct_test: multi-user part skipped (needs root and useradd)"
fi
finish
