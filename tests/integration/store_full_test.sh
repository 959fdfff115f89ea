#!/usr/bin/env bash
# store_full_test.sh - a controller whose state store (LMDB, StateSaveMaxSize) fills up: it
# refuses new jobs cleanly (sbatch exits 1 at once, saying the store is full) before the store
# is so full that a commit could fail, keeps serving, keeps every job it acknowledged across a
# kill -9, and accepts jobs again once cancelled ones are purged (MinJobAge) and LMDB reuses
# their pages.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "StateSaveMaxSize=1" "MinJobAge=1"
cluster_start "$T/c" 1
cd "$T"
assert_match "StateSaveMaxSize += 1M" "$(scontrol show config)" "scontrol show config shows the 1 MiB store"

# Scripts of 30 kB: a 1 MiB store holds a few dozen of them, with room kept for what the jobs
# accepted still write (an eighth of the map, at least 64 kB).
{ echo '#!/bin/sh'; for i in $(seq 1 500); do printf '# %057d\n' "$i"; done; echo true; } > big.sh
accepted=() refused=""
for i in $(seq 1 100); do
  start=$SECONDS
  if id=$(sbatch --parsable --hold --export=NONE -J "fill$i" big.sh 2> refused.err); then
    accepted+=("$id")
  else
    refused="exit $? after $((SECONDS - start)) s"
    break
  fi
done
assert_match "^exit 1 after [0-2] s$" "$refused" "a submission to a full store is refused at once (${#accepted[@]} were accepted first)"
[ "${#accepted[@]}" -ge 5 ] && ok "the 1 MiB store took ${#accepted[@]} jobs first" || fail "only ${#accepted[@]} jobs fit"
assert_eq "sbatch: error: Batch job submission failed: Unable to save the job: the controller's state store is full (StateSaveMaxSize); finished jobs free room once they are purged (MinJobAge)" \
  "$(cat refused.err)" "sbatch says the state store is full"
assert_contains "state store in $T/c/state is full" "$(cat "$T/c/log/droverctld.log")" "the controller logs it"

# Still serving: queries, and the jobs it has change state (cancelling writes to the store too).
assert_eq "${#accepted[@]}" "$(squeue -h -o %i | wc -l)" "squeue lists every accepted job"
sbatch --hold --export=NONE big.sh 2>/dev/null && fail "a second try was accepted" || ok "a second try is refused too"
scontrol update JobId="${accepted[0]}" Comment=still-writable || fail "an update of a job in a full store"
assert_match "Comment=still-writable" "$(scontrol show job -o "${accepted[0]}")" "jobs already accepted can still be updated"

# Every acknowledged job survives a kill -9.
squeue -h -o '%i %j %T %r' | sort > before.txt
kill_ctld KILL
restart_ctld -R
wait_until 10 squeue -h || fail "controller did not come back"
squeue -h -o '%i %j %T %r' | sort > after.txt
assert_eq "$(cat before.txt)" "$(cat after.txt)" "every accepted job is there after the restart, as it was"
assert_match "Comment=still-writable" "$(scontrol show job -o "${accepted[0]}")" "with its last update"
assert_eq "" "$(grep -iE 'damaged|cannot commit|MDB_' "$T/c/log/droverctld.log")" "no damaged record and no failed commit"

# Cancelled jobs are purged after MinJobAge; LMDB reuses their pages and submissions go in again.
scancel "${accepted[@]}"
wait_until 15 bash -c '[ -z "$(squeue -h -t all)" ]' || fail "cancelled jobs were not purged"
again=""
for _ in $(seq 1 20); do
  again=$(sbatch --parsable --hold --export=NONE big.sh 2>/dev/null) && break
  sleep 0.5
done
[ -n "$again" ] && ok "a submission is accepted again once the cancelled jobs are purged" ||
  fail "still refused after the cancelled jobs were purged"
n=1
for _ in $(seq 2 5); do sbatch --parsable --hold --export=NONE big.sh >/dev/null 2>&1 && n=$((n + 1)); done
assert_eq 5 "$n" "and more after it"
scancel $(squeue -h -o %i)
finish
