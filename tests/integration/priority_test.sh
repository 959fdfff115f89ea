#!/usr/bin/env bash
# priority_test.sh - priority/multifactor on a live cluster with two users the test creates: a
# job's CPU-seconds charged to its user's association when it ends; fair-share putting the user
# who has used nothing ahead of the one who has, although that one submitted first (sprio shows
# the factors, the scheduler starts the job in that order); an administrator's Priority= kept;
# the usage surviving a controller restart; sshare's TRESRunMins; scontrol show config listing
# the priority keys.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/users.sh"
make_test_users
make_cluster 1 "AccountingStorageEnforce=associations,limits" "PriorityType=priority/multifactor" \
  "PriorityWeightFairshare=10000" "PriorityWeightAge=0" "PriorityCalcPeriod=0:01" \
  "PriorityDecayHalfLife=14-0"
cluster_start "$T/c" 1
mkdir -p "$T/work" && chmod 777 "$T/work" && cd "$T/work"
if [ "$MULTI" != 1 ]; then
  echo "skipping: needs root and useradd for its users"
  finish; exit $?
fi
U1=drvtest1 U2=drvtest2

conf=$(scontrol show config)
assert_match "PriorityType += priority/multifactor" "$conf" "show config: PriorityType"
assert_match "PriorityWeightFairShare += 10000" "$conf" "show config: the fair-share weight"
assert_match "PriorityDecayHalfLife += 14-00:00:00" "$conf" "show config: the half-life"

sacctmgr -i add cluster local >/dev/null
sacctmgr -i add account acct1 >/dev/null
sacctmgr -i add account acct2 >/dev/null
sacctmgr -i add user $U1 account=acct1 >/dev/null
sacctmgr -i add user $U2 account=acct2 >/dev/null

raw_usage() { sshare -h -a -P -o User,RawUsage 2>/dev/null | awk -F'|' -v u="$1" '$1 == u {print $2}'; }
fairshare() { sshare -h -a -P -o User,FairShare 2>/dev/null | awk -F'|' -v u="$1" '$1 == u {print $2}'; }

# ---- usage charged when a job ends ----
j=$(as $U1 sbatch --parsable --exclusive --wrap "sleep 2")
wait_job "$j" 60 || fail "U1's job did not end"
wait_until 30 bash -c "u=\$(sshare -h -a -P -o User,RawUsage | awk -F'|' '\$1 == \"$U1\" {print \$2}'); [ \"\${u:-0}\" -gt 0 ]" \
  && ok "$U1's CPU-seconds are charged to its association" \
  || fail "RawUsage of $U1: [$(raw_usage $U1)]"
assert_eq "0" "$(raw_usage $U2)" "$U2 has used nothing"
used=$(raw_usage $U1)
# Three users: root's (unused, ranked with the unused account acct2), U2 and U1; U1 ranks last.
wait_until 30 bash -c "[ \"\$(sshare -h -a -P -o User,FairShare | awk -F'|' '\$1 == \"$U2\" {print \$2}')\" = 1.000000 ]" \
  && ok "Fair Tree ranks the unused user first" || fail "FairShare of $U2: [$(fairshare $U2)]"
assert_eq "0.333333" "$(fairshare $U1)" "and the one who used the machine last of three"

# ---- fair-share orders the queue ----
# The node is drained while both submit, so that both wait and the scheduler picks between them.
scontrol update NodeName=n1 State=DRAIN Reason=priority_test
first=$(as $U1 sbatch --parsable --exclusive --wrap "sleep 1")
second=$(as $U2 sbatch --parsable --exclusive --wrap "sleep 1")
prio() { squeue -h -j "$1" -o %Q; }
wait_until 30 bash -c "[ \"\$(squeue -h -j $second -o %Q)\" -gt \"\$(squeue -h -j $first -o %Q)\" ]" \
  && ok "the unused user's later job has the higher priority" \
  || fail "priorities: $first=$(prio "$first") $second=$(prio "$second")"
assert_eq "10000" "$(prio "$second")" "fair-share 1.0 x PriorityWeightFairshare=10000"
assert_eq "3333" "$(prio "$first")" "fair-share 1/3 x 10000"
out=$(sprio -h -j "$second" -o "%i %Y %F" | xargs)
assert_eq "$second 10000 10000" "$out" "sprio shows the job's priority and its fair-share part"
out=$(sprio -h -n -j "$first" -o "%i %f" | xargs)
assert_eq "$first 0.3333333" "$out" "sprio -n: the normalised factor"
scontrol update NodeName=n1 State=RESUME
wait_job "$second" 60 && wait_job "$first" 60 || fail "the two jobs did not run"
s1=$(sacct -n -X -P -j "$first" -o Start); s2=$(sacct -n -X -P -j "$second" -o Start)
[[ "$s2" < "$s1" ]] && ok "the scheduler started the unused user's job first" \
  || fail "starts: $first at $s1, $second at $s2"

# ---- an administrator's priority stays ----
later=$(as $U1 sbatch --parsable --begin=now+1hour --wrap true)
set_by_admin=$(as $U1 sbatch --parsable --begin=now+1hour --wrap true)
scontrol update JobId="$set_by_admin" Priority=123456
sleep 3 # three PriorityCalcPeriods
assert_eq "123456" "$(prio "$set_by_admin")" "Priority= set by an administrator is not recomputed"
assert_eq "3333" "$(prio "$later")" "beside it, a job of the same user keeps its computed priority"
scancel "$later" "$set_by_admin"

# ---- usage survives a controller restart ----
before=$(raw_usage $U1)
kill_ctld TERM
restart_ctld
after=$(raw_usage $U1)
[ -n "$after" ] && [ "$after" -ge "$used" ] && [ "$after" -le $((before + 5)) ] \
  && ok "usage is kept across a restart ($before -> $after)" \
  || fail "usage of $U1 across a restart: $before -> [$after] (first charge $used)"
assert_eq "0.333333" "$(fairshare $U1)" "and so is the fair-share"

# ---- sshare's TRESRunMins: what running jobs' time limits leave them ----
r=$(as $U2 sbatch --parsable --exclusive -t 10 --wrap "sleep 300")
wait_until 30 bash -c "[ \"\$(squeue -h -j $r -o %t)\" = R ]" || fail "the 10-minute job did not start"
run_mins=$(sshare -h -a -P -o User,TRESRunMins | awk -F'|' -v u="$U2" '$1 == u {print $2}')
assert_match "^cpu=(9|10),mem=0,energy=0,node=(9|10),billing=(9|10),fs/disk=0,vmem=0,pages=0$" \
  "$run_mins" "TRESRunMins: 1 CPU for the 10 minutes its limit leaves"
scancel "$r"

finish
