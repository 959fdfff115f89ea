#!/usr/bin/env bash
# demo.sh - the README's first command: installs what is missing, builds, starts a local cluster
# (a controller and three node daemons on loopback, LMDB state, key-file auth), runs a small
# batch workload, and shows squeue while it runs and sacct when it is done.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

scripts/install-deps.sh
scripts/build.sh

DIR=$ROOT/run/demo
source scripts/cluster.sh
[ -f "$DIR/ctld.pid" ] && cluster_stop "$DIR"
rm -rf "$DIR"
mkdir -p "$DIR/work"
trap 'cluster_stop "$DIR"' EXIT
echo "== starting a local cluster in $DIR"
cluster_start "$DIR" 3
export SLURM_CONF=$DIR/slurm.conf PATH=$BIN/core/cli:$PATH
cd "$DIR/work"

sinfo
echo
echo "== submitting a sample workload"
cat > hello.sh <<'JOB'
#!/bin/bash
#SBATCH --job-name=hello
#SBATCH --output=hello-%j.out
echo "Hello from $SLURMD_NODENAME, job $SLURM_JOB_ID on $SLURM_JOB_NODELIST"
sleep 2
JOB
for i in 1 2 3; do sbatch hello.sh; done
sbatch -J pair -N 2 --wrap 'echo "two nodes: $SLURM_JOB_NODELIST"; sleep 3'
sbatch -J quick --wrap 'echo done quickly'
sbatch -J broken --wrap 'echo about to fail; exit 7'
last=$(sbatch --parsable -J last --wrap 'sleep 1')
echo
squeue
echo
echo "== waiting for the workload to finish"
for _ in $(seq 1 120); do
  [ -z "$(squeue -h)" ] && break
  sleep 0.5
done
squeue
echo
sacct -X -o JobID,JobName,Partition,AllocCPUS,State,ExitCode,NodeList
echo
echo "== output of the first hello job:"
cat "$(ls hello-*.out | head -1)"
echo
echo "The cluster stops now. Run it by hand: scripts/cluster.sh start DIR 3; eval \$(scripts/cluster.sh env DIR)"
