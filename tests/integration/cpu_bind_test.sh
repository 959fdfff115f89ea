#!/usr/bin/env bash
# cpu_bind_test.sh - TaskPlugin=task/affinity binds each task to the CPUs Slurm's layout gives it
# on this machine's real topology (read by hwloc): --cpu-bind=cores, threads, sockets, rank,
# map_cpu, mask_cpu and none, automatic binding when the tasks fill the step's cores, and the
# verbose lines; each task's Cpus_allowed_list is what the kernel says. A bad --cpu-bind is
# refused with Slurm's words. Needs two CPUs.
source "$(dirname "$0")/lib.sh"
if [ "$(nproc)" -lt 2 ]; then
  echo "cpu_bind_test: needs two CPUs; skipped"; exit 0
fi
make_cluster 1 "TaskPlugin=task/affinity" "SelectType=select/cons_tres" "SlurmdParameters=config_overrides"
sed -i 's/^NodeName=DEFAULT CPUs=1/NodeName=DEFAULT CPUs=2/' "$T/c/slurm.conf"
# Two fake GPUs, each near one core (gres.conf's Cores=), for --gpu-bind=closest.
sed -i 's/^\(NodeName=n1 .*\)$/\1 Gres=gpu:2/' "$T/c/slurm.conf"
mkdir -p "$T/dev" && touch "$T/dev/nvidia0" "$T/dev/nvidia1"
printf 'NodeName=n1 Name=gpu File=%s Cores=0\nNodeName=n1 Name=gpu File=%s Cores=1\n' \
  "$T/dev/nvidia0" "$T/dev/nvidia1" > "$T/c/gres.conf"
cluster_start "$T/c" 1
cd "$T"

# The first two CPUs the machine has, as the kernel numbers them (the node's CPUs 0 and 1 are
# hwloc's first two).
read -r c0 c1 < <(awk '/^processor/ {print $3}' /proc/cpuinfo | head -2 | xargs)
# cpus OPTIONS...: "RANK:CPUS" of each task of srun OPTIONS, in rank order, on one line.
cpus() {
  srun "$@" bash -c 'echo "$SLURM_PROCID:$(awk "/^Cpus_allowed_list/ {print \$2}" /proc/self/status)"' |
    sort -n | xargs
}

assert_eq "0:$c0 1:$c1" "$(cpus -n2 --cpu-bind=cores)" "--cpu-bind=cores: a core each"
assert_eq "0:$c0 1:$c1" "$(cpus -n2 --cpu-bind=threads)" "--cpu-bind=threads: a thread each"
assert_eq "0:$c0 1:$c1" "$(cpus -n2 --cpu-bind=rank)" "--cpu-bind=rank: the CPU of the task's rank"
assert_eq "0:$c1 1:$c0" "$(cpus -n2 --cpu-bind=map_cpu:$c1,$c0)" "--cpu-bind=map_cpu: the CPUs named, in task order"
assert_eq "0:$c0-$c1 1:$c1" "$(cpus -n2 --cpu-bind=mask_cpu:0x3,0x2)" "--cpu-bind=mask_cpu: the masks, in task order"
assert_eq "0:$c0-$c1" "$(cpus -n1 -c2 --cpu-bind=cores)" "-c2 --cpu-bind=cores: both cores for the one task"
assert_eq "0:$c0-$c1 1:$c0-$c1" "$(cpus -n2 --cpu-bind=sockets)" "--cpu-bind=sockets: the whole socket"
assert_eq "0:$c0-$c1 1:$c0-$c1" "$(cpus -n2 --cpu-bind=none)" "--cpu-bind=none: no binding"
assert_eq "0:$c0 1:$c1" "$(cpus -n2 -m block:block --cpu-bind=cores)" "-m block:block on one socket is the same"

# --hint=nomultithread and --threads-per-core=1: one thread of each core, bound to threads (this
# machine's cores have one thread each, so a core each).
assert_eq "0:$c0 1:$c1" "$(cpus -n2 --hint=nomultithread)" "--hint=nomultithread: a thread each"
assert_eq "0:$c0 1:$c1" "$(cpus -n2 --threads-per-core=1)" "--threads-per-core=1: the same"
srun -n2 --hint=compute_bound --cpu-bind=cores true 2> hint.err
assert_eq 1 "$?" "--hint with a --cpu-bind type fails srun"
assert_contains "mutually exclusive with --hint" "$(cat hint.err)" "in Slurm's words"

# Automatic binding: two tasks that fill the step's two cores get one each; one task of a step
# holding both (a step takes all its job's CPUs without --exact) does not.
assert_eq "0:$c0 1:$c1" "$(cpus -n2)" "no --cpu-bind: tasks that fill the cores are bound to a core each"
one=$(salloc -Q -n2 srun -n1 bash -c 'awk "/^Cpus_allowed_list/ {print \$2}" /proc/self/status')
assert_eq "$c0-$c1" "$one" "one task of a step holding two cores is not bound"
assert_eq "0:$c1" "$(SLURM_CPU_BIND=map_cpu:$c1 cpus -n1)" "SLURM_CPU_BIND stands for --cpu-bind"

# verbose: one line per task on its standard error, as Slurm's.
srun -n2 --cpu-bind=verbose,cores true 2> verbose.err
assert_match "^cpu-bind-cores=MASK - n1, task  0  0 \[[0-9]+\]: mask 0x[0-9a-f]+ set$" "$(grep 'task  0' verbose.err)" "task 0's verbose line"
assert_match "^cpu-bind-cores=MASK - n1, task  1  1 \[[0-9]+\]: mask 0x[0-9a-f]+ set$" "$(grep 'task  1' verbose.err)" "task 1's"
srun -n1 --cpu-bind=verbose,map_cpu:$c1 true 2> map.err
assert_match "^cpu-bind=MAP - n1, task  0  0 \[[0-9]+\]: mask 0x[0-9a-f]+ set$" "$(cat map.err)" "map_cpu's verbose line says MAP"

# --ntasks-per-core binds each task to cores of its own.
assert_eq "0:$c0 1:$c1" "$(cpus -n2 --ntasks-per-core=1)" "--ntasks-per-core=1: a core each"

# --mem-bind: the task's memory policy names the NUMA node (this machine's first), and verbose
# says so on the task's standard error, as Slurm's.
srun -n1 --mem-bind=verbose,local true 2> mem.err
assert_match "^mem-bind=LOC - n1, task  0  0 \[[0-9]+\]: mask 0x1 set$" "$(cat mem.err)" "--mem-bind=verbose,local's line"
if [ -r /proc/self/numa_maps ]; then
  policy=$(srun -n1 --mem-bind=map_mem:0 bash -c 'head -1 /proc/self/numa_maps' | awk '{print $2}')
  assert_eq "bind:0" "$policy" "--mem-bind=map_mem:0: the task's memory is bound to node 0"
  policy=$(srun -n1 --mem-bind=prefer,map_mem:0 bash -c 'head -1 /proc/self/numa_maps' | awk '{print $2}')
  assert_match "^prefer" "$policy" "prefer: node 0 preferred"
  assert_eq "default" "$(srun -n1 bash -c 'head -1 /proc/self/numa_maps' | awk '{print $2}')" "no --mem-bind: no policy"
fi
srun -n1 --mem-bind=map_mem:7 true 2> mem7.err
assert_eq 1 "$?" "a NUMA node the node lacks fails the step"
assert_contains "NUMA node 7 is not on this node" "$(cat mem7.err)" "and says why"
srun --mem-bind=closest true 2> membad.err
assert_eq 1 "$?" "an unknown --mem-bind fails srun"
assert_contains 'unrecognized --mem-bind argument "closest"' "$(cat membad.err)" "with Slurm's words"

# --gpu-bind=closest: each task sees the GPU near the core it is bound to.
near=$(srun -n2 --gpus=2 --gpu-bind=closest --cpu-bind=cores bash -c 'echo "$SLURM_PROCID:$CUDA_VISIBLE_DEVICES"' | sort -n | xargs)
assert_eq "0:0 1:1" "$near" "--gpu-bind=closest follows gres.conf's Cores="

# Refusals.
srun --cpu-bind=numa true 2> bad.err
assert_eq 1 "$?" "an unknown --cpu-bind fails srun"
assert_contains 'unrecognized --cpu-bind argument "numa"' "$(cat bad.err)" "with Slurm's words"
srun -n1 --cpu-bind=map_cpu:4095 true 2> nocpu.err
assert_eq 1 "$?" "a map naming a CPU the node lacks fails the step"
assert_contains "CPUs are none of this node's" "$(cat nocpu.err)" "and says why"
finish
