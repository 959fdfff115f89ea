#!/usr/bin/env bash
# security_test.sh - the attacks of an account that holds no credential, and of an ordinary user,
# against a 3-node cluster; each must leave the cluster serving, its nodes up and its jobs running:
#   - 20,000 idle connections to the controller's port, 5,000 to a node daemon's port the job runs
#     on, and a flood on the credential socket, from `nobody` (descriptor exhaustion before
#     authentication; the node daemons must not take the busy socket over);
#   - connections announcing 64 MiB bodies with no credential (memory before authentication);
#   - a burst of garbage frames (logged at a bounded rate);
#   - a user's message carrying a newer controller generation (deposing the controller);
#   - a frame sealed for one node sent to another, and a controller's frame replayed after the
#     controller restarts (credentials bound to their receiver and to the daemon's run).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
# SlurmdTimeout short enough that a controller unable to ping would mark the nodes DOWN during
# the flood; MessageTimeout short enough that idle connections churn within it.
start_cluster 3 SlurmdTimeout=10 MessageTimeout=5
cd "$T"
TOOL=$BIN/tests/integration/frame_tool
SOCK=$T/c/auth.socket
ctld_port=$(awk -F= '/^SlurmctldPort/ {print $2}' "$SLURM_CONF")
node_port() { awk -v n="$1" '$1 == "NodeName="n {for (i=1;i<=NF;i++) if ($i ~ /^Port=/) {sub("Port=","",$i); print $i}}' "$SLURM_CONF"; }
ctld_pid=$(cat "$T/c/ctld.pid")
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
as_nobody() { runuser -u nobody -- "$@"; }
chmod 755 "$T/c"  # nobody reaches the credential socket, as any local user would

job=$(sbatch --parsable -w n1 --wrap "$(gate running)")
wait_running "$job" || fail "the job did not start"

# --- descriptor exhaustion before authentication ---
as_nobody "$TOOL" 127.0.0.1 "$ctld_port" "$SOCK" localhost flood 20000 25 > flood.out &
flood_pid=$!
as_nobody "$TOOL" 127.0.0.1 0 "$SOCK" - sockflood 2000 25 > sockflood.out &
sock_pid=$!
as_nobody "$TOOL" 127.0.0.1 "$(node_port n1)" "$SOCK" n1 flood 5000 25 > nodeflood.out &
node_pid=$!
wait_until 60 grep -q opened flood.out || fail "the flood did not start"
echo "# $(cat flood.out) to the controller port, $(cat sockflood.out 2>/dev/null) to the socket," \
  "$(cat nodeflood.out 2>/dev/null) to n1's port"
# While both floods hold their connections: the controller answers, accepts work and keeps
# pinging its nodes, longer than SlurmdTimeout.
flood_ok=1 down=""
for _ in 1 2 3 4; do
  scontrol ping 2>&1 | grep -q "is UP" || flood_ok=0
  down+=$(sinfo -h -N -o '%N %t' | awk '$2 ~ /down|unk|\*/ {print $1}')
  sleep 4
done
assert_eq 1 "$flood_ok" "scontrol ping answers during the flood"
assert_eq "" "$down" "no node goes DOWN or not-responding during the flood"
during=$(sbatch --parsable --wrap true 2>&1)
assert_match '^[0-9]+$' "$during" "sbatch is accepted during the flood"
assert_eq RUNNING "$(job_state "$job")" "the running job keeps running"
wait "$flood_pid" "$sock_pid" "$node_pid"
assert_eq "" "$(grep -l 'serving the credential socket' "$T"/c/log/droverd-*.log)" \
  "no node daemon took the credential socket from the busy controller"
assert_match "too many connections waiting|holding new connections" "$(cat "$T"/c/log/droverctld.log)" \
  "the controller says it is shedding connections"
assert_eq 0 "$(scontrol show job "$job" | grep -o 'Restarts=[0-9]*' | cut -d= -f2)" \
  "the running job was never requeued"

# --- memory before authentication ---
before=$(rss_kb "$ctld_pid")
as_nobody "$TOOL" 127.0.0.1 "$ctld_port" "$SOCK" localhost claim 16 3 > claim.out
as_nobody "$TOOL" 127.0.0.1 0 "$SOCK" - sockflood 16 3 > sockclaim.out
after=$(rss_kb "$ctld_pid")
echo "# controller RSS $before kB before, $after kB after 16+16 connections announcing 64 MiB"
assert_eq 1 "$(( after - before < 65536 ))" "64 MiB announcements allocate nothing before authentication"

# --- garbage frames: refused, logged at a bounded rate ---
lines_before=$(grep -c "refused frame" "$T/c/log/droverctld.log")
as_nobody "$TOOL" 127.0.0.1 "$ctld_port" "$SOCK" localhost garbage 1000 > garbage.out
lines=$(( $(grep -c "refused frame" "$T/c/log/droverctld.log") - lines_before ))
echo "# $(cat garbage.out) frames sent, $lines log lines"
assert_eq 1 "$(( lines < 20 ))" "a thousand bad frames make a few log lines, not a thousand"
sleep 11  # the log's interval: the next refusal's line counts the ones not logged
as_nobody "$TOOL" 127.0.0.1 "$ctld_port" "$SOCK" localhost garbage 1 > /dev/null
held=$(grep -o "refused frame.*(\([0-9]*\) more like it not logged)" "$T/c/log/droverctld.log" | tail -1 | grep -o "([0-9]*" | tr -d '(')
assert_eq 1 "$(( ${held:-0} >= 900 ))" "and the next line says how many were not logged (${held:-none})"

# --- deposing the controller with a user's generation ---
if [ "$MULTI" = 1 ]; then
  out=$(as drvtest1 "$TOOL" 127.0.0.1 "$ctld_port" "$SOCK" localhost ping 1000000)
  assert_eq "ping ControllerPingResponse" "$out" "a user's message with a newer generation is answered"
  assert_match "is UP" "$(scontrol ping)" "the controller is still up"
  assert_eq "" "$(grep 'stepping down' "$T/c/log/droverctld.log")" "and it did not step down"
  assert_match '^[0-9]+$' "$(timeout 20 sbatch --parsable --wrap true 2>&1)" "sbatch is answered at once"
fi

# --- credentials bound to their receiver and to the daemon's run ---
"$TOOL" 127.0.0.1 0 "$SOCK" - seal n2 for_n2.frame
out=$("$TOOL" 127.0.0.1 "$(node_port n1)" "$SOCK" n1 send for_n2.frame)
assert_eq "send error: Authentication failure: ControllerPingRequest for 'n2' reached 'n1'" "$out" \
  "a frame sealed for n2 is refused by n1"
"$TOOL" 127.0.0.1 0 "$SOCK" - seal localhost for_ctld.frame
kill_ctld KILL
restart_ctld
wait_until 60 bash -c 'scontrol ping | grep -q "is UP"' || fail "the controller did not come back"
out=$("$TOOL" 127.0.0.1 "$ctld_port" "$SOCK" localhost send for_ctld.frame)
assert_match "^send error: Authentication failure: ControllerPingRequest: credential made [0-9]+ ms before this daemon started" \
  "$out" "a frame sealed before the controller restarted is refused after it"
open_gate running
wait_job "$job" 60
assert_eq COMPLETED "$(sacct -n -X -j "$job" -o State | tr -d ' ')" "the job ran to its end"
finish
