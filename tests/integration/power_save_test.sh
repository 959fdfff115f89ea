#!/usr/bin/env bash
# power_save_test.sh - power saving and cloud nodes, as Slurm's Power Saving and Cloud Scheduling
# guides describe them, with real node daemons: the resume program starts a node's droverd and
# the suspend program stops it. A job on powered down cloud nodes waits CONFIGURING (its nodes
# alloc#) until they register, then runs; idle for the partition's SuspendTime they power down
# (idle%, then idle~ after SuspendTimeout), or as soon as they are idle with PowerDownOnIdle. A
# node the resume program does not start goes down~ "ResumeTimeout reached", its job is requeued
# and ResumeFailProgram runs. scontrol update State=POWER_DOWN / POWER_UP by hand, NodeAddr= and
# NodeHostname=; a controller restart in the middle of a resume resumes no node twice and loses
# no job. scontrol update SuspendExcNodes/Parts/States with =, += and -=: kept over a restart, set
# back by reconfigure unless ReconfigFlags=KeepPowerSaveSettings.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
source "$(dirname "$0")/power_lib.sh"
make_test_users
make_power_programs
make_cluster 4 "SuspendProgram=$T/suspend.sh" "ResumeProgram=$T/resume.sh" \
  "ResumeFailProgram=$T/resume_fail.sh" SuspendTime=INFINITE SuspendTimeout=3 ResumeTimeout=8 \
  "SlurmctldParameters=power_save_interval=1"
# n1 is local; n[2-4] are cloud nodes in a partition of their own that powers down after 4 s idle.
sed -i -E 's/^(NodeName=n[2-4] .*)/\1 State=CLOUD/; s/^PartitionName=debug Nodes=n\[1-4\]/PartitionName=debug Nodes=n1/' "$T/c/slurm.conf"
echo "PartitionName=cloud Nodes=n[2-4] MaxTime=INFINITE State=UP SuspendTime=4" >> "$T/c/slurm.conf"
start_ctld "$T/c"
start_node "$T/c" 1
wait_for_nodes "$T/c" 1 || fail "n1 did not come up"
cd "$T"
programs() { grep -c "^$1 $2\$" programs.log 2>/dev/null; }
# A powered down cloud node is not listed by sinfo: scontrol show node names it.
state_of() { scontrol show node "$1" | grep -o 'State=[^ ]*' | head -1; }
export -f state_of

assert_eq "n1 idle" "$(sinfo -h -N -o '%N %t' | tr '\n' ' ' | sed 's/ $//')" \
  "powered down cloud nodes are not listed without PrivateData=cloud"
assert_eq "" "$(sinfo -h -N -n n2 -o '%N %t')" "nor when named"
assert_eq "State=IDLE+CLOUD+POWERED_DOWN" "$(state_of n2)" "scontrol show node n2 shows it IDLE+CLOUD+POWERED_DOWN"

# A job on a powered down node: CONFIGURING while it powers up, then it runs there.
touch slow
job=$(sbatch --parsable -p cloud -w n2 -o job.out --wrap 'echo ran on $SLURMD_NODENAME; echo "$SLURM_NODE_ALIASES"')
wait_until 30 bash -c "[ \"\$(squeue -h -j $job -o %t)\" = CF ]" &&
  ok "the job is CF while its node powers up" || fail "job $job was never CF: $(squeue -j "$job")"
assert_eq "alloc#" "$(sinfo -h -N -n n2 -o %t)" "its node shows alloc# while it powers up"
assert_contains "JobState=CONFIGURING" "$(scontrol show job "$job")" "scontrol shows the job CONFIGURING"
rm -f slow
wait_job "$job" 60
assert_eq "COMPLETED" "$(sacct -j "$job" -X -n -P -o State)" "the job ran once its node registered"
assert_eq "ran on n2" "$(head -1 job.out)" "on the node that was powered up"
assert_eq "n2:127.0.0.1:n2" "$(sed -n 2p job.out)" "SLURM_NODE_ALIASES names its cloud node's address and host name"
assert_eq 1 "$(programs resume n2)" "ResumeProgram was run once for n2"
assert_match "\"all_nodes_resume\":\"n2\".*\"job_id\":$job,.*\"nodes_alloc\":\"n2\",.*\"nodes_resume\":\"n2\",.*\"partition\":\"cloud\"" \
  "$(tr -d ' \n' < resume-file.0)" "SLURM_RESUME_FILE names the node and the job"

# Idle for the partition's SuspendTime: powered down by SuspendProgram.
wait_until 30 bash -c '[ "$(sinfo -h -N -n n2 -o %t)" = "idle%" ]' &&
  ok "idle past SuspendTime, n2 is powering down (idle%)" || fail "n2 did not power down: $(sinfo -N -n n2)"
wait_until 30 bash -c '[ "$(state_of n2)" = "State=IDLE+CLOUD+POWERED_DOWN" ]' &&
  ok "after SuspendTimeout it is powered down (idle~)" || fail "n2 stayed: $(state_of n2)"
assert_eq 1 "$(programs suspend n2)" "SuspendProgram was run for n2"
assert_eq "n1 idle" "$(sinfo -h -N -o '%N %t' | tr '\n' ' ' | sed 's/ $//')" "n1 (SuspendTime=INFINITE) stays up"

# A node that never comes up: down~ after ResumeTimeout, its job requeued, ResumeFailProgram run.
touch broken.n3
job=$(sbatch --parsable -p cloud -w n3 -o /dev/null --wrap 'true')
wait_until 40 bash -c '[ "$(state_of n3)" = "State=DOWN+CLOUD+POWERED_DOWN" ]' &&
  ok "n3, not registered within ResumeTimeout, is down~" || fail "n3: $(state_of n3)"
assert_contains "Reason=ResumeTimeout reached" "$(scontrol show node n3)" "with Slurm's reason"
wait_until 10 bash -c "[ \"\$(squeue -h -j $job -o %t)\" = PD ]" && ok "its job is pending again" ||
  fail "job $job: $(squeue -j "$job")"
wait_until 10 grep -q "^failed n3$" programs.log && ok "ResumeFailProgram was run for n3" ||
  fail "ResumeFailProgram: $(cat programs.log)"
rm -f broken.n3
scontrol update nodename=n3 state=resume
assert_match "State=(IDLE\+CLOUD\+POWERED_DOWN|ALLOCATED\+CLOUD\+POWERING_UP)" "$(state_of n3)" \
  "state=resume makes it idle~ again (and its job may take it at once)"
wait_job "$job" 60
assert_eq "COMPLETED" "$(sacct -j "$job" -X -n -P -o State)" "the requeued job ran when n3 came up"

# By hand: a local node powered down and up again.
scontrol update nodename=n1 state=power_down
wait_until 30 bash -c '[ "$(sinfo -h -N -n n1 -o %t)" = "idle~" ]' &&
  ok "State=POWER_DOWN powers n1 down" || fail "n1: $(sinfo -N -n n1)"
scontrol update nodename=n1 state=power_up
wait_until 30 bash -c '[ "$(sinfo -h -N -n n1 -o %t)" = "idle" ]' &&
  ok "State=POWER_UP powers it up again" || fail "n1: $(sinfo -N -n n1)"

# A cloud node's address and host name, as its resume program would report them.
scontrol update nodename=n4 nodeaddr=127.0.0.1 nodehostname=cloud-host-4
assert_contains "NodeAddr=127.0.0.1 NodeHostName=cloud-host-4" "$(scontrol show node n4)" \
  "scontrol update NodeAddr= NodeHostName= sets them"
assert_contains "need one name for every node" "$(scontrol update nodename=n[2-4] nodeaddr=a,b 2>&1)" \
  "as many addresses as nodes, or one"

# The controller killed while a node powers up: the resume is not issued twice, the job runs.
touch slow
job=$(sbatch --parsable -p cloud -w n4 -o /dev/null --wrap 'true')
wait_until 30 grep -q "^resume n4$" programs.log || fail "n4 was not resumed"
kill_ctld KILL
restart_ctld
wait_job "$job" 60
assert_eq "COMPLETED" "$(sacct -j "$job" -X -n -P -o State)" "a job whose node powered up across a controller restart ran"
assert_eq 1 "$(programs resume n4)" "and its node was resumed once"
assert_contains "NodeHostName=cloud-host-4" "$(scontrol show node n4)" "NodeHostName= survives the restart"

# PowerDownOnIdle: the partition's nodes power down as soon as they are idle (SuspendTime off).
rm -f slow
scontrol update PartitionName=cloud SuspendTime=INFINITE PowerDownOnIdle=YES
assert_contains "SuspendTime=INFINITE PowerDownOnIdle=YES" "$(scontrol show partition cloud)" \
  "scontrol update sets the partition's SuspendTime and PowerDownOnIdle"
job=$(sbatch --parsable -p cloud -w n2 -o /dev/null --wrap 'true')
wait_job "$job" 60
wait_until 30 bash -c '[ "$(state_of n2)" = "State=IDLE+CLOUD+POWERED_DOWN" ]' &&
  ok "with PowerDownOnIdle=YES n2 powers down once its job has ended" || fail "n2: $(state_of n2)"
assert_eq 2 "$(programs suspend n2)" "SuspendProgram was run for it again"

# scontrol update SuspendExc*: a node excluded stays up past SuspendTime, and powers down once
# the exclusion is taken back.
exc() { scontrol show config | sed -n "s/^$1 *= //p"; }
scontrol update PartitionName=cloud SuspendTime=4 PowerDownOnIdle=NO
scontrol update SuspendExcNodes+=n[2-3]
scontrol update SuspendExcNodes-=n3
assert_eq "n2" "$(exc SuspendExcNodes)" "SuspendExcNodes+= and -= change the list scontrol show config shows"
job=$(sbatch --parsable -p cloud -w n2 -o /dev/null --wrap 'true')
wait_job "$job" 60
sleep 8 # twice SuspendTime, eight power saving passes
assert_eq "idle" "$(sinfo -h -N -n n2 -o %t)" "a node of SuspendExcNodes stays up past SuspendTime"
scontrol update SuspendExcNodes-=n2
wait_until 30 bash -c '[ "$(state_of n2)" = "State=IDLE+CLOUD+POWERED_DOWN" ]' &&
  ok "taken out of SuspendExcNodes, it powers down" || fail "n2: $(state_of n2)"
assert_eq "(null)" "$(exc SuspendExcNodes)" "an empty list shows (null)"
assert_contains "Invalid node name specified: n9" "$(scontrol update SuspendExcNodes+=n9 2>&1)" \
  "an unknown node is refused"
assert_contains "Invalid partition name specified: nope" "$(scontrol update SuspendExcParts=nope 2>&1)" \
  "an unknown partition is refused"
assert_contains "'BOGUS': expected a comma list of CLOUD, DOWN" "$(scontrol update SuspendExcStates=bogus 2>&1)" \
  "an unknown state is refused"
scontrol update SuspendExcNodes=n[2-3]:1
assert_contains "':' count" "$(scontrol update SuspendExcNodes+=n4 2>&1)" "+= does not add to a set with a count"
assert_eq "n[2-3]:1" "$(exc SuspendExcNodes)" "and the list is as it was"
if [ "$MULTI" = 1 ]; then
  assert_contains "Access/permission denied" "$(as drvtest1 scontrol update SuspendExcNodes=n1 2>&1)" \
    "only administrators change them"
fi
scontrol update SuspendExcStates=down,drain SuspendExcParts+=debug
kill_ctld KILL
restart_ctld
assert_eq "DOWN,DRAIN debug n[2-3]:1" "$(exc SuspendExcStates) $(exc SuspendExcParts) $(exc SuspendExcNodes)" \
  "the settings scontrol made outlive a controller restart"
scontrol reconfigure >/dev/null
assert_eq "(null) (null) (null)" "$(exc SuspendExcStates) $(exc SuspendExcParts) $(exc SuspendExcNodes)" \
  "scontrol reconfigure sets them back to slurm.conf's"
echo "ReconfigFlags=KeepPowerSaveSettings" >> "$T/c/slurm.conf"
scontrol update SuspendExcParts=debug
scontrol reconfigure >/dev/null
assert_eq "debug" "$(exc SuspendExcParts)" "with ReconfigFlags=KeepPowerSaveSettings reconfigure keeps them"
finish
