#!/usr/bin/env bash
# policy.sh - the cost of site policy on submission: the same burst of held jobs submitted to a
# loopback cluster twice, once with AccountingStorageEnforce unset and once with
# associations,limits,qos over an association tree with limits at every level (accounts with
# GrpTRES, GrpJobs, GrpSubmitJobs, MaxWall; the user's MaxSubmitJobs and MaxJobs; a QOS with
# MaxJobsPerUser and MaxTRESPerUser). Target (site policy issue): the rate with limits within 10 %
# of the rate without.
#
#   bench/policy.sh                      # 4,000 jobs from 8 clients, 200 accounts
#   BENCH_JOBS=20000 BENCH_CLIENTS=16 BENCH_ACCOUNTS=1000 bench/policy.sh
#
# Prints jobs/s for both runs and their ratio. BIN=<repo>/build, KEEP=1 keeps the directory.
# Slurm's figures are not printed: no Slurm controller is set up by this script.
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
JOBS=${BENCH_JOBS:-4000}
CLIENTS=${BENCH_CLIENTS:-8}
ACCOUNTS=${BENCH_ACCOUNTS:-200}

for b in core/ctld/droverctld core/noded/droverd core/cli/sbatch core/cli/sacctmgr; do
  [ -x "$BIN/$b" ] || { echo "policy.sh: $BIN/$b is missing; build first" >&2; exit 1; }
done
export PATH=$BIN/core/cli:$PATH

# run_once NAME [CONFIG LINE]: a fresh cluster, the tree when limits are on, then the burst.
run_once() {
  local dir; dir=$(mktemp -d /tmp/drover-policy-bench.XXXXXX)
  chmod 755 "$dir"
  write_config "$dir" 2 "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
  [ -n "${2:-}" ] && sed -i "/^PartitionName=/i $2" "$dir/slurm.conf"
  sed -i "/^PartitionName=/i MaxJobCount=$((JOBS * 2))" "$dir/slurm.conf"
  export SLURM_CONF=$dir/slurm.conf
  cluster_start "$dir" 2 >/dev/null || { echo "policy.sh: the cluster did not start" >&2; exit 1; }
  if [ -n "${2:-}" ]; then
    sacctmgr -i add cluster local >/dev/null
    sacctmgr -i add qos bench MaxJobsPerUser=100000 MaxTRESPerUser=cpu=100000 >/dev/null
    sacctmgr -i add account top GrpTRES=cpu=100000 GrpSubmitJobs=1000000 >/dev/null
    local i
    for i in $(seq 1 "$ACCOUNTS"); do
      sacctmgr -i add account "a$i" parent=top GrpJobs=1000 GrpTRES=cpu=1000,mem=1T \
        MaxWall=1-00:00:00 >/dev/null
    done
    sacctmgr -i add user root account="a$ACCOUNTS" DefaultAccount="a$ACCOUNTS" \
      MaxSubmitJobs=1000000 MaxJobs=1000 QOS=normal,bench DefaultQOS=bench >/dev/null
    sacctmgr -i modify user root set DefaultAccount="a$ACCOUNTS" >/dev/null
  fi
  local per=$((JOBS / CLIENTS)) c t0 t1 pids=()
  t0=$(date +%s%N)
  for c in $(seq 1 "$CLIENTS"); do
    ( for _ in $(seq 1 "$per"); do sbatch -H -t 10 --wrap true >/dev/null || exit 1; done ) &
    pids+=($!)
  done
  wait "${pids[@]}" # not the daemons, which are children too
  t1=$(date +%s%N)
  local n; n=$(squeue -h -t pending -o %i | wc -l)
  cluster_stop "$dir" 2>/dev/null
  [ -n "${KEEP:-}" ] || rm -rf "$dir"
  awk -v n="$n" -v ns=$((t1 - t0)) -v name="$1" \
    'BEGIN { printf "%-28s %6d jobs in %6.2f s  %8.1f jobs/s\n", name, n, ns / 1e9, n / (ns / 1e9) }'
}

echo "policy.sh: $JOBS held jobs from $CLIENTS clients, $ACCOUNTS accounts ($(nproc) cores)"
plain=$(run_once "no enforcement")
echo "$plain"
limits=$(run_once "associations,limits,qos" "AccountingStorageEnforce=associations,limits,qos")
echo "$limits"
awk -v a="$(echo "$plain" | awk '{print $(NF-1)}')" -v b="$(echo "$limits" | awk '{print $(NF-1)}')" \
  'BEGIN { printf "with limits: %.1f %% of the rate without (target: at least 90 %%)\n", 100 * b / a }'
