#!/usr/bin/env bash
# steps_cgroup_test.sh - steps in real cgroups (proctrack/cgroup): memory limits end a step
# OUT_OF_MEMORY with srun exiting 137, and a batch script past its --mem ends its job
# OUT_OF_MEMORY; CPUs are confined, processes that setsid and double-fork are found and killed,
# and sstat shows memory and CPU figures that rise while a step runs.
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || [ ! -w /sys/fs/cgroup ] && [ ! -w /sys/fs/cgroup/memory ]; then
  echo "steps_cgroup_test: needs root and a writable cgroup file system; skipped"; exit 0
fi
# A ClusterName of its own: the cgroups of clusters that other tests run on this host at the same
# time (all with node n1 and job ids from 1) stay apart from this one's.
make_cluster 1 "ProctrackType=proctrack/cgroup" "JobAcctGatherFrequency=1" "ClusterName=cgsteps$$"
sed -i 's/^NodeName=DEFAULT CPUs=1 RealMemory=100/NodeName=DEFAULT CPUs=2 RealMemory=1000/' "$T/c/slurm.conf"
printf 'ConstrainRAMSpace=yes\nConstrainCores=yes\n' > "$T/c/cgroup.conf"
cluster_start "$T/c" 1
cd "$T"

# Memory: a step past its --mem is killed by the kernel; Slurm's messages, 137, OUT_OF_MEMORY.
srun -n1 --mem=64M python3 -c 'a = bytearray(400 * 1024 * 1024); a[::4096] = b"x" * len(a[::4096])' 2> oom.err
assert_eq 137 "$?" "srun of a step over its memory limit exits 137"
assert_contains "oom_kill event" "$(cat oom.err)" "srun relays the node's OOM report"
oom_job=$(sacct -X -n -P -o JobID,JobName | awk -F'|' '$2 == "python3" {print $1}' | tail -1)
assert_eq OUT_OF_MEMORY "$(sacct -j "$oom_job.0" -n -P -o State)" "sacct shows the step OUT_OF_MEMORY"

# The batch script is a step like the others: past its --mem it is killed, and the job ends
# OUT_OF_MEMORY as Slurm ends it; within its --mem it completes.
grab='a = bytearray(%d * 1024 * 1024); a[::4096] = b"x" * len(a[::4096])'
big=$(sbatch --parsable --mem=50M -o big.out --wrap "python3 -c '$(printf "$grab" 300)'; echo survived")
small=$(sbatch --parsable --mem=200M -o small.out --wrap "python3 -c '$(printf "$grab" 50)' && echo fits")
wait_job "$big" 60
wait_job "$small" 60
assert_eq "OUT_OF_MEMORY|0:125" "$(sacct -j "$big" -X -n -P -o State,ExitCode)" "sacct: a batch script past its --mem ends the job OUT_OF_MEMORY"
assert_eq OUT_OF_MEMORY "$(sacct -j "$big.batch" -n -P -o State)" "sacct: and its batch step"
assert_contains "JobState=OUT_OF_MEMORY Reason=OutOfMemory" "$(scontrol show job "$big")" "scontrol shows the job OUT_OF_MEMORY with Slurm's reason"
# The kernel may kill more than one process of the script (the count is Slurm's, pluralised).
assert_match "slurmstepd: error: Detected (1 oom_kill event|[2-9][0-9]* oom_kill events) in StepId=$big\\.batch\\. Some of the step tasks have been OOM Killed\\." \
  "$(cat big.out)" "the job's output gets slurmstepd's line"
assert_eq "COMPLETED|0:0" "$(sacct -j "$small" -X -n -P -o State,ExitCode)" "a batch script within its --mem completes"
assert_eq fits "$(cat small.out)" "and its output is whole"

# CPUs: an --exact step of one CPU runs on one CPU.
assert_eq 1 "$(srun -n1 --exact -c1 bash -c 'grep Cpus_allowed_list /proc/self/status' | awk '{print $2}' | tr ',' '\n' | wc -l)" "the step's tasks are confined to its CPU"

# Tracking: a process that leaves the session and the process group still goes with its step.
# The process sleeps for a time of this test's own, which no test running beside it has.
mark=$((300000 + RANDOM))
srun -n1 bash -c "(setsid sleep $mark &); until pgrep -f 'sleep $mark' >/dev/null; do sleep 0.1; done"
wait_until 60 bash -c "! pgrep -f 'sleep $mark'"
assert_eq "" "$(pgrep -f "sleep $mark")" "a setsid double-forked process is killed with its step"

# sstat while the step grows and burns CPU (until the test opens its gate); sacct keeps the peaks.
cat > grow.py <<PY
import os, time
blocks = []
while not os.path.exists("$T/gate.grow"):
    if len(blocks) < 12:
        blocks.append(bytearray(10 * 1024 * 1024))
        blocks[-1][::4096] = b"x" * len(blocks[-1][::4096])
    t = time.time()
    while time.time() - t < 0.4:
        pass
PY
job=$(sbatch --parsable -o grow.out --wrap "srun -J grow python3 $T/grow.py")
wait_until 60 bash -c "squeue -h -s -j $job -o %j | grep -q grow"
sample() { sstat -j "$job.0" --format=AveCPU,MaxRSS -P -n; }
kib() { awk -F'|' '{ v = $2; u = substr(v, length(v)); n = v + 0; if (u == "M") n *= 1024; if (u == "G") n *= 1048576; print int(n) }' <<<"$1"; }
secs() { awk -F'|' '{ split($1, p, ":"); print p[1] * 3600 + p[2] * 60 + p[3] }' <<<"$1"; }
# A first sample with figures, then one where both have risen (samples come every second).
measured() { first=$(sample); [ "$(kib "$first")" -gt 0 ]; }
wait_until 60 measured || fail "sstat shows no memory for the step: $first"
risen() { second=$(sample); [ "$(kib "$second")" -gt "$(kib "$first")" ] && [ "$(secs "$second")" -gt "$(secs "$first")" ]; }
wait_until 60 risen
[ "$(kib "$second")" -gt "$(kib "$first")" ] && ok "sstat's MaxRSS rises while the step allocates ($first -> $second)" || fail "MaxRSS did not rise: $first -> $second"
[ "$(secs "$second")" -gt "$(secs "$first")" ] && ok "and AveCPU rises while it computes" || fail "AveCPU did not rise: $first -> $second"
grown() { [ "$(kib "$(sample)")" -ge 100000 ]; }  # its 12 blocks of 10 MB
wait_until 60 grown || fail "the step never held 100 MB: $(sample)"
open_gate grow
wait_job "$job"
final=$(sacct -j "$job.0" -n -P -o MaxRSS,AveCPU,TotalCPU)
[ "$(kib "x|${final%%|*}")" -ge 100000 ] && ok "sacct keeps the step's MaxRSS ($final)" || fail "sacct MaxRSS too small: $final"
sstat -j "$job.0" -P -n -o MaxRSS >/dev/null 2>&1
assert_eq 1 "$?" "sstat of a step that has ended fails"
finish
