#!/usr/bin/env bash
# failover_test.sh - a primary and a backup controller on loopback (127.0.0.1 and 127.0.0.2)
# naming one shared StateSaveLocation (failover_netns_test gives each its own): the backup keeps
# its copy in a subdirectory of it, holds every acknowledged job, takes control
# within SlurmctldTimeout when the primary is killed, commands and nodes follow it, running jobs
# keep running, the primary comes back, catches up and takes control back, and scontrol takeover
# moves control by hand. The metrics of the one in control show the standby attached.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/ha.sh"
HA_SHARED_STATE=1 make_ha_cluster 2 2 MetricsType=metrics/openmetrics
cd "$T"
# The backup makes its copy once it has attached to the primary (later, on a busy machine).
state_layout() { [ -f c/state/data.mdb ] && [ -f c/state/backup.ctl2/data.mdb ]; }
wait_until 60 state_layout && ok "a shared StateSaveLocation: the backup's state is in backup.ctl2/" || fail "state layout: $(find c/state -name data.mdb)"

assert_eq "Slurmctld(primary) at ctl1 is UP (in control)
Slurmctld(backup) at ctl2 is UP" "$(scontrol ping)" "scontrol ping: both up, the primary in control"
# The controller in control reports its standby in its metrics; the standby serves none.
port=$(awk -F= '/^SlurmctldPort/ {print $2}' "$SLURM_CONF")
attached() { curl -sf --max-time 10 "http://127.0.0.1:$port/metrics/controller" | grep -qx "$1"; }
wait_until 30 attached 'slurm_standby_attached{standby="ctl2"} 1' &&
  ok "metrics: the standby is attached" || fail "metrics: $(curl -s "http://127.0.0.1:$port/metrics/controller")"
assert_eq 000 "$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "http://127.0.0.2:$port/metrics/jobs")" \
  "a standby answers no metrics"
# systemctl reload (SIGHUP) and logrotate (SIGUSR2) reach a standby too: it checks its slurm.conf
# and opens its log again, and stands by as before (by default either signal would end it).
kill -HUP "$(cat "$T/c/ctl2.pid")"; kill -USR2 "$(cat "$T/c/ctl2.pid")"
standby_logged() { grep -q "$1" "$T/c/log/ctl2.log"; }
wait_until 30 standby_logged "SIGHUP: .* re-read and valid" && wait_until 30 standby_logged "SIGUSR2: log file" &&
  ok "a standby takes SIGHUP and SIGUSR2" || fail "standby log: $(tail -3 "$T/c/log/ctl2.log")"
assert_match "Slurmctld\(backup\) at ctl2 is UP" "$(scontrol ping)" "and stands by as before"

running=$(sbatch --parsable -J through --wrap "$(gate through); echo survived")
wait_running "$running" || fail "job $running did not start"

# A storm of submissions while the primary is killed: every acknowledged job is on the backup.
( for i in $(seq 1 300); do sbatch --hold -J storm --wrap true 2>&1; done > storm.txt ) &
storm=$!
# The kill lands once some submissions are acknowledged, however slowly they come.
wait_until 60 acked_at_least 20 storm.txt || fail "the storm did not start"
kill_controller 1 KILL
wait $storm
acked=$(grep -c '^Submitted batch job' storm.txt || true)
assert_eq 300 "$acked" "every submission in the storm was acknowledged (commands waited for the takeover)"
wait_until 60 in_control 2 || fail "the backup did not take control"
assert_match "Slurmctld\(primary\) at ctl1 is DOWN" "$(scontrol ping)" "scontrol ping shows the primary down"
missing=$(missing_jobs storm.txt)
assert_eq 0 "$missing" "every acknowledged job is known to the backup"
assert_eq 0 "$(awk '/^Submitted/ {print $4}' storm.txt | sort | uniq -d | wc -l)" "no job id was handed out twice"
assert_eq RUNNING "$(squeue -h -j "$running" -o %T)" "the running job kept running through the takeover"
open_gate through
wait_job "$running"
assert_eq COMPLETED "$(job_state "$running")" "its end was reported to the backup"
assert_eq survived "$(cat "slurm-$running.out")" "and its output is whole"
assert_match COMPLETED "$(sacct -j "$running" -X -n -o State)" "the backup recorded it in accounting"
after=$(sbatch --parsable --wrap 'echo on-backup')
wait_job "$after"
assert_eq COMPLETED "$(job_state "$after")" "the backup schedules and nodes run its jobs"

# The primary comes back, catches up from the backup and takes control back.
start_controller 1
wait_until 60 only_in_control 1 || fail "the primary did not take control back"
assert_match "ctl2 is UP$" "$(scontrol ping)" "the backup is standing by again"
assert_eq COMPLETED "$(job_state "$after")" "the primary holds what the backup did"
last=$(awk '/^Submitted/ {print $4}' storm.txt | sort -n | tail -1)
next=$(sbatch --parsable --hold --wrap true)
[ "$next" -gt "$after" ] && [ "$next" -gt "$last" ] && ok "job ids continue on the primary ($next)" || fail "id $next does not follow $after"

# scontrol takeover: by hand, and only for an administrator.
scontrol takeover
wait_until 60 only_in_control 2 || fail "scontrol takeover did not move control"
assert_eq PENDING "$(squeue -h -j "$next" -o %T)" "after scontrol takeover the backup knows every job"
assert_contains "Invalid takeover index" "$(scontrol takeover x 2>&1)" "a bad index is refused"

# scontrol shutdown stops every controller.
scontrol shutdown >/dev/null
for i in 1 2; do
  wait_until 60 pid_gone "$(cat "$T/c/ctl$i.pid")" && ok "controller $i shut down" || fail "controller $i still runs"
done
finish
