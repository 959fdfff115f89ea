#!/usr/bin/env bash
# durability_test.sh - the controller killed with SIGKILL loses nothing it acknowledged: every
# job sbatch reported is there after a restart with the same id, ids continue, a job that was
# running finishes and is recorded, and -c discards jobs on purpose.
source "$(dirname "$0")/lib.sh"
start_cluster 2
cd "$T"

running=$(sbatch --parsable -J survivor --wrap "$(gate survivor); echo survived")
wait_running "$running" || fail "job $running did not start"
held1=$(sbatch --parsable --hold -J held1 --wrap true)
held2=$(sbatch --parsable --hold -J held2 --wrap true)

# Two clients submit as fast as they can while the controller is killed in the middle. Each stops
# at its first refusal: a submission that meets no controller waits MessageTimeout for one.
storms=()
for c in a b; do
  ( for i in $(seq 1 400); do sbatch --hold -J storm-$c --wrap true 2>/dev/null || break; done > "storm-$c.txt" ) &
  storms+=($!)
done
# The kill lands once some submissions are acknowledged, however slowly they come.
wait_until 60 acked_at_least 20 storm-a.txt storm-b.txt || fail "the storm did not start"
kill_ctld KILL
wait "${storms[@]}"
restart_ctld
wait_until 60 squeue -h || fail "controller did not come back"

acked=$(cat storm-a.txt storm-b.txt | grep -c '^Submitted batch job' || true)
[ "$acked" -gt 0 ] && ok "some submissions were acknowledged before the kill ($acked)" || fail "no submission acknowledged"
[ "$acked" -lt 800 ] && ok "the kill landed in the middle of the storm" || fail "the storm ended before the kill"
missing=0
for id in $(cat storm-a.txt storm-b.txt | awk '/^Submitted batch job/ {print $4}'); do
  [ -n "$(squeue -h -j "$id" -o %i 2>/dev/null)" ] || missing=$((missing + 1))
done
assert_eq 0 "$missing" "every acknowledged submission survived the SIGKILL"
dups=$(cat storm-a.txt storm-b.txt | awk '/^Submitted/ {print $4}' | sort | uniq -d | wc -l)
assert_eq 0 "$dups" "no job id was handed out twice"
assert_eq "PENDING JobHeldUser" "$(squeue -h -j "$held1" -o '%T %r')" "held job still pending and held"
assert_eq "RUNNING" "$(squeue -h -j "$running" -o %T)" "running job still running after the restart"

last=$(cat storm-a.txt storm-b.txt | awk '/^Submitted/ {print $4}' | sort -n | tail -1)
next=$(sbatch --parsable --hold --wrap true)
[ "$next" -gt "${last:-$held2}" ] && ok "job ids continue after the restart ($next)" || fail "id $next does not follow $last"

open_gate survivor
wait_job "$running"
assert_eq COMPLETED "$(job_state "$running")" "the job that ran through the kill completed"
assert_eq survived "$(cat "slurm-$running.out")" "and its output is whole"
assert_match "COMPLETED" "$(sacct -j "$running" -X -n -o State)" "its end is recorded in accounting"

# A cold start discards jobs on purpose.
kill_ctld TERM
restart_ctld -c
wait_until 60 sinfo -h || fail "controller did not come back cold"
assert_eq "" "$(squeue -h)" "-c starts with no jobs"
finish
