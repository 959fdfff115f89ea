#!/usr/bin/env bash
# ctld_storm_test.sh - the SIGKILL storm (labelled slow): several clients submit batch jobs as fast
# as they can while the controller is killed with SIGKILL at random moments and restarted with -R,
# many times. Afterwards every job id any sbatch printed exists with that id and completed, no job
# ran twice (each appends its id to a file), the jobs that ran through the kills kept running, and
# every end is in sacct.
#   STORM_KILLS (default 15) kills; STORM_CLIENTS (default 4) submitting processes.
source "$(dirname "$0")/lib.sh"
kills=${STORM_KILLS:-15}
clients=${STORM_CLIENTS:-4}
start_cluster 3 "MinJobAge=3600"
cd "$T"

# Jobs that run through every kill: they end once the kills are over.
longs=()
for i in 1 2; do
  longs+=("$(sbatch --parsable -J long -o "long-$i.out" --wrap 'echo $SLURM_JOB_ID >> ran.txt; '"$(gate kills)"'; echo finished')")
done
wait_until 60 bash -c "[ \"\$(squeue -h -n long -t R | wc -l)\" = 2 ]" || fail "the long jobs did not start"

submit() {  # until ./stop appears; sbatch fails at once while the controller is down
  while [ ! -f stop ]; do sbatch -J "storm-$1" -o /dev/null --wrap 'echo $SLURM_JOB_ID >> ran.txt'; done
}
pids=()
for c in $(seq 1 "$clients"); do
  submit "$c" > "storm-$c.txt" 2> "storm-$c.err" &
  pids+=($!)
done
for k in $(seq 1 "$kills"); do
  sleep "0.$((RANDOM % 8 + 2))"   # up for 0.2 to 0.9 s
  kill_ctld KILL
  sleep "0.$((RANDOM % 4))"       # down for up to 0.3 s
  restart_ctld -R
done
touch stop
wait "${pids[@]}"
wait_until 60 squeue -h || fail "the controller did not come back"
open_gate kills

printed=$(cat storm-*.txt | awk '/^Submitted batch job/ {print $4}' | sort -n)
n=$(echo "$printed" | grep -c . || true)
[ "$n" -ge 50 ] && ok "$n submissions were acknowledged across $kills kills" || fail "only $n submissions acknowledged"
refused=$(cat storm-*.err | grep -c . || true)
[ "$refused" -gt 0 ] && ok "submissions failed while the controller was down ($refused)" ||
  fail "no submission met a dead controller: the kills missed the storm"

# Every job drains (3 one-CPU nodes, trivial jobs), the long ones included.
wait_until 180 bash -c '[ -z "$(squeue -h -t PD,R,CG)" ]' || fail "jobs still queued: $(squeue -h | wc -l)"
known=$(squeue -h -t all -o '%i %T' | sort -n)
missing=$(comm -23 <(echo "$printed") <(echo "$known" | awk '{print $1}' | sort -n) | wc -l)
assert_eq 0 "$missing" "every job id sbatch printed exists with that id"
notdone=$(echo "$known" | awk '$2 != "COMPLETED"' | wc -l)
assert_eq 0 "$notdone" "every job completed: $(echo "$known" | awk '$2 != "COMPLETED"' | head -3 | tr '\n' ' ')"
twice=$(sort ran.txt | uniq -d | wc -l)
assert_eq 0 "$twice" "no job ran twice"
notrun=$(comm -23 <(echo "$printed") <(sort -n ran.txt) | wc -l)
assert_eq 0 "$notrun" "every acknowledged job ran"

for i in 1 2; do
  assert_eq finished "$(cat "long-$i.out")" "long job ${longs[$((i - 1))]} kept running through the kills"
done
acct=$(sacct -X -n -P -o JobID,State -j "$(echo "${longs[@]} $printed" | tr ' \n' ',,' | sed 's/,*$//')")
unrecorded=$(echo "${longs[@]} $printed" | tr ' ' '\n' | grep . | while read -r id; do
  grep -qx "$id|COMPLETED" <<< "$acct" || echo "$id"; done | wc -l)
assert_eq 0 "$unrecorded" "every end is recorded in sacct"
finish
