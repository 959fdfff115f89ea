#!/usr/bin/env bash
# propagate_test.sh - PropagateResourceLimits and the umask, as Slurm's sbatch and srun carry
# them: a job's tasks run under the soft limits and umask of the shell that submitted it
# (SLURM_RLIMIT_*, SLURM_UMASK), output files included; --propagate chooses which limits;
# PropagateResourceLimitsExcept leaves some out; an unknown limit name is refused.
source "$(dirname "$0")/lib.sh"
start_cluster 1 "PropagateResourceLimitsExcept=STACK"
cd "$T"

# What a task sees: its core and open-file soft limits, its umask, and one variable.
probe='echo core=$(ulimit -S -c) nofile=$(ulimit -S -n) umask=$(umask) var=${SLURM_RLIMIT_NOFILE:-none}'
node_nofile=$(srun -N1 --propagate=NONE bash -c 'ulimit -S -n')  # the node daemon's own

j=$( (ulimit -S -c 0; ulimit -S -n 512; umask 027; sbatch --parsable -o out.txt --wrap "$probe") )
wait_job "$j" || fail "job $j did not end"
assert_eq "core=0 nofile=512 umask=0027 var=512" "$(cat out.txt)" \
  "the batch script runs under the submitting shell's limits and umask"
assert_eq "-rw-r-----" "$(stat -c %A out.txt)" "its output file is made with that umask"

# (The core limits asked for are 0: a sanitized build's commands set their own to 0.)
out=$( (ulimit -S -c 0; ulimit -S -n 256; umask 077; srun -N1 bash -c "$probe") )
assert_eq "core=0 nofile=256 umask=0077 var=256" "$out" "srun's tasks: srun's limits and umask"

# A step inside the job: srun there carries the job's limits on.
j=$( (ulimit -S -n 300; sbatch --parsable -o step.txt --wrap "srun bash -c '$probe'") )
wait_job "$j" || fail "job $j did not end"
assert_match "nofile=300 " "$(cat step.txt)" "a step of the job runs under the job's limits"

# --propagate names what goes; PropagateResourceLimitsExcept=STACK keeps the stack limit home.
out=$( (ulimit -S -n 200; ulimit -S -c 0; srun -N1 --propagate=CORE bash -c "$probe") )
assert_match "^core=0 nofile=$node_nofile umask=[0-9]+ var=none$" "$out" \
  "--propagate=CORE: only the core limit goes"
out=$( (ulimit -S -s 4096; srun -N1 bash -c 'ulimit -S -s; echo ${SLURM_RLIMIT_STACK:-none}') )
assert_eq "none" "$(tail -1 <<< "$out")" "PropagateResourceLimitsExcept=STACK: the stack limit stays"
[ "$(head -1 <<< "$out")" != 4096 ] && ok "and the task has the node's" \
  || fail "the stack limit went: $out"
out=$( (ulimit -S -s 4096; srun -N1 --propagate=STACK bash -c 'ulimit -S -s') )
assert_eq 4096 "$out" "--propagate=STACK sends it all the same"

out=$(sbatch --propagate=CORE,HEAP --wrap true 2>&1); rc=$?
assert_eq "1 sbatch: error: --propagate=CORE,HEAP is not valid." "$rc $out" "an unknown limit is refused"
assert_match "PropagateResourceLimitsExcept += STACK" "$(scontrol show config)" "show config says what is left out"

sed 's|^PropagateResourceLimitsExcept=.*|PropagateResourceLimits=CORE,STACKS|' "$T/c/slurm.conf" > bad.conf
out=$(SLURM_CONF=$T/bad.conf sinfo 2>&1); rc=$?
assert_eq 1 "$rc" "slurm.conf naming an unknown limit is refused"
assert_match "PropagateResourceLimits.*STACKS" "$out" "and says which"
finish
