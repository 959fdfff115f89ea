#!/usr/bin/env bash
# licenses_test.sh - slurm.conf's Licenses= on a live cluster: -L checked at submission (Slurm's
# refusal for an unknown license or more than there are), held by running jobs, a job waiting
# with reason Licenses until they are free, scontrol show licenses, squeue %W and scontrol show
# job; the count held surviving a controller restart.
source "$(dirname "$0")/lib.sh"
start_cluster 2 "Licenses=matlab:2,fluent"
cd "$T"

assert_eq "LicenseName=fluent
    Total=1 Used=0 Free=1 Reserved=0 Remote=no
LicenseName=matlab
    Total=2 Used=0 Free=2 Reserved=0 Remote=no" "$(scontrol show licenses)" "scontrol show licenses, sorted by name"
assert_eq "Licenses = matlab:2,fluent:1" "$(scontrol show config | grep '^Licenses ' | tr -s ' ')" \
  "scontrol show config"

out=$(sbatch -L ansys --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: Invalid license specification" "$rc|$out" \
  "a license slurm.conf does not have"
out=$(sbatch -L matlab:3 --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: Invalid license specification" "$rc|$out" \
  "more than there are"

j1=$(sbatch --parsable -L matlab:2 --wrap "$(gate one)")
wait_running "$j1" || fail "a job holding both matlab licenses runs"
j2=$(sbatch --parsable --licenses=matlab --wrap true)
wait_until 30 pending_for "$j2" Licenses && ok "the next matlab job waits (Licenses)" \
  || fail "second: $(squeue -h -j "$j2" -o '%t %r')"
j3=$(sbatch --parsable -L fluent --wrap true)
wait_job "$j3" && assert_eq "COMPLETED" "$(job_state "$j3")" "a job of another license runs meanwhile"
assert_eq "matlab:2" "$(squeue -h -j "$j1" -o %W)" "squeue %W"
assert_contains "Licenses=matlab:1 " "$(scontrol show job "$j2")" "scontrol show job"
assert_contains "LicenseName=matlab Total=2 Used=2 Free=0 Reserved=0 Remote=no" \
  "$(scontrol -o show lic matlab)" "held while the job runs (-o, one license)"

kill_ctld TERM
restart_ctld
wait_until 60 bash -c "squeue -h >/dev/null 2>&1" || fail "controller back"
assert_contains "Used=2 Free=0" "$(scontrol -o show lic matlab)" "still held after a restart"
wait_until 30 pending_for "$j2" Licenses && ok "and the job still waits" \
  || fail "after restart: $(squeue -h -j "$j2" -o '%t %r')"
open_gate one
wait_job "$j2" && assert_eq "COMPLETED" "$(job_state "$j2")" "it runs once they are free"
assert_contains "Used=0 Free=2" "$(scontrol -o show lic matlab)" "all free at the end"
srun -L fluent true && ok "srun -L" || fail "srun -L"

finish
