#!/usr/bin/env bash
# hetjob_test.sh - heterogeneous jobs as Slurm runs them: sbatch and salloc with ':' components
# and "#SBATCH hetjob"; each component a job of its own with consecutive ids, shown L+K; all
# components start together or wait together; the batch script runs on the leader with each
# component's variables (_HET_GROUP_K) and reaches a component with srun --het-group; cancelling
# the leader ends them all, a pending component alone may not be cancelled; the components hold
# across a controller restart; preempted, the whole job goes.
source "$(dirname "$0")/lib.sh"
make_cluster 4 "PreemptType=preempt/partition_prio" "PreemptMode=CANCEL"
cat >> "$T/c/slurm.conf" <<CONF
PartitionName=low Nodes=n[1-4] PriorityTier=1
PartitionName=high Nodes=n[1-4] PriorityTier=10
CONF
cluster_start "$T/c" 4
cd "$T"

ids() { squeue -h -j "$1" -t all -o %i 2>/dev/null | sort | tr '\n' ' '; }
states() { squeue -h -j "$1" -t all -o '%i %T' 2>/dev/null | sort | tr '\n' ' '; }
all_state() { [ "$(squeue -h -j "$1" -t all -o %T 2>/dev/null | sort -u)" = "$2" ]; }

cat > env.sh <<'EOF'
#!/bin/bash
echo "size=$SLURM_HET_SIZE id=$SLURM_JOB_ID g0=$SLURM_JOB_ID_HET_GROUP_0 g1=$SLURM_JOB_ID_HET_GROUP_1"
echo "nodes=$SLURM_JOB_NUM_NODES_HET_GROUP_0,$SLURM_JOB_NUM_NODES_HET_GROUP_1 tasks=$SLURM_NTASKS_HET_GROUP_1"
echo "g1 on $(srun --het-group=1 hostname_of | sort | tr '\n' ' ')"
echo "g0 on $(srun hostname_of | sort | tr '\n' ' ')"
EOF
mkdir -p bin
printf '#!/bin/sh\necho "$SLURMD_NODENAME $SLURM_JOB_ID"\n' > bin/hostname_of
chmod +x env.sh bin/hostname_of
export PATH=$T/bin:$PATH

# 1. sbatch A : B script: two jobs, the leader runs the script.
j=$(sbatch --parsable -N1 -n1 -J het -o het.out : -N2 -n2 env.sh)
assert_match '^[0-9]+$' "$j" "sbatch answers the leader's id"
wait_until 60 all_state "$j" COMPLETED || fail "job $j: $(states "$j")"
assert_eq "$j+0 $j+1 " "$(ids "$j")" "squeue -j LEADER lists each component as L+K"
n=$((j + 1))
assert_eq "size=2 id=$j g0=$j g1=$n" "$(sed -n 1p het.out)" "SLURM_HET_SIZE and each component's job id"
assert_eq "nodes=1,2 tasks=2" "$(sed -n 2p het.out)" "each component's node and task counts"
assert_match "^g1 on n[0-9] $n n[0-9] $n $" "$(sed -n 3p het.out)" "srun --het-group=1 runs in component 1"
assert_match "^g0 on n[0-9] $j $" "$(sed -n 4p het.out)" "srun alone runs in component 0"
show=$(scontrol show job "$n")
assert_match "JobId=$n HetJobId=$j HetJobOffset=1 JobName=het" "$show" "scontrol shows the component"
assert_match "HetJobIdSet=$j-$n" "$show" "and the set of its job's ids"
assert_eq "het het " "$(squeue -h -j "$j" -t all -o %j | tr '\n' ' ')" \
  "the job name is carried over to the second component"
recorded() { [ "$(sacct -n -X -P -j "$j" -o JobID,State 2>/dev/null | xargs)" = "$j+0|COMPLETED $j+1|COMPLETED" ]; }
wait_until 60 recorded && ok "sacct -j LEADER: every component, as L+K" ||
  fail "sacct -j $j: $(sacct -n -X -P -j "$j" -o JobID,State 2>&1 | xargs)"
assert_eq "$j+1|COMPLETED" "$(sacct -n -X -P -j "$j+1" -o JobID,State 2>&1)" \
  "sacct -j L+1: the component alone"

# 2. #SBATCH hetjob separates the components' directives.
cat > dir.sh <<'EOF'
#!/bin/bash
#SBATCH -N1 -J dirs -o dir.out
#SBATCH hetjob
#SBATCH -N3
echo "$SLURM_HET_SIZE $SLURM_JOB_NUM_NODES_HET_GROUP_0 $SLURM_JOB_NUM_NODES_HET_GROUP_1"
EOF
d=$(sbatch --parsable dir.sh)
wait_until 60 all_state "$d" COMPLETED || fail "job $d: $(states "$d")"
assert_eq "2 1 3" "$(cat dir.out)" "components from #SBATCH hetjob"

# 3. All or nothing: with two of four nodes busy, a 1-node + 2-node job waits whole, though its
# first component alone would fit.
b=$(sbatch --parsable -N2 --exclusive -o /dev/null --wrap "$(gate busy)")
wait_running "$b" || fail "job $b did not start"
h=$(sbatch --parsable -N1 -o /dev/null : -N2 --wrap "$(gate het)")
reasons() { squeue -h -j "$1" -o '%t %r' 2>/dev/null | sort -u; }
wait_until 30 eval '[ "$(reasons "$h")" = "PD Resources" ]' || fail "job $h: $(reasons "$h")"
assert_eq "$h+0 PENDING $h+1 PENDING " "$(states "$h")" "no component starts before all can"
out=$(scancel "$((h + 1))" 2>&1)
assert_match "Operation not permitted on individual component of heterogeneous job" "$out" \
  "a pending component alone cannot be cancelled"
open_gate busy
wait_until 60 all_state "$h" RUNNING || fail "job $h: $(states "$h")"
held=$(for l in $(squeue -h -j "$h" -o %N); do scontrol show hostnames "$l"; done | sort -u)
assert_eq "3" "$(echo "$held" | wc -l)" "its components hold three nodes"
# A running component may be cancelled alone; the leader's end ends the rest.
scancel "$((h + 1))"
wait_until 30 job_done "$((h + 1))" || fail "component $((h + 1)) did not end"
assert_eq "RUNNING" "$(squeue -h -j "$h" -o %T | head -1)" "the leader runs on"

# 4. The components hold across a controller restart; cancelling the leader ends them all;
# releasing the leader releases every component.
h2=$(sbatch --parsable -H -N1 -o /dev/null : -N1 --wrap "$(gate h2)")
assert_eq "JobHeldUser JobHeldUser " "$(squeue -h -j "$h2" -o %r | tr '\n' ' ')" "-H holds every component"
kill_ctld
restart_ctld
assert_match "HetJobId=$h2 HetJobOffset=1" "$(scontrol show job "$((h2 + 1))")" \
  "the component is known after a restart"
scontrol release "$h2"
wait_until 60 all_state "$h2" RUNNING || fail "released, job $h2: $(states "$h2")"
scancel "$h"
scancel "$h2"
wait_until 60 all_state "$h2" CANCELLED || fail "job $h2: $(states "$h2")"
wait_until 60 job_done "$h" || fail "job $h did not end"

# 5. salloc A : B: the command sees both components; srun reaches the second.
out=$(salloc -N1 : -N2 bash -c \
  'echo "$SLURM_HET_SIZE $SLURM_JOB_NUM_NODES_HET_GROUP_1"; srun --het-group=1 hostname_of | wc -l' 2>/dev/null)
assert_eq "2 2
2" "$out" "salloc: SLURM_HET_SIZE, the component's nodes, srun --het-group=1"
out=$(salloc -N1 : -N1 srun --het-group=2 true 2>&1)
assert_match "Attempt to run a job step with het group value of 2, but the job allocation has maximum value of 1" \
  "$out" "a component the allocation does not have"

# 6. Preemption takes a heterogeneous job whole: whichever component's nodes are wanted, every
# component ends PREEMPTED (PreemptMode=CANCEL).
p=$(sbatch --parsable -p low -N2 -o /dev/null : -p low -N2 --wrap "sleep 300")
wait_until 60 all_state "$p" RUNNING || fail "job $p: $(states "$p")"
hi=$(sbatch --parsable -p high -N1 -o /dev/null --wrap true)
wait_until 60 all_state "$p" PREEMPTED && ok "every component of the preempted job ends PREEMPTED" ||
  fail "preempted, job $p: $(states "$p")"
wait_job "$hi" && ok "the preemptor runs" || fail "job $hi did not run on the preempted nodes"
finish
