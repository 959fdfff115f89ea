#!/usr/bin/env bash
# reboot_test.sh - scontrol reboot and cancel_reboot as scontrol(1) describes them, on a cluster
# whose RebootProgram "reboots" a node by stopping its node daemon and starting it again: a node
# running a job is marked REBOOT_REQUESTED (ASAP also drains it) and reboots once idle; its
# registration ends the reboot in the state nextstate names (reasons and the drain ASAP set are
# undone); cancel_reboot takes back a reboot not yet sent; a node that does not come back within
# ResumeTimeout goes DOWN; the marks outlive a controller restart; only administrators reboot.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
make_cluster 2 "RebootProgram=$T/reboot.sh" "ResumeTimeout=20"
cat > "$T/reboot.sh" <<SCRIPT
#!/bin/bash
# As a machine's reboot does: the node daemon stops and, unless told not to, starts again.
node=\$SLURMD_NODENAME; pidfile=$T/c/\$node.pid
echo "\$node" >> $T/reboots
kill "\$(cat "\$pidfile")"
while kill -0 "\$(cat "\$pidfile")" 2>/dev/null; do sleep 0.1; done
[ -e "$T/no-boot.\$node" ] && exit 0
$BIN/core/noded/droverd -D -f $T/c/slurm.conf -N "\$node" -L $T/c/log/droverd-\$node.log </dev/null >/dev/null 2>&1 &
echo \$! > "\$pidfile"
SCRIPT
chmod 755 "$T/reboot.sh"
cluster_start "$T/c" 2
chmod 777 "$T" && cd "$T"

st() { sinfo -h -n "$1" -o %t; }
shows() { [ "$(st "$1")" = "$2" ]; }
field() { scontrol show node "$1" | grep -oE "(^| )$2=[^ ]*" | head -1 | cut -d= -f2-; }
reason() { scontrol show node "$1" | sed -n 's/^ *Reason=\(.*\) \[.*\]$/\1/p'; }
reboots() { grep -c "^$1$" "$T/reboots" 2>/dev/null || echo 0; }

assert_match "RebootProgram += $T/reboot.sh" "$(scontrol show config)" "show config: RebootProgram"
assert_match "ResumeTimeout += 20 sec" "$(scontrol show config)" "show config: ResumeTimeout"

# ---- ASAP nextstate=DOWN on a busy node: drained and marked until its job ends ----
job=$(sbatch --parsable -w n1 -o /dev/null --wrap "$(gate a)")
wait_running "$job" || fail "job $job did not start"
scontrol reboot ASAP nextstate=DOWN reason=firmware n1 || fail "scontrol reboot ASAP n1"
assert_eq "ALLOCATED+DRAIN+REBOOT_REQUESTED" "$(field n1 State)" "the busy node is drained and marked"
assert_eq "drng@" "$(st n1)" "sinfo shows it draining, reboot pending"
assert_eq "firmware" "$(reason n1)" "with the reason given"
assert_match "NextState=DOWN" "$(scontrol show node n1)" "and the state it will take"
kill_ctld
restart_ctld
assert_eq "ALLOCATED+DRAIN+REBOOT_REQUESTED" "$(field n1 State)" "the mark outlives a controller restart"
other=$(sbatch --parsable -w n1 -o /dev/null --wrap true)
other_waits() { [ "$(squeue -h -j "$other" -o %t)" = PD ]; }
wait_until 30 other_waits || fail "job $other: $(squeue -h -j "$other" -o '%t %r')"
assert_eq 0 "$(reboots n1)" "no reboot while the job runs"
open_gate a
wait_job "$job" || fail "job $job did not end"
wait_until 60 shows n1 down || fail "n1 did not come back DOWN: $(st n1) $(reason n1)"
assert_eq 1 "$(reboots n1)" "once idle, the node rebooted once"
assert_eq "firmware : reboot issued : reboot complete" "$(reason n1)" "its reason says so"
assert_eq "DOWN" "$(field n1 State)" "nextstate=DOWN: down, the drain ASAP set undone"
scontrol update NodeName=n1 State=RESUME
wait_job "$other" || fail "job $other did not run once n1 was resumed"

# ---- nextstate=RESUME on an idle node: rebooted at once, back in service ----
scontrol reboot nextstate=RESUME n2 || fail "scontrol reboot nextstate=RESUME n2"
back() { [ "$(reboots n2)" = 1 ] && shows n2 idle; }
wait_until 60 back || fail "n2 did not reboot and come back: $(reboots n2) $(st n2)"
assert_eq "" "$(reason n2)" "its reason is cleared"
assert_eq "IDLE" "$(field n2 State)" "it is IDLE again"

# ---- cancel_reboot before the reboot is sent ----
job=$(sbatch --parsable -w n2 -o /dev/null --wrap "$(gate b)")
wait_running "$job" || fail "job $job did not start"
scontrol reboot n2 || fail "scontrol reboot n2"
assert_eq "ALLOCATED+REBOOT_REQUESTED reboot requested" "$(field n2 State) $(reason n2)" \
  "without ASAP: marked, not drained, Slurm's default reason"
assert_eq "alloc@" "$(st n2)" "sinfo: alloc@"
scontrol cancel_reboot n2 || fail "scontrol cancel_reboot n2"
assert_eq "ALLOCATED " "$(field n2 State) $(reason n2)" "cancel_reboot takes the mark and the reason back"
open_gate b
wait_job "$job" || fail "job $job did not end"

# ---- a node that does not come back: REBOOT_ISSUED, then DOWN after ResumeTimeout ----
touch "$T/no-boot.n2"
scontrol reboot n2 || fail "scontrol reboot n2 (no boot)"
wait_until 30 shows n2 'boot^' || fail "n2 is not shown rebooting: $(st n2)"
assert_match "REBOOT_ISSUED" "$(field n2 State)" "the reboot is sent"
assert_eq 2 "$(reboots n2)" "one reboot more than before: the one cancelled was never sent"
out=$(scontrol cancel_reboot n2 2>&1); rc=$?
assert_eq "1 slurm_update error: Reboot already in progress" "$rc $out" "a reboot sent cannot be taken back"
down() { [[ "$(st n2)" == down* ]]; }
wait_until 60 down || fail "n2 did not go DOWN: $(st n2)"
assert_match "reboot timed out$" "$(reason n2)" "DOWN after ResumeTimeout: reboot timed out"
rm -f "$T/no-boot.n2"
start_node "$T/c" 2
scontrol update NodeName=n2 State=RESUME
wait_until 60 shows n2 idle || fail "n2 did not come back: $(st n2)"

# ---- refusals ----
out=$(as drvtest1 scontrol reboot n1 2>&1); rc=$?
assert_eq "1 scontrol_reboot_nodes error: Access/permission denied" "$rc $out" "only administrators reboot nodes"
out=$(scontrol reboot nextstate=UP n1 2>&1); rc=$?
assert_eq "1|Invalid state: UP|Valid states: DOWN, RESUME" "$rc|$(tr '\n' '|' <<< "$out" | sed 's/|$//')" "an unknown next state"
out=$(scontrol reboot ASAP 2>&1); rc=$?
assert_eq "1 Missing node list. Specify ALL|<NodeList>" "$rc $out" "no node list"
out=$(scontrol reboot n1 n2 2>&1); rc=$?
assert_eq "1 too many arguments for keyword:reboot" "$rc $out" "two node lists"
out=$(scontrol reboot n9 2>&1); rc=$?
assert_eq "1 scontrol_reboot_nodes error: Invalid node name specified" "$rc $out" "a node that does not exist"
grep -v '^RebootProgram=' "$T/c/slurm.conf" > "$T/norb.conf"
out=$(SLURM_CONF=$T/norb.conf scontrol reboot n1 2>&1); rc=$?
assert_eq "1|scontrol: error: RebootProgram isn't defined|scontrol_reboot_nodes error: Unspecified error" \
  "$rc|$(tr '\n' '|' <<< "$out" | sed 's/|$//')" "without RebootProgram scontrol refuses, as Slurm's does"
assert_eq "IDLE IDLE" "$(field n1 State) $(field n2 State)" "nothing refused marked a node"
finish
