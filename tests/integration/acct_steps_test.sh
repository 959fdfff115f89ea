#!/usr/bin/env bash
# acct_steps_test.sh - step accounting records through a real controller and accounting/lmdb:
# step records a controller still held in its spool when it stopped (acct_spool_tool writes them
# as such a controller leaves them) are delivered after the restart, and sacct prints them right
# after their job with their usage in Slurm's formats (and sacct --json lists them with the job);
# -X hides them; the spool empties.
source "$(dirname "$0")/lib.sh"

start_cluster 1
cd "$T"
TOOL=$BIN/tests/integration/acct_spool_tool

job=$(sbatch --parsable -J stepper --wrap true)
wait_job "$job" || fail "job $job did not finish"
assert_eq "$job|stepper|COMPLETED $job.batch|batch|COMPLETED" \
  "$(sacct -j "$job" -n -P -o JobID,JobName,State | xargs)" \
  "without step records the batch line comes from the job's record"

# The controller stops with step records not yet delivered.
kill_ctld TERM
"$TOOL" "$T/c/state" start "$job" batch batch n1 || fail "spooling"
"$TOOL" "$T/c/state" end "$job" batch batch n1 || fail "spooling"
"$TOOL" "$T/c/state" end "$job" extern extern n1 || fail "spooling"
"$TOOL" "$T/c/state" end "$job" 0 hostname n1 || fail "spooling"
"$TOOL" "$T/c/state" start "$job" 1 sleeper n1 || fail "spooling"
restart_ctld
wait_until 60 squeue -h || fail "controller did not come back"
assert_contains "5 accounting records from before the restart are being delivered" \
  "$(cat "$T/c/log/droverctld.log")" "the restart hands the spooled step records on"

out=$(sacct -j "$job" -n -P -o JobID,JobName,State,ExitCode,NodeList,AllocCPUS,NTasks)
assert_eq "$job|stepper|COMPLETED|0:0|n1|1|
$job.batch|batch|COMPLETED|0:0|n1|2|2
$job.extern|extern|COMPLETED|0:0|n1|2|2
$job.0|hostname|COMPLETED|0:0|n1|2|2
$job.1|sleeper|RUNNING|0:0|n1|2|2" "$out" "sacct: the job, then batch, extern and numbered steps"

out=$(sacct -j "$job" -n -P -o JobID,MaxRSS,MaxRSSNode,MaxRSSTask,AveRSS,AveCPU,MinCPU,TotalCPU,UserCPU,SystemCPU,MaxDiskWrite,MaxDiskWriteNode,ConsumedEnergy)
assert_eq "$job|||||||03:11.250|03:03.750|00:07.500|||
$job.batch|2G|n1|1|1.50G|00:00:31|00:00:30|01:03.750|01:01.250|00:02.500|1M|n1|0
$job.extern|2G|n1|1|1.50G|00:00:31|00:00:30|01:03.750|01:01.250|00:02.500|1M|n1|0
$job.0|2G|n1|1|1.50G|00:00:31|00:00:30|01:03.750|01:01.250|00:02.500|1M|n1|0
$job.1||||||||||||" "$out" "sacct: usage of ended steps; CPU totals on the job line; none yet for a running step"
assert_eq "$job.batch|2048M" "$(sacct -j "$job" -n -P -o JobID,MaxRSS --units=M | sed -n 2p)" "--units=M"
assert_eq "$job" "$(sacct -j "$job" -n -P -X -o JobID)" "-X: the allocation only"

# sacct --json: the job with its steps, each with id, name, state, nodes, tasks and usage.
json_steps() {
  sacct -j "$job" --json "$@" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
for j in doc["jobs"]:
    for s in j["steps"]:
        req = {t["type"]: t["count"] for t in s["tres"]["requested"]["max"]}
        print(s["step"]["id"], s["step"]["name"], s["state"][0], s["nodes"]["range"],
              s["tasks"]["count"], s["exit_code"]["status"][0], s["time"]["user"]["seconds"],
              req.get("mem", "-"), ",".join(t["type"] for t in s["tres"]["allocated"]))'
}
assert_eq "$job.batch batch COMPLETED n1 2 SUCCESS 61 2147483648 cpu,node
$job.extern extern COMPLETED n1 2 SUCCESS 61 2147483648 cpu,node
$job.0 hostname COMPLETED n1 2 SUCCESS 61 2147483648 cpu,node
$job.1 sleeper RUNNING n1 2 PENDING 0 - cpu,node" "$(json_steps 2>&1)" "sacct --json: each job's steps"
assert_eq "" "$(json_steps -X 2>&1)" "sacct --json -X: no steps"
assert_eq "AccountingRecordsWaiting = 0" \
  "$(scontrol show config | grep -o 'AccountingRecordsWaiting *= *[0-9]*' | tr -s ' ')" \
  "nothing is left in the spool"

# Delivered records are not delivered again by the next restart.
kill_ctld TERM
restart_ctld
wait_until 60 squeue -h || fail "controller did not come back"
assert_eq 1 "$(grep -c "accounting records from before the restart" "$T/c/log/droverctld.log")" \
  "a second restart finds the spool empty"
assert_eq 5 "$(sacct -j "$job" -n -P -o JobID | wc -l)" "and the records are still there, once each"
finish
