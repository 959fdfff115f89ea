#!/usr/bin/env bash
# commands_test.sh - the command options workflow tools and users rely on: sbatch --test-only,
# --hold, -W, -e/-i, --export=NONE, -D; squeue -o/-O/-t/-u/--me/--json; scontrol update, hold,
# release and show, show hostnames/hostlist/hostlistsorted; sinfo -o/-N/-R; scancel filters.
source "$(dirname "$0")/lib.sh"
start_cluster 2
cd "$T"

# --test-only answers without creating a job
err=$(sbatch --test-only --wrap true 2>&1); rc=$?
assert_eq 0 "$rc" "--test-only succeeds"
assert_match "^sbatch: Job [0-9]+ to start at .* using 1 processors on nodes n[12] in partition debug$" "$err" "--test-only says when and where"
assert_eq "" "$(squeue -h)" "--test-only created no job"

# --hold, scontrol show job, release
id=$(sbatch --parsable --hold -J held -t 10 --wrap 'echo out; echo err >&2' -e err-%j.txt -o out-%j.txt)
assert_eq "PD JobHeldUser" "$(squeue -h -j "$id" -o '%t %r')" "--hold pends with reason JobHeldUser"
show=$(scontrol show job "$id")
assert_match "JobState=PENDING Reason=JobHeldUser" "$show" "scontrol show job: state and reason"
assert_match "TimeLimit=00:10:00" "$show" "scontrol show job: time limit"
assert_match "StdOut=$T/out-$id.txt" "$show" "scontrol show job: expanded StdOut"
scontrol update JobId="$id" TimeLimit=5 Name=renamed
assert_eq "renamed 5:00" "$(squeue -h -j "$id" -o '%j %l')" "scontrol update changes name and time limit"
scontrol release "$id"
wait_job "$id"
assert_eq out "$(cat "out-$id.txt")" "-o gets stdout"
assert_eq err "$(cat "err-$id.txt")" "-e gets stderr"

# -W waits and passes on the exit code; -i feeds stdin; -D sets the working directory
mkdir -p sub
echo "from-stdin" > in.txt
sbatch -W -D sub -i "$T/in.txt" --wrap 'cat; pwd; exit 4' >/dev/null; rc=$?
assert_eq 4 "$rc" "-W exits with the job's exit code"
f=$(ls sub/slurm-*.out | head -1)
assert_eq "from-stdin $T/sub" "$(tr '\n' ' ' < "$f" | sed 's/ $//')" "-i and -D"

# --export=NONE keeps the submitter's variables out
MY_SECRET=1 sbatch -W --export=NONE -o none.txt --wrap 'echo "secret=${MY_SECRET:-unset} id=$SLURM_JOB_ID"' >/dev/null
assert_match "^secret=unset id=[0-9]+$" "$(cat none.txt)" "--export=NONE drops the environment but keeps SLURM_*"
MY_SECRET=2 sbatch -W --export=MY_SECRET -o some.txt --wrap 'echo "secret=$MY_SECRET"' >/dev/null
assert_eq "secret=2" "$(cat some.txt)" "--export=VAR passes just that variable"

# squeue formats and filters
a=$(sbatch --parsable -J alpha --wrap 'sleep 300')
b=$(sbatch --parsable -J beta --hold --wrap true)
wait_running "$a"
assert_eq "$a|alpha|RUNNING" "$(squeue -h -j "$a" -o '%i|%j|%T')" "squeue -o with literal separators"
assert_match "^$b +beta +PENDING" "$(squeue -h -j "$b" -O 'JobID:10,Name:8,State')" "squeue -O with widths"
assert_eq "$b" "$(squeue -h -t PD -o %i)" "squeue -t PD"
assert_eq 2 "$(squeue -h -u root | wc -l)" "squeue -u"
assert_eq 2 "$(squeue -h --me | wc -l)" "squeue --me"
assert_eq "beta" "$(squeue -h -n beta -o %j)" "squeue -n"
assert_match '"job_id": ?'"$a" "$(squeue --json -j "$a")" "squeue --json"
err=$(squeue -j 999999 2>&1); rc=$?
assert_eq "1 slurm_load_jobs error: Invalid job id specified" "$rc $err" "squeue -j of an unknown job"

# sinfo formats
assert_match "^n[12] +1 +debug\* +mix|^n[12] +1 +debug\* +alloc" "$(sinfo -N -h | grep -E 'alloc|mix')" "sinfo -N shows the busy node"
assert_eq "debug 2 up" "$(sinfo -h -o '%R %D %a' | head -1)" "sinfo -o"

# scancel by name and by state
scancel -n beta
wait_job "$b"
assert_eq CANCELLED "$(job_state "$b")" "scancel -n"
scancel -t R -u root
wait_job "$a"
assert_eq CANCELLED "$(job_state "$a")" "scancel -t R -u root"
err=$(scancel 2>&1); rc=$?
assert_eq 1 "$rc" "scancel without ids fails"
assert_match "No job identification provided" "$err" "with Slurm's message"

# scontrol show config, partition, ping, version
assert_match "ClusterName += local" "$(scontrol show config)" "scontrol show config"
assert_match "PartitionName=debug" "$(scontrol show partition debug)" "scontrol show partition"
assert_match "Slurmctld\(primary\) at .* is UP" "$(scontrol ping)" "scontrol ping"
assert_eq "slurm 23.11.0" "$(scontrol version)" "scontrol version: Slurm's form"
for cmd in sbatch squeue sinfo scancel sacct srun salloc sstat sacctmgr sdiag sbcast sattach sreport sprio sshare; do
  assert_eq "slurm 23.11.0" "$($cmd -V 2>&1)" "$cmd -V: Slurm's form"
done
assert_eq "slurm 23.11.0" "$(sinfo --version)" "sinfo --version"
assert_match "SLURM_VERSION += 23.11.0" "$(scontrol show config)" "show config: SLURM_VERSION"
assert_match "DroverVersion += 0.1.0" "$(scontrol show config)" "show config: Drover's own version"
# Slurm 23.11's keys, units and defaults; tools such as Toil split each line at " = " and take
# max() over the numbers that start SchedulerTimeSlice and AcctGatherNodeFreq.
conf=$(scontrol show config)
assert_match "^Configuration data as of [0-9]{4}-[0-9]{2}-[0-9]{2}T" "$(head -1 <<<"$conf")" "show config: Slurm's header"
assert_eq "" "$(tail -n +2 <<<"$conf" | grep -vP '^\S+\s+= ')" "show config: every line is KEY = VALUE"
assert_match "^[0-9]+ sec$" "$(sed -n 's/^SchedulerTimeSlice *= //p' <<<"$conf")" "show config: SchedulerTimeSlice is a number of seconds"
assert_match "^[0-9]+ sec$" "$(sed -n 's/^AcctGatherNodeFreq *= //p' <<<"$conf")" "show config: AcctGatherNodeFreq is a number of seconds"
assert_eq 1 "$(grep -cFx 'SchedulerTimeSlice      = 30 sec' <<<"$conf")" "show config: key padded to 23, Slurm's default"
assert_match "MinJobAge               = 300 sec" "$conf" "show config: MinJobAge from slurm.conf"
assert_match "KillWait                = 5 sec" "$conf" "show config: KillWait from slurm.conf"
assert_match "OverTimeLimit           = 0 min" "$conf" "show config: OverTimeLimit"
assert_match "MaxArraySize            = 1001" "$conf" "show config: MaxArraySize"
assert_match "EnforcePartLimits       = NO" "$conf" "show config: EnforcePartLimits"
assert_match "SlurmctldHost\[0\]        = localhost\(127.0.0.1\)" "$conf" "show config: SlurmctldHost[0] as Slurm names it"
assert_eq 1 "$(grep -c '^X11Parameters ' <<<"$conf")" "show config: through Slurm's last key"

# Slurm's words for what it refuses
assert_eq "sbatch: error: Invalid --time specification" "$(sbatch -t soon --wrap true 2>&1)" "sbatch -t with a bad time"
assert_eq "srun: error: Invalid --time specification" "$(srun -t soon true 2>&1)" "srun -t with a bad time"
assert_eq "sbatch: error: Batch job submission failed: More processors requested than permitted" \
  "$(sbatch -n 100000 --wrap true 2>&1)" "more CPUs than the partition has"

# sbatch -M: this cluster by name (named back, as Slurm does), any other refused
assert_match "^[0-9]+;local$" "$(sbatch -M local --parsable --wrap true)" "sbatch -M this cluster: id;cluster"
assert_match "^Submitted batch job [0-9]+ on cluster local$" "$(sbatch -M LOCAL,other --wrap true)" "sbatch -M naming it among others"
err=$(sbatch -M elsewhere --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: 'elsewhere' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." \
  "$rc|$err" "sbatch -M another cluster is refused with Slurm's words"

# scontrol show hostnames / hostlist / hostlistsorted, as multi-node scripts call them
hn=$(sbatch --parsable -N 2 -o "$T/hosts-%j.txt" --wrap 'scontrol show hostnames; scontrol show hostname "$SLURM_JOB_NODELIST" | wc -l')
wait_job "$hn"
assert_eq "n1 n2 2" "$(xargs < "$T/hosts-$hn.txt")" "show hostnames: SLURM_NODELIST in a job, one name per line"
assert_eq "tux1 tux2 tux3" "$(scontrol show hostnames 'tux[1-3]' | xargs)" "show hostnames EXPR"
assert_eq "tux[2,1-2]" "$(scontrol show hostlist tux2,tux1,tux2)" "show hostlist keeps the order"
assert_eq "tux[1-2,2]" "$(scontrol show hostlistsorted tux2,tux1,tux2)" "show hostlistsorted sorts"
printf 'n03\nn01\n\nn02\n' > "$T/names.txt"
assert_eq "n[01-03]" "$(scontrol show hostlists "$T/names.txt")" "show hostlistsorted reads a file of names"
assert_eq "n[03,01-02]" "$(printf 'n03,n01\nn02' | scontrol show hostlist -)" "show hostlist - reads standard input"
err=$(scontrol show hostlist 2>&1); rc=$?
assert_eq "1|invalid encode argument" "$rc|$err" "show hostlist without names fails"
err=$(scontrol show hostlist "$T/nonesuch" 2>&1); rc=$?
assert_eq "1|Can not open $T/nonesuch" "$rc|$err" "show hostlist of a missing file fails"
assert_eq "Invalid hostlist: n[1" "$(scontrol show hostnames 'n[1' 2>&1)" "show hostnames of a bad expression says so"
finish
