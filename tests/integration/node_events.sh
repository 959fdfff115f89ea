#!/usr/bin/env bash
# node_events.sh - what both accounting stores must show of node events (sacctmgr show event),
# sourced by node_events_test.sh (accounting/lmdb) and postgres_events_test.sh
# (accounting/postgres) after lib.sh, with a cluster of three nodes started with SlurmdTimeout=3:
# a drained node is an event with its reason, user and times, RESUME ends it; a killed node
# daemon goes DOWN "Not responding" and is an event until it registers again; an event open when
# the controller restarts is ended, not doubled, after it; Slurm's conditions and layouts.
#
#   node_events_scenario [STORE_DOWN STORE_UP]   with the two commands (functions) that stop and
#                                                 start the store: also checks that an event made
#                                                 while the store is down arrives afterwards

ev() { sacctmgr -n -P show event "$@" 2>&1; }
epoch() { date -d "$1" +%s 2>/dev/null || echo "bad time: $1"; }
node_is() { [ "$(node_state "$1")" = "$2" ]; }

node_events_scenario() {
  local store_down=${1:-} store_up=${2:-}
  local t0 out start end
  t0=$(date +%s)
  assert_eq "" "$(ev)" "no events on a healthy cluster"

  # ---- drain, then resume ----
  scontrol update NodeName=n2 State=DRAIN Reason="disk swap"
  assert_eq "local|n2|DRAIN|disk swap|root(0)|Unknown" \
    "$(ev nodes=n2 format=Cluster,NodeName,State,Reason,User,End)" \
    "a drained node is an event with its reason and who gave it, not ended"
  start=$(epoch "$(ev nodes=n2 format=Start)")
  if [ "$start" -ge "$t0" ] 2>/dev/null && [ "$start" -le "$(date +%s)" ]; then
    ok "it began when the node was drained"
  else
    fail "TimeStart $start is not between $t0 and now"
  fi
  assert_eq "Cluster|NodeName|TimeStart|TimeEnd|State|Reason|User|" \
    "$(sacctmgr -p show event | head -1)" "Slurm's default columns"
  assert_match "^   Cluster NodeName +TimeStart +TimeEnd +State +Reason +User $" \
    "$(sacctmgr show event | head -1)" "in Slurm's fixed layout"
  assert_eq "---------- --------------- ------------------- ------------------- ------ ------------------------------ ---------- " \
    "$(sacctmgr show event | sed -n 2p)" "with Slurm's widths"
  sleep 1
  scontrol update NodeName=n2 State=RESUME
  assert_eq "n2|DRAIN|disk swap" "$(ev nodes=n2 format=NodeName,State,Reason)" \
    "RESUME ends the event, which keeps what it began as"
  end=$(epoch "$(ev nodes=n2 format=End)")
  if [ "$end" -gt "$start" ] 2>/dev/null && [ "$end" -le "$(date +%s)" ]; then ok "it ended when the node resumed"; else fail "TimeEnd $end after TimeStart $start?"; fi
  assert_match "^00:00:0[1-9]$" "$(ev nodes=n2 format=Duration)" "its duration"
  sleep 1.1  # an event that ended this second is still "going on now", as in Slurm
  assert_eq "" "$(ev states=drain)" "states=: only the events going on now"
  assert_eq "n2" "$(ev all_time states=drain format=NodeName)" "all_time with states=: whenever"

  # ---- a node daemon that dies: DOWN, Not responding ----
  kill "$(cat "$T/c/n1.pid")"
  wait_until 60 node_is n1 "down*" || fail "n1 never went down"
  assert_eq "n1|DOWN*|Not responding|root(0)|Unknown" "$(ev nodes=n1 format=NodeName,State,Reason,User,End)" \
    "a killed node goes DOWN \"Not responding\" and is an event"
  assert_eq "n1" "$(ev states=down format=NodeName)" "states=down: the nodes down now"
  start_node "$T/c" 1
  wait_until 60 node_is n1 idle || fail "n1 did not come back"
  assert_match "^n1\|DOWN\*\|[0-9]{4}-" "$(ev nodes=n1 format=NodeName,State,End)" \
    "the event ends when the node registers again"
  assert_eq "n2 n1" "$(ev format=NodeName | xargs)" "events in the order they began"

  # ---- the controller restarts while an event is open ----
  scontrol update NodeName=n3 State=DRAIN Reason="across restart"
  kill_ctld TERM
  restart_ctld
  wait_until 60 squeue -h || fail "controller did not come back"
  assert_eq "n3|Unknown" "$(ev nodes=n3 format=NodeName,End)" "still open after a restart, and not recorded twice"
  sleep 1
  scontrol update NodeName=n3 State=RESUME
  assert_match "^n3\|across restart\|[0-9]{4}-" "$(ev nodes=n3 format=NodeName,Reason,End)" \
    "a resume after the restart ends the event that began before it"

  # ---- the window, the other conditions, and mistakes ----
  assert_eq "" "$(ev end=2000-01-01)" "end=: events that began by then"
  assert_eq "" "$(ev start=now+1hour)" "start=: events still going on then"
  assert_eq "n2 n1 n3" "$(ev start=$(date -d @"$t0" +%Y-%m-%dT%H:%M:%S) format=NodeName | xargs)" \
    "start=: events since then"
  assert_eq "n1" "$(ev reason=respond format=NodeName)" "reason=: within the reason"
  assert_eq "n2 n1 n3" "$(ev user=root format=NodeName | xargs)" "user=: who gave the reason"
  assert_eq "" "$(ev event=cluster)" "event=cluster: Drover records node events only"
  assert_eq "n2 n1" "$(ev nodes=n[1-2] format=NodeName | xargs)" "nodes= takes a hostlist"
  assert_eq "local|n2" "$(ev nodes=n2 format=clus,nodename)" "format= takes Slurm's abbreviations"
  out=$(sacctmgr show event colour=red 2>&1); local rc=$?
  assert_eq "1|sacctmgr: error:  Unknown condition: colour=red" "$rc|$out" "an unknown condition is refused"
  out=$(sacctmgr show event states=bogus 2>&1)
  assert_contains "Invalid state: bogus" "$out" "an unknown state is refused"

  # ---- the store goes away: the event waits in the controller's spool ----
  if [ -n "$store_down" ]; then
    "$store_down"
    scontrol update NodeName=n3 State=DRAIN Reason="while the store was down"
    assert_match "unreachable" "$(ev nodes=n3)" "sacctmgr says why while the store is down"
    "$store_up"
    outage() { [ "$(ev nodes=n3 states=drain format=Reason)" = "while the store was down" ]; }
    wait_until 60 outage || fail "the event made during the outage never arrived"
    assert_eq "while the store was down|Unknown" "$(ev nodes=n3 states=drain format=Reason,End)" \
      "an event made while the store was down is recorded once it is back"
  fi
}
