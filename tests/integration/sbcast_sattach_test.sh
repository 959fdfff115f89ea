#!/usr/bin/env bash
# sbcast_sattach_test.sh - sbcast copies a file to every node of the caller's job (as the job's
# user, block by block, refusing to replace a file without --force), srun --bcast runs a copy of
# its program on each node, and sattach shows a running step's output (its recent output first),
# feeds its input and takes its layout, all with Slurm's options and messages. Another user
# reaches neither the job's nodes nor the step.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_cluster 2 "BcastParameters=DestDir=$T/destdir"
sed -i 's/^NodeName=DEFAULT CPUs=1/NodeName=DEFAULT CPUs=2/' "$T/c/slurm.conf"
cluster_start "$T/c" 2
make_test_users
cd "$T"
mkdir -p destdir bc
head -c 300000 /dev/urandom > big.bin
printf '#!/bin/sh\necho "ran $0"\n' > prog.sh
chmod 750 prog.sh
touch -d '2001-02-03 04:05:06' prog.sh

# sbcast inside an allocation: SLURM_JOB_ID names the job.
out=$(salloc -Q -N1 -w n1 bash -c "sbcast -s 64k big.bin $T/copy.bin && echo rc=\$?" 2>&1)
assert_eq "rc=0" "$out" "sbcast in an allocation succeeds"
cmp -s big.bin copy.bin && ok "the copy is the file, sent in 64 KiB blocks" || fail "copy.bin differs from big.bin"
out=$(salloc -Q -N1 -w n1 bash -c "sbcast big.bin $T/copy.bin; echo rc=\$?" 2>&1)
assert_eq "sbcast: error: REQUEST_FILE_BCAST(n1): File exists
rc=17" "$out" "an existing file is not replaced without --force (Slurm's message and status)"
: > short.txt; echo short > short.txt
out=$(salloc -Q -N1 -w n1 bash -c "sbcast -f short.txt $T/copy.bin && cat $T/copy.bin" 2>&1)
assert_eq "short" "$out" "--force replaces it (and truncates it)"
salloc -Q -N1 -w n1 sbcast -p prog.sh "$T/kept.sh"
assert_eq "750 $(stat -c %Y prog.sh)" "$(stat -c '%a %Y' kept.sh)" "-p keeps the mode and times"
salloc -Q -N1 -w n1 sbcast prog.sh rel.sh
assert_eq "ran $T/destdir/rel.sh" "$("$T/destdir/rel.sh")" "a relative DEST goes to BcastParameters' DestDir, with the source's mode"
out=$(salloc -Q -N2 bash -c "SBCAST_FORCE=1 sbcast short.txt $T/both.txt; echo rc=\$?" 2>&1)
assert_eq "rc=0" "$out" "both nodes of a two-node job take the file (SBCAST_FORCE: they share this disk)"

# Refusals.
out=$(env -u SLURM_JOB_ID sbcast x /tmp/x 2>&1); rc=$?
assert_eq "1 sbcast: error: Need a job id to run this command.  Run from within a Slurm job or use the --jobid option." "$rc $out" "no job"
out=$(sbcast -j 999999 short.txt /tmp/x 2>&1); rc=$?
assert_eq "255 sbcast: error: Slurm job 999999 lookup error: Invalid job id specified" "$rc $out" "an unknown job"
out=$(salloc -Q -N1 bash -c "sbcast missing.txt $T/m.txt; echo rc=\$?" 2>&1)
assert_eq "sbcast: error: Can't open \`missing.txt\`: No such file or directory
rc=255" "$out" "a missing source"
out=$(salloc -Q -N1 bash -c "echo hi | sbcast /dev/stdin $T/pipe.txt; echo rc=\$?" 2>&1)
assert_eq "sbcast: error: Can't open \`/dev/stdin\`: Invalid argument
rc=255" "$out" "a pipe is not sent (its size is unknown)"
out=$(salloc -Q -N1 bash -c "sbcast short.txt $T/dir/; echo rc=\$?" 2>&1)
assert_eq "sbcast: error: Target filename cannot be a directory.
rc=1" "$out" "a directory as DEST"

# srun --bcast: each node runs its own copy, named after the job, step and node.
out=$(salloc -Q -N2 srun -N2 --bcast="$T/bc/" ./prog.sh | sort)
assert_match "^ran $T/bc/slurm_bcast_[0-9]+\.0_n1
ran $T/bc/slurm_bcast_[0-9]+\.0_n2$" "$out" "srun --bcast=DIR/ runs the copies"
assert_eq 2 "$(ls bc | grep -c '^slurm_bcast_')" "one copy per node"
out=$(salloc -Q -N1 srun --bcast ./prog.sh)
assert_match "^ran $T/destdir/slurm_bcast_[0-9]+\.0_n1$" "$out" "srun --bcast alone copies into DestDir"
out=$(salloc -Q -N1 srun --bcast=named.sh ./prog.sh)
assert_eq "ran $T/destdir/named.sh" "$out" "srun --bcast=NAME: that name in DestDir"

# sattach: a step that prints, waits for a gate, then reads a line from its input.
mkfifo in.fifo
exec 3<>in.fifo # held open: srun's input never ends
sbatch_out=$(sbatch --parsable -N1 -n2 -w n1 -o srun.out --wrap "srun -n2 -l bash -c 'echo ready \$SLURM_PROCID; $(gate go) ; if [ \$SLURM_PROCID = 0 ]; then read l; echo got \$l; else exit 3; fi' < $T/in.fifo")
job=$sbatch_out
wait_until 60 bash -c "grep -q 'ready 1' srun.out 2>/dev/null" || fail "the step did not start"
layout=$(sattach --layout "$job.0")
assert_eq "$(printf 'Job step layout:\n\t2 tasks, 1 nodes (n1)\n\n\tNode 0 (n1), 2 task(s): 0 1 ')" "$layout" "--layout prints the tasks node by node"
sattach -l --input-filter=0 "$job.0" > att.out 2> att.err < <(wait_until 60 bash -c "grep -q 'ready' att.out"; echo hello; sleep 30) &
att=$!
wait_until 60 bash -c "grep -q 'ready' att.out" || fail "sattach showed no output"
assert_contains "0: ready 0" "$(cat att.out)" "sattach shows the step's output from before it attached"
open_gate go
wait_until 60 pid_gone "$att" || fail "sattach did not end with the step"
wait "$att"; rc=$?
assert_eq 3 "$rc" "sattach exits with the tasks' highest exit code"
assert_contains "0: got hello" "$(cat att.out)" "its input reached task 0"
assert_contains "sattach: error: task 1 exited with exit code 3" "$(cat att.err)" "a failed task is reported"
wait_job "$job"
exec 3>&-

out=$(sattach 999999.0 2>&1); rc=$?
assert_eq "1 sattach: error: Could not get job step info: Invalid job id specified" "$rc $out" "an unknown step"
out=$(sattach 15 2>&1); rc=$?
assert_eq 1 "$rc" "a job without a step is refused"
assert_contains "Failed to parse stepid from command line options" "$out" "in Slurm's words"

# Detaching leaves the step running.
job=$(sbatch --parsable -N1 -o det.out --wrap "srun bash -c 'echo up; $(gate det); echo done'")
wait_until 60 bash -c "grep -q up det.out 2>/dev/null" || fail "the detach step did not start"
sattach "$job.0" > det.att &
att=$!
wait_until 60 bash -c "grep -q up det.att" || fail "sattach showed nothing"
kill -INT "$att"
wait_until 30 pid_gone "$att" || fail "sattach did not leave on Ctrl-C"
assert_eq "up" "$(cat det.att)" "sattach showed the step's output"
assert_eq RUNNING "$(job_state "$job")" "and the step runs on after sattach is interrupted"
open_gate det
wait_job "$job"
assert_eq "up
done" "$(cat det.out)" "the step's own output is whole"

if [ "$MULTI" = 1 ]; then
  mkdir -p home1 && chown drvtest1: home1 && cd home1
  cp ../short.txt . && chown drvtest1: short.txt
  job=$(as drvtest1 sbatch --parsable -N1 -w n1 -o u.out --wrap "srun bash -c 'echo u; $(gate users)'")
  wait_until 60 bash -c "grep -q u u.out 2>/dev/null" || fail "drvtest1's step did not start"
  as drvtest1 sbcast -j "$job" short.txt "$T/home1/owned.txt"
  assert_eq drvtest1 "$(stat -c %U owned.txt)" "sbcast writes as the job's user"
  out=$(as drvtest1 sbcast -j "$job" short.txt /root/not-mine.txt 2>&1); rc=$?
  assert_eq "13 sbcast: error: REQUEST_FILE_BCAST(n1): Permission denied" "$rc $out" "where the user cannot write, nor can sbcast"
  out=$(as drvtest2 sbcast -j "$job" short.txt /tmp/x-$$ 2>&1); rc=$?
  assert_eq "255 sbcast: error: Slurm job $job lookup error: Access/permission denied" "$rc $out" "another user cannot sbcast into the job"
  out=$(as drvtest2 sattach "$job.0" 2>&1); rc=$?
  assert_eq 1 "$rc" "another user cannot attach to the step"
  assert_contains "Access/permission denied" "$out" "and is told why"
  open_gate users
  wait_job "$job"
  cd "$T"
fi
finish
