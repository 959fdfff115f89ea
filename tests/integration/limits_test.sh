#!/usr/bin/env bash
# limits_test.sh - partition limits and access as users meet them: MaxTime and MaxNodes hold jobs
# with Slurm's reasons, DefaultTime fills in a limit, AllowGroups and AllowAccounts refuse, DOWN
# partitions queue without starting, DRAIN and INACTIVE partitions refuse new jobs.
source "$(dirname "$0")/lib.sh"
if ! getent group drvlimits >/dev/null; then groupadd drvlimits || fail "groupadd"; fi
id drvlimit1 >/dev/null 2>&1 || useradd -M -s /bin/bash drvlimit1
gpasswd -d drvlimit1 drvlimits >/dev/null 2>&1 || true   # a member from an earlier run
make_cluster 2
sed -i '/^PartitionName=/d' "$SLURM_CONF"
cat >> "$SLURM_CONF" <<'CONF'
PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=10 DefaultTime=5 MaxNodes=1 State=UP
PartitionName=grp Nodes=n[1-2] AllowGroups=drvlimits State=UP
PartitionName=acct Nodes=n[1-2] AllowAccounts=physics State=UP
PartitionName=down Nodes=n[1-2] State=DOWN
PartitionName=drained Nodes=n[1-2] State=DRAIN
PartitionName=off Nodes=n[1-2] State=INACTIVE
CONF
cluster_start "$T/c" 2
cd "$T"

long=$(sbatch --parsable -t 20 --wrap true)
assert_eq "PD PartitionTimeLimit" "$(squeue -h -j "$long" -o '%t %r')" "a limit over MaxTime waits with PartitionTimeLimit"
wide=$(sbatch --parsable -N 2 --wrap true)
assert_eq "PD PartitionNodeLimit" "$(squeue -h -j "$wide" -o '%t %r')" "more nodes than MaxNodes waits with PartitionNodeLimit"
dflt=$(sbatch --parsable --hold --wrap true)
assert_eq "5:00" "$(squeue -h -j "$dflt" -o %l)" "DefaultTime fills in a job's limit"
scontrol update JobId="$long" TimeLimit=8
wait_job "$long"
assert_eq COMPLETED "$(job_state "$long")" "lowering the limit under MaxTime lets it run"

err=$(runuser -u drvlimit1 -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" sbatch -p grp --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: User's group not permitted to use this partition" "$err" "AllowGroups refuses others"
usermod -a -G drvlimits drvlimit1
ok_id=$(runuser -u drvlimit1 -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" sbatch --parsable -p grp --hold --wrap true 2>&1)
assert_match "^[0-9]+$" "$ok_id" "and admits its members"
err=$(sbatch -p acct -A chemistry --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" "$err" "AllowAccounts refuses other accounts"
acct_id=$(sbatch --parsable -p acct -A physics --hold --wrap true)
assert_match "^[0-9]+$" "$acct_id" "and admits its own"

queued=$(sbatch --parsable -p down --wrap true)
wait_until 60 pending_for "$queued" PartitionDown
assert_eq "PD PartitionDown" "$(squeue -h -j "$queued" -o '%t %r')" "a DOWN partition queues jobs without starting them"
err=$(sbatch -p drained --wrap true 2>&1)
assert_match "Batch job submission failed: .*not available" "$err" "a DRAIN partition refuses new jobs"
err=$(sbatch -p off --wrap true 2>&1)
assert_match "Batch job submission failed: .*not available" "$err" "an INACTIVE partition refuses new jobs"
assert_match "^debug\* +up .*\ndown +down|down +down" "$(sinfo -h -o '%P %a')" "sinfo shows the partition states"
scancel "$queued" "$wide" "$dflt" "$ok_id" "$acct_id"

# A job naming a drained node waits with ReqNodeNotAvail, UnavailableNodes:NODES (Slurm's state
# description, shown by %r, %R and scontrol); --nice lowers a job's priority.
scontrol update NodeName=n2 State=DRAIN Reason=test
pinned=$(sbatch --parsable -w n2 --wrap true)
wait_until 60 pending_for "$pinned" "ReqNodeNotAvail, UnavailableNodes:n2"
assert_eq "PD ReqNodeNotAvail, UnavailableNodes:n2" "$(squeue -h -j "$pinned" -o '%t %r')" \
  "a job naming a drained node waits with ReqNodeNotAvail, naming the node"
assert_eq "(ReqNodeNotAvail, UnavailableNodes:n2)" "$(squeue -h -j "$pinned" -o '%R')" "squeue %R the same"
assert_match "Reason=ReqNodeNotAvail,_UnavailableNodes:n2 " "$(scontrol show job "$pinned")" \
  "scontrol show job writes it with underscores"
scancel "$pinned"
scontrol update NodeName=n2 State=RESUME
placed=$(sbatch --parsable -w n2 --wrap true)
wait_job "$placed"
assert_eq n2 "$(squeue -h -t all -j "$placed" -o %N)" "-w n2 runs the job on n2"
plain=$(sbatch --parsable --begin=now+1hour --wrap true)
nice=$(sbatch --parsable --begin=now+1hour --nice=1000 --wrap true)
[ "$(squeue -h -j "$nice" -o %Q)" -lt "$(squeue -h -j "$plain" -o %Q)" ] && ok "--nice lowers priority" || fail "--nice did not lower priority"
scancel "$plain" "$nice"
finish
