#!/usr/bin/env bash
# federation_test.sh - three clusters (c1, c2, c3: each a controller and a node daemon on
# loopback) sharing one PostgreSQL accounting store that the test starts, as the federation guide
# sets them up: sacctmgr add/modify/delete/show federation, a cluster's Federation, Features and
# FedState, show cluster withfed; each controller registers its address in the store and learns
# the federation from it (scontrol show federation on each); job ids carry the origin cluster's
# federation id in bits 26-31 and every command takes them; -M sends sbatch, squeue, scancel and
# scontrol to another cluster of the store, and names one the store does not know with Slurm's
# error. Sibling jobs: a job runs where there is room, once, its other copies REVOKED; held jobs
# stay on the origin; scancel --sibling; with the origin stopped the other members agree among
# themselves and the origin catches up when it resumes; a storm of jobs while controllers are
# stopped and one is killed runs each job exactly once. Skipped (passing) when the PostgreSQL
# server or the plugin is not installed/built.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/pg/server.sh"
source "$ROOT/tests/integration/federation.sh"

pg_test_setup
trap 'stop_members; pg_cleanup' EXIT
MEMBER_CONF=("PriorityType=priority/multifactor" "PriorityWeightAge=1000") # for sprio
for c in c1 c2 c3; do make_member "$c"; done
for d in "$T/c" "$T/c2" "$T/c3"; do cluster_start "$d" 1 || fail "cluster in $d did not start"; done
export SLURM_CONF=$T/c/slurm.conf PATH=$BIN/core/cli:$PATH
cd "$T"

# ---- the clusters register in the store ----
sacctmgr -i add cluster c1 c2 c3 >/dev/null || fail "sacctmgr add cluster"
port_of() { sed -n 's/^SlurmctldPort=//p' "$T/$1/slurm.conf"; }
registered() {
  [ "$(sacctmgr -n -P show cluster format=cluster,controlhost,controlport)" = \
    "c1|127.0.0.1|$(port_of c)
c2|127.0.0.1|$(port_of c2)
c3|127.0.0.1|$(port_of c3)" ]
}
wait_until 60 registered || fail "each controller registered its address: $(sacctmgr -n -P show cluster format=cluster,controlhost,controlport | xargs)"

# ---- sacctmgr federation ----
out=$(sacctmgr -i add federation fed1 clusters=c1,c2 2>&1)
assert_contains " Adding Federation(s)" "$out" "add federation says what it adds"
assert_contains "  fed1" "$out" "add federation names it"
assert_eq "fed1|c1|1||ACTIVE
fed1|c2|2||ACTIVE" "$(sacctmgr -n -P show federation)" "show federation: each member with its id and state"
assert_eq "Federation|Cluster|ID|Features|FedState" "$(sacctmgr -P show federation | head -1)" "show federation's columns"
assert_contains "already exists" "$(sacctmgr -i add federation fed1 2>&1)" "a federation is added once"
out=$(sacctmgr -i add federation fed2 clusters=nosuch 2>&1); rc=$?
assert_contains "The cluster nosuch doesn't exist. Please add first." "$out" "a federation of an unknown cluster is refused"
[ "$rc" -ne 0 ] && ok "... with a failing status" || fail "add federation with an unknown cluster exited 0"

sacctmgr -i modify cluster c3 set federation=fed1 features=highmem,gpu >/dev/null || fail "modify cluster set federation"
assert_eq "fed1|c3|3|highmem,gpu|ACTIVE" "$(sacctmgr -n -P show federation | grep '|c3|')" \
  "a cluster joins with the next free id and its features"
sacctmgr -i modify federation fed1 set clusters-=c2 >/dev/null || fail "modify federation clusters-="
assert_eq "c1 c3" "$(sacctmgr -n -P show federation format=cluster | xargs)" "clusters-= takes a cluster out"
sacctmgr -i modify federation fed1 set clusters+=c2 >/dev/null || fail "modify federation clusters+="
assert_eq "c1|1 c2|2 c3|3" "$(sacctmgr -n -P show federation format=cluster,id | xargs)" "clusters+= puts it back with the lowest free id"
sacctmgr -i modify cluster c3 set features-=gpu fedstate=drain >/dev/null || fail "modify cluster features-= fedstate="
assert_eq "c3|highmem|DRAIN" "$(sacctmgr -n -P show federation format=cluster,features,fedstate | grep ^c3)" "features-= and fedstate="
assert_contains "Invalid FedState" "$(sacctmgr -i modify cluster c3 set fedstate=sleepy 2>&1)" "an unknown FedState is refused"
sacctmgr -i modify cluster c3 set fedstate=active >/dev/null
assert_eq "fed1||| c1|1|ACTIVE c2|2|ACTIVE c3|3|ACTIVE" \
  "$(sacctmgr -n -P show federation tree format=federation,cluster,id,fedstate | sed 's/^|//' | xargs)" \
  "show federation tree: the federation's line, then its clusters"
assert_contains "Federation ID   Features" "$(sacctmgr show cluster withfed | head -1 | sed 's/  */ /g; s/ID /ID   /')" \
  "show cluster withfed adds the federation columns"
assert_eq "c3|fed1|3|highmem|ACTIVE" "$(sacctmgr -n -P show cluster withfed format=cluster,federation,id,features,fedstate | grep ^c3)" \
  "show cluster withfed: c3's federation settings"

# ---- each controller learns the federation from the store ----
for c in c1 c2 c3; do wait_until 60 knows_members "$c" 3 || fail "$c did not learn the federation: $(fed_view "$c")"; done
# c2 reads the store every 10 s: wait for the view of c3 as it is now (ACTIVE again).
expected="Federation: fed1
Self:       c2:127.0.0.1:$(port_of c2) ID:2 FedState:ACTIVE Features:
Sibling:    c1:127.0.0.1:$(port_of c) ID:1 FedState:ACTIVE Features: PersistConnSend/Recv:Yes/Yes
Sibling:    c3:127.0.0.1:$(port_of c3) ID:3 FedState:ACTIVE Features:highmem PersistConnSend/Recv:Yes/Yes"
c2_current() { [ "$(fed_view c2)" = "$expected" ]; }
wait_until 60 c2_current || true
assert_eq "$expected" "$(fed_view c2)" \
  "scontrol show federation on c2: the federation, Self, and each sibling whose controller answers"
assert_contains "Self:       c3:127.0.0.1:$(port_of c3) ID:3" "$(fed_view c3)" "c3 sees itself as Self"

# ---- federated job ids ----
# Jobs the checks below expect on one cluster name it with -M: a job of the federation may run
# on any member (its siblings, further down).
j1=$(sbatch -M c1 --parsable -o /dev/null --wrap true); j1=${j1%%;*}
j2=$(on c2 sbatch --parsable -o /dev/null --wrap true)
assert_eq 1 "$((j1 >> 26))" "a job of c1 carries federation id 1 in bits 26-31 ($j1)"
assert_eq 2 "$((j2 >> 26))" "a job of c2 carries federation id 2 ($j2)"
jc=$(sbatch --parsable --cluster-constraint=highmem -o /dev/null --wrap true)
assert_eq 3 "$((jc >> 26))" "--cluster-constraint=highmem: the job goes to c3, the member with the feature ($jc)"
jn=$(sbatch --parsable --cluster-constraint='!highmem' -o /dev/null --wrap true)
assert_eq 1 "$((jn >> 26))" "--cluster-constraint='!highmem': this cluster, which lacks it ($jn)"
assert_eq "sbatch: error: Batch job submission failed: Invalid cluster feature specification" \
  "$(sbatch --cluster-constraint=nosuch --wrap true 2>&1)" "a feature no member has is refused"
assert_eq "sbatch: error: Batch job submission failed: No eligible clusters for federated job" \
  "$(sbatch -M c1,c2 --cluster-constraint=highmem --wrap true 2>&1)" "-M and --cluster-constraint together: none left"
wait_job "$j1" || fail "job $j1 did not end"
assert_eq "$j1 COMPLETED" "$(squeue -h -j "$j1" -t all -o '%i %T')" "squeue takes a federated id"
assert_eq "$j1|COMPLETED" "$(sacct -n -X -P -j "$j1" -o JobID,State)" "sacct takes a federated id"
long=$(sbatch -M c1 --parsable -o /dev/null --wrap 'sleep 300'); long=${long%%;*}
wait_running "$long" || fail "job $long did not start"
scancel "$long"
wait_job "$long" || fail "scancel of a federated id did not end job $long"
assert_eq CANCELLED "$(job_state "$long")" "scancel takes a federated id"

# ---- -M: another cluster of the store ----
out=$(sbatch -M c3 -o "$T/on-c3.out" --wrap 'echo "$SLURM_CLUSTER_NAME"')
assert_match "^Submitted batch job [0-9]+ on cluster c3$" "$out" "sbatch -M c3 names the cluster"
j3=$(echo "$out" | awk '{print $4}')
assert_eq 3 "$((j3 >> 26))" "the job got c3's id ($j3)"
done_on_c3() { [ "$(on c3 squeue -h -j "$j3" -t all -o %T 2>/dev/null)" = COMPLETED ]; }
wait_until 60 done_on_c3 || fail "job $j3 did not run on c3"
assert_eq c3 "$(cat "$T/on-c3.out" 2>/dev/null)" "the job ran on c3"
assert_eq "CLUSTER: c3
$j3 COMPLETED" "$(squeue -M c3 -h -j "$j3" -t all -o '%i %T')" "squeue -M c3 shows c3's job under its header"
assert_eq "" "$(squeue -h -j "$j3" -t all -o %i 2>/dev/null)" "c1's own queue does not have it"
assert_contains "JobId=$j3 " "$(scontrol -M c3 show job "$j3")" "scontrol -M c3 shows it"
long3=$(sbatch -M c3 --parsable -o /dev/null --wrap 'sleep 300'); long3=${long3%%;*}
wait_until 60 bash -c "[ \"\$(SLURM_CONF=$T/c3/slurm.conf squeue -h -j $long3 -o %t)\" = R ]" || fail "job $long3 did not start on c3"
scancel -M c3 "$long3"
ended_on_c3() { [ "$(on c3 squeue -h -j "$long3" -t all -o %T 2>/dev/null)" = CANCELLED ]; }
wait_until 60 ended_on_c3 || fail "scancel -M c3 did not cancel job $long3"
out=$(salloc -M c3 -N1 sh -c 'echo "$SLURM_WORKING_CLUSTER"; srun printenv SLURM_CLUSTER_NAME' 2>/dev/null)
assert_eq "c3:127.0.0.1:$(port_of c3):9984
c3" "$out" "salloc -M c3: SLURM_WORKING_CLUSTER names c3, and srun inside runs there"
assert_eq c3 "$(srun -M c3 printenv SLURM_CLUSTER_NAME 2>/dev/null)" "srun -M c3 runs on c3"
assert_eq "CLUSTER: c1
CLUSTER: c3" "$(squeue -M c1,c3 -h -o %i | grep CLUSTER)" "squeue -M c1,c3: a header per cluster"
out=$(sbatch -M nosuch --wrap true 2>&1); rc=$?
assert_eq "sbatch: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." \
  "$out" "sbatch -M names an unknown cluster with Slurm's error"
[ "$rc" -eq 1 ] && ok "... and exits 1" || fail "sbatch -M nosuch exited $rc"
assert_contains "'nosuch' can't be reached now" "$(squeue -M nosuch 2>&1)" "squeue -M an unknown cluster: the same error"

# ---- the federation's view, and requests routed to a job's origin ----
held3=$(on c3 sbatch -M c3 --parsable --hold -o /dev/null --wrap true); held3=${held3%%;*}
pend2=$(on c2 sbatch --parsable --hold -o /dev/null --wrap true)
assert_eq "" "$(squeue -h -o %i | grep -x "$held3")" "c1's local view does not show c3's job"
assert_eq "$pend2 c2
$held3 c3" "$(squeue --federation -h -O JobID,Cluster 2>/dev/null | sed 's/  */ /g; s/ $//' | grep -E "^($held3|$pend2) ")" \
  "squeue --federation shows every member's jobs with their cluster"
scontrol release "$held3" || fail "scontrol release of c3's job from c1"
done3() { [ "$(on c3 squeue -h -j "$held3" -t all -o %T 2>/dev/null)" = COMPLETED ]; }
wait_until 60 done3 || fail "scontrol release on c1 did not release c3's job $held3 (routed to its origin)"
on c1 scancel "$pend2" || fail "scancel of c2's job from c1"
gone2() { [ "$(on c2 squeue -h -j "$pend2" -t all -o %T 2>/dev/null)" = CANCELLED ]; }
wait_until 60 gone2 || fail "scancel on c1 did not cancel c2's job $pend2 (routed to its origin)"
assert_contains "JobId=$held3 " "$(scontrol show job "$held3")" "scontrol show job on c1 shows c3's job"
recorded3() { [ "$(sacct --federation -n -X -P -j "$held3" -o Cluster,State 2>/dev/null)" = "c3|COMPLETED" ]; }
wait_until 60 recorded3 || fail "sacct --federation: $(sacct --federation -n -X -P -j "$held3" -o Cluster,State 2>&1)"
assert_eq "" "$(sacct -n -X -P -j "$held3" -o Cluster 2>/dev/null)" "sacct's local view leaves c3's job out"
assert_eq "debug* c1 1
debug* c2 1
debug* c3 1" "$(sinfo --federation -h -o '%P %V %D')" "sinfo --federation: each member's partitions, %V naming the cluster"
assert_match "^PARTITION +CLUSTER +AVAIL " "$(sinfo --federation | head -1)" "sinfo --federation's default format has the cluster column"
assert_eq "debug* c1" "$(sinfo -h -o '%P %V')" "sinfo's local view: %V is this cluster"
fed_conf=$T/fed-display.conf
sed 's/^ClusterName=.*/&\nFederationParameters=fed_display/' "$T/c/slurm.conf" > "$fed_conf"
assert_eq "$held3" "$(SLURM_CONF=$fed_conf squeue -h -t all -o %i | grep -x "$held3")" \
  "FederationParameters=fed_display: squeue shows the federation by default"
assert_eq "" "$(SLURM_CONF=$fed_conf squeue --local -h -t all -o %i | grep -x "$held3")" "... and --local only this cluster"

# ---- sibling jobs ----
# Each cluster has one node: a long job on c1 and on c2 leaves only c3 with room.
busy1=$(sbatch -M c1 --parsable --exclusive -o /dev/null --wrap 'sleep 600'); busy1=${busy1%%;*}
busy2=$(on c2 sbatch -M c2 --parsable --exclusive -o /dev/null --wrap 'sleep 600'); busy2=${busy2%%;*}
wait_running "$busy1" || fail "job $busy1 did not start on c1"
busy_on_c2() { [ "$(on c2 squeue -h -j "$busy2" -o %t 2>/dev/null)" = R ]; }
wait_until 60 busy_on_c2 || fail "job $busy2 did not start on c2"
sib=$(sbatch --parsable -o "$T/sib.out" --open-mode=append --wrap 'echo "$SLURM_CLUSTER_NAME"; sleep 2')
assert_eq 1 "$((sib >> 26))" "a job submitted on c1 has c1's federation id ($sib)"
ran_on_c3() { [ "$(on c3 squeue -h -j "$sib" -t all -o %T 2>/dev/null)" = COMPLETED ]; }
wait_until 120 ran_on_c3 || fail "job $sib did not run on c3, the one member with room: $(squeue --sibling -h -t all -O JobID,Cluster,State 2>&1 | grep "$sib")"
assert_eq c3 "$(cat "$T/sib.out" 2>/dev/null)" "the job ran once, on c3"
assert_eq "$sib c1 REVOKED
$sib c2 REVOKED
$sib c3 COMPLETED" "$(squeue --sibling -h -t all -O JobID,Cluster,State 2>/dev/null | sed 's/  */ /g; s/ $//' | grep "^$sib " | sort)"   "squeue --sibling: the origin's and c2's copies revoked, c3's ran"
assert_eq "$sib c3 COMPLETED" "$(squeue --federation -h -t all -O JobID,Cluster,State 2>/dev/null | sed 's/  */ /g; s/ $//' | grep "^$sib ")"   "squeue --federation shows the job once, as c3 ran it"
assert_eq "c1 c1,c2,c3" "$(on c3 squeue -h -t all -j "$sib" -O Origin,SiblingsViable 2>/dev/null | xargs)"   "Origin and SiblingsViable name the clusters"
one_record() { [ "$(sacct --federation -n -X -P -j "$sib" -o Cluster,State 2>/dev/null)" = "c3|COMPLETED" ]; }
wait_until 60 one_record || fail "sacct --federation shows the job once: $(sacct --federation -n -X -P -j "$sib" -o Cluster,State 2>&1 | xargs)"
origin_revoked() { sacct --federation -D -n -X -P -j "$sib" -o Cluster,State 2>/dev/null | grep -q '^c1|REVOKED$'; }
wait_until 60 origin_revoked || fail "sacct -D shows the revoked copies: $(sacct --federation -D -n -X -P -j "$sib" -o Cluster,State 2>&1 | xargs)"

# Held: kept on the origin; released: sent to the members; cancelled on the origin: gone from all.
# With every node busy, a job waits on each member that holds a copy of it.
busy3=$(on c3 sbatch -M c3 --parsable --exclusive -o /dev/null --wrap 'sleep 600'); busy3=${busy3%%;*}
busy_on_c3() { [ "$(on c3 squeue -h -j "$busy3" -o %t 2>/dev/null)" = R ]; }
wait_until 60 busy_on_c3 || fail "job $busy3 did not start on c3"
# The members whose copy of job $1 is still scheduled there (not revoked).
copies_of() { squeue --sibling -h -O JobID,Cluster,State 2>/dev/null | awk -v j="$1" '$1 == j && $3 != "REVOKED" {print $2}' | sort | paste -sd, -; }
held=$(sbatch --parsable --hold -o /dev/null --wrap true)
probe=$(sbatch --parsable -o /dev/null --wrap true)
three_copies() { [ "$(copies_of "$1")" = "c1,c2,c3" ]; }
# The origin looks at its jobs in id order: once the later one has its siblings, it has passed
# the held one.
wait_until 60 three_copies "$probe" || fail "a pending job is sent to c2 and c3: $(copies_of "$probe")"
assert_eq c1 "$(copies_of "$held")" "a held job is kept on its origin"
assert_eq "$probe c1" "$(sprio --federation -h -j "$probe" -o '%i %c' 2>&1 | xargs)" \
  "sprio --federation: a job once, as this cluster reports it"
assert_eq "$probe c1 $probe c2 $probe c3" "$(sprio --sibling -h -j "$probe" -o '%i %c' 2>&1 | sort | xargs)" \
  "sprio --sibling: each member's record, with its cluster"
assert_eq "$probe" "$(sprio -M c3 -h -j "$probe" -o '%i' 2>&1 | xargs)" "sprio -M c3 asks c3"
# A change made while it was held goes with the copies sent at its release.
scontrol update JobId="$held" Name=renamed TimeLimit=42 || fail "scontrol update of a held job"
scontrol release "$held" || fail "scontrol release"
wait_until 60 three_copies "$held" || fail "released, the job is sent to c2 and c3: $(copies_of "$held")"
assert_eq "renamed 00:42:00" "$(scontrol -M c3 show job "$held" 2>/dev/null | grep -o 'JobName=[^ ]*\|TimeLimit=[^ ]*' | cut -d= -f2 | xargs)" \
  "the copy sent at release has the job's name and time limit as changed while it was held"
scontrol update JobId="$held" Comment=pushed || fail "scontrol update of a waiting job with copies"
pushed_to_c2() { scontrol -M c2 show job "$held" 2>/dev/null | grep -q "Comment=pushed"; }
wait_until 60 pushed_to_c2 || fail "the update did not reach c2's copy: $(scontrol -M c2 show job "$held" 2>&1 | grep -o 'Comment=[^ ]*')"
assert_eq "c1,c2,c3" "$(squeue -h -j "$held" -O SiblingsActive 2>/dev/null | xargs)" "SiblingsActive: the members holding a copy"
assert_eq "$held PENDING" "$(squeue --federation -h -O JobID,State 2>/dev/null | sed 's/  */ /g; s/ $//' | grep "^$held ")"   "squeue --federation shows the pending job once"
scancel "$held" || fail "scancel of a job with siblings"
none_left() { [ -z "$(copies_of "$held")" ]; }
wait_until 60 none_left || fail "cancelled on the origin, its siblings are revoked: $(copies_of "$held")"
# scancel --sibling: one member's copy goes (the origin's own too); the job stays on the others.
sj=$(sbatch --parsable -o /dev/null --wrap true)
wait_until 60 three_copies "$sj" || fail "job $sj was not sent to c2 and c3: $(copies_of "$sj")"
scancel --sibling=c2 "$sj" || fail "scancel --sibling=c2"
two_copies() { [ "$(copies_of "$sj")" = "c1,c3" ]; }
wait_until 60 two_copies || fail "scancel --sibling=c2 leaves c1's and c3's copies: $(copies_of "$sj")"
scancel --sibling=c1 "$sj" || fail "scancel --sibling=c1"
assert_eq "c3" "$(copies_of "$sj")" "scancel --sibling=c1: the origin's copy is revoked, c3's waits"
assert_eq "c3" "$(squeue -h -j "$sj" -O SiblingsViable 2>/dev/null | xargs)" "SiblingsViable: c3 alone"
assert_eq "scancel: error: Kill job error on job id $sj: Invalid cluster name" \
  "$(scancel --sibling=nosuch "$sj" 2>&1)" "scancel --sibling with a cluster of no federation"
assert_eq "scancel: error: Kill job error on job id $busy1: Not a valid federated job" \
  "$(scancel --sibling=c2 "$busy1" 2>&1)" "scancel --sibling of a job with no siblings"
scancel "$sj"

# ---- the origin down: the members agree among themselves, and the origin catches up ----
od=$(sbatch --parsable -o "$T/od.out" --open-mode=append --wrap 'echo "$SLURM_CLUSTER_NAME"')
wait_until 60 three_copies "$od" || fail "job $od was not sent to c2 and c3: $(copies_of "$od")"
ctl1=$(cat "$T/c/ctld.pid")
kill -STOP "$ctl1"
on c3 scancel "$busy3" # room on c3 alone, while c1 does not answer
ran_od() { [ "$(on c3 squeue -h -j "$od" -t all -o %T 2>/dev/null)" = COMPLETED ]; }
wait_until 120 ran_od || fail "with c1 stopped, c3 did not run job $od on c2's vote: $(on c3 squeue -h -j "$od" -t all -o '%T %r' 2>&1)"
revoked_on_c2() { [ "$(on c2 squeue -h -j "$od" -t all -o %T 2>/dev/null)" = REVOKED ]; }
wait_until 60 revoked_on_c2 || fail "c2's copy was not revoked: $(on c2 squeue -h -j "$od" -t all -o %T 2>&1)"
kill -CONT "$ctl1"
origin_caught_up() { [ "$(sacct --federation -n -X -P -j "$od" -o Cluster,State 2>/dev/null)" = "c3|COMPLETED" ]; }
wait_until 120 origin_caught_up || fail "back, c1 did not learn how job $od ended: $(sacct --federation -D -n -X -P -j "$od" -o Cluster,State 2>&1 | xargs)"
assert_eq REVOKED "$(squeue -h -j "$od" -t all -o %T 2>/dev/null)" "the origin's copy is revoked"
assert_eq c3 "$(cat "$T/od.out" 2>/dev/null)" "the job ran once, on c3"

# ---- a job another member runs: signals, updates and requeue go there through its origin ----
rq=$(sbatch --parsable -o "$T/rq.out" --open-mode=append \
  --wrap 'trap "echo usr1" USR1; echo "$SLURM_CLUSTER_NAME ${SLURM_RESTART_COUNT:-0}"; for i in $(seq 300); do sleep 1; done')
# Running on c3, and the origin has heard so (its own copy revoked): only then does it send the
# job's signals there.
rq_on_c3() { [ "$(on c3 squeue -h -j "$rq" -o %t 2>/dev/null)" = R ] && [ -s "$T/rq.out" ] &&
  [ "$(squeue -h -j "$rq" -t all -o %T 2>/dev/null)" = REVOKED ]; }
wait_until 60 rq_on_c3 || fail "job $rq did not start on c3: $(squeue --sibling -h -t all -O JobID,Cluster,State 2>&1 | grep "^$rq")"
scancel -b -s USR1 "$rq" || fail "scancel -b -s USR1 of a job c3 runs"
got_usr1() { grep -qx usr1 "$T/rq.out"; }
wait_until 60 got_usr1 || fail "the batch shell on c3 did not get USR1: $(cat "$T/rq.out")"
scontrol update JobId="$rq" Comment=moved || fail "scontrol update of a job c3 runs"
assert_contains "Comment=moved" "$(scontrol -M c3 show job "$rq")" "the update reached c3's copy, which runs"
scontrol requeue "$rq" || fail "scontrol requeue of a job c3 runs"
ran_again() { grep -qx "c3 1" "$T/rq.out"; }
wait_until 120 ran_again || fail "requeued, the job did not run again: $(cat "$T/rq.out")"
scancel "$rq"
rq_gone() { [ "$(on c3 squeue -h -j "$rq" -t all -o %T 2>/dev/null)" = CANCELLED ]; }
wait_until 60 rq_gone || fail "scancel on the origin did not end the job c3 runs: $(on c3 squeue -h -j "$rq" -t all -o %T 2>&1)"

arr=$(sbatch --parsable --array=1-2 -o /dev/null --wrap true)
assert_eq c1 "$(squeue -h -j "$arr" -O SiblingsViable 2>/dev/null | head -1 | xargs)" "an array runs on its origin only"
scancel "$arr" "$probe" "$busy1"; scancel -M c2 "$busy2"

# ---- a storm while controllers stop and are killed: each job runs once ----
mkdir -p "$T/storm"
storm() { # ORIGIN COUNT
  local i
  for i in $(seq 1 "$2"); do on "$1" sbatch --parsable -o "$T/storm/%j.out" --wrap 'echo "$SLURM_CLUSTER_NAME"; sleep 1'; done
}
storm c1 6 > "$T/storm.ids"
ctl2=$(cat "$T/c2/ctld.pid")
kill -STOP "$ctl2"
storm c1 6 >> "$T/storm.ids"
kill -CONT "$ctl2"
storm c2 6 >> "$T/storm.ids"
kill -9 "$ctl2"; wait_gone "$ctl2"
storm c3 6 >> "$T/storm.ids"
start_ctld "$T/c2"
assert_eq 24 "$(sort -u "$T/storm.ids" | grep -c .)" "24 jobs, 24 ids"
# Each job COMPLETED once, and no other record of it shown (the origins have heard the ends).
storm_done() {
  [ "$(completed_once "$T/storm.ids")" = 24 ] &&
    [ "$(sacct --federation -n -X -P -o JobID 2>/dev/null | grep -cxFf "$T/storm.ids")" = 24 ]
}
wait_until 200 storm_done || fail "the storm's jobs did not all complete: $(sacct --federation -n -X -P -o JobID,Cluster,State 2>&1 | grep -Ff "$T/storm.ids" | awk -F'|' '{print $3}' | sort | uniq -c | xargs)"
assert_eq 24 "$(each_ran_once "$T/storm.ids" "$T/storm")" "each job of the storm ran exactly once (one line in its output)"
assert_eq 24 "$(sacct --federation -n -X -P -o JobID 2>/dev/null | grep -cxFf "$T/storm.ids")" "sacct --federation shows each job once"

# ---- a dependency on another member's job: it waits until that member's job ends ----
first=$(on c2 sbatch -M c2 --parsable -o /dev/null --wrap 'sleep 5'); first=${first%%;*}
after=$(sbatch -M c1 --parsable -d "afterok:$first" -o "$T/after.out" \
  --wrap "SLURM_CONF=$T/c2/slurm.conf squeue -h -j $first -t all -o %T")
after=${after%%;*}
waits_on_c2() { [ "$(squeue -h -j "$after" -o '%t %r' 2>/dev/null)" = "PD Dependency" ]; }
wait_until 30 waits_on_c2 || fail "job $after does not wait for c2's job $first: $(squeue -h -j "$after" -o '%t %r' 2>&1)"
after_done() { [ "$(job_state "$after")" = COMPLETED ]; }
wait_until 120 after_done || fail "job $after did not run after c2's job $first: $(squeue -h -j "$after" -t all -o '%T %r' 2>&1)"
assert_eq COMPLETED "$(cat "$T/after.out" 2>/dev/null)" "afterok on c2's job: it ran once that job had COMPLETED"
failing=$(on c2 sbatch -M c2 --parsable -o /dev/null --wrap 'exit 3'); failing=${failing%%;*}
never=$(sbatch -M c1 --parsable -d "afterok:$failing" -o /dev/null --wrap true); never=${never%%;*}
never_ok() { [ "$(squeue -h -j "$never" -o %r 2>/dev/null)" = DependencyNeverSatisfied ]; }
wait_until 60 never_ok || fail "afterok on c2's failed job: $(squeue -h -j "$never" -o %r 2>&1)"
scancel "$never"

# ---- DRAIN+REMOVE: with no federated job left, a member leaves by itself ----
sacctmgr -i modify cluster c3 set fedstate=drain+remove >/dev/null || fail "modify cluster set fedstate=drain+remove"
c3_left() { [ "$(sacctmgr -n -P show cluster withfed format=cluster,federation 2>/dev/null | grep '^c3|')" = "c3|" ]; }
wait_until 90 c3_left || fail "c3 did not leave: $(sacctmgr -n -P show federation 2>&1 | xargs)"
assert_eq "c1 c2" "$(sacctmgr -n -P show federation format=cluster | xargs)" "DRAIN+REMOVE: c3 left the federation once drained"

# ---- leaving the federation: copies that wait are removed, the origin's job stays ----
busyA=$(sbatch -M c1 --parsable --exclusive -o /dev/null --wrap 'sleep 600'); busyA=${busyA%%;*}
busyB=$(on c2 sbatch -M c2 --parsable --exclusive -o /dev/null --wrap 'sleep 600'); busyB=${busyB%%;*}
wait_running "$busyA" || fail "job $busyA did not start"
orphan=$(sbatch --parsable -o /dev/null --wrap true)
two_members() { [ "$(copies_of "$orphan")" = "c1,c2" ]; }
wait_until 60 two_members || fail "job $orphan was not sent to c2: $(copies_of "$orphan")"
sacctmgr -i delete federation fed1 >/dev/null || fail "delete federation"
copy_gone() { [ "$(on c2 squeue -h -j "$orphan" -t all -o %T 2>/dev/null)" = REVOKED ]; }
wait_until 60 copy_gone || fail "c2's copy of job $orphan was not removed: $(on c2 squeue -h -j "$orphan" -t all -o %T 2>&1)"
assert_eq PENDING "$(job_state "$orphan")" "the origin's job waits on, as a job of c1's own"
scancel "$orphan" "$busyA"; on c2 scancel "$busyB"
assert_eq "" "$(sacctmgr -n -P show federation)" "the federation is gone"
assert_eq "c1||0" "$(sacctmgr -n -P show cluster withfed format=cluster,federation,id | grep ^c1)" "its clusters belong to none"
alone() { [ -z "$(fed_view c2)" ]; }
wait_until 60 alone || fail "c2 still shows a federation: $(fed_view c2)"
j=$(on c2 sbatch --parsable -o /dev/null --wrap true)
assert_eq 0 "$((j >> 26))" "a job outside a federation has no federation id ($j)"

finish
