#!/usr/bin/env bash
# multi_partition_test.sh - jobs submitted to several partitions (-p a,b), as Slurm runs them:
# every name must be a partition; the job waits in all of them (squeue shows the list, -p finds it
# under each) and starts in the first that takes it, which is then its partition
# (SLURM_JOB_PARTITION, squeue, sacct); a partition's limits only keep it out of that one.
source "$(dirname "$0")/lib.sh"
make_cluster 2
cat >> "$T/c/slurm.conf" <<CONF
PartitionName=p1 Nodes=n1 MaxTime=10
PartitionName=p2 Nodes=n2
CONF
cluster_start "$T/c" 2
cd "$T"

part() { squeue -h -j "$1" -o %P 2>/dev/null; }

a=$(sbatch --parsable -p p1,p2 -o a.out --wrap "$(gate a); echo \$SLURM_JOB_PARTITION")
wait_running "$a" || fail "job $a did not start"
assert_eq p1 "$(part "$a")" "the first partition that takes it"
b=$(sbatch --parsable -p p1,p2 -o /dev/null --wrap "$(gate b)")
wait_running "$b" || fail "job $b did not start"
assert_eq "p2 n2" "$(squeue -h -j "$b" -o '%P %N')" "the next one when the first is busy"
c=$(sbatch --parsable -p p2,p1 -o /dev/null --wrap true)
wait_until 30 pending_for "$c" Resources || fail "job $c: $(squeue -h -j "$c" -o '%t %r')"
assert_eq "p2,p1" "$(part "$c")" "a waiting job shows every partition, in its order"
assert_match "Partition=p2,p1 " "$(scontrol show job "$c")" "scontrol show job too"
assert_match "^$c$" "$(squeue -h -p p1 -t PD -o %i)" "squeue -p finds it under one"
assert_match "^$c$" "$(squeue -h -p p2 -t PD -o %i)" "and under the other"
open_gate a
wait_job "$a" || fail "job $a did not end"
assert_eq p1 "$(cat a.out)" "SLURM_JOB_PARTITION is the partition it ran in"
assert_eq p1 "$(sacct -n -X -P -j "$a" -o Partition)" "and sacct's Partition"
wait_job "$c" || fail "job $c did not run once n1 was free"
assert_eq p1 "$(sacct -n -X -P -j "$c" -o Partition)" "it ran in the partition that had room"
open_gate b

# A limit of one partition keeps the job out of that one only.
d=$(sbatch --parsable -p p1,p2 -t 30 -o /dev/null --wrap true)
wait_job "$d" || fail "job $d did not run"
assert_eq p2 "$(sacct -n -X -P -j "$d" -o Partition)" "over p1's MaxTime it runs in p2"

out=$(sbatch -p p1,nope --wrap true 2>&1); rc=$?
assert_eq "1 sbatch: error: Batch job submission failed: Invalid partition name specified" \
  "$rc $out" "a name that is no partition refuses the job"
finish
