#!/usr/bin/env bash
# sacct_bench.sh - sacct over 100,000 completed jobs (each with a batch step) in accounting/lmdb
# and accounting/postgres: the store filled through the plugin API (acct_fill), then a real
# controller answering sacct from it; record-insert throughput through a running controller; the
# same queries against Slurm's sacct when slurm-wlm is installed with accounting. Prints figures;
# not a test. Uses the build in build/ (or BIN=...); PostgreSQL as tests/integration/postgres_test.sh
# starts it (skipped when its server binaries are missing).
#
#   bench/sacct_bench.sh [JOBS] [RUNS]     defaults: 100000 jobs, each query run 5 times (median)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/build}
JOBS=${1:-100000}
RUNS=${2:-5}
source "$ROOT/scripts/cluster.sh"
source "$ROOT/tests/integration/pg/server.sh"
T=$(mktemp -d /tmp/drover-sacct-bench.XXXXXX)
chmod 755 "$T"
PG_DIR=
cleanup() {
  cluster_stop "$T/c" 2>/dev/null
  pg_stop immediate 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
export PATH=$BIN/core/cli:$PATH

# timed RUNS CMD...: runs CMD RUNS times; MS is the median wall time in ms, LINES its output's lines.
timed() {
  local runs=$1; shift
  local times=() i s e
  for i in $(seq 1 "$runs"); do
    s=$(date +%s%N)
    LINES=$("$@" | wc -l)
    e=$(date +%s%N)
    times+=($(( (e - s) / 1000 )))
  done
  local us; us=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  MS=$(printf '%d.%03d' $((us / 1000)) $((us % 1000)))
}

# queries SACCT: the four queries, one line each.
queries() {
  local sacct=$1 mid=$((JOBS / 2)) day
  day=$(date -d '@'$(( $(date +%s) - 6 * JOBS / 2 )) +%Y-%m-%dT%H:%M:%S)
  local to; to=$(date -d '@'$(( $(date +%s) - 6 * JOBS / 2 + 3600 )) +%Y-%m-%dT%H:%M:%S)
  line() { printf '  %-44s %10s ms  %7d lines\n' "$1" "$MS" "$LINES"; }
  timed "$RUNS" "$sacct" -a -X -P -S 2000-01-01 -o JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode
  line "all jobs, -X -P (the dump)"
  timed "$RUNS" "$sacct" -a -P -S 2000-01-01
  line "all jobs and steps, -P"
  timed "$RUNS" "$sacct" -X -P -u 1003 -S 2000-01-01
  line "one user (-u 1003 -X -P)"
  timed "$RUNS" "$sacct" -P -j "$mid"
  line "one job id (-j $mid -P)"
  timed "$RUNS" "$sacct" -a -X -P -S "$day" -E "$to"
  line "a one-hour window (-S -E -X -P)"
}

# store_bench NAME CONF...: fill, start a controller on the store, time the queries.
store_bench() {
  local name=$1; shift
  echo "accounting/$name, $JOBS jobs:"
  "$BIN/bench/acct_fill" "accounting/$name" "$JOBS" ClusterName=local "$@" 2>/dev/null | sed 's/^/  /'
  cluster_stop "$T/c" 2>/dev/null
  rm -rf "$T/c"
  mkdir -p "$T/c"
  write_config "$T/c" 1 "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
  local kv
  for kv in "AccountingStorageType=accounting/$name" "$@"; do
    sed -i "/^${kv%%=*}=/d" "$T/c/slurm.conf"
    sed -i "/^PartitionName=/i $kv" "$T/c/slurm.conf"
  done
  export SLURM_CONF=$T/c/slurm.conf
  cluster_start "$T/c" 1 >/dev/null 2>&1 || { echo "  the cluster did not start"; return; }
  queries sacct
  # Record-insert throughput through the controller: held jobs from 8 submitters at once (a
  # submit record each), until the accounting thread has delivered every one.
  local n=4000 s e
  s=$(date +%s%N)
  seq 1 $n | xargs -P 8 -I{} sbatch --hold -o /dev/null --wrap true >/dev/null
  local submitted; submitted=$(date +%s%N)
  until [ "$(scontrol show config | sed -n 's/^AccountingRecordsWaiting *= *//p')" = 0 ]; do sleep 0.05; done
  e=$(date +%s%N)
  printf '  %-44s %10d records/s (submission %d jobs/s; the last record stored %d ms after the last submission)\n' \
    "records through a running controller" $(( n * 1000000000 / (e - s) )) \
    $(( n * 1000000000 / (submitted - s) )) $(( (e - submitted) / 1000000 ))
  scancel -u root >/dev/null 2>&1
  cluster_stop "$T/c"
}

store_bench lmdb "AccountingStorageLoc=$T/lmdb"

if pg_available && [ -f "$BIN/plugins/lib/accounting_postgres.so" ]; then
  pg_init "$T/pg" >/dev/null && pg_start && pg_create_db bench bench bench-pass >/dev/null
  store_bench postgres AccountingStorageHost=127.0.0.1 "AccountingStoragePort=$PG_PORT" \
    AccountingStorageUser=bench AccountingStoragePass=bench-pass AccountingStorageLoc=bench
else
  echo "accounting/postgres: skipped (PostgreSQL server binaries or the plugin missing)"
fi

# Slurm's own sacct, when slurm-wlm is installed and has accounting to ask.
slurm_sacct=$(type -a -P sacct 2>/dev/null | grep -v "^$BIN" | head -1)
if [ -n "$slurm_sacct" ] && "$slurm_sacct" --version 2>/dev/null | grep -q '^slurm'; then
  echo "Slurm ($("$slurm_sacct" --version)), against its own accounting:"
  if "$slurm_sacct" -X -n -P -o JobID -S now >/dev/null 2>&1; then
    queries "$slurm_sacct"
  else
    echo "  its sacct does not answer (no slurmdbd/accounting configured)"
  fi
else
  echo "Slurm: absent (slurm-wlm's sacct is not installed here)"
fi
