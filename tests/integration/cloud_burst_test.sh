#!/usr/bin/env bash
# cloud_burst_test.sh - a partition of 4 local and 16 cloud nodes under a queue of 100 jobs, as
# Slurm's Cloud Scheduling guide has a cluster burst: the queue takes the cloud nodes, the resume
# program starts their node daemons, every job runs, and the cloud nodes power down again once
# idle for SuspendTime while the local ones (SuspendExcNodes) stay up. The primary controller is
# killed in the middle of the resume: the backup takes over, waits for the nodes the primary
# resumed instead of resuming them again, and loses no job.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/ha.sh"
source "$(dirname "$0")/power_lib.sh"
make_power_programs
make_cluster 20 SlurmctldTimeout=3 "SuspendProgram=$T/suspend.sh" "ResumeProgram=$T/resume.sh" \
  SuspendTime=5 SuspendTimeout=3 ResumeTimeout=60 "SuspendExcNodes=n[1-4]" \
  "SlurmctldParameters=power_save_interval=1" TreeWidth=32
sed -i -E 's/^(NodeName=n([5-9]|1[0-9]|20) .*)/\1 State=CLOUD/' "$T/c/slurm.conf"
write_ha_configs "$T/c" 2
HA_CTLS=2
start_controller 1
start_controller 2
for i in 1 2 3 4; do start_node "$T/c" "$i"; done
wait_for_nodes "$T/c" 4 || fail "the local nodes did not come up"
wait_until 60 only_in_control 1 || fail "ctl1 is not in control with ctl2 standing by: $(scontrol ping)"
cd "$T"
cloud_states() { for i in $(seq 5 20); do scontrol show node "n$i" | grep -o 'State=[^ ]*' | head -1; done | sort | uniq -c | awk '{print $1, $2}'; }

assert_eq "16 State=IDLE+CLOUD+POWERED_DOWN" "$(cloud_states)" "the 16 cloud nodes start powered down"
touch slow # the resume program takes 4 s before it starts the node daemons
array=$(sbatch --parsable --array=1-100 -o /dev/null --wrap 'sleep 1')
wait_until 60 bash -c "[ \$(grep -c '^resume ' programs.log 2>/dev/null) = 16 ]" ||
  fail "the resume program was not asked for the 16 cloud nodes: $(cat programs.log)"
assert_eq 16 "$(squeue -h -r -j "$array" -t CF -o %i | wc -l)" "16 jobs wait CONFIGURING for their cloud nodes"
kill_controller 1 KILL
wait_until 60 in_control 2 || fail "the backup did not take control"
ok "the primary was killed in the middle of the resume and the backup took control"
finished() { [ "$(sacct -j "$array" -X -n -P -o State | grep -c '^COMPLETED$')" = 100 ]; }
wait_until 240 finished && ok "all 100 jobs completed" ||
  fail "$(sacct -j "$array" -X -n -P -o State | sort | uniq -c)"
assert_eq 16 "$(sacct -j "$array" -X -n -P -o NodeList | sort -u | grep -cxE 'n([5-9]|1[0-9]|20)')" \
  "every cloud node ran jobs"
assert_eq "" "$(grep '^resume ' programs.log | sort | uniq -d)" "no node was resumed twice"

# Idle for SuspendTime, the cloud nodes power down; the local ones stay.
wait_until 90 bash -c "[ \"\$(for i in \$(seq 5 20); do scontrol show node n\$i; done | grep -c 'State=IDLE+CLOUD+POWERED_DOWN')\" = 16 ]" &&
  ok "after SuspendTime the 16 cloud nodes are powered down again" || fail "$(cloud_states)"
assert_eq 16 "$(grep -c '^suspend ' programs.log)" "the backup ran SuspendProgram once for each"
assert_eq "n[1-4] idle" "$(sinfo -h -o '%N %t')" "the local nodes stay up, and sinfo lists only them"
finish
