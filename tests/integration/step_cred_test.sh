#!/usr/bin/env bash
# step_cred_test.sh - job step credentials: a node daemon starts a step only for the user the
# controller signed it for, on the nodes it names, once, before it expires, and as signed; the
# step's tasks run as that user. Uses real users made with useradd.
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || ! command -v useradd >/dev/null; then
  echo "step_cred_test: needs root and useradd; skipped"; exit 0
fi
for u in drvtest1 drvtest2; do
  id "$u" >/dev/null 2>&1 || useradd -M -s /bin/bash "$u" || fail "useradd $u"
done
# Credentials live 20 seconds here so that expiry can be seen, and a busy machine still uses
# one well within its life.
expire=20
make_cluster 1
sed -i "s|cred_expire=[0-9]*|cred_expire=$expire|" "$T/c/slurm.conf"
cluster_start "$T/c" 1
as() { local u=$1; shift; runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" "$@"; }
TOOL=$BIN/tests/integration/step_tool
mkdir -p "$T/w" && chmod 777 "$T/w" && cd "$T/w"

# The steps of drvtest1's job run as drvtest1.
job=$(as drvtest1 sbatch --parsable -o /dev/null --wrap 'sleep 300')
wait_running "$job"
assert_eq "drvtest1" "$(as drvtest1 srun --jobid="$job" --overlap id -un)" "srun's tasks run as the job's user"
out=$(as drvtest2 srun --jobid="$job" --overlap true 2>&1); rc=$?
assert_eq 1 "$rc" "another user cannot add a step to the job"
assert_contains "Access/permission denied" "$out" "the controller refuses it"

# A credential made for drvtest1 is good once, for drvtest1 only, unforged and unexpired. cred2
# is made now, to be used once it has expired.
as drvtest1 "$TOOL" create "$job" "$T/w/cred2" >/dev/null
cred2_made=$(date +%s)  # made by then
as drvtest1 "$TOOL" create "$job" "$T/w/cred1" >/dev/null || fail "step_tool create"
chmod 644 "$T/w/cred1"
out=$(as drvtest2 "$TOOL" launch "$T/w/cred1")
assert_match "^refused: job credential is for uid $(id -u drvtest1), not uid $(id -u drvtest2)" "$out" "another user's credential is refused"
out=$(as drvtest1 "$TOOL" launch "$T/w/cred1" forge)
assert_match "^refused: invalid job credential" "$out" "a credential changed after signing is refused"
out=$(as drvtest1 "$TOOL" launch "$T/w/cred1")
assert_eq "launched" "$out" "the owner's credential launches"
out=$(as drvtest1 "$TOOL" launch "$T/w/cred1")
assert_match "^refused: .*replayed" "$out" "the same credential a second time is refused"
expired() { [ "$(date +%s)" -gt $((cred2_made + expire + 1)) ]; }
wait_until $((expire + 10)) expired
out=$(as drvtest1 "$TOOL" launch "$T/w/cred2")
assert_match "^refused: .*expired" "$out" "an expired credential is refused"
assert_eq "drvtest1" "$(as drvtest1 srun --jobid="$job" --overlap id -un)" "and the node still serves good ones"

# A step's credential writes no files, and sbcast's launches nothing.
as drvtest1 "$TOOL" create "$job" "$T/w/cred3" >/dev/null
out=$(as drvtest1 "$TOOL" bcast-with "$T/w/cred3" "$T/w/planted")
assert_match "^refused: job credential is for a step launch, not a file broadcast" "$out" "a launch credential is refused for a file broadcast"
[ ! -e "$T/w/planted" ] && ok "and nothing was written" || fail "a launch credential wrote a file"
out=$(as drvtest1 "$TOOL" launch-bcast "$job")
assert_match "^refused: job credential is for a file broadcast, not a step launch" "$out" "a broadcast credential is refused for a launch"
scancel "$job"
finish
