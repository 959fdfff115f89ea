#!/usr/bin/env bash
# submit_limits_test.sh - the controller's limits on submissions as sbatch users meet them:
# SchedulerParameters=max_script_size refuses a larger script with Slurm's error (from the
# controller, and from sbatch itself before sending it), and MaxJobCount makes sbatch say
# "sleeping and retrying" once and retry until a job leaves (as Slurm's sbatch), then submit.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "MaxJobCount=2" "MinJobAge=1" "SchedulerParameters=max_script_size=100000"
cluster_start "$T/c" 1
cd "$T"

# script_of SIZE: a batch script of exactly SIZE bytes.
script_of() { { echo '#!/bin/sh'; head -c $(($1 - 16)) /dev/zero | tr '\0' '#'; printf '\ntrue\n'; } ; }
script_of 100000 > max.sh
script_of 100001 > over.sh
script_of 5000000 > huge.sh
assert_eq "100000 100001" "$(stat -c %s max.sh) $(stat -c %s over.sh)" "the scripts have the sizes meant"
too_large="sbatch: error: Batch job submission failed: Pathname of a file, directory or other parameter too long"

# sbatch reads max_script_size from slurm.conf and does not send a larger script.
out=$(sbatch --hold over.sh 2>&1); rc=$?
assert_eq "1 $too_large" "$rc $out" "sbatch refuses a script one byte over max_script_size"
# The controller refuses it too, whatever the submitting host's slurm.conf says.
sed 's/max_script_size=100000/max_script_size=10000000/' "$SLURM_CONF" > client.conf
out=$(SLURM_CONF=$T/client.conf sbatch --hold over.sh 2>&1); rc=$?
assert_eq "1 $too_large" "$rc $out" "the controller refuses a script over max_script_size"
out=$(SLURM_CONF=$T/client.conf sbatch --hold huge.sh 2>&1); rc=$?
assert_eq "1 $too_large" "$rc $out" "and a 5 MB one"
assert_contains "batch script of 100001 bytes exceeds max_script_size 100000" "$(cat "$T/c/log/droverctld.log")" "the controller logs why"
max=$(sbatch --parsable --hold max.sh) && ok "a script of exactly max_script_size is accepted" || fail "max.sh was refused"
scancel "$max"
wait_until 10 bash -c "[ -z \"\$(squeue -h -t all)\" ]" || fail "job $max was not purged"

# MaxJobCount=2: the third submission waits, retrying, until a job leaves.
a=$(sbatch --parsable --hold -J a --wrap true)
b=$(sbatch --parsable --hold -J b --wrap true)
start=$SECONDS
sbatch --parsable --hold -J c --wrap true > c.out 2> c.err &
pid=$!
wait_until 10 grep -q "sleeping and retrying" c.err || fail "sbatch did not say it is retrying"
assert_eq "sbatch: error: Slurm temporarily unable to accept job, sleeping and retrying." "$(cat c.err)" "sbatch says what Slurm's says"
sleep 2
kill -0 "$pid" 2>/dev/null && ok "sbatch keeps retrying while MaxJobCount is reached" || fail "sbatch gave up at once"
scancel "$a"   # purged after MinJobAge (1 s): then there is room
wait "$pid"; rc=$?
c=$(cat c.out)
assert_eq 0 "$rc" "the retried submission succeeds once a job has left"
assert_match "^[0-9]+$" "$c" "and prints the new job id"
assert_eq "PENDING JobHeldUser" "$(squeue -h -j "$c" -o '%T %r')" "the job is queued as asked"
assert_eq 1 "$(grep -c retrying c.err)" "the retry is announced once (later ones only with -vv)"
[ $((SECONDS - start)) -lt 30 ] && ok "within $((SECONDS - start)) s" || fail "took $((SECONDS - start)) s"
scancel "$b" "$c"
finish
