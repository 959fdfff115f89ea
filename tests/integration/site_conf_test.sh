#!/usr/bin/env bash
# site_conf_test.sh - a site's slurm.conf names Slurm's accounting plugins, and Drover starts with
# them as Slurm would: accounting_storage/none keeps no records (sacct says so in Slurm's words),
# accounting_storage/slurmdbd is the controller's own store (no database daemon needed).
source "$(dirname "$0")/lib.sh"
start_cluster 1 "AccountingStorageType=accounting_storage/none"
cd "$T"

job=$(sbatch --parsable -o /dev/null --wrap true)
wait_job "$job"
assert_eq "COMPLETED" "$(job_state "$job")" "with accounting_storage/none the controller runs jobs"
out=$(sacct -j "$job" 2>&1)
assert_eq "1 Slurm accounting storage is disabled" "$? $out" "sacct says accounting is disabled, as Slurm's does"
assert_match "^AccountingStorageType += \(null\)$" "$(scontrol show config | grep '^AccountingStorageType ')" \
  "scontrol show config shows no accounting type"

cluster_stop "$T/c"
sed -i 's|^AccountingStorageType=.*|AccountingStorageType=accounting_storage/slurmdbd|' "$T/c/slurm.conf"
cluster_start "$T/c" 1
job=$(sbatch --parsable -o /dev/null --wrap true)
wait_job "$job"
wait_until 30 bash -c "sacct -n -X -j $job -o State | grep -q COMPLETED" \
  && ok "with accounting_storage/slurmdbd the controller's own store records jobs" \
  || fail "sacct does not list job $job: $(sacct -j "$job" 2>&1)"
assert_contains "no slurmdbd is needed" "$(cat "$T"/c/log/droverctld.log)" "and the log says why no slurmdbd is needed"
finish
