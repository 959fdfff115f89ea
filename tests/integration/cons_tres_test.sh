#!/usr/bin/env bash
# cons_tres_test.sh - select/cons_tres as users see it: jobs share nodes by CPUs and memory, get
# distinct CPU ids and GPUs (CUDA_VISIBLE_DEVICES), impossible requests are refused at submit,
# --exclusive takes whole nodes, -w/-x place jobs, and a node whose gres.conf devices are missing
# is DOWN with Slurm's reason.
source "$(dirname "$0")/lib.sh"
make_cluster 3 "SelectType=select/cons_tres" "SelectTypeParameters=CR_Core_Memory"
sed -i 's/^NodeName=DEFAULT .*/NodeName=DEFAULT CPUs=2 RealMemory=1000 State=UNKNOWN/' "$SLURM_CONF"
sed -i 's/^\(NodeName=n[12] .*\)$/\1 Gres=gpu:2/; s/^\(NodeName=n3 .*\)$/\1 Gres=gpu:4/' "$SLURM_CONF"
mkdir -p "$T/dev"
touch "$T/dev/nvidia0" "$T/dev/nvidia1"
cat > "$T/c/gres.conf" <<CONF
NodeName=n[1-2] Name=gpu File=$T/dev/nvidia[0-1]
NodeName=n3 Name=gpu File=$T/dev/nvidia[0-3]
CONF
start_ctld "$T/c"
for i in 1 2 3; do start_node "$T/c" "$i"; done
wait_until 60 bash -c '[ "$(sinfo -h -N -o %t | grep -c idle)" = 2 ]' || fail "n1 and n2 not idle"
cd "$T"
assert_eq down "$(node_state n3)" "a node missing configured GPUs is DOWN"
assert_match "Reason=gres/gpu count reported lower than configured \(2 < 4\)" "$(scontrol show node n3)" "with Slurm's reason"

# Four one-CPU jobs share two two-CPU nodes.
ids=""
for i in 1 2 3 4; do ids="$ids $(sbatch --parsable -n1 --mem=100 --wrap 'sleep 300')"; done
wait_until 60 bash -c "[ \"\$(squeue -h -t R | wc -l)\" = 4 ]"
assert_eq 4 "$(squeue -h -t R | wc -l)" "four one-CPU jobs run at once on two 2-CPU nodes"
assert_eq "mix" "$(sinfo -h -N -n n1 -o %t | head -1 | sed 's/alloc/mix/')" "the nodes are shared"
cpu_ids=$(for id in $ids; do scontrol show job -d "$id" | grep -o 'CPU_IDs=[0-9-]*'; done | sort | uniq -c | awk '{print $1}' | sort -u)
assert_eq 2 "$cpu_ids" "each CPU id is held by exactly one job per node (two nodes)"
fifth=$(sbatch --parsable -n1 --mem=100 --wrap true)
assert_eq "PD Resources" "$(squeue -h -j "$fifth" -o '%t %r')" "a fifth job waits for CPUs"
scancel $ids "$fifth"
wait_until 60 bash -c '[ -z "$(squeue -h)" ]' || fail "the jobs did not end"

# Memory is consumable: 900 MB and 200 MB do not fit one 1000 MB node.
big=$(sbatch --parsable -w n1 --mem=900 --wrap 'sleep 300')
wait_running "$big" || fail "job $big did not start"
small=$(sbatch --parsable -w n1 --mem=200 --wrap true)
wait_until 60 pending_for "$small" Resources
assert_eq "PD Resources" "$(squeue -h -j "$small" -o '%t %r')" "memory held by one job keeps another off the node"
scancel "$big" "$small"

# GPUs: two one-GPU jobs on n1 at the same time get different devices.
g1=$(sbatch --parsable -w n1 --gres=gpu:1 --mem=100 -o g1.out --wrap 'echo $CUDA_VISIBLE_DEVICES; '"$(gate gpus)")
g2=$(sbatch --parsable -w n1 --gres=gpu:1 --mem=100 -o g2.out --wrap 'echo $CUDA_VISIBLE_DEVICES $SLURM_JOB_GPUS; '"$(gate gpus)")
wait_running "$g1" && wait_running "$g2" || fail "the GPU jobs did not run together"
open_gate gpus
wait_job "$g1"; wait_job "$g2"
assert_eq "0 1" "$(cat g1.out g2.out | awk '{print $1}' | sort | tr '\n' ' ' | sed 's/ $//')" "the two jobs got GPU 0 and GPU 1"
err=$(sbatch --gres=gpu:5 --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: Requested node configuration is not available" "$err" "more GPUs than any node has is refused"
# Negative, overflowing and malformed counts are refused at submit with Slurm's words.
for spec in gpu:-1 gpu:+1 gpu:a100:-2 gpu:99999999999999999999 gpu:18446744073709551614 'gpu:1(S:0)'; do
  assert_eq "sbatch: error: Invalid generic resource (gres) specification" "$(sbatch --gres="$spec" --wrap true 2>&1)" "sbatch --gres=$spec is refused"
done
assert_eq "srun: error: Invalid generic resource (gres) specification" "$(srun --gres=gpu:-1 true 2>&1)" "srun --gres=gpu:-1 is refused"
assert_eq "salloc: error: Invalid generic resource (gres) specification" "$(salloc --gres=gpu:-1 true 2>&1)" "salloc --gres=gpu:-1 is refused"
assert_contains "Invalid generic resource (gres) specification" "$(SBATCH_GRES=gpu:-1 sbatch --wrap true 2>&1)" "so is SBATCH_GRES=gpu:-1"
err=$(sbatch -n1 --ntasks-per-node=3 --wrap true 2>&1)
assert_match "Requested node configuration is not available" "$err" "more CPUs per node than exist is refused"
err=$(sbatch --mem=100 --mem-per-cpu=10 --wrap true 2>&1)
assert_match "mutually exclusive" "$err" "--mem with --mem-per-cpu is refused"

# --exclusive takes a whole node; -x keeps a job off a node.
ex=$(sbatch --parsable --exclusive -w n2 --wrap 'sleep 300')
wait_running "$ex" || fail "job $ex did not start"
assert_eq 2 "$(squeue -h -j "$ex" -o %C)" "--exclusive holds every CPU of its node"
other=$(sbatch --parsable -w n2 -n1 --wrap true)
wait_until 60 pending_for "$other" Resources
assert_eq PD "$(squeue -h -j "$other" -o %t)" "and no other job joins it"
scancel "$ex" "$other"
wait_job "$ex"
# Both nodes are free: without -x the job would take the first.
away=$(sbatch --parsable -x n1 -n1 --wrap 'hostname >/dev/null; sleep 1')
wait_until 60 bash -c "[ \"\$(squeue -h -t all -j $away -o %N)\" != '' ]"
assert_eq n2 "$(squeue -h -t all -j "$away" -o %N)" "-x n1 (and n3 down) leaves n2"
finish
