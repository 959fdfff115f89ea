#!/usr/bin/env bash
# backfill_test.sh - SchedulerType=sched/backfill as a user sees it on two single-CPU nodes
# (select/linear): A holds one node for up to 2 minutes; B wants both nodes and waits for A
# (reason Resources) with an expected start at A's end; C, shorter than what is left of A, starts
# at once on the free node although B is ahead of it; D, longer, would delay B and waits; sdiag
# counts the plans and the job backfilled. With sched/builtin the same C waits behind B.
source "$(dirname "$0")/lib.sh"

epoch() { date -d "$1" +%s 2>/dev/null; }
field() { squeue -h -j "$1" -o "$2" 2>/dev/null; }
# The number of scheduling passes (main), or of backfill plans (bf), made so far.
main_cycles() { sdiag | sed -n 's/^\tTotal cycles: //p' | head -1; }
bf() { sdiag | sed -n '/^Backfilling stats$/,$p' | sed -n "s/^\t$1: *//p"; }
# passes_after KIND N: N more passes of that KIND than $passes0.
passes_after() { [ "$("$1")" -ge $((passes0 + $2)) ]; }
bf_cycles() { bf 'Total cycles'; }

# The scenario up to C's submission; sets A B C D. A and C run until their time limits end them.
submit_all() {
  A=$(sbatch --parsable -J A -N1 -t 2 --wrap 'sleep 300')
  wait_running "$A" || fail "A did not start"
  B=$(sbatch --parsable -J B -N2 -t 5 --wrap 'sleep 1')
  C=$(sbatch --parsable -J C -N1 -t 1 --wrap 'sleep 300')
  D=$(sbatch --parsable -J D -N1 -t 10 --wrap 'sleep 30')
}

start_cluster 2 "SchedulerType=sched/backfill" "SchedulerParameters=bf_interval=1"
cd "$T"
submit_all
# Plans run at most every second, on the passes the controller makes (submissions, job ends,
# and every 5 s).
wait_running "$C" || fail "C never started"
assert_eq RUNNING "$(field "$C" %T)" "C (1 node, 1 minute) starts while B waits"
assert_eq "PENDING Resources" "$(field "$B" '%T %r')" "B (2 nodes) is still waiting for A's node"
a_node=$(field "$A" %N)
c_node=$(field "$C" %N)
[ -n "$c_node" ] && [ "$c_node" != "$a_node" ] && ok "C runs on the node A does not hold ($c_node)" \
  || fail "C on [$c_node], A on [$a_node]"

a_start=$(epoch "$(field "$A" %S)")
b_start=$(epoch "$(field "$B" %S)")
assert_eq "$((a_start + 120))" "$b_start" "B's expected start (squeue %S) is A's end: start + 2 min"
assert_match "StartTime=$(date -d "@$((a_start + 120))" +%Y-%m-%dT%H:%M:%S) " \
  "$(scontrol show job "$B")" "scontrol show job says the same StartTime"

assert_eq PENDING "$(field "$D" %T)" "D (1 node, 10 minutes) would delay B and waits"
assert_match "^(Priority|Resources)$" "$(field "$D" %r)" "with reason Priority or Resources"
# The plan gives D its expected start on a pass of its own; on a busy machine that comes later.
planned() { [ "$(field "$D" %S)" != N/A ] && [ -n "$(field "$D" %S)" ]; }
wait_until 30 planned || fail "D was given no expected start"
d_start=$(epoch "$(field "$D" %S)")
[ -n "$d_start" ] && [ "$d_start" -gt "$b_start" ] && ok "D is expected to start after B" \
  || fail "D expected at [$(field "$D" %S)], B at [$(field "$B" %S)]"
passes0=$(bf_cycles)
wait_until 60 passes_after bf_cycles 2 || fail "no later plans"
assert_eq PENDING "$(field "$D" %T)" "and D still waits on later plans"
assert_eq RUNNING "$(field "$A" %T)" "A keeps its node"

# sdiag: the plans as Slurm's "Backfilling stats"; C is the one job started ahead of B.
assert_eq 1 "$(bf 'Total backfilled jobs (since last slurm start)')" "sdiag: one job backfilled"
assert_match "^[1-9][0-9]*$" "$(bf 'Total cycles')" "sdiag: the plans are counted"
assert_match "^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4} \([0-9]+\)$" \
  "$(bf 'Last cycle when')" "sdiag: when the last plan ran"
assert_match "^[1-3]$" "$(bf 'Last depth cycle')" "sdiag: how deep the last plan went (B and D, C once)"
assert_eq "Reset scheduling statistics" "$(sdiag -r)" "sdiag -r"
assert_eq "1 0" "$(echo $(bf 'Total backfilled jobs (since last slurm start)') \
  $(bf 'Total backfilled jobs (since last stats cycle start)'))" "a reset keeps the total since start"

# The same with strict priority order: C waits behind B.
end_jobs
cluster_stop "$T/c"
rm -rf "$T/c"
start_cluster 2 "SchedulerType=sched/builtin"
cd "$T"
submit_all
passes0=$(main_cycles)
wait_until 60 passes_after main_cycles 2 || fail "no scheduling passes"  # passes after D's submission
assert_eq PENDING "$(field "$C" %T)" "with sched/builtin C waits behind B"
assert_eq "PENDING Resources" "$(field "$B" '%T %r')" "and B waits for A"
assert_eq "N/A" "$(field "$B" %S)" "sched/builtin makes no forecast"
assert_eq "" "$(sdiag | grep Backfilling)" "and sdiag shows no backfill section"
finish
