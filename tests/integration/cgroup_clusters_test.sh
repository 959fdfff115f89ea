#!/usr/bin/env bash
# cgroup_clusters_test.sh - two clusters on one host with proctrack/cgroup: the same node name
# (n1) and the same job id (1), but their own ClusterName, so each job runs in a cgroup of its own
# and ending one cluster's job leaves the other's running.
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || [ ! -w /sys/fs/cgroup ] && [ ! -w /sys/fs/cgroup/memory ]; then
  echo "cgroup_clusters_test: needs root and a writable cgroup file system; skipped"; exit 0
fi
a=cga$$ b=cgb$$
make_cluster 1 "ProctrackType=proctrack/cgroup" "ClusterName=$a"
cluster_start "$T/c" 1
mkdir -p "$T/c2"
write_config "$T/c2" 1 "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
sed -i "s/^ClusterName=.*/ClusterName=$b/; s|^ProctrackType=.*|ProctrackType=proctrack/cgroup|" "$T/c2/slurm.conf"
trap 'cluster_stop "$T/c2"; cleanup' EXIT
cluster_start "$T/c2" 1
cd "$T"
in_b() { SLURM_CONF=$T/c2/slurm.conf "$@"; }

# Sleep lengths of this run only: processes another run left behind must not count.
sa=3017$RANDOM sb=3018$RANDOM
ja=$(sbatch --parsable -o a.out --wrap "sleep $sa")
jb=$(in_b sbatch --parsable -o b.out --wrap "sleep $sb")
assert_eq "1 1" "$ja $jb" "both clusters' first job is job 1"
wait_until 20 bash -c "[ \"\$(squeue -h -j $ja -o %T)\" = RUNNING ] && pgrep -f '^sleep $sa\$'"
wait_until 20 bash -c "[ \"\$(SLURM_CONF=$T/c2/slurm.conf squeue -h -j $jb -o %T)\" = RUNNING ] && pgrep -f '^sleep $sb\$'"
pa=$(pgrep -f "^sleep $sa\$" | head -1) pb=$(pgrep -f "^sleep $sb\$" | head -1)
assert_contains "/drover/$a/n1/job_1/step_batch" "$(cat "/proc/$pa/cgroup" 2>/dev/null)" "cluster $a's job 1 runs in its cluster's cgroup"
assert_contains "/drover/$b/n1/job_1/step_batch" "$(cat "/proc/$pb/cgroup" 2>/dev/null)" "cluster $b's job 1 runs in its own"

scancel "$ja"
wait_job "$ja"
assert_eq CANCELLED "$(job_state "$ja")" "cluster $a's job 1 is cancelled"
wait_until 10 bash -c "! pgrep -f '^sleep $sa\$'"
assert_eq "" "$(pgrep -f "^sleep $sa\$")" "its processes are gone"
assert_eq RUNNING "$(in_b squeue -h -j "$jb" -o %T)" "cluster $b's job 1 still runs"
assert_eq "$pb" "$(pgrep -f "^sleep $sb\$" | head -1)" "and its processes are untouched"
in_b scancel "$jb"
wait_until 20 bash -c "[ \"\$(SLURM_CONF=$T/c2/slurm.conf squeue -h -j $jb -t all -o %T)\" = CANCELLED ]"
wait_until 10 bash -c "! pgrep -f '^sleep $sb\$'"
assert_eq "" "$(pgrep -f "^sleep $sb\$")" "ending cluster $b's job ends its processes"
finish
