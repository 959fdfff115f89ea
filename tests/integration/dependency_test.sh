#!/usr/bin/env bash
# dependency_test.sh - --dependency as workflow tools use it: afterok chains, afternotok and
# afterany, several ids, '?' for OR, singleton, +time, and a dependency that can never be met,
# held as DependencyNeverSatisfied or cancelled with --kill-on-invalid-dep=yes; a job the
# controller does not have counts as done.
source "$(dirname "$0")/lib.sh"
start_cluster 2
cd "$T"

a=$(sbatch --parsable -J a --wrap "$(gate a); echo a >> order.txt")
b=$(sbatch --parsable -J b -d afterok:$a --wrap 'echo b >> order.txt')
c=$(sbatch --parsable -J c --dependency=afterok:$a:$b --wrap 'echo c >> order.txt')
assert_eq "PD Dependency" "$(squeue -h -j "$b" -o '%t %r')" "a dependent job waits with reason Dependency"
assert_match "afterok:$a" "$(squeue -h -j "$b" -o %E)" "squeue %E shows what it waits for"
open_gate a
wait_job "$c"
assert_eq "a b c" "$(tr '\n' ' ' < order.txt | sed 's/ $//')" "an afterok chain runs in order"

bad=$(sbatch --parsable -J bad --wrap 'exit 1')
ok_after_bad=$(sbatch --parsable -d afterok:$bad --wrap true)
notok=$(sbatch --parsable -d afternotok:$bad -o notok.txt --wrap 'echo ran')
any=$(sbatch --parsable -d afterany:$bad -o any.txt --wrap 'echo ran')
wait_job "$notok"; wait_job "$any"
assert_eq ran "$(cat notok.txt)" "afternotok runs after a failure"
assert_eq ran "$(cat any.txt)" "afterany runs after any end"
wait_until 60 pending_for "$ok_after_bad" DependencyNeverSatisfied
assert_eq "PD DependencyNeverSatisfied" "$(squeue -h -j "$ok_after_bad" -o '%t %r')" "afterok on a failed job can never run"
killed=$(sbatch --parsable --kill-on-invalid-dep=yes -d afterok:$bad --wrap true)
wait_job "$killed"
assert_eq CANCELLED "$(job_state "$killed")" "--kill-on-invalid-dep=yes cancels it instead"

# '?' (any one will do), after (started), +time
slow=$(sbatch --parsable --wrap 'sleep 300')
either=$(sbatch --parsable -d "afterok:$slow?afterany:$bad" -o either.txt --wrap 'echo ran')
wait_job "$either"
assert_eq ran "$(cat either.txt)" "'?' needs only one term"
started=$(sbatch --parsable -d after:$slow -o after.txt --wrap 'echo ran')
wait_job "$started"
assert_eq ran "$(cat after.txt)" "after: runs once the other has started"
scancel "$slow"

# singleton: one at a time per name and user
s1=$(sbatch --parsable -J single -d singleton --wrap "$(gate s1)")
wait_running "$s1" || fail "the first singleton did not start"
s2=$(sbatch --parsable -J single -d singleton --wrap true)
wait_until 60 pending_for "$s2" Dependency
assert_eq "PD Dependency" "$(squeue -h -j "$s2" -o '%t %r')" "the second singleton waits for the first"
open_gate s1
wait_job "$s2"
s1_end=$(squeue -h -t all -j "$s1" -o %e); s2_start=$(squeue -h -t all -j "$s2" -o %S)
[[ ! "$s2_start" < "$s1_end" ]] && ok "the second singleton started once the first had ended" ||
  fail "the second singleton started at $s2_start, the first ended at $s1_end"

# A job the controller does not have (never, or purged long ago) counts as done, as in Slurm;
# a bad spec is refused.
gone=$(sbatch --parsable -d afterok:999999 --wrap true)
wait_job "$gone"
assert_eq COMPLETED "$(job_state "$gone")" "a dependency on an unknown job is accepted and satisfied"
err=$(sbatch -d afterfoo:$a --wrap true 2>&1)
assert_match "dependency" "$err" "a malformed dependency is refused"

# scontrol update Dependency=
held=$(sbatch --parsable -d afterok:$bad --wrap true)
err=$(scontrol update JobId="$held" Dependency=afterok:$held 2>&1); rc=$?
assert_eq "1|Job dependency problem" "$rc|${err##*: }" "a job may not depend on itself"
scontrol update JobId="$held" Dependency=afterany:$bad
wait_job "$held"
assert_eq COMPLETED "$(job_state "$held")" "scontrol update Dependency= replaces it"
finish
