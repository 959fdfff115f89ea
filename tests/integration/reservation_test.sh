#!/usr/bin/env bash
# reservation_test.sh - advance reservations on a live cluster with real users: scontrol create,
# show, update and delete reservation and sinfo -T in Slurm's words; a reservation keeps other
# users' jobs off its node and then frees it; jobs in it run there only (squeue %v); who may ask
# for it; what Slurm refuses; MAINT's pending reason; a reservation ahead lets in only jobs that
# end before it, and sched/backfill plans the others after it; one that ends goes by itself;
# reservations survive a controller restart.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
start_cluster 2 "SchedulerType=sched/backfill" "SchedulerParameters=bf_interval=1" "ResvOverRun=5"
cd "$T"
[ "$MULTI" = 1 ] || { echo "reservation_test: needs root and useradd; skipped"; exit 0; }
mkdir -p "$T/u1" "$T/u2"
chown drvtest1: "$T/u1"
chown drvtest2: "$T/u2"

out=$(scontrol create reservation ReservationName=resA StartTime=now Duration=30 Nodes=n1 \
  Users=drvtest1 2>&1)
assert_eq "Reservation created: resA" "$out" "scontrol create reservation"
show=$(scontrol show reservation resA)
assert_match "^ReservationName=resA StartTime=[0-9T:-]+ EndTime=[0-9T:-]+ Duration=00:30:00" \
  "$show" "show reservation: its name, times and duration"
assert_match "Nodes=n1 NodeCnt=1 CoreCnt=1 " "$show" "its node"
assert_match "Flags=SPEC_NODES" "$show" "its flags"
assert_match "Users=drvtest1 " "$show" "its users"
assert_match "State=ACTIVE" "$show" "active now"
assert_match "resA +ACTIVE .* n1$" "$(sinfo -T | tail -1)" "sinfo -T"
assert_eq "n1 resv" "$(sinfo -h -N -n n1 -o '%N %t')" "sinfo: an idle node in a reservation is resv"
assert_match "State=IDLE\+RESERVED " "$(scontrol show node n1)" "scontrol show node: IDLE+RESERVED"
assert_eq "n1" "$(sinfo -h -N -t resv -o %N)" "sinfo -t resv"
assert_match "ResvOverRun += 5 min" "$(scontrol show config)" "ResvOverRun in scontrol show config"
sed 's|^ResvOverRun=.*|ResvOverRun=soon|' "$T/c/slurm.conf" > "$T/bad.conf"
out=$(SLURM_CONF=$T/bad.conf sinfo 2>&1)
assert_match "ResvOverRun" "$out" "a bad ResvOverRun is refused, naming the key"

# ---- the reservation keeps drvtest2 off n1 ----
cd "$T/u2"
b1=$(as drvtest2 sbatch --parsable --wrap "sleep 300")
wait_running "$b1" || fail "drvtest2's first job runs"
assert_eq "n2" "$(squeue -h -j "$b1" -o %N)" "on the node outside the reservation"
b2=$(as drvtest2 sbatch --parsable --wrap "sleep 300")
wait_until 30 pending_for "$b2" Resources && ok "the next one waits: n1 is reserved" \
  || fail "b2: $(squeue -h -j "$b2" -o '%t %r %N')"
out=$(as drvtest2 sbatch --reservation=resA --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: Access denied to requested reservation" \
  "$rc|$out" "a user the reservation does not name may not ask for it"
out=$(as drvtest2 sbatch --reservation=nosuch --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: Requested reservation is invalid" "$out" \
  "nor for one that does not exist"
out=$(as drvtest2 scontrol create reservation StartTime=now Duration=5 Nodes=n2 Users=drvtest2 2>&1)
assert_match "Access/permission denied" "$out" "only an administrator creates reservations"

# ---- drvtest1's job runs in it, on its node ----
cd "$T/u1"
a1=$(as drvtest1 sbatch --parsable --reservation=resA --wrap "sleep 300")
wait_running "$a1" || fail "the job in the reservation runs"
assert_eq "n1 resA" "$(squeue -h -j "$a1" -o '%N %v')" "on the reserved node (squeue %v)"
assert_match "Reservation=resA" "$(scontrol show job "$a1")" "scontrol show job"
out=$(scontrol delete ReservationName=resA 2>&1); rc=$?
assert_eq "1|delete_reservation ReservationName=resA: Requested reservation is in use" "$rc|$out" \
  "a reservation a job runs in is not deleted"
scancel "$a1"; wait_job "$a1"

# ---- update, then delete: the node frees for drvtest2's job ----
out=$(scontrol update ReservationName=resA Users+=root Flags+=DAILY 2>&1)
assert_eq "Reservation updated." "$out" "scontrol update reservation"
assert_match "Flags=DAILY,SPEC_NODES" "$(scontrol show res resA)" "flags added"
assert_match "Users=drvtest1,root " "$(scontrol show res resA)" "a user added"
out=$(scontrol create reservation ReservationName=resB StartTime=now Duration=10 Nodes=n1 \
  Users=root 2>&1)
assert_eq "Error creating the reservation: Requested reservation overlaps with another reservation" \
  "$out" "an overlapping reservation is refused"
out=$(scontrol create reservation ReservationName=resB StartTime=now Duration=10 Nodes=n2 \
  Users=root 2>&1)
assert_match "Error creating the reservation: Requested nodes are busy" "$out" \
  "a reservation on a node a job holds is refused"
out=$(scontrol create reservation ReservationName=resB StartTime=now Duration=10 Nodes=n9 \
  Users=root 2>&1)
assert_eq "Error creating the reservation: Invalid node name specified" "$out" "an unknown node"
out=$(scontrol create reservation ReservationName=resB StartTime=now Nodes=n2 Users=root 2>&1)
assert_match "Error creating the reservation: An end time or duration must be given" "$out" \
  "without an end or duration"
assert_eq "" "$(scontrol delete ReservationName=resA 2>&1)" "scontrol delete reservation"
wait_running "$b2" || fail "drvtest2's waiting job starts once the reservation is gone"
assert_eq "n1" "$(squeue -h -j "$b2" -o %N)" "on the node it freed"
assert_eq "No reservations in the system" "$(scontrol show reservation)" "none left"
scancel "$b1" "$b2"; wait_job "$b1"; wait_job "$b2"

# ---- MAINT: blocked jobs say so ----
out=$(scontrol create reservation ReservationName=maint StartTime=now Duration=10 Nodes=ALL \
  Users=root Flags=MAINT 2>&1)
assert_eq "Reservation created: maint" "$out" "a maintenance reservation"
assert_eq 'n2 idle$' "$(sinfo -h -N -n n2 -o '%N %t')" "sinfo: a node in maintenance has Slurm's \$"
m=$(sbatch --parsable --wrap true)
wait_until 30 pending_for "$m" "ReqNodeNotAvail, Reserved for maintenance" \
  && ok "a job waits: Reserved for maintenance" || fail "m: $(squeue -h -j "$m" -o '%t %r')"
scontrol delete ReservationName=maint
wait_job "$m" && assert_eq COMPLETED "$(job_state "$m")" "and runs once maintenance is over"

# ---- a reservation ahead: only jobs that end before it start on its nodes ----
scontrol create reservation ReservationName=ahead StartTime=now+20minutes Duration=30 Nodes=ALL \
  Users=root >/dev/null
resv_end=$(date -d "$(scontrol show res ahead | sed -n 's/.*EndTime=\([^ ]*\).*/\1/p')" +%s)
long=$(sbatch --parsable -t 30 --wrap true)
short=$(sbatch --parsable -t 5 --wrap true)
wait_job "$short" && assert_eq COMPLETED "$(job_state "$short")" \
  "a job that ends before it begins runs (backfilled past the one that would not)" \
  || fail "short: $(squeue -h -j "$short" -o '%t %r')"
assert_match "^PD" "$(squeue -h -j "$long" -o '%t %r')" "one that would run into it waits"
planned() { local s; s=$(squeue -h -j "$long" -o %S); [ "$s" != N/A ] && [ -n "$s" ] \
  && [ "$(date -d "$s" +%s)" -ge "$resv_end" ]; }
wait_until 30 planned && ok "backfill plans it after the reservation (squeue %S)" \
  || fail "long's expected start $(squeue -h -j "$long" -o %S), reservation ends $resv_end"
assert_match "INACTIVE" "$(scontrol show res ahead)" "not active yet"
scontrol delete ReservationName=ahead
wait_job "$long" || fail "the long job runs once the reservation is gone"

# ---- one that ends goes by itself; the rest survive a restart ----
scontrol create reservation ReservationName=brief StartTime=now EndTime=now+3 Nodes=n2 \
  Users=root >/dev/null
scontrol create reservation ReservationName=kept StartTime=now+1hour Duration=1-00:00:00 \
  NodeCnt=1 Accounts=root Flags=WEEKLY >/dev/null
wait_until 30 bash -c "! scontrol show res 2>/dev/null | grep -q ReservationName=brief" \
  && ok "a reservation that ended is gone" || fail "brief still there: $(scontrol show res brief)"
before=$(scontrol show res kept -o)
kill_ctld TERM
restart_ctld
assert_eq "$before" "$(scontrol show res kept -o)" "a reservation survives a controller restart"
assert_match "Flags=WEEKLY" "$before" "with its flags"
finish
