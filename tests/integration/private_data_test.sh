#!/usr/bin/env bash
# private_data_test.sh - PrivateData with real users (drvtest1, drvtest2), each with jobs of their
# own. Without PrivateData every user sees everything. With
# PrivateData=jobs,nodes,partitions,usage,users,accounts,events drvtest1 sees only their own jobs
# and steps (squeue and its --steps, --json, -j, -u; scontrol show job/step; sstat; sacct and its
# --json; scancel -u reaches only them), is refused nodes, partitions, accounts and node events
# with Slurm's messages, and sees only their own user and association records; root, and a user
# made Operator with sacctmgr, see everything.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/users.sh"
make_test_users
if [ "$MULTI" != 1 ]; then
  echo "private_data_test: skipped: needs real users (root and useradd; MULTI=0)"
  exit 0
fi
start_cluster 2
cd "$T"

sacctmgr -i add cluster local >/dev/null
sacctmgr -i add account physics >/dev/null
sacctmgr -i add user drvtest1,drvtest2 account=physics >/dev/null || fail "sacctmgr add user"

# Each user: a finished job (sacct) and a running job with a step (--steps, sstat); drvtest2 also
# an array, pending behind the running jobs.
done1=$(as drvtest1 sbatch --parsable -o /dev/null --wrap true)
done2=$(as drvtest2 sbatch --parsable -o /dev/null --wrap true)
wait_job "$done1"; wait_job "$done2"
run1=$(as drvtest1 sbatch --parsable -o /dev/null -w n1 --wrap 'srun sleep 600')
run2=$(as drvtest2 sbatch --parsable -o /dev/null -w n2 --wrap 'srun sleep 600')
arr2=$(as drvtest2 sbatch --parsable -o /dev/null -a 1-2 --wrap 'sleep 600')
for j in "$run1" "$run2"; do
  wait_until 30 bash -c "squeue -h --steps -j $j -o %i | grep -q '^$j\.0$'" || fail "step $j.0 did not start"
done

# run USER CMD...: "STATUS|STDERR|STDOUT" (stdout as one line) of CMD run as USER.
run() {
  local user=$1 out err rc; shift
  out=$(as "$user" "$@" 2>"$T/err"); rc=$?; err=$(cat "$T/err")
  echo "$rc|$err|$(echo "$out" | xargs)"
}
# job_ids TEXT: the job ids in squeue's or sacct's output, numerically sorted, on one line.
job_ids() { grep -oE '[0-9]+' <<<"$1" | sort -un | xargs; }
# json_has ID TEXT: whether a --json document holds a record of that job.
json_has() { grep -qE "\"job_id\": ?$1[^0-9]" <<<"$2"; }

# ---- without PrivateData: everyone sees everything ----
seen=$(as drvtest1 squeue -h -o %i)
assert_contains "$run2" "$seen" "open: squeue shows drvtest1 another user's job"
assert_contains "${arr2}_" "$seen" "open: and their array"
assert_contains "JobId=$run2 " "$(as drvtest1 scontrol show job "$run2")" "open: scontrol show job of another's"
assert_contains "$run2.0" "$(as drvtest1 squeue -h --steps -o %i)" "open: squeue --steps shows another's step"
assert_contains "$done2" "$(as drvtest1 sacct -a -X -n -P -o JobID)" "open: sacct -a shows another's record"
assert_match "^0\|\|" "$(run drvtest1 sinfo -h)" "open: sinfo"
assert_match "^0\|\|NodeName=n1 " "$(run drvtest1 scontrol show node n1)" "open: scontrol show node"
assert_match "^0\|\|PartitionName=debug" "$(run drvtest1 scontrol show partition)" "open: scontrol show partition"
assert_eq "0||physics root" "$(run drvtest1 sacctmgr -n -P show account format=account)" "open: sacctmgr show account"
assert_contains "drvtest2" "$(as drvtest1 sacctmgr -n -P show user format=user)" "open: sacctmgr show user"
assert_contains "physics|drvtest2" "$(as drvtest1 sacctmgr -n -P show assoc format=account,user)" "open: sacctmgr show assoc"
assert_match "^0\|\|" "$(run drvtest1 sacctmgr -n show event)" "open: sacctmgr show event"

# ---- PrivateData: the controller re-reads slurm.conf at restart; jobs and steps carry on ----
kill_ctld
echo "PrivateData=jobs,nodes,partitions,usage,users,accounts,events" >> "$SLURM_CONF"
restart_ctld
wait_until 20 squeue -h || fail "the controller did not come back"

# jobs and steps
assert_eq "$run1" "$(job_ids "$(as drvtest1 squeue -h -o %i)")" "squeue: only drvtest1's own job"
assert_eq "$done1 $run1" "$(job_ids "$(as drvtest1 squeue -h -t all -o %i)")" "squeue -t all: their finished one too"
assert_eq "" "$(as drvtest1 squeue -h -u drvtest2 -o %i)" "squeue -u another user: nothing"
for j in "$run2" "$arr2"; do
  assert_eq "1|slurm_load_jobs error: Invalid job id specified|" "$(run drvtest1 squeue -j "$j")" \
    "squeue -j $j (another's): as if there were no such job"
done
out=$(as drvtest1 squeue --json)
json_has "$run1" "$out" && ! json_has "$run2" "$out" && ! json_has "$arr2" "$out" &&
  ok "squeue --json: only their own" || fail "squeue --json: [$out]"
steps=$(as drvtest1 squeue -h --steps -o %i | xargs)
assert_contains "$run1.0" "$steps" "squeue --steps: their own step"
assert_eq "$run1" "$(job_ids "$(tr ' ' '\n' <<<"$steps" | cut -d. -f1)")" "squeue --steps: no other user's step"
assert_eq "JobId=$done1 JobId=$run1" "$(as drvtest1 scontrol show job | grep -oE 'JobId=[0-9]+' | xargs)" \
  "scontrol show job: their own jobs only"
for j in "$run2" "$arr2"; do
  assert_eq "1|slurm_load_jobs error: Invalid job id specified|" "$(run drvtest1 scontrol show job "$j")" \
    "scontrol show job $j (another's): Slurm's error"
done
assert_eq "StepId=$run1.0" "$(as drvtest1 scontrol show step | grep -oE "StepId=[0-9]+\.[0-9]+" | xargs)" \
  "scontrol show step: their own steps only"
assert_eq "1|Job step $run2.0 not found|" "$(run drvtest1 scontrol show step "$run2.0")" \
  "scontrol show step of another's: not found"
assert_eq "1|sstat: error: couldn't get steps for job $run2|" "$(run drvtest1 sstat -n -P -o JobID -j "$run2")" \
  "sstat of another's job: no steps"
assert_eq "0||$run1.0" "$(run drvtest1 sstat -n -P -o JobID -j "$run1")" "sstat of their own job"
out=$(as drvtest1 scancel -u drvtest2 2>&1)
assert_eq "" "$out" "scancel -u another user: reaches none of their jobs, says nothing"
assert_eq RUNNING "$(job_state "$run2")" "and the other user's job runs on"

# accounting records
assert_eq "$done1 $run1" "$(job_ids "$(as drvtest1 sacct -a -X -n -P -o JobID)")" "sacct -a: their own records only"
assert_eq "" "$(as drvtest1 sacct -X -n -P -o JobID -j "$done2")" "sacct -j another's: nothing"
out=$(as drvtest1 sacct -a --json)
json_has "$done1" "$out" && ! json_has "$done2" "$out" && ! json_has "$run2" "$out" &&
  ok "sacct --json: only their own" || fail "sacct --json: [$out]"

# nodes, partitions, accounts, events: refused, with Slurm's lines
assert_eq "1|slurm_load_partitions: Access/permission denied|" "$(run drvtest1 sinfo)" "sinfo: refused"
assert_eq "1|slurm_load_node error: Access/permission denied|" "$(run drvtest1 scontrol show node)" \
  "scontrol show node: refused"
assert_eq "1|slurm_load_node error: Access/permission denied|" "$(run drvtest1 scontrol show node n1)" \
  "scontrol show node NAME: refused"
assert_eq "1|slurm_load_partitions error: Access/permission denied|" "$(run drvtest1 scontrol show partition)" \
  "scontrol show partition: refused"
assert_eq "1| Problem with query.|" "$(run drvtest1 sacctmgr show account)" "sacctmgr show account: refused"
assert_eq "1| Error with request: Access/permission denied|" "$(run drvtest1 sacctmgr show event)" \
  "sacctmgr show event: refused"

# users and associations: their own, and the accounts above them
assert_eq "0||drvtest1" "$(run drvtest1 sacctmgr -n -P show user format=user)" "sacctmgr show user: themselves only"
assert_eq "0||root| physics| physics|drvtest1" "$(run drvtest1 sacctmgr -n -P show assoc format=account,user)" \
  "sacctmgr show assoc: their associations and the accounts above them"

# root and Operators see everything
assert_eq "$run1 $run2 $arr2" "$(job_ids "$(squeue -h -o %i | cut -d_ -f1)")" "root: squeue shows every user's jobs"
assert_contains "$done2" "$(sacct -a -X -n -P -o JobID)" "root: sacct -a shows every user's records"
assert_match "^0\|\|" "$(run root sinfo -h)" "root: sinfo"
assert_eq "0||physics root" "$(run root sacctmgr -n -P show account format=account)" "root: sacctmgr show account"
sacctmgr -i modify user drvtest2 set adminlevel=Operator >/dev/null || fail "make drvtest2 an Operator"
assert_contains "$run1" "$(as drvtest2 squeue -h -o %i)" "an Operator sees other users' jobs"
assert_contains "JobId=$run1 " "$(as drvtest2 scontrol show job "$run1")" "and scontrol shows them"
assert_contains "$done1" "$(as drvtest2 sacct -a -X -n -P -o JobID)" "and their accounting records"
assert_match "^0\|\|" "$(run drvtest2 sinfo -h)" "an Operator may list nodes and partitions"
assert_contains "drvtest1" "$(as drvtest2 sacctmgr -n -P show user format=user)" "and every user record"
assert_match "^0\|\|" "$(run drvtest2 sacctmgr -n show event)" "and node events"

scancel "$run1" "$run2" "$arr2"
finish
