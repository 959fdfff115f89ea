#!/usr/bin/env bash
# policy_limits_test.sh - site policy on a live cluster, with two users the test creates:
# sacctmgr's QOS records and association limits; AccountingStorageEnforce=qos refusing a QOS the
# association may not use; limits,qos refusing at submission (MaxSubmitJobs, MaxWall, a
# DenyOnLimit QOS) and holding jobs with Slurm's pending reasons (MaxJobs, GrpTRES, the QOS's
# MaxJobsPerUser, a partition's QOS) until the limit frees; 8 clients racing a MaxSubmitJobs=50 limit; usage and
# limits holding across a controller restart.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/users.sh"
make_test_users
make_cluster 3 "AccountingStorageEnforce=associations,limits,qos"
echo "PartitionName=pq Nodes=n[1-3] QOS=partqos" >> "$T/c/slurm.conf"
cluster_start "$T/c" 3
mkdir -p "$T/work" && chmod 777 "$T/work" && cd "$T/work"
if [ "$MULTI" != 1 ]; then
  echo "skipping: needs root and useradd for its users"
  finish; exit $?
fi
U1=drvtest1 U2=drvtest2
refused="Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)"

sacctmgr -i add cluster local >/dev/null
sacctmgr -i add account physics >/dev/null
sacctmgr -i add account theory parent=physics >/dev/null
sacctmgr -i add user $U1,$U2 account=theory >/dev/null

# ---- QOS records ----
out=$(sacctmgr -i add qos high Priority=10 MaxWall=2:00:00)
assert_contains " Adding QOS(s)
  Name           = high" "$out" "add qos"
assert_eq "high|10|02:00:00 normal|0|" \
  "$(sacctmgr -n -P show qos format=name,priority,maxwall | sort | xargs)" "show qos: normal exists, high as added"
out=$(sacctmgr -i modify qos high set Flags=Bogus 2>&1); rc=$?
assert_eq "1| Invalid QOS flag 'Bogus' for flags: Bogus" "$rc|$out" "a bad flag is refused"
assert_eq "" "$(sacctmgr -n -P show qos high format=flags)" "and nothing was changed"

# ---- AccountingStorageEnforce=qos: only the association's QOS ----
out=$(as $U1 sbatch -q high --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: Invalid qos specification" "$rc|$out" \
  "a QOS the association may not use is refused"
out=$(as $U1 sbatch -q nosuch --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: Invalid qos specification" "$rc|$out" \
  "an unknown QOS is refused"
sacctmgr -i modify user $U1 set QOS+=high >/dev/null
assert_eq "high,normal" "$(sacctmgr -n -P show assoc where user=$U1 format=qos)" "QOS+= adds to the list"
j=$(as $U1 sbatch --parsable -H -q high --wrap true)
assert_eq "high" "$(squeue -h -j "$j" -o %q)" "the job runs under the QOS it asked for"
j0=$(as $U2 sbatch --parsable -H --wrap true)
assert_eq "normal" "$(squeue -h -j "$j0" -o %q)" "without -q: normal"
scancel "$j" "$j0"

# ---- submit limits ----
sacctmgr -i modify user $U2 set MaxSubmitJobs=2 >/dev/null
assert_eq "2" "$(sacctmgr -n -P show assoc where user=$U2 format=maxsubmit)" "MaxSubmitJobs shown"
a=$(as $U2 sbatch --parsable -H --wrap true); b=$(as $U2 sbatch --parsable -H --wrap true)
out=$(as $U2 sbatch -H --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: $refused" "$rc|$out" \
  "the third submission is over MaxSubmitJobs=2"
scancel "$a"
wait_until 30 bash -c "[ -z \"\$(squeue -h -j $a -o %i 2>/dev/null)\" ]"
c=$(as $U2 sbatch --parsable -H --wrap true) && ok "a cancelled job frees its place" || fail "resubmit after cancel"
scancel "$b" "$c"
sacctmgr -i modify user $U2 set MaxSubmitJobs=-1 >/dev/null

sacctmgr -i modify account physics set MaxWall=10 >/dev/null
out=$(as $U1 sbatch -t 20 --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: $refused" "$rc|$out" \
  "a time limit over the parent account's MaxWall is refused"
j=$(as $U1 sbatch --parsable -H --wrap true)
assert_contains "TimeLimit=00:10:00" "$(scontrol show job "$j")" "no -t: MaxWall becomes the limit"
scancel "$j"
sacctmgr -i modify account physics set MaxWall=-1 >/dev/null

# ---- limits at start: pending reasons, and the job starts once the limit frees ----
sacctmgr -i modify user $U1 set MaxJobs=1 >/dev/null
r1=$(as $U1 sbatch --parsable --wrap "$(gate one)")
r2=$(as $U1 sbatch --parsable --wrap true)
wait_running "$r1" || fail "the first job runs"
wait_until 30 pending_for "$r2" AssocMaxJobsLimit && ok "MaxJobs=1: the second waits (AssocMaxJobsLimit)" \
  || fail "second job: $(squeue -h -j "$r2" -o '%t %r')"
open_gate one
wait_job "$r2" && assert_eq "COMPLETED" "$(job_state "$r2")" "and runs once the first has ended"
sacctmgr -i modify user $U1 set MaxJobs=-1 >/dev/null

sacctmgr -i modify account theory set GrpTRES=cpu=2 >/dev/null
g1=$(as $U1 sbatch --parsable -n 2 --wrap "$(gate two)")
wait_running "$g1" || fail "a 2-CPU job runs under GrpTRES=cpu=2"
g2=$(as $U2 sbatch --parsable --wrap true)
wait_until 30 pending_for "$g2" AssocGrpCpuLimit && ok "GrpTRES holds the other user of the account" \
  || fail "GrpTRES: $(squeue -h -j "$g2" -o '%t %r')"
open_gate two
wait_job "$g2" && assert_eq "COMPLETED" "$(job_state "$g2")" "and frees when the first ends"
sacctmgr -i modify account theory set GrpTRES=cpu=-1 >/dev/null

sacctmgr -i modify qos normal set MaxJobsPerUser=1 >/dev/null
q1=$(as $U2 sbatch --parsable --wrap "$(gate three)")
q2=$(as $U2 sbatch --parsable --wrap true)
q3=$(as $U1 sbatch --parsable --wrap true)
wait_running "$q1" || fail "the QOS's first job runs"
wait_until 30 pending_for "$q2" QOSMaxJobsPerUserLimit && ok "QOS MaxJobsPerUser holds the user's second" \
  || fail "QOS per user: $(squeue -h -j "$q2" -o '%t %r')"
wait_job "$q3" && assert_eq "COMPLETED" "$(job_state "$q3")" "another user of the QOS is not held"

# ---- the limits and the usage survive a controller restart ----
kill_ctld TERM
restart_ctld
wait_until 60 bash -c "squeue -h >/dev/null 2>&1" || fail "controller back"
wait_until 30 pending_for "$q2" QOSMaxJobsPerUserLimit && ok "after a restart the job still waits for its limit" \
  || fail "after restart: $(squeue -h -j "$q2" -o '%t %r')"
open_gate three
wait_job "$q2" && assert_eq "COMPLETED" "$(job_state "$q2")" "and runs when the limit frees"
sacctmgr -i modify qos normal set MaxJobsPerUser=-1 >/dev/null

# ---- DenyOnLimit ----
sacctmgr -i modify qos high set MaxTRES=cpu=1 >/dev/null
d=$(as $U1 sbatch --parsable -H -q high -n 2 --wrap true)
assert_eq "PD" "$(squeue -h -j "$d" -o %t)" "over a QOS's MaxTRES the job is accepted to wait"
scontrol release "$d"
wait_until 30 pending_for "$d" QOSMaxCpuPerJobLimit && ok "with reason QOSMaxCpuPerJobLimit" \
  || fail "MaxTRES: $(squeue -h -j "$d" -o '%t %r')"
scancel "$d"
sacctmgr -i modify qos high set Flags=DenyOnLimit >/dev/null
out=$(as $U1 sbatch -q high -n 2 --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: $refused" "$rc|$out" "DenyOnLimit refuses it at submission"

# ---- a partition's QOS: its limits hold every job of the partition ----
sacctmgr -i add qos partqos MaxJobsPerUser=1 >/dev/null
assert_contains "QoS=partqos" "$(scontrol show partition pq)" "scontrol show partition shows its QOS"
p1=$(as $U1 sbatch --parsable -p pq --wrap "$(gate four)")
p2=$(as $U1 sbatch --parsable -p pq --wrap true)
wait_running "$p1" || fail "the partition's first job runs"
wait_until 30 pending_for "$p2" QOSMaxJobsPerUserLimit && ok "the partition QOS holds the second" \
  || fail "partition QOS: $(squeue -h -j "$p2" -o '%t %r')"
p3=$(as $U1 sbatch --parsable --wrap true)
wait_job "$p3" && assert_eq "COMPLETED" "$(job_state "$p3")" "a job of another partition is not held"
open_gate four
wait_job "$p2" && assert_eq "COMPLETED" "$(job_state "$p2")" "and the second runs after the first"

# ---- 8 clients race a MaxSubmitJobs=50 limit: exactly 50 get in ----
sacctmgr -i modify user $U2 set MaxSubmitJobs=50 >/dev/null
pids=()
for i in 1 2 3 4 5 6 7 8; do
  ( for k in 1 2 3 4 5 6 7 8 9 10; do as $U2 sbatch -H --wrap true 2>&1; done > "$T/race.$i" ) &
  pids+=($!)
done
wait "${pids[@]}"
assert_eq "50" "$(cat "$T"/race.* | grep -c '^Submitted batch job')" "50 submissions accepted"
assert_eq "30" "$(cat "$T"/race.* | grep -c "$refused")" "30 refused with Slurm's message"
assert_eq "50" "$(squeue -h -u $U2 -o %i | wc -l)" "and 50 jobs in the queue"

finish
