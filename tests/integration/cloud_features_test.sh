#!/usr/bin/env bash
# cloud_features_test.sh - changeable features of cloud nodes (NodeFeaturesPlugins=
# node_features/helpers), as Slurm's Cloud Scheduling guide gives them: helpers.conf's features
# are available but not active while a node is powered down, a job asking for one gets a powered
# down node that has it and the node is powered up with it active (the other changeable features
# not), it keeps them until powered down, and labels are always active. helpers.conf's
# MutuallyExclusive refuses a job asking for two at once. A node's Helper reports the features
# active on it: they are its active ones, and a node powered up without those the controller made
# active is drained.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/power_lib.sh"
make_power_programs
make_cluster 3 "SuspendProgram=$T/suspend.sh" "ResumeProgram=$T/resume.sh" SuspendTime=INFINITE \
  SuspendTimeout=2 ResumeTimeout=30 "SlurmctldParameters=power_save_interval=1" \
  NodeFeaturesPlugins=node_features/helpers
sed -i -E 's/^(NodeName=n[2-3] .*)/\1 State=CLOUD Feature=f1,f2,l1/; s/^(NodeName=n1 .*)/\1 Feature=f3,f4/' "$T/c/slurm.conf"
# n1's helper reports f3 (and a feature that is not its own); the cloud nodes' reports nothing
# (the controller keeps their active features) until $T/reported says what.
printf '#!/bin/sh\necho f3\necho bogus\n' > "$T/helper.sh"
printf '#!/bin/sh\ncat %s/reported 2>/dev/null\nexit 0\n' "$T" > "$T/cloud_helper.sh"
chmod 755 "$T/helper.sh" "$T/cloud_helper.sh"
cat > "$T/c/helpers.conf" <<CONF
NodeName=n[2-3] Feature=f1,f2 Helper=$T/cloud_helper.sh
NodeName=n1 Feature=f3,f4 Helper=$T/helper.sh
MutuallyExclusive=f1,f2
CONF
start_ctld "$T/c"
start_node "$T/c" 1
wait_for_nodes "$T/c" 1 || fail "n1 did not come up"
cd "$T"
features() { scontrol show node "$1" | grep -o 'AvailableFeatures=[^ ]*\|ActiveFeatures=[^ ]*' | tr '\n' ' ' | sed 's/ $//'; }

assert_eq "AvailableFeatures=f1,f2,l1 ActiveFeatures=l1" "$(features n2)" \
  "a powered down cloud node has its changeable features available, only its label active"
assert_eq "AvailableFeatures=f3,f4 ActiveFeatures=f3" "$(features n1)" "n1's helper reported f3 active"
assert_contains "NodeFeaturesPlugins     = node_features/helpers" "$(scontrol show config)" \
  "scontrol show config names the plugin"

job=$(sbatch --parsable -C f1 -o job1.out --wrap 'echo $SLURMD_NODENAME; sleep 30')
wait_running "$job" 60 || fail "job $job did not run: $(squeue -j "$job")"
first=$(squeue -h -j "$job" -o %N)
other=$([ "$first" = n2 ] && echo n3 || echo n2)
assert_match "^n[23]$" "$first" "a job asking for f1 runs on a powered down node that has it"
assert_eq "AvailableFeatures=f1,f2,l1 ActiveFeatures=f1,l1" "$(features "$first")" \
  "the node powered up with f1 active, f2 not"
assert_match '"features":"f1"' "$(tr -d ' \n' < resume-file.0)" "SLURM_RESUME_FILE names the features the job asked for"
assert_eq "f1,l1" "$(sinfo -h -N -n "$first" -o %b)" "sinfo %b shows the active features"
assert_eq "f1,f2,l1" "$(sinfo -h -N -n "$first" -o %f)" "and %f those available"

# f2 is not active on the node that is up (idle now): a job asking for it gets the other one.
scancel "$job"
wait_job "$job" 60
wait_until 30 bash -c "[ \"\$(sinfo -h -N -n $first -o %t)\" = idle ]" || fail "$first: $(sinfo -N -n "$first")"
job2=$(sbatch --parsable -C f2 -o /dev/null --wrap 'sleep 1')
wait_job "$job2" 60
assert_eq "$other" "$(sacct -j "$job2" -X -n -P -o NodeList)" "a job asking for f2 is not put where only f1 is active"
assert_eq "AvailableFeatures=f1,f2,l1 ActiveFeatures=f2,l1" "$(features "$other")" "that node came up with f2"
assert_contains "Invalid feature specification (mutually exclusive: f1,f2)" \
  "$(sbatch -C 'f1&f2' --wrap true 2>&1)" "MutuallyExclusive features in one job are refused at submit"

job3=$(sbatch --parsable -C l1 -w "$first" -o /dev/null --wrap 'true')
wait_job "$job3" 60
assert_eq "COMPLETED" "$(sacct -j "$job3" -X -n -P -o State)" "a label is always active"

# Powered down, a node's changeable features are no longer active.
scontrol update nodename=n[2-3] state=power_down
powered_down() { [ "$(for n in n2 n3; do scontrol show node $n; done | grep -c 'State=IDLE+CLOUD+POWERED_DOWN')" = 2 ]; }
wait_until 30 powered_down && ok "both cloud nodes powered down" ||
  fail "$(for n in n2 n3; do scontrol show node $n; done | grep State=)"
assert_eq "AvailableFeatures=f1,f2,l1 ActiveFeatures=l1" "$(features "$first")" "powered down, only the label is active again"
kill_ctld KILL
restart_ctld
assert_eq "AvailableFeatures=f1,f2,l1 ActiveFeatures=l1" "$(features "$other")" "and so after a controller restart"

# A node powered up with f1 whose helper reports only f2 is drained.
echo f2 > reported
job4=$(sbatch --parsable -C f1 -w n2 -o /dev/null --wrap 'true')
wait_until 60 bash -c "scontrol show node n2 | grep -q 'Reason=Reported active features lack f1'" &&
  ok "a node whose helper reports less than was made active is drained, with the reason" ||
  fail "n2: $(scontrol show node n2 | grep -E 'State|Reason')"
assert_match "State=[^ ]*DRAIN" "$(scontrol show node n2)" "n2 is draining"
wait_job "$job4" 60
finish
