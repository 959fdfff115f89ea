#!/usr/bin/env bash
# task_layout_test.sh - where srun puts a step's tasks across nodes (-m, as Slurm documents it):
# plane=N deals blocks of N tasks round the nodes, arbitrary follows SLURM_HOSTFILE or -w's list
# name by name, and the tasks see SLURM_DISTRIBUTION and SLURM_DIST_PLANESIZE.
source "$(dirname "$0")/lib.sh"
make_cluster 2 "SelectType=select/cons_tres" "SlurmdParameters=config_overrides"
sed -i 's/^NodeName=DEFAULT CPUs=1/NodeName=DEFAULT CPUs=4/' "$T/c/slurm.conf"
cluster_start "$T/c" 2
cd "$T"

# where SRUN-ARGS...: "TASK:NODE" of each task, in task order, on one line.
where() {
  salloc -Q -N2 -n8 srun "$@" bash -c 'echo "$SLURM_PROCID:$SLURMD_NODENAME"' | sort -n | xargs
}

assert_eq "0:n1 1:n1 2:n2 3:n2 4:n1 5:n1" "$(where -n6 -m plane=2)" "-m plane=2 deals two tasks at a time"
assert_eq "0:n1 1:n2 2:n1 3:n2 4:n1 5:n2" "$(where -n6 -m cyclic)" "beside -m cyclic, one at a time"
env_line=$(salloc -Q -N2 -n8 srun -n2 -m plane=2 bash -c 'echo $SLURM_DISTRIBUTION $SLURM_DIST_PLANESIZE' | sort -u)
assert_eq "plane 2" "$env_line" "the tasks see SLURM_DISTRIBUTION and SLURM_DIST_PLANESIZE"
assert_eq "0:n1 1:n1 2:n2 3:n2" "$(SLURM_DIST_PLANESIZE=2 where -n4 -m plane)" "-m plane takes its size from SLURM_DIST_PLANESIZE"
nodes=$(salloc -Q -N2 -n8 srun -n2 -m plane=2 bash -c 'echo $SLURMD_NODENAME $SLURM_STEP_NUM_NODES' | sort -u | xargs)
assert_eq "n1 1" "$nodes" "one plane of tasks takes one node, not two"
srun -n2 -m plane=0 true 2> plane.err
assert_eq 1 "$?" "a plane of 0 tasks fails srun"
assert_contains "invalid --distribution 'plane=0'" "$(cat plane.err)" "and says which option"

printf 'n2\nn1\nn2\n' > hosts
assert_eq "0:n2 1:n1 2:n2" "$(SLURM_HOSTFILE=$T/hosts where -m arbitrary)" "-m arbitrary puts task i on SLURM_HOSTFILE's i-th host"
assert_eq "0:n2 1:n2 2:n1" "$(where -m arbitrary -w n2,n2,n1)" "or on -w's i-th name"
assert_eq "0:n2 1:n2" "$(where -n2 -m arbitrary -w n2,n2,n1)" "-n takes the first names"
out=$(salloc -Q -N2 -n8 srun -n4 -m arbitrary -w n2,n1 true 2>&1)
assert_contains "the host list names 2 hosts for 4 tasks" "$out" "more tasks than names is refused"
finish
