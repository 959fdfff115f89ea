#!/usr/bin/env bash
# failover_netns_test.sh - the primary and backup controllers each in their own network namespace,
# joined to the node daemons and commands by a bridge: cutting the primary's link in the middle
# of a submission storm and while a job runs makes the backup take control; every acknowledged
# job survives and the running job finishes; when the link returns, the old primary finds a newer
# generation in control, steps down, copies the backup's state and takes control back. When only
# the link between the controllers is cut, the backup does not take control: the nodes still hear
# from the primary, which loses nothing.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/ha.sh"
source "$(dirname "$0")/netns.sh"
if ! netns_usable; then
  echo "skip: needs root and ip netns"; exit 0
fi

netns_setup drvc 2
trap 'cleanup; netns_teardown' EXIT
tag=$NETNS_TAG net=$NETNS_NET

# Controllers at $net.11 and $net.12 (each in its namespace), nodes on the bridge's address.
export HA_NETNS=drvc%d-$tag
HA_ADDR_PREFIX=$net.1 HA_NODE_ADDR=$net.1 make_ha_cluster 2 2 SlurmdTimeout=10
cd "$T"

assert_match "ctl1 is UP \(in control\)" "$(scontrol ping)" "the primary in its namespace is in control"
running=$(sbatch --parsable -J through --wrap "$(gate through); echo survived")
wait_running "$running" || fail "job $running did not start"

# Four clients submit while the primary's link is cut.
storms=()
for c in 1 2 3 4; do
  ( for i in $(seq 1 12); do sbatch --hold -J storm --wrap true 2>&1; done > "storm-$c.txt" ) &
  storms+=($!)
done
# The files are named, not globbed: a glob taken before the clients have made them matches none.
wait_until 60 acked_at_least 4 storm-1.txt storm-2.txt storm-3.txt storm-4.txt ||
  fail "the storm did not start"
netns_link drvc 1 down
wait "${storms[@]}"
cat storm-*.txt > storm.txt
assert_eq 48 "$(grep -c '^Submitted batch job' storm.txt)" "every submission was acknowledged across the cut"
wait_until 60 in_control 2 && ok "the backup took control" || fail "the backup did not take control: $(scontrol ping)"
missing=$(missing_jobs storm.txt)
assert_eq 0 "$missing" "every acknowledged job is known to the backup"
assert_eq 0 "$(awk '/^Submitted/ {print $4}' storm.txt | sort | uniq -d | wc -l)" "no job id was handed out twice"
assert_eq RUNNING "$(job_state "$running")" "the job running across the cut still runs"
open_gate through
wait_job "$running"
assert_eq COMPLETED "$(job_state "$running")" "the job running across the cut completed"
assert_eq survived "$(cat "slurm-$running.out")" "its output is whole"

# The link returns: the old primary sees a newer generation, steps down, copies the backup's
# state and takes control back; nothing the backup did is lost.
netns_link drvc 1 up
wait_until 60 only_in_control 1 && ok "the primary took control back after the cut" || fail "the primary did not take control back: $(scontrol ping)"
assert_eq COMPLETED "$(job_state "$running")" "the primary knows the job ended on the backup"
missing=$(missing_jobs storm.txt)
assert_eq 0 "$missing" "every acknowledged job is still there under the primary"
assert_match "stepping down" "$(cat "$T/c/log/ctl1.log")" "the old primary stepped down for the newer generation"
after=$(sbatch --parsable --wrap 'echo back')
wait_job "$after"
assert_eq COMPLETED "$(job_state "$after")" "nodes run the primary's jobs again"

# Only the controllers lose each other (a route to nowhere in each namespace); nodes and commands
# still reach both. The backup hears nothing from the primary for longer than SlurmctldTimeout,
# but the nodes still hear from it: the backup stands by, and the primary goes on acknowledging
# submissions, none of which is lost when the link returns.
following() { grep -c "standby: following ctl1" "$T/c/log/ctl2.log"; }
followed=$(following)
found_again() { [ "$(following)" -gt "$followed" ]; }
ip netns exec "drvc1-$tag" ip route add blackhole "$net.12/32"
ip netns exec "drvc2-$tag" ip route add blackhole "$net.11/32"
( for i in $(seq 1 20); do sbatch --hold -J split --wrap true 2>&1; sleep 0.3; done > split.txt )
assert_eq 20 "$(grep -c '^Submitted batch job' split.txt)" "the primary acknowledged every submission while cut off from the backup"
wait_until 60 grep -q "heard from it .* not taking control" "$T/c/log/ctl2.log" &&
  ok "the nodes told the backup the primary is alive" || fail "the backup never asked the nodes"
assert_match "ctl1 is UP \(in control\)" "$(scontrol ping)" "the primary stayed in control"
assert_match "ctl2 is UP$" "$(scontrol ping)" "the backup did not take control"
ip netns exec "drvc1-$tag" ip route del blackhole "$net.12/32"
ip netns exec "drvc2-$tag" ip route del blackhole "$net.11/32"
# The backup finds the primary again and catches up; handed control, it holds every job the
# primary acknowledged alone.
wait_until 60 found_again || fail "the backup did not find the primary again"
scontrol takeover >/dev/null
wait_until 60 only_in_control 2 || fail "scontrol takeover did not move control: $(scontrol ping)"
assert_eq 0 "$(missing_jobs split.txt)" "every job acknowledged while the controllers were apart is on the backup"
finish
