#!/usr/bin/env bash
# sreport_test.sh - sreport against a real controller and accounting/lmdb: two jobs of known CPU
# counts and a drained node within one hour, then that hour's reports as Slurm prints them
# (cluster Utilization, AccountUtilizationByUser, UserUtilizationByAccount, job SizesByAccount),
# with the numbers the job records and the node event give, to the second (-t Seconds): Allocated
# is CPUs x run time, Down the drained node's CPUs x the event's length, Planned the requested
# CPUs x the wait, Reported all CPUs x the hour, Idle the rest.
source "$(dirname "$0")/lib.sh"
start_cluster 3
cd "$T"

epoch() { date -d "$1" +%s 2>/dev/null || echo "bad time: $1"; }
stamp() { date -d "@$1" +%Y-%m-%dT%H:%M:%S; }
rep() { sreport "$@" 2>&1; }

# ---- errors, help, version (no records needed) ----
out=$(sreport cluster bogus 2>&1); rc=$?
assert_eq "1|Not valid report bogus" "$rc|$(head -1 <<<"$out")" "an unknown report: Slurm's message, status 1"
assert_eq 'Valid cluster reports are, "AccountUtilizationByUser", "UserUtilizationByAccount", "UserUtilizationByWckey", "Utilization", and "WCKeyUtilizationByUser"' \
  "$(sed -n 2p <<<"$out")" "and the reports it knows"
assert_eq "slurm 23.11.0" "$(sreport -V)" "sreport -V: Slurm's form"
assert_match "sreport \[<OPTION>\] \[<COMMAND>\]" "$(sreport --help)" "sreport --help"

# ---- the records: an account, two jobs and a drained node, all within this hour ----
left=$(( 3600 - 10#$(date +%M) * 60 - 10#$(date +%S) ))
[ "$left" -lt 120 ] && sleep $((left + 1))  # the work below must not straddle the hour
H=$(date +%Y-%m-%dT%H:00:00)
hs=$(epoch "$H")
HE=$(stamp $((hs + 3600)))
me=$(id -un)
sacctmgr -i add cluster local >/dev/null
sacctmgr -i add account physics >/dev/null || fail "add account"
sacctmgr -i add user "$me" account=physics >/dev/null || fail "add user"
a=$(sbatch --parsable -A physics -N1 -o /dev/null --wrap "sleep 2")
b=$(sbatch --parsable -A physics -N2 -o /dev/null --wrap "sleep 3")
wait_job "$a"; wait_job "$b"
scontrol update NodeName=n3 State=DRAIN Reason=sreport
sleep 2  # the drain lasts a couple of seconds
scontrol update NodeName=n3 State=RESUME

# What the records say: CPU seconds allocated and waited, and the drain's length (1 CPU a node).
alloc=0 planned=0 a_secs=0 b_secs=0
while IFS='|' read -r id cpus req elapsed eligible start; do
  alloc=$((alloc + cpus * elapsed))
  [ "$id" = "$a" ] && a_secs=$((cpus * elapsed))
  [ "$id" = "$b" ] && b_secs=$((cpus * elapsed))
  [ "$eligible" != Unknown ] && planned=$((planned + req * ($(epoch "$start") - $(epoch "$eligible"))))
done < <(sacct -X -n -P -j "$a,$b" -o JobID,AllocCPUS,ReqCPUS,ElapsedRaw,Eligible,Start)
assert_match "^[1-9][0-9]*$" "$alloc" "the jobs ran (sacct)"
down=0
while IFS='|' read -r s e; do
  down=$((down + $(epoch "$e") - $(epoch "$s")))
done < <(sacctmgr -n -P show event start="$H" format=Start,End)
assert_match "^[1-9][0-9]*$" "$down" "the drain is an event (sacctmgr show event)"
reported=$((3 * 3600))
idle=$((reported - alloc - down - planned))

# ---- cluster Utilization ----
out=$(rep cluster utilization start="$H" end="$HE" -t Seconds)
assert_eq "--------------------------------------------------------------------------------
Cluster Utilization $H - $(stamp $((hs + 3599)))
Usage reported in CPU Seconds
--------------------------------------------------------------------------------
  Cluster Allocate     Down PLND Dow     Idle  Planned Reported 
--------- -------- -------- -------- -------- -------- -------- " "$(head -6 <<<"$out")" \
  "Slurm's banner, headers and widths"
assert_eq "$(printf '%9s %8s %8s %8s %8s %8s %8s ' local "$alloc" "$down" 0 "$idle" "$planned" "$reported")" \
  "$(sed -n 7p <<<"$out")" "the hour's line"
assert_eq "local|$alloc|$down|0|$idle|$planned|$reported" \
  "$(rep -n -P cluster utilization start="$H" end="$HE" -t sec)" \
  "Allocated, Down (a drained node counts, as in Slurm), Planned, Idle and Reported to the second"
assert_eq "local|100.00%|" \
  "$(rep -n -p cluster utilization start="$H" end="$HE" -t percent format=Cluster,Reported)" \
  "-t Percent, -p, format="
assert_eq "Cluster|Allocated|Down|PLND Down|Idle|Planned|Reported" \
  "$(rep -P cluster utilization start="$H" end="$HE" | sed -n 5p)" "-P: the header after the banner"
yesterday=$(date -d yesterday +%Y-%m-%d)
assert_eq "Cluster Utilization ${yesterday}T00:00:00 - ${yesterday}T23:59:59" \
  "$(rep cluster utilization | sed -n 2p)" "the default window: yesterday"
out=$(sreport -n -P cluster utilization start="$H" end="$HE" colour=red 2>&1); rc=$?
assert_eq "1" "$rc" "an unknown condition: status 1"
assert_contains " Unknown condition: colour=red" "$out" "with Slurm's line"

# ---- cluster AccountUtilizationByUser / UserUtilizationByAccount ----
gecos=$(getent passwd "$me" | cut -d: -f5)
proper=$(awk -F, '{ for (i = 1; i <= NF; i++) if ($i != "") { print $i; exit } }' <<<"$gecos")
[ -n "$proper" ] || proper=$gecos
assert_eq "local|root|||$alloc|0
local|physics|||$alloc|0
local|physics|$me|$proper|$alloc|0" \
  "$(rep -n -P cluster AccountUtilizationByUser start="$H" end="$HE" -t Seconds)" \
  "AccountUtilizationByUser: root, the account, its user, each with all under it"
assert_match "^Cluster/Account/User Utilization $H - .* \(3600 secs\)$" \
  "$(rep cluster AccountUtilizationByUser start="$H" end="$HE" | sed -n 2p)" "its title"
assert_eq "root|
 physics|
  physics|$me" \
  "$(rep -n -P cluster AccountUtilizationByUser tree start="$H" end="$HE" format=Account,Login)" \
  "tree: indented by depth"
assert_eq "$me|physics|$alloc" \
  "$(rep -n -P cluster UserUtilizationByAccount start="$H" end="$HE" -t s format=Login,Account,Used)" \
  "UserUtilizationByAccount"
assert_eq "" "$(rep -n -P cluster ua start="$H" end="$HE" users=nobody-else)" "users= filters"

# ---- job SizesByAccount ----
assert_eq "local|root|$alloc|0|0|0|0|100.00%" \
  "$(rep -n -P job SizesByAccount start="$H" end="$HE" -t Seconds)" "SizesByAccount: one root line"
assert_eq "local|physics|$alloc|0|0|0|0|100.00%" \
  "$(rep -n -P job SizesByAccount AcctAsParent start="$H" end="$HE" -t Seconds)" \
  "AcctAsParent: the accounts under root"
out=$(rep -P job SizesByAccount grouping=2 start="$H" end="$HE" -t Seconds)
assert_eq "Cluster|Account|0-1 CPUs|>= 2 CPUs|% of cluster" "$(sed -n 5p <<<"$out")" "Grouping= columns"
assert_eq "local|root|$a_secs|$b_secs|100.00%" "$(sed -n 6p <<<"$out")" "each job in its bin"
assert_eq "local|root|1|1|100.00%" \
  "$(rep -n -P job SizesByAccount grouping=2 PrintJobCount start="$H" end="$HE")" "PrintJobCount"
assert_eq "Units are in number of jobs ran" \
  "$(rep job sizes PrintJobCount start="$H" end="$HE" | sed -n 3p)" "with its banner"
finish
