#!/usr/bin/env bash
# multiuser_test.sh - real users made with useradd: jobs run as their submitter, in their files;
# one user cannot cancel, hold or update another's job or administer nodes; root can.
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || ! command -v useradd >/dev/null; then
  echo "multiuser_test: needs root and useradd; skipped"; exit 0
fi
for u in drvtest1 drvtest2; do
  id "$u" >/dev/null 2>&1 || useradd -M -s /bin/bash "$u" || fail "useradd $u"
done
start_cluster 2
as() { local u=$1; shift; runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" "$@"; }

mkdir -p "$T/home1" "$T/home2"
chown drvtest1: "$T/home1"; chown drvtest2: "$T/home2"
cd "$T/home1"
id1=$(as drvtest1 sbatch --parsable -J mine --wrap 'id -un; id -u; sleep 300')
[ -n "$id1" ] && ok "an ordinary user submits through the credential socket" || fail "drvtest1 could not submit"
wait_running "$id1"
assert_eq "drvtest1" "$(squeue -h -j "$id1" -o %u)" "squeue shows the submitting user"
wait_until 60 bash -c "[ \$(wc -l < slurm-$id1.out) = 2 ]"
assert_eq "drvtest1 $(id -u drvtest1)" "$(tr '\n' ' ' < "slurm-$id1.out" | sed 's/ $//')" "the job runs as its user"
assert_eq "drvtest1" "$(stat -c %U "slurm-$id1.out")" "its output file belongs to the user"

cd "$T/home2"
err=$(as drvtest2 scancel "$id1" 2>&1); rc=$?
assert_eq 1 "$rc" "another user's scancel fails"
assert_eq "scancel: error: Kill job error on job id $id1: Access/permission denied" "$err" "with Slurm's message"
assert_eq RUNNING "$(job_state "$id1")" "and the job keeps running"
err=$(as drvtest2 scontrol update JobId="$id1" TimeLimit=5 2>&1)
assert_match "Access/permission denied" "$err" "another user cannot update the job"
err=$(as drvtest2 scontrol update NodeName=n1 State=DRAIN Reason=x 2>&1)
assert_match "Access/permission denied" "$err" "an ordinary user cannot drain a node"
assert_eq 0 "$(sinfo -h -N -o '%N %t' | grep -c drain)" "no node was drained"
# The user cannot make themselves someone else by asking: the credential comes from the kernel.
id2=$(as drvtest2 sbatch --parsable --hold --wrap 'sleep 30')
assert_eq drvtest2 "$(squeue -h -j "$id2" -o %u)" "a job belongs to whoever really submitted it"
err=$(as drvtest2 scontrol release "$id1" 2>&1)
assert_match "Access/permission denied|not pending|no longer pending" "$err" "another user cannot release the job"
# Admin holds bind users; user holds do not bind admins.
scontrol hold "$id2"
err=$(as drvtest2 scontrol release "$id2" 2>&1)
assert_match "Access/permission denied" "$err" "a user cannot release an admin hold"
scontrol release "$id2" && ok "root releases it"

as drvtest1 scancel "$id1" && ok "the owner cancels their own job"
wait_job "$id1"
assert_eq "CANCELLED by $(id -u drvtest1)" "$(sacct -j "$id1" -X -n -o State%30 | xargs)" "sacct records who cancelled"
scancel "$id2" && ok "root cancels anyone's job"
wait_job "$id2"
assert_eq CANCELLED "$(job_state "$id2")" "root's cancel took effect"
finish
