#!/usr/bin/env bash
# array_test.sh - job arrays: --array ranges, lists, steps and %N throttles, the array variables,
# %A/%a in file names, squeue's compressed and -r views, scancel of one task or a range, and a
# dependency on a whole array.
source "$(dirname "$0")/lib.sh"
start_cluster 2 "MaxArraySize=1000"
cd "$T"

# The first two tasks run until the gate opens: the others wait behind the throttle meanwhile.
id=$(sbatch --parsable --array=0-5%2 -o 'arr-%A_%a.out' --wrap 'echo "$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_MAX"; '"$(gate throttle)")
wait_until 60 bash -c "[ \"\$(squeue -h -t R -o %i | grep -c ${id}_)\" = 2 ]"
assert_eq 2 "$(squeue -h -t R -o %i | grep -c "^${id}_")" "a %2 throttle runs two tasks at a time"
assert_match "^${id}_\[2-5%2\]$" "$(squeue -h -t PD -o %i)" "pending tasks are shown compressed"
assert_eq 4 "$(squeue -h -r -t PD -o %i | wc -l)" "squeue -r expands them"
open_gate throttle
wait_until 120 bash -c "[ -z \"\$(squeue -h -o %i | grep ^$id)\" ]" || fail "array did not finish"
assert_eq "$id 3 6 0 5" "$(cat "arr-${id}_3.out")" "array variables and %A_%a"
assert_eq 6 "$(ls arr-${id}_*.out | wc -l)" "every task ran once"
assert_eq "${id}_0 ${id}_1 ${id}_2 ${id}_3 ${id}_4 ${id}_5" \
  "$(sacct -j "$id" -X -n -P -o JobID | sort -t_ -k2n | tr '\n' ' ' | sed 's/ $//')" "sacct -j ARRAY lists every task as ARRAY_TASK"
assert_match "^${id}_3\|[0-9]+\|COMPLETED$" "$(sacct -j "${id}_3" -X -n -P -o JobID,JobIDRaw,State)" "sacct -j ARRAY_TASK shows that task with its raw id"
c=$(sbatch --parsable --comment="for the record" --wrap true)
wait_job "$c"
assert_eq "for the record" "$(sacct -j "$c" -X -n -P -o Comment)" "sacct shows --comment"

# lists and steps, default file names
id2=$(sbatch --parsable --array=1,3,10-14:2 --wrap 'echo $SLURM_ARRAY_TASK_ID')
wait_until 60 bash -c "[ -z \"\$(squeue -h -o %i | grep ^$id2)\" ]"
assert_eq "1 3 10 12 14" "$(for t in 1 3 10 12 14; do cat "slurm-${id2}_$t.out"; done | tr '\n' ' ' | sed 's/ $//')" "lists and steps, slurm-%A_%a.out"

# cancelling one task and a range of waiting tasks
id3=$(sbatch --parsable --array=0-9 --hold --wrap true)
scancel "${id3}_4"
scancel "${id3}_[6-8]"
assert_match "^${id3}_\[0-3,5,9\]$" "$(squeue -h -j "$id3" -o %i)" "scancel took tasks out of the waiting set"
scancel "$id3"
assert_eq "" "$(squeue -h -j "$id3" -o %i 2>/dev/null)" "scancel of the array id ends them all"

# one waiting task held on its own, then the whole array released and requeued
id5=$(sbatch --parsable --array=0-3 --hold --wrap 'sleep 1')
scontrol release "${id5}_2"
wait_job "${id5}_2"
assert_eq COMPLETED "$(squeue -h -t all -j "${id5}_2" -o %T)" "a waiting task released on its own runs"
assert_match "^${id5}_\[0-1,3\]$" "$(squeue -h -j "$id5" -o %i)" "the rest stay held in the record"
scontrol release "$id5"
wait_until 60 bash -c "[ -z \"\$(squeue -h -j $id5 -o %i 2>/dev/null)\" ]"
assert_eq "" "$(squeue -h -j "$id5" -o %i 2>/dev/null)" "releasing the array id releases every task"

# a dependency on a whole array
id4=$(sbatch --parsable --array=0-3 --wrap 'sleep 1')
after=$(sbatch --parsable -d afterok:$id4 -o after-array.txt --wrap 'echo after')
wait_job "$after" 120
assert_eq after "$(cat after-array.txt)" "afterok on an array waits for every task"

err=$(sbatch --array=0-5000 --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: Invalid job array specification" "$err" "MaxArraySize is enforced"

# a big array is one record until its tasks start
big=$(sbatch --parsable --array=0-999 --hold --wrap true)
assert_eq 1 "$(squeue -h -j "$big" | wc -l)" "a 1000-task array is one line (one record)"
scancel "$big"
finish
