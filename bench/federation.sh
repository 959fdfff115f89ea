#!/usr/bin/env bash
# federation.sh - the cost of a federation, on loopback clusters sharing one PostgreSQL store
# (Debian's server binaries, started here): the submission rate to one member of a federation of
# three against the rate to one cluster alone (every node busy, so each federated job's copies
# go to the other two members while the burst runs; target: within 20 %), and the time from
# sbatch to RUNNING when only the third member has room (the copy's votes, then its start).
#
#   bench/federation.sh                  # 2,000 jobs from 4 clients, 10 starts
#   BENCH_JOBS=10000 BENCH_CLIENTS=8 BENCH_STARTS=20 bench/federation.sh
#
# BIN=<repo>/build. Slurm's figures are not printed: no Slurm federation is set up here.
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"
fail() { echo "federation.sh: $*" >&2; exit 1; }
source "$ROOT/tests/integration/pg/server.sh"
JOBS=${BENCH_JOBS:-2000}
CLIENTS=${BENCH_CLIENTS:-4}
STARTS=${BENCH_STARTS:-10}

pg_available || fail "PostgreSQL server binaries not found"
[ -f "$BIN/plugins/lib/accounting_postgres.so" ] || fail "$BIN/plugins/lib/accounting_postgres.so not built"
export PATH=$BIN/core/cli:$PATH
T=$(mktemp -d /tmp/drover-fed-bench.XXXXXX)
chmod 755 "$T"
stop_all() { for d in "$T"/c*; do cluster_stop "$d" 2>/dev/null; done; pg_stop immediate; rm -rf "$T"; }
trap stop_all EXIT
pg_init "$T/pg" && pg_start || fail "PostgreSQL did not start"
PW=bench-$RANDOM$RANDOM
pg_create_db drover_fed_bench drover_fed "$PW" || fail "creating the database"

# member NAME: a one-node cluster on the store (the first one's key shared by all).
member() {
  local dir=$T/$1
  mkdir -p "$dir"
  [ -f "$T/c1/drover.key" ] && cp "$T/c1/drover.key" "$dir/"
  write_config "$dir" 1 "$(free_port)" "$(( RANDOM % 11000 + 20000 ))"
  sed -i "s/^ClusterName=.*/ClusterName=$1/; /^AccountingStorageType=/d" "$dir/slurm.conf"
  sed -i "/^PartitionName=/i AccountingStorageType=accounting/postgres\nAccountingStorageHost=127.0.0.1\nAccountingStoragePort=$PG_PORT\nAccountingStorageUser=drover_fed\nAccountingStoragePass=$PW\nAccountingStorageLoc=drover_fed_bench\nMaxJobCount=$((JOBS * 3))" "$dir/slurm.conf"
  cluster_start "$dir" 1 >/dev/null || fail "cluster $1 did not start"
}
on() { local c=$1; shift; SLURM_CONF=$T/$c/slurm.conf "$@"; }
busy() { on "$1" sbatch -M "$1" --parsable --exclusive -o /dev/null --wrap 'sleep 3600' | cut -d';' -f1; }

# burst CLUSTER: JOBS jobs from CLIENTS clients; prints jobs/s.
burst() {
  local per=$((JOBS / CLIENTS)) c t0 t1 pids=()
  t0=$(date +%s%N)
  for c in $(seq 1 "$CLIENTS"); do
    ( for _ in $(seq 1 "$per"); do on "$1" sbatch -o /dev/null --wrap true >/dev/null || exit 1; done ) &
    pids+=($!)
  done
  wait "${pids[@]}" || fail "a submission failed"
  t1=$(date +%s%N)
  echo "$(( per * CLIENTS * 1000000000 / (t1 - t0) ))"
}

for c in c1 c2 c3; do member "$c"; done
on c1 sacctmgr -i add cluster c1 c2 c3 >/dev/null
for c in c1 c2 c3; do busy "$c" >/dev/null; done
alone=$(burst c1)
on c1 scancel --state=pending --user=root >/dev/null 2>&1
on c1 sacctmgr -i add federation fed1 clusters=c1,c2,c3 >/dev/null
until [ "$(on c1 scontrol show federation | grep -c '^Sibling:')" = 2 ]; do sleep 0.5; done
until [ "$(on c3 scontrol show federation | grep -c '^Sibling:')" = 2 ]; do sleep 0.5; done
federated=$(burst c1)
printf 'submission, one cluster:              %6d jobs/s\n' "$alone"
printf 'submission, a federation of three:    %6d jobs/s (%d%% of one cluster; target: at least 80%%)\n' \
  "$federated" "$(( federated * 100 / (alone > 0 ? alone : 1) ))"
on c1 scancel --state=pending --user=root >/dev/null 2>&1
# Wait until no copy is left on c2 and c3 before the starts are timed.
until [ -z "$(on c3 squeue -h -t pending -o %i)" ] && [ -z "$(on c2 squeue -h -t pending -o %i)" ]; do sleep 1; done

# The third member has room: c3's busy job goes; each start is timed from sbatch on c1.
on c3 scancel --user=root >/dev/null 2>&1
times=()
for _ in $(seq 1 "$STARTS"); do
  t0=$(date +%s%N)
  id=$(on c1 sbatch --parsable -o /dev/null --wrap 'sleep 1')
  until [ "$(on c3 squeue -h -j "$id" -t all -o %t 2>/dev/null)" = R ] || [ "$(on c3 squeue -h -j "$id" -t all -o %t 2>/dev/null)" = CD ]; do sleep 0.02; done
  t1=$(date +%s%N)
  times+=($(( (t1 - t0) / 1000000 )))
  until [ "$(on c3 squeue -h -j "$id" -t all -o %t 2>/dev/null)" = CD ]; do sleep 0.1; done
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
printf 'submit to start on the third member:  median %d ms, max %d ms (%d starts)\n' \
  "$(sed -n "$(( (STARTS + 1) / 2 ))p" <<<"$sorted")" "$(tail -1 <<<"$sorted")" "$STARTS"
echo "Slurm: n/a (no Slurm federation here)"
