#!/usr/bin/env bash
# gpu-check.sh - checks Drover's GPU support on a host with NVIDIA GPUs, as root: a one-node
# cluster on loopback with gres.conf AutoDetect=nvml, select/cons_tres, proctrack/cgroup and
# ConstrainDevices=yes, then jobs that ask for GPUs and jobs that do not. Prints one "ok" or
# "not ok" line per check and exits non-zero when any failed. Needs nvidia-smi on the PATH.
#
#   scripts/gpu-check.sh [DIR]     DIR: where the cluster lives (default: a new temporary one)
#
# BIN (default ./build) says where the binaries are; PLUGIN_DIR (default $BIN/plugins/lib) where
# the plugins are. The admin guide (section 9) records what it printed on a GPU machine.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/scripts/cluster.sh"
BIN=$(cd "$BIN" && pwd)
PLUGIN_DIR=${PLUGIN_DIR:-$BIN/plugins/lib}
DIR=${1:-$(mktemp -d /tmp/drover-gpu.XXXXXX)}
FAILS=0
ok() { echo "ok - $*"; }
bad() { FAILS=$((FAILS + 1)); echo "not ok - $*"; }
check() { # expected actual message
  if [ "$1" = "$2" ]; then ok "$3"; else bad "$3: expected [$1] got [$2]"; fi
}

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$gpus" -gt 0 ] || { echo "gpu-check: nvidia-smi lists no GPU here"; exit 2; }
echo "# host: $(uname -r), cgroup $(stat -fc %T /sys/fs/cgroup), $gpus GPU(s): $(nvidia-smi -L | head -1)"

write_config "$DIR" 1 "$(free_port)" "$((RANDOM % 11000 + 20000))"
sed -i -e 's/^SelectType=.*/SelectType=select\/cons_tres\nSelectTypeParameters=CR_Core/' \
  -e 's/^ProctrackType=.*/ProctrackType=proctrack\/cgroup/' \
  -e "s/^NodeName=DEFAULT .*/NodeName=DEFAULT CPUs=$(nproc) RealMemory=1000 State=UNKNOWN/" \
  -e "s/^\(NodeName=n1 .*\)$/\1 Gres=gpu:$gpus/" "$DIR/slurm.conf"
echo "PluginDir=$PLUGIN_DIR" >> "$DIR/slurm.conf"
echo "AutoDetect=nvml" > "$DIR/gres.conf"
echo ConstrainDevices=yes > "$DIR/cgroup.conf"
export SLURM_CONF=$DIR/slurm.conf PATH=$BIN/core/cli:$PATH

echo "# droverd -G:"
"$BIN/core/noded/droverd" -G -f "$SLURM_CONF" -N n1 | sed 's/^/#   /'
check "$gpus" "$("$BIN/core/noded/droverd" -G -f "$SLURM_CONF" -N n1 | grep -c 'File=/dev/nvidia')" \
  "droverd -G finds every GPU through NVML"
cluster_start "$DIR" 1 || { bad "the node did not come up: $(tail -n 5 "$DIR"/log/*)"; exit 1; }
trap 'cluster_stop "$DIR"' EXIT
echo "# sinfo -o '%N %G': $(sinfo -h -N -o '%N %G')"

# A step that holds one GPU sees one, numbered 0; one that holds none sees none.
check 1 "$(srun -n1 --gpus=1 nvidia-smi -L 2>/dev/null | grep -c '^GPU ')" "srun --gpus=1: nvidia-smi lists one GPU"
check 0 "$(srun -n1 --gpus=1 printenv CUDA_VISIBLE_DEVICES)" "its CUDA_VISIBLE_DEVICES is 0"
check 0 "$(srun -n1 --gres=none nvidia-smi -L 2>/dev/null | grep -c '^GPU ')" "srun --gres=none: nvidia-smi lists no GPU (ConstrainDevices)"
probe='import ctypes; c = ctypes.CDLL("libcuda.so.1"); n = ctypes.c_int(0); r = c.cuInit(0); r = r or c.cuDeviceGetCount(ctypes.byref(n)); print(n.value if r == 0 else "error %d" % r)'
check 1 "$(srun -n1 --gpus=1 python3 -c "$probe" 2>&1)" "CUDA counts one device in a step that holds one"
check 0 "$(srun -n1 --gres=none python3 -c "$probe" 2>&1 | sed 's/^error .*/0/')" "and none in a step that holds none"

# A batch job with a GPU: its script sees it, and scontrol shows it.
job=$(sbatch --parsable --gpus=1 -o "$DIR/batch.out" --wrap 'nvidia-smi -L | grep -c "^GPU "; echo "cvd=$CUDA_VISIBLE_DEVICES"')
for _ in $(seq 600); do
  if [ -s "$DIR/batch.out" ] && [ -z "$(squeue -h -j "$job")" ]; then break; fi
  sleep 0.1
done
check "1 cvd=0" "$(tr '\n' ' ' < "$DIR/batch.out" | sed 's/ $//')" "a batch job with --gpus=1 sees its GPU as 0"
echo "# scontrol -d show job: $(scontrol -d show job "$job" | grep -o 'GRES=[^ ]*' | head -1)"
echo "# $FAILS check(s) failed"
[ "$FAILS" -eq 0 ]
