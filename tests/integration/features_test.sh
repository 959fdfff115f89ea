#!/usr/bin/env bash
# features_test.sh - -C/--constraint with the default select/linear: jobs land on nodes with the
# features they ask for, '&' and '|' combine them, and a feature no node has is refused at submit.
source "$(dirname "$0")/lib.sh"
make_cluster 3
sed -i 's/^\(NodeName=n1 .*\)$/\1 Feature=fast,ib/; s/^\(NodeName=n2 .*\)$/\1 Feature=slow,ib/; s/^\(NodeName=n3 .*\)$/\1 Feature=slow/' "$SLURM_CONF"
cluster_start "$T/c" 3
cd "$T"
on() { local id; id=$(sbatch --parsable "$@" --wrap true); wait_job "$id"; squeue -h -t all -j "$id" -o %N; }
assert_eq n1 "$(on -C fast)" "-C fast runs on the only fast node"
assert_eq n2 "$(on -C 'slow&ib')" "'&' needs both features"
assert_match "^n[12]$" "$(on -C 'fast|ib')" "'|' takes either"
err=$(sbatch -C nosuch --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: Invalid feature specification" "$err" "an unknown feature is refused"
err=$(sbatch -C 'fast&slow' --wrap true 2>&1)
assert_eq "sbatch: error: Batch job submission failed: Requested node configuration is not available" "$err" "a combination no node has is refused"
finish
