#!/usr/bin/env bash
# federation_netns_test.sh - three federated clusters whose controllers each run in a network
# namespace of their own, joined to the node daemons, the PostgreSQL store and each other by a
# bridge. Jobs are submitted to the members that can be reached while each controller's link in
# turn is cut and healed: every job runs exactly once, no two jobs share an id, and sacct
# --federation shows each job once. Skipped (passing) without root and ip netns, or without the
# PostgreSQL server or plugin.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/pg/server.sh"
source "$ROOT/tests/integration/federation.sh"
source "$ROOT/tests/integration/netns.sh"
if ! netns_usable; then
  echo "skip: needs root and ip netns"; exit 0
fi

netns_setup drvf 3
net=$NETNS_NET
# c1's controller stops before its namespace goes; the status the test exits with is kept for
# pg_cleanup, which runs last.
stop_c1() {
  local rc=$?
  cluster_stop "$T/c" 2>/dev/null
  return $rc
}

# The store listens on the bridge too: the controllers reach it from their namespaces.
PG_HOST=$net.1 PG_CLIENTS=$net.0/24 pg_test_setup
trap 'stop_members; stop_c1; netns_teardown; pg_cleanup' EXIT
# Controller of cN at $net.1N in namespace N, its node daemon on the bridge's address.
start_member() {
  local n=${1#c} dir; dir=$(member_dir "$1")
  ip netns exec "$(netns_name drvf "$n")" "$BIN/core/ctld/droverctld" -D -f "$dir/slurm.conf" --controller "ctl-$1" \
    -L "$dir/log/droverctld.log" &
  echo $! > "$dir/ctld.pid"
  wait_auth_socket "$dir" $!
  start_node "$dir" 1
  wait_for_nodes "$dir" 1 || fail "$1's node did not come up"
}
for n in 1 2 3; do make_member "c$n" "$net.1$n" "$net.1"; done
for n in 1 2 3; do start_member "c$n"; done
export SLURM_CONF=$T/c/slurm.conf PATH=$BIN/core/cli:$PATH
cd "$T"

sacctmgr -i add cluster c1 c2 c3 >/dev/null || fail "sacctmgr add cluster"
sacctmgr -i add federation fed1 clusters=c1,c2,c3 >/dev/null || fail "sacctmgr add federation"
for c in c1 c2 c3; do wait_until 60 knows_members "$c" 3 || fail "$c did not learn the federation: $(fed_view "$c")"; done
assert_eq "c1|$net.11 c2|$net.12 c3|$net.13" "$(sacctmgr -n -P show cluster format=cluster,controlhost | xargs)" \
  "each controller registered its namespace's address"

# Each round cuts one controller's link and submits to the other two; then heals it.
mkdir -p storm
: > storm.ids
# One job of the round has run (its output is written) while the link is still down.
one_ran() { local id; for id in $(cat round.ids); do [ -s "storm/$id.out" ] && return 0; done; return 1; }
for cut in 1 2 3; do
  netns_link drvf "$cut" down
  : > round.ids
  for n in 1 2 3; do
    [ "$n" = "$cut" ] && continue
    for i in 1 2 3 4 5; do
      on "c$n" sbatch --parsable -o "$T/storm/%j.out" --wrap 'echo "$SLURM_CLUSTER_NAME"; sleep 1' >> round.ids ||
        fail "a submission to c$n while c$cut is cut off"
    done
  done
  wait_until 60 one_ran || fail "no job of the round ran while c$cut was cut off"
  cat round.ids >> storm.ids
  netns_link drvf "$cut" up
done
assert_eq 30 "$(grep -c . storm.ids)" "30 submissions were acknowledged"
assert_eq 30 "$(sort -u storm.ids | grep -c .)" "no two jobs share an id"
storm_done() {
  [ "$(completed_once storm.ids)" = 30 ] &&
    [ "$(sacct --federation -n -X -P -o JobID 2>/dev/null | grep -cxFf storm.ids)" = 30 ]
}
wait_until 240 storm_done ||
  fail "the jobs did not all complete once: $(sacct --federation -D -n -X -P -o JobID,Cluster,State 2>&1 | grep -Ff storm.ids | awk -F'|' '{print $2, $3}' | sort | uniq -c | xargs)"
assert_eq 30 "$(each_ran_once storm.ids storm)" "every job ran exactly once (one line in its output)"
assert_eq 30 "$(sacct --federation -n -X -P -o JobID 2>/dev/null | grep -cxFf storm.ids)" "sacct --federation shows each job once"
ran_on=$(cat storm/*.out 2>/dev/null | sort -u | xargs)
assert_eq "c1 c2 c3" "$ran_on" "the jobs ran on every member"

finish
