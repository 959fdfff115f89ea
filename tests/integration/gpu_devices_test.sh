#!/usr/bin/env bash
# gpu_devices_test.sh - cgroup.conf ConstrainDevices=yes: a step or batch script opens only the
# GPU device files of the GPUs it holds, and numbers them from 0 in CUDA_VISIBLE_DEVICES. The
# node's two "GPUs" are device nodes of a major number no driver has: opening one the cgroup
# allows fails "No such device or address", one it hides fails "Operation not permitted".
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || { [ ! -w /sys/fs/cgroup ] && [ ! -w /sys/fs/cgroup/devices ]; }; then
  echo "gpu_devices_test: needs root and a writable cgroup file system; skipped"; exit 0
fi
major=""
for m in $(seq 240 254); do
  grep -qE "^ *$m " /proc/devices || { major=$m; break; }
done
mkdir -p "$T/dev"
if [ -z "$major" ] || ! mknod "$T/dev/nvidia0" c "$major" 0 || ! mknod "$T/dev/nvidia1" c "$major" 1; then
  echo "gpu_devices_test: cannot make device nodes here; skipped"; exit 0
fi
# A nodev mount refuses every device node alike: nothing here could tell hidden from allowed.
case $( (exec 3< "$T/dev/nvidia0") 2>&1 ) in
  *"No such device"*) ;;
  *) echo "gpu_devices_test: device nodes cannot be opened under $T; skipped"; exit 0 ;;
esac
# A ClusterName of its own keeps its cgroups apart from other tests' on this host.
make_cluster 1 "SelectType=select/cons_tres" "SelectTypeParameters=CR_Core" \
  "SlurmdParameters=config_overrides" "ProctrackType=proctrack/cgroup" "ClusterName=gpudev$$"
sed -i 's/^NodeName=DEFAULT .*/NodeName=DEFAULT CPUs=4 RealMemory=1000 State=UNKNOWN/' "$SLURM_CONF"
sed -i 's/^\(NodeName=n1 .*\)$/\1 Gres=gpu:2/' "$SLURM_CONF"
echo "NodeName=n1 Name=gpu File=$T/dev/nvidia[0-1]" > "$T/c/gres.conf"
echo "ConstrainDevices=yes" > "$T/c/cgroup.conf"
cluster_start "$T/c" 1
cd "$T"

# What each device file does when opened, then the GPU variables: "0:open 1:hidden cvd=0 step=0".
cat > probe.sh <<'SH'
out=""
for i in 0 1; do
  msg=$( (exec 3< "$1/nvidia$i") 2>&1 )
  case $msg in
    *"not permitted"*) out+="$i:hidden " ;;
    *"No such device"*) out+="$i:open " ;;
    *) out+="$i:[$msg] " ;;
  esac
done
echo "${out}cvd=$CUDA_VISIBLE_DEVICES step=${SLURM_STEP_GPUS:-$SLURM_JOB_GPUS}"
SH
run() { salloc -n2 --gres=gpu:2 "$@" 2>&1 | grep -v '^salloc: '; }

assert_eq "0:open 1:hidden cvd=0 step=0" "$(run srun -n1 --gpus=1 bash probe.sh "$T/dev")" "a step holding GPU 0 cannot open GPU 1"
assert_eq "0:open 1:open cvd=0,1 step=0,1" "$(run srun -n1 bash probe.sh "$T/dev")" "a step that asks for no GPU sees the job's two"
assert_eq "0:hidden 1:hidden cvd= step=" "$(run srun -n1 --gres=none bash probe.sh "$T/dev")" "--gres=none opens neither"
assert_eq "0:hidden 1:hidden cvd= step=" "$(salloc -n1 srun -n1 bash probe.sh "$T/dev" 2>/dev/null)" "a job without GPUs opens neither"

# Two steps at once: the second holds GPU 1, which CUDA will call 0.
cat > two.sh <<'SH'
srun -n1 --exact --gpus=1 bash -c 'bash probe.sh "$0" > first.out; until [ -e gate.first ]; do sleep 0.2; done' "$1" &
for _ in $(seq 600); do [ -s first.out ] && break; sleep 0.1; done
srun -n1 --exact --gpus=1 bash probe.sh "$1"
touch gate.first
wait
SH
second=$(run bash two.sh "$T/dev")
assert_eq "0:open 1:hidden cvd=0 step=0" "$(cat first.out)" "the first step holds GPU 0"
assert_eq "0:hidden 1:open cvd=0 step=1" "$second" "the second holds GPU 1, numbered 0 for CUDA"

# The batch script is confined the same way.
job=$(sbatch --parsable --gres=gpu:1 -o batch.out --wrap "bash $T/probe.sh $T/dev")
wait_job "$job"
assert_eq "0:open 1:hidden cvd=0 step=0" "$(cat batch.out)" "a batch script holding one GPU opens only it"
finish
