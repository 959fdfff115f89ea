#!/usr/bin/env bash
# partition_update_test.sh - partitions changed while the cluster runs, in Slurm's words: scontrol
# update partition (State DOWN keeps new jobs pending, UP lets them start; MaxTime shows at once
# and holds jobs over it; Nodes shrinks what sinfo shows), create partition (jobs run in it),
# delete partition (refused while a job is in it), Default=YES moving the default, what scontrol
# refuses (an unsupported key, a bad value, an unknown partition, a user who does not
# administer), and every change surviving a controller restart.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
start_cluster 2
cd "$T"

# ---- State=DOWN: new jobs wait; UP: they start ----
out=$(scontrol update PartitionName=debug State=DOWN 2>&1); rc=$?
assert_eq "0|" "$rc|$out" "scontrol update partition State=DOWN prints nothing"
assert_match " State=DOWN " "$(scontrol -o show partition debug)" "show partition: DOWN at once"
assert_eq "debug* down" "$(sinfo -h -p debug -o '%P %a' | sort -u)" "sinfo: down at once"
j=$(sbatch --parsable --wrap true)
wait_until 30 pending_for "$j" PartitionDown && ok "a job waits: PartitionDown" \
  || fail "j: $(squeue -h -j "$j" -o '%t %r')"
scontrol update PartitionName=debug State=UP
wait_job "$j" && assert_eq COMPLETED "$(job_state "$j")" "State=UP lets it run" \
  || fail "j after UP: $(squeue -h -j "$j" -o '%t %r')"

# ---- MaxTime: shown at once, a job over it waits ----
scontrol update PartitionName=debug MaxTime=5
assert_match " MaxTime=00:05:00 " "$(scontrol -o show partition debug)" "show partition: MaxTime"
assert_eq "5:00" "$(sinfo -h -p debug -o %l | sort -u)" "sinfo: the new time limit"
long=$(sbatch --parsable -t 10 --wrap true)
wait_until 30 pending_for "$long" PartitionTimeLimit && ok "a job over MaxTime waits" \
  || fail "long: $(squeue -h -j "$long" -o '%t %r')"
scontrol update PartitionName=debug MaxTime=UNLIMITED
wait_job "$long" && assert_eq COMPLETED "$(job_state "$long")" "MaxTime=UNLIMITED lets it run"
scontrol update PartitionName=debug MaxTime=30 PriorityJobFactor=3

# ---- what scontrol refuses changes nothing ----
out=$(scontrol update PartitionName=debug MaxTime=40 Hidden=YES 2>&1); rc=$?
assert_eq "1|scontrol: error: Update of this parameter is not supported: Hidden=YES
scontrol: error: Request aborted" "$rc|$out" "an unsupported key, in Slurm's words"
out=$(scontrol update PartitionName=debug MaxTime=40 State=SLEEPY 2>&1); rc=$?
assert_eq "1|slurm_update error: partition debug: bad value for State: 'SLEEPY' (expected UP, DOWN, DRAIN or INACTIVE)" \
  "$rc|$out" "a bad value refuses the whole request"
out=$(scontrol update PartitionName=debug MaxTime=40 Nodes=n9 2>&1); rc=$?
assert_eq "1|slurm_update error: Invalid node name specified" "$rc|$out" "an unknown node"
assert_match " MaxTime=00:30:00 " "$(scontrol -o show partition debug)" "MaxTime unchanged"
out=$(scontrol update PartitionName=nosuch State=DOWN 2>&1); rc=$?
assert_eq "1|slurm_update error: Invalid partition name specified" "$rc|$out" "an unknown partition"
out=$(scontrol update PartitionName=debug 2>&1); rc=$?
assert_eq "1|scontrol: error: No changes specified" "$rc|$out" "nothing to change"

# ---- Nodes: sinfo shows the partition shrink ----
scontrol update PartitionName=debug Nodes=n1
assert_eq "n1" "$(sinfo -h -p debug -o %N)" "sinfo: the partition's nodes"
assert_match " TotalNodes=1 " "$(scontrol -o show partition debug)" "show partition: one node"

# ---- create: jobs run in it; delete: refused while one is there ----
out=$(scontrol create PartitionName=extra Nodes=n2 MaxTime=20 2>&1); rc=$?
assert_eq "0|" "$rc|$out" "scontrol create PartitionName=... prints nothing"
assert_match "^PartitionName=extra .* MaxTime=00:20:00 .* Nodes=n2 " \
  "$(scontrol -o show partition extra)" "show partition: the new one"
assert_eq "n2" "$(sinfo -h -p extra -o %N)" "sinfo: the new partition"
out=$(scontrol create PartitionName=extra Nodes=n1 2>&1); rc=$?
assert_eq "1|Error creating the partition: Invalid partition name specified" "$rc|$out" \
  "a name taken is refused"
out=$(scontrol create partition PartitionName=spare Nodes=n1 2>&1); rc=$?
assert_eq "0|" "$rc|$out" "scontrol create partition PartitionName=..."
e=$(sbatch --parsable -p extra --wrap "$(gate extra)")
wait_running "$e" || fail "a job in the new partition runs"
assert_eq "extra n2" "$(squeue -h -j "$e" -o '%P %N')" "on its node"
out=$(scontrol delete PartitionName=extra 2>&1); rc=$?
assert_eq "1|delete_partition PartitionName=extra: Partition is in use" "$rc|$out" \
  "a partition a job runs in is not deleted"
open_gate extra
wait_job "$e"
out=$(scontrol delete PartitionName=extra 2>&1); rc=$?
assert_eq "0|" "$rc|$out" "scontrol delete PartitionName=... once no job is in it"
assert_eq "Partition extra not found" "$(scontrol show partition extra 2>&1)" "it is gone"

# ---- Default=YES moves the default ----
scontrol update PartitionName=spare Default=YES
assert_match " Default=NO " "$(scontrol -o show partition debug)" "the old default loses it"
assert_match " Default=YES " "$(scontrol -o show partition spare)" "the new one has it"
# Held, so squeue still lists it when asked (a finished job leaves the active list).
d=$(sbatch --parsable -H --wrap true)
assert_eq "spare" "$(squeue -h -j "$d" -o %P)" "a job that names no partition goes there"
scancel "$d"; wait_job "$d"

# ---- administrators only ----
if [ "$MULTI" = 1 ]; then
  out=$(as drvtest1 scontrol update PartitionName=debug State=DOWN 2>&1); rc=$?
  assert_eq "1|slurm_update error: Access/permission denied" "$rc|$out" "a user may not update"
  out=$(as drvtest1 scontrol create PartitionName=mine Nodes=n1 2>&1)
  assert_eq "Error creating the partition: Access/permission denied" "$out" "nor create"
  out=$(as drvtest1 scontrol delete PartitionName=spare 2>&1)
  assert_eq "delete_partition PartitionName=spare: Access/permission denied" "$out" "nor delete"
  assert_match " State=UP " "$(scontrol -o show partition debug)" "nothing changed"
else
  echo "partition_update_test: not root or no useradd; the non-administrator part skipped"
fi

# ---- every change survives a restart ----
before=$(scontrol -o show partition)
assert_match "PriorityJobFactor=3 " "$before" "PriorityJobFactor in show partition"
kill_ctld TERM
restart_ctld
assert_eq "$before" "$(scontrol -o show partition)" \
  "updated and created partitions are as set after a controller restart"

# ---- Default=NO leaves no default ----
scontrol update PartitionName=spare Default=NO
out=$(sbatch --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: No partition specified or system default partition" \
  "$out" "with no default partition a job must name one"
finish
