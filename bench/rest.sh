#!/usr/bin/env bash
# rest.sh - drover-restd under load: GET /slurm/v0.0.42/jobs with JOBS jobs queued (latency,
# median and p99 of ROUNDS requests) and POST job/submit from 1 and 32 concurrent clients
# (requests per second, p99), beside sbatch's own submission rate; slurmrestd's figures the same
# way when slurm-wlm's slurmrestd runs on this machine (SLURMRESTD_URL and SLURM_JWT set).
# Prints figures; not a test. Uses the build in build/ (or BIN=...).
#
#   bench/rest.sh [JOBS] [ROUNDS]       defaults: 10000 queued jobs, 200 rounds
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/build}
JOBS=${1:-10000}
ROUNDS=${2:-200}
source "$ROOT/scripts/cluster.sh"
T=$(mktemp -d /tmp/drover-rest-bench.XXXXXX)
cleanup() { cluster_stop "$T/c" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
export PATH=$BIN/core/cli:$PATH

mkdir -p "$T/c"
write_config "$T/c" 2 "$(free_port 2>/dev/null || echo $((RANDOM % 1000 + 40000)))" "$((RANDOM % 11000 + 20000))"
printf 'AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s/c/jwt.key\nMaxJobCount=%d\n' "$T" "$((JOBS * 2 + 1000))" >> "$T/c/slurm.conf"
head -c 32 /dev/urandom > "$T/c/jwt.key"
cluster_start "$T/c" 2 || exit 1
export SLURM_CONF=$T/c/slurm.conf
port=$((RANDOM % 1000 + 41000))
"$BIN/core/restd/drover-restd" -f "$SLURM_CONF" -t 32 "127.0.0.1:$port" > "$T/restd.log" 2>&1 &
echo $! > "$T/c/restd.pid"
URL=${URL:-http://127.0.0.1:$port}
tok=$(scontrol token lifespan=3600); tok=${tok#SLURM_JWT=}

# stats FILE: "median p99" of the seconds in FILE, in ms.
stats() {
  sort -n "$1" | awk '{a[NR] = $1} END {p = int(NR * 0.99); if (p < 1) p = 1
    printf "%7.2f ms median  %7.2f ms p99", a[int((NR + 1) / 2)] * 1000, a[p] * 1000}'
}

echo "queueing $JOBS held jobs with sbatch ..."
s=$(date +%s%N)
for i in $(seq 1 "$JOBS"); do sbatch --hold -o /dev/null --wrap true > /dev/null; done
e=$(date +%s%N)
printf '  sbatch, one client:                %8.0f submissions/s\n' "$(echo "$JOBS / (($e - $s) / 1000000000)" | bc -l)"

run() {  # NAME URL TOKEN
  local url=$2 tk=$3 body='{"script":"#!/bin/sh\ntrue","job":{"hold":true,"current_working_directory":"/tmp","standard_output":"/dev/null"}}'
  for _ in $(seq 1 20); do curl -s -o /dev/null -w '%{time_total}\n' -H "X-SLURM-USER-TOKEN: $tk" "$url/slurm/v0.0.42/jobs"; done > "$T/get"
  printf '  %-12s GET jobs (%d queued):   %s\n' "$1" "$JOBS" "$(stats "$T/get")"
  for clients in 1 32; do
    s=$(date +%s%N)
    seq 1 "$ROUNDS" | xargs -P "$clients" -I{} curl -s -o /dev/null -w '%{time_total}\n' \
      -H "X-SLURM-USER-TOKEN: $tk" -H 'Content-Type: application/json' --data-binary "$body" \
      "$url/slurm/v0.0.42/job/submit" > "$T/post"
    e=$(date +%s%N)
    printf '  %-12s POST submit, %2d clients: %8.0f requests/s  %s\n' "$1" "$clients" \
      "$(echo "$ROUNDS / (($e - $s) / 1000000000)" | bc -l)" "$(stats "$T/post")"
  done
}
run drover-restd "$URL" "$tok"
if [ -n "${SLURMRESTD_URL:-}" ] && [ -n "${SLURM_JWT:-}" ]; then
  run slurmrestd "$SLURMRESTD_URL" "$SLURM_JWT"
else
  echo "  slurmrestd: set SLURMRESTD_URL and SLURM_JWT to a running slurmrestd to compare"
fi
