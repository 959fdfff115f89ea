#!/usr/bin/env bash
# gpu_bind_test.sh - GPUs in steps as srun's man page describes them: --gpus-per-task binds each
# task to its own GPUs (also when sbatch was given it), --gpu-bind's map_gpu, mask_gpu, single,
# per_task and verbose forms set each task's CUDA_VISIBLE_DEVICES, steps that ask for GPUs hold
# them (a second step gets others, a third waits), and impossible or bad requests are refused.
# The nodes' GPUs are gres.conf files; no device is opened here.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "SelectType=select/cons_tres" "SelectTypeParameters=CR_Core" "SlurmdParameters=config_overrides"
sed -i 's/^NodeName=DEFAULT .*/NodeName=DEFAULT CPUs=4 RealMemory=1000 State=UNKNOWN/' "$SLURM_CONF"
sed -i 's/^\(NodeName=n1 .*\)$/\1 Gres=gpu:4/' "$SLURM_CONF"
mkdir -p "$T/dev"
touch "$T/dev/nvidia0" "$T/dev/nvidia1" "$T/dev/nvidia2" "$T/dev/nvidia3"
echo "NodeName=n1 Name=gpu File=$T/dev/nvidia[0-3]" > "$T/c/gres.conf"
cluster_start "$T/c" 1
cd "$T"

assert_eq "n1 gpu:4" "$(sinfo -h -N -o '%N %G')" "sinfo %G shows the node's GPUs"
assert_contains "Gres=gpu:4" "$(scontrol show node n1)" "so does scontrol show node"

visible() { sort | tr '\n' ' ' | sed 's/ $//'; } # "0: 1" lines, sorted, on one line

# sbatch --gpus-per-task: the script's srun binds each task to one GPU of its own.
job=$(sbatch --parsable -n4 --gpus-per-task=1 -o pertask.out --wrap \
  'echo "env=$SLURM_GPUS_PER_TASK"; srun -l printenv CUDA_VISIBLE_DEVICES')
wait_job "$job"
assert_eq "COMPLETED" "$(job_state "$job")" "the --gpus-per-task job completes"
assert_contains "env=1" "$(cat pertask.out)" "its script has SLURM_GPUS_PER_TASK"
assert_eq "0: 0 1: 1 2: 2 3: 3" "$(grep -v env= pertask.out | visible)" "each task sees its own GPU"
assert_match "billing=4,cpu=4,gres/gpu=4,node=1" "$(sacct -j "$job" -X -n -P -o AllocTRES)" "sacct's AllocTRES counts the job's GPUs"
assert_contains "TRES=cpu=4,node=1,billing=4,gres/gpu=4" "$(scontrol show job "$job")" "so does scontrol's TRES"

# sbatch --gpu-bind reaches the script's srun (SLURM_GPU_BIND); a bad one is refused at submit.
job=$(sbatch --parsable -n2 --gres=gpu:4 --gpu-bind=map_gpu:3,2 -o bind.out --wrap 'srun -l printenv CUDA_VISIBLE_DEVICES')
wait_job "$job"
assert_eq "0: 3 1: 2" "$(visible < bind.out)" "sbatch --gpu-bind=map_gpu binds the script's srun tasks"
assert_eq "sbatch: error: invalid --gpu-bind argument 'nearest': unknown binding" "$(sbatch --gpu-bind=nearest --wrap true 2>&1)" "sbatch refuses an unknown --gpu-bind"

# The --gpu-bind forms, in one allocation of every GPU.
run() { salloc -n4 --gres=gpu:4 "$@" 2>&1 | grep -v '^salloc: '; }
assert_eq "0: 3 1: 1" "$(run srun -n2 -l --gpu-bind=map_gpu:3,1 printenv CUDA_VISIBLE_DEVICES | visible)" "map_gpu gives task i the i-th id"
assert_eq "0: 0,1 1: 2,3" "$(run srun -n2 -l --gpu-bind=mask_gpu:0x3,0xC printenv CUDA_VISIBLE_DEVICES | visible)" "mask_gpu gives task i the GPUs of its mask"
assert_eq "0: 0 1: 0 2: 1 3: 1" "$(run srun -n4 -l --gpu-bind=single:2 printenv CUDA_VISIBLE_DEVICES | visible)" "single:2 puts two tasks on each GPU"
assert_eq "0: 0,1,2,3 1: 0,1,2,3" "$(run srun -n2 -l printenv CUDA_VISIBLE_DEVICES | visible)" "with no binding every task sees every GPU"
out=$(run srun -n2 -l --gpu-bind=verbose,per_task:2 true)
assert_contains "0: gpu-bind: usable_gres=0x3; bit_alloc=0xf; local_inx=0; global_list=0,1; local_list=0,1" "$out" "verbose prints task 0's binding as Slurm words it"
assert_contains "1: gpu-bind: usable_gres=0xc; bit_alloc=0xf; local_inx=1; global_list=2,3; local_list=2,3" "$out" "and task 1's"
assert_eq "0,1" "$(run srun -n1 --gpus=2 printenv SLURM_STEP_GPUS)" "srun --gpus=2 gets two of the job's GPUs"
assert_eq "[]" "$(run srun -n1 --gres=none bash -c 'echo "[$CUDA_VISIBLE_DEVICES]"')" "--gres=none gets none"

# Steps that ask for GPUs hold them: a second gets the others, a third waits for one to end
# (--exact: each takes one CPU, so that only GPUs are short).
cat > held.sh <<'SH'
d=$1
upto() { for _ in $(seq 600); do eval "$1" && return 0; sleep 0.1; done; return 1; }
hold='echo "$1=$CUDA_VISIBLE_DEVICES"; until [ -e "$0/gate.$1" ]; do sleep 0.2; done'
srun -n1 --exact --gpus=2 bash -c "$hold" "$d" first > first.out &
upto '[ -s first.out ]' || exit 1
srun -n1 --exact --gpus=2 bash -c "$hold" "$d" second > second.out &
upto '[ -s second.out ]' || exit 1
srun -n1 --exact --gpus=1 printenv CUDA_VISIBLE_DEVICES > third.out 2> third.err &
third=$!
upto 'grep -q retrying third.err'
touch "$d/gate.first"
wait $third
touch "$d/gate.second"
wait
SH
run bash held.sh "$T" > held.log
assert_eq "first=0,1" "$(cat first.out)" "the first step holds GPUs 0 and 1"
assert_eq "second=2,3" "$(cat second.out)" "a second step gets the other two"
assert_contains "step creation temporarily disabled, retrying (Requested nodes are busy)" "$(cat third.err)" "a third step waits while every GPU is held"
assert_eq "0" "$(cat third.out)" "and gets a GPU the first step gave back"

# --cpus-per-gpu and --mem-per-gpu size the step from its GPUs.
out=$(srun -n2 --gpus-per-task=1 --cpus-per-gpu=2 --mem-per-gpu=200 -l bash -c 'echo $SLURM_CPUS_PER_TASK $CUDA_VISIBLE_DEVICES' | sort | xargs)
assert_eq "0: 2 0 1: 2 1" "$out" "--cpus-per-gpu=2 with a GPU per task: two CPUs a task"
assert_eq "srun: error: --cpus-per-gpu is mutually exclusive with --cpus-per-task" "$(srun -c2 --cpus-per-gpu=2 true 2>&1)" "not with -c"

# Refusals.
assert_match "srun: error: Unable to create step for job [0-9]+: Requested node configuration is not available" "$(run srun --gpus-per-node=5 true)" "more GPUs than the job has is refused"
assert_eq "srun: error: invalid --gpu-bind argument 'nearest': unknown binding" "$(srun --gpu-bind=nearest true 2>&1)" "an unknown --gpu-bind is refused before anything is asked for"
assert_eq "srun: error: invalid number of gpus per task '0'" "$(srun --gpus-per-task=0 true 2>&1)" "so is --gpus-per-task=0"
finish
