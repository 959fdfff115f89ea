#!/usr/bin/env bash
# batch_job_test.sh - a first batch job end to end: sbatch's output, the job's environment and
# output files, squeue and sinfo while it runs, exit codes, and sacct afterwards; a job whose
# output file cannot be opened fails with the reason.
source "$(dirname "$0")/lib.sh"
start_cluster 2

cd "$T"
cat > job.sh <<'JOB'
#!/bin/bash
#SBATCH -J envcheck
#SBATCH -o out-%j-%x.txt
#SBATCH --time=5
echo "id=$SLURM_JOB_ID jobid=$SLURM_JOBID name=$SLURM_JOB_NAME"
echo "nodelist=$SLURM_JOB_NODELIST nnodes=$SLURM_NNODES numnodes=$SLURM_JOB_NUM_NODES"
echo "ntasks=$SLURM_NTASKS cpus=$SLURM_CPUS_ON_NODE part=$SLURM_JOB_PARTITION cluster=$SLURM_CLUSTER_NAME"
echo "host=$SLURMD_NODENAME submitdir=$SLURM_SUBMIT_DIR submithost=$SLURM_SUBMIT_HOST"
echo "mine=$MY_VAR pwd=$(pwd) args=$*"
JOB
out=$(MY_VAR=hello sbatch job.sh a1 a2 2>&1)
assert_match '^Submitted batch job [0-9]+$' "$out" "sbatch prints only 'Submitted batch job N'"
id=${out##* }
wait_job "$id" || fail "job $id did not finish"
assert_eq COMPLETED "$(job_state "$id")" "job ends COMPLETED"
f="out-$id-envcheck.txt"
[ -f "$f" ] && ok "output file named from %j and %x" || fail "no $f"
body=$(cat "$f" 2>/dev/null)
assert_contains "id=$id jobid=$id name=envcheck" "$body" "SLURM_JOB_ID, SLURM_JOBID, SLURM_JOB_NAME"
assert_match "nodelist=n[12] nnodes=1 numnodes=1" "$body" "node list and counts"
assert_contains "ntasks=1 cpus=1 part=debug cluster=local" "$body" "tasks, CPUs, partition, cluster"
assert_match "host=n[12] submitdir=$T submithost=[^ ]+" "$body" "SLURMD_NODENAME, submit dir and host"
assert_contains "mine=hello pwd=$T args=a1 a2" "$body" "exported environment, working directory, arguments"

# --parsable, --wrap, a failing exit code, and the default output file name
id2=$(sbatch --parsable --wrap 'echo wrapped; exit 3')
assert_match '^[0-9]+$' "$id2" "--parsable prints the bare id"
[ "$id2" -gt "$id" ] && ok "job ids increase" || fail "job ids do not increase ($id then $id2)"
wait_job "$id2"
assert_eq FAILED "$(job_state "$id2")" "a non-zero exit ends FAILED"
assert_match "JobState=FAILED Reason=NonZeroExitCode " "$(scontrol show job "$id2")" "with Slurm's reason"
quiet=$(sbatch --parsable -o none -e none --wrap 'echo to nowhere; echo nor here >&2')
wait_job "$quiet"
assert_eq "COMPLETED|" "$(job_state "$quiet")|$(ls none 2>/dev/null)" "-o none -e none: output discarded, no file named none"
assert_match "StdOut=/dev/null" "$(scontrol show job "$quiet")" "StdOut is /dev/null"
assert_eq wrapped "$(cat "slurm-$id2.out" 2>/dev/null)" "default output slurm-%j.out"
assert_match "^$id2 +FAILED +3:0\$" "$(sacct -j "$id2" -X -n -o JobID,State,ExitCode | tr -s ' ' | sed 's/^ //;s/ $//')" "sacct keeps exit status as exit:signal"

# script from stdin
id3=$(printf '#!/bin/sh\necho from-stdin\n' | sbatch --parsable)
wait_job "$id3"
assert_eq from-stdin "$(cat "slurm-$id3.out" 2>/dev/null)" "script read from stdin"

# squeue while a job runs; scancel ends it CANCELLED
id4=$(sbatch --parsable -J sleeper --wrap 'sleep 60')
wait_running "$id4"
line=$(squeue -h -j "$id4")
assert_match "^ +$id4 +debug +sleeper +root +R +[0-9]+:[0-9]+ +1 n[12]$" "$line" "squeue default columns for a running job"
header=$(squeue | head -1)
assert_match "JOBID PARTITION +NAME +USER ST +TIME +NODES NODELIST\(REASON\)" "$header" "squeue header"
scancel "$id4"
wait_job "$id4"
assert_eq CANCELLED "$(job_state "$id4")" "scancel ends a running job CANCELLED"
assert_match "CANCELLED by 0" "$(sacct -j "$id4" -X -n -o State%20)" "sacct says who cancelled"

# sinfo default summary
assert_match "^debug\* +up +infinite +2 +idle n\[1-2\]$" "$(sinfo -h)" "sinfo default partition line"

# refused submissions carry Slurm's wording
err=$(sbatch -p nosuch --wrap true 2>&1); rc=$?
assert_eq 1 "$rc" "unknown partition exits 1"
assert_eq "sbatch: error: Batch job submission failed: Invalid partition name specified" "$err" "unknown partition message"
err=$(sbatch -N 5 --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: Node count specification invalid" "$err" "more nodes than the partition has"

# An output file its user cannot open: the script never runs, the job ends FAILED with the reason,
# and the node daemon's log names the path and the error.
bad=$(sbatch --parsable -o /nonexistent-drover/dir/out.txt --wrap 'echo never')
wait_job "$bad"
assert_eq FAILED "$(job_state "$bad")" "a job whose output file cannot be opened ends FAILED"
assert_match "JobState=FAILED Reason=Could_not_open_stdout_file_/nonexistent-drover/dir/out.txt:_No_such_file_or_directory " "$(scontrol show job "$bad")" "scontrol shows why"
assert_eq "FAILED|1:0" "$(sacct -j "$bad" -X -n -P -o State,ExitCode)" "sacct shows it FAILED"
assert_contains "job $bad: Could not open stdout file /nonexistent-drover/dir/out.txt: No such file or directory" "$(cat "$T"/c/log/droverd-n*.log)" "the node daemon logs the path and errno"

finish
