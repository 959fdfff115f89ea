#!/usr/bin/env bash
# e2e.sh - end-to-end benchmark of Drover (and of Slurm, side by side, when one is running here).
#
#   bench/e2e.sh                   full sizes: 2000 sequential submits, 10,000 pending, 1000 e2e jobs
#   BENCH_SCALE=0.1 bench/e2e.sh   a tenth of every size (quick run)
#
# Measures, for each system:
#   sbatch_sequential    N held `sbatch --wrap true` one after another; jobs/s and ms each
#   squeue_pending       median wall time of a full `squeue >/dev/null` with M jobs pending
#   mem_per_pending_job  (controller VmRSS with M pending - VmRSS with none) / M, bytes
#   e2e_trivial          K `sbatch --wrap true` (not held) from the first submit until squeue
#                        shows none of them left, on a 4-node cluster; jobs/s
#   dependent_jobs       afterok chains of 10 and fan-ins of 49 into 1, until drained; jobs/s
#   array                one --array of N trivial tasks, from submit until drained; tasks/s
# then a table against Drover's targets. See bench/README.md. Always exits 0 once it has run
# (a missed target is a result, not an error); 1 only when the Drover binaries are missing.
#
# Knobs (environment):
#   BENCH_SCALE=1          multiplies the three sizes below (minimum 10 each)
#   BENCH_SEQ=2000         sequential submissions          BENCH_PENDING=10000  pending jobs
#   BENCH_E2E=1000         end-to-end jobs                 BENCH_SQUEUE_RUNS=20 squeue repetitions
#   BENCH_DEP=1000         dependent jobs                  BENCH_ARRAY=10000    tasks in one array
#   BENCH_PAR=2            parallel sbatch clients for topping up to BENCH_PENDING and for e2e
#   BENCH_NODES=4          node daemons in the Drover cluster
#   BENCH_E2E_TIMEOUT=600  seconds to wait for the e2e jobs to drain
#   BENCH_SLURM=auto       auto: compare with Slurm when it answers; 0: never; 1: insist
#   SLURM_BIN=/usr/bin     where Slurm's commands are
#   BIN=<repo>/build       where Drover's build is
#   BENCH_DIR=/tmp         parent of the temporary cluster directory; KEEP=1 keeps it
set -uo pipefail
export LC_ALL=C   # a '.' in $EPOCHREALTIME and in awk's numbers

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build}
source "$ROOT/scripts/cluster.sh"

SCALE=${BENCH_SCALE:-1}
scaled() { awk -v n="$1" -v s="$SCALE" 'BEGIN { v = int(n * s + 0.5); if (v < 10) v = 10; print v }'; }
N_SEQ=${BENCH_SEQ:-$(scaled 2000)}
N_PEND=${BENCH_PENDING:-$(scaled 10000)}
N_E2E=${BENCH_E2E:-$(scaled 1000)}
N_DEP=${BENCH_DEP:-$(scaled 1000)}       # dependent jobs (chains and fan-ins)
N_ARRAY=${BENCH_ARRAY:-$(scaled 10000)}  # tasks in one job array
[ "$N_PEND" -ge "$N_SEQ" ] || N_PEND=$N_SEQ
SQ_RUNS=${BENCH_SQUEUE_RUNS:-20}
PAR=${BENCH_PAR:-2}
NODES=${BENCH_NODES:-4}
E2E_TIMEOUT=${BENCH_E2E_TIMEOUT:-600}
SLURM_BIN=${SLURM_BIN:-/usr/bin}
JOBNAME=drover-bench-$$

# Slurm's figures measured on this kind of machine; used for the targets when no Slurm runs here.
REF_SLURM_SBATCH=280   # jobs/s
REF_SLURM_SQUEUE=80    # ms for 10,000 pending jobs

for b in core/ctld/droverctld core/noded/droverd core/cli/sbatch core/cli/squeue core/cli/scancel; do
  if [ ! -x "$BIN/$b" ]; then
    echo "e2e.sh: $BIN/$b is missing; build first: cmake --build build --target droverctld droverd drover" >&2
    exit 1
  fi
done

T=$(mktemp -d "${BENCH_DIR:-/tmp}/drover-bench.XXXXXX")
chmod 755 "$T"
CLUSTERS=()
SLURM_USED=0
ORIG_SLURM_CONF=${SLURM_CONF-}
ORIG_SLURM_CONF_SET=${SLURM_CONF+x}

cleanup() {
  local c
  for c in "${CLUSTERS[@]}"; do cluster_stop "$c" >/dev/null 2>&1; done
  if [ "$SLURM_USED" = 1 ]; then use_slurm; "$CLI/scancel" -n "$JOBNAME" >/dev/null 2>&1; fi
  if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- helpers ----------------------------------------------------------------------------------

now() { echo "$EPOCHREALTIME"; }
calc() { awk "BEGIN { printf \"%.${2:-1}f\", $1 }"; }   # calc EXPR [DECIMALS]
rss_kb() { awk -v k="${2:-VmRSS}:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A R   # R[sys.metric] = number (absent: not measured)
report() {     # report SYS METRIC VALUE UNIT [DETAIL]
  printf '%-7s %-24s %10s %-7s %s\n' "$1" "$2" "$3" "$4" "${5:-}"
}

use_drover() {  # point every command (and DROVER_CONF, which wins over SLURM_CONF) at cluster DIR
  export DROVER_CONF=$1/slurm.conf SLURM_CONF=$1/slurm.conf
  CLI=$BIN/core/cli
}
use_slurm() {   # back to the caller's own Slurm environment
  unset DROVER_CONF
  if [ -n "$ORIG_SLURM_CONF_SET" ]; then export SLURM_CONF=$ORIG_SLURM_CONF; else unset SLURM_CONF; fi
  CLI=$SLURM_BIN
}

slurm_available() {
  [ "${BENCH_SLURM:-auto}" != 0 ] || return 1
  [ -x "$SLURM_BIN/scontrol" ] && [ -x "$SLURM_BIN/sbatch" ] || return 1
  local v; v=$(env -u DROVER_CONF "$SLURM_BIN/sbatch" --version 2>/dev/null)
  [[ $v == slurm\ * && $v != *drover* ]] || return 1          # really Slurm, not an installed Drover
  local p; p=$(env -u DROVER_CONF "$SLURM_BIN/scontrol" ping 2>&1) || return 1
  [[ $p == *"is UP"* ]]
}

start_drover() {  # start_drover DIR: a fresh cluster of $NODES nodes with room for many jobs
  local dir=$1 try
  unset DROVER_CONF   # cluster.sh's own sinfo must find this cluster's config, not a previous one's
  CLUSTERS+=("$dir")
  for try in 1 2 3; do   # cluster.sh picks node ports at random; another cluster may hold one
    rm -rf "$dir"; mkdir -p "$dir"
    # node ports below the kernel's ephemeral range (32768-60999), where the thousands of client
    # connections this benchmark makes would otherwise now and then hold one
    write_config "$dir" "$NODES" "$(free_port)" "$((20000 + RANDOM % 12000))"
    sed -i 's/^MinJobAge=.*/MinJobAge=3600/' "$dir/slurm.conf"
    sed -i '/^PartitionName=/i MaxJobCount=200000' "$dir/slurm.conf"
    sed -i '/^PartitionName=/i MaxArraySize=100001' "$dir/slurm.conf"
    cluster_start "$dir" "$NODES" >"$dir/log/start.out" 2>&1 && return 0
    cluster_stop "$dir" >/dev/null 2>&1
    grep -qs 'Address already in use' "$dir/log/start.out" "$dir"/log/*.log || break
    echo "# (a port of $dir was taken; starting again with other ports)"
  done
  echo "e2e.sh: Drover cluster in $dir did not start:" >&2
  tail -n 20 "$dir"/log/*.log "$dir/log/start.out" >&2 2>/dev/null
  return 1
}

# submit_seq COUNT HOLD: COUNT submissions one after another from this shell; prints failures
submit_seq() {
  local n=$1 hold=$2 i fails=0
  for ((i = 0; i < n; i++)); do
    "$CLI/sbatch" --parsable ${hold:+-H} -J "$JOBNAME" -o /dev/null --wrap true >/dev/null 2>>"$T/sbatch.err" ||
      fails=$((fails + 1))
  done
  echo "$fails"
}

# submit_par COUNT HOLD: COUNT submissions from $PAR sbatch loops side by side; prints failures
submit_par() {
  local n=$1 hold=$2
  [ "$n" -gt 0 ] || { echo 0; return; }
  local chunk=$(( (n + PAR - 1) / PAR )); [ "$chunk" -gt 200 ] && chunk=200
  seq 1 "$n" | SB=$CLI/sbatch HOLD=$hold NAME=$JOBNAME ERR=$T/sbatch.err xargs -P "$PAR" -n "$chunk" bash -c '
    for _ in "$@"; do
      "$SB" --parsable ${HOLD:+-H} -J "$NAME" -o /dev/null --wrap true >/dev/null 2>>"$ERR" || echo x
    done' _ | wc -l
}

sbatch_errors() {  # a hint at why submissions failed
  [ -s "$T/sbatch.err" ] && echo "first error: $(head -n 1 "$T/sbatch.err")"
  : > "$T/sbatch.err"
}

ours() { "$CLI/squeue" -h -n "$JOBNAME" "$@" 2>/dev/null | wc -l; }

# ---- the suite, once per system ---------------------------------------------------------------

run_suite() {  # run_suite SYS CTLD_PID
  local sys=$1 pid=$2 t0 t1 fails

  "$CLI/squeue" >/dev/null 2>&1   # warm up: first connection, first reply
  local rss0 anon0
  rss0=$(rss_kb "$pid"); anon0=$(rss_kb "$pid" RssAnon)

  # 1. sequential submissions
  t0=$(now); fails=$(submit_seq "$N_SEQ" 1); t1=$(now)
  local ok=$((N_SEQ - fails))
  if [ "$ok" -gt 0 ]; then
    R[$sys.sbatch]=$(calc "$ok / ($t1 - $t0)")
    report "$sys" sbatch_sequential "${R[$sys.sbatch]}" jobs/s \
      "($(calc "($t1 - $t0) * 1000 / $ok" 2) ms each, $ok jobs$( [ "$fails" -gt 0 ] && echo ", $fails FAILED; $(sbatch_errors)"))"
  else
    report "$sys" sbatch_sequential - jobs/s "(all $N_SEQ submissions failed; $(sbatch_errors))"
  fi

  # 2. top up to N_PEND held jobs with $PAR clients, then time full squeue listings
  t0=$(now); fails=$(submit_par $((N_PEND - N_SEQ)) 1); t1=$(now)
  if [ $((N_PEND - N_SEQ)) -gt 0 ]; then
    report "$sys" "(sbatch_parallel_x$PAR)" "$(calc "($N_PEND - $N_SEQ - $fails) / ($t1 - $t0)")" jobs/s \
      "(topping up to $N_PEND pending$( [ "$fails" -gt 0 ] && echo ", $fails FAILED; $(sbatch_errors)"))"
  fi
  local pending; pending=$(ours -t PD)
  local rows; rows=$("$CLI/squeue" -h 2>/dev/null | wc -l)
  local i times=()
  for ((i = 0; i < SQ_RUNS; i++)); do
    t0=$(now); "$CLI/squeue" >/dev/null 2>&1; t1=$(now)
    times+=("$(calc "($t1 - $t0) * 1000" 3)")
  done
  R[$sys.squeue]=$(printf '%s\n' "${times[@]}" | median)
  R[$sys.squeue]=$(calc "${R[$sys.squeue]}" 1)
  local mn mx
  mn=$(printf '%s\n' "${times[@]}" | sort -g | head -n 1); mx=$(printf '%s\n' "${times[@]}" | sort -g | tail -n 1)
  R[$sys.pending]=$pending
  report "$sys" "squeue_${pending}_pending" "${R[$sys.squeue]}" ms \
    "(median of $SQ_RUNS full squeue, min $(calc "$mn" 1) max $(calc "$mx" 1); $rows rows)"

  # 3. controller memory per pending job
  local rss1 anon1
  rss1=$(rss_kb "$pid"); anon1=$(rss_kb "$pid" RssAnon)
  if [ -n "$rss0" ] && [ -n "$rss1" ] && [ "$pending" -gt 0 ]; then
    R[$sys.mem]=$(calc "($rss1 - $rss0) * 1024 / $pending" 0)
    report "$sys" mem_per_pending_job "${R[$sys.mem]}" B/job \
      "(VmRSS $(calc "$rss0 / 1024") -> $(calc "$rss1 / 1024") MiB; anon $(calc "($anon1 - $anon0) * 1024 / $pending" 0) B/job)"
  else
    report "$sys" mem_per_pending_job - B/job "(controller process not readable here)"
  fi

  # clear the held jobs out of the way
  "$CLI/scancel" -n "$JOBNAME" >/dev/null 2>&1
  local end=$((SECONDS + 60))
  while [ "$(ours)" -gt 0 ] && [ $SECONDS -lt $end ]; do sleep 0.2; done
}

run_e2e() {  # run_e2e SYS [NOTE]
  local sys=$1 t0 t1 t2 fails left desc
  desc="$("$CLI/sinfo" -h -o '%D nodes x %c CPUs' 2>/dev/null | head -n 1)${2:+ $2}"
  t0=$(now)
  fails=$(submit_par "$N_E2E" "")
  t1=$(now)
  local end=$((SECONDS + E2E_TIMEOUT))
  while :; do
    left=$(ours)
    [ "$left" -eq 0 ] && break
    [ $SECONDS -ge $end ] && break
    sleep 0.05
  done
  t2=$(now)
  local done_ok; done_ok=$("$CLI/squeue" -h -n "$JOBNAME" -t all -o %T 2>/dev/null | grep -c COMPLETED)
  local n=$((N_E2E - fails))
  if [ "$left" -gt 0 ]; then
    report "$sys" "e2e_trivial_$N_E2E" - jobs/s "(TIMEOUT after ${E2E_TIMEOUT}s: $left of $n still queued)"
  elif [ "$n" -gt 0 ]; then
    R[$sys.e2e]=$(calc "$n / ($t2 - $t0)")
    report "$sys" "e2e_trivial_$N_E2E" "${R[$sys.e2e]}" jobs/s \
      "($(calc "$t2 - $t0" 2) s on $desc; submitting took $(calc "$t1 - $t0" 2) s with $PAR clients; $done_ok COMPLETED$( [ "$fails" -gt 0 ] && echo ", $fails submissions FAILED; $(sbatch_errors)"))"
  else
    report "$sys" "e2e_trivial_$N_E2E" - jobs/s "(all submissions failed; $(sbatch_errors))"
  fi
}

# wait_drained TIMEOUT: until no job of ours is left in the queue; prints how many are left
wait_drained() {
  local end=$((SECONDS + $1)) left
  while :; do
    left=$(ours)
    [ "$left" -eq 0 ] || [ $SECONDS -ge "$end" ] && break
    sleep 0.1
  done
  echo "$left"
}

# run_workflows SYS: what workflow tools submit: dependent jobs (afterok chains of 10 and fan-ins
# of 49 jobs into one) and one large job array, each timed from the first submit until drained.
run_workflows() {
  local sys=$1 t0 t1 t2 left chains=$((N_DEP / 20)) fanins=$((N_DEP / 100)) c i prev ids id
  t0=$(now)
  for ((c = 0; c < chains; c++)); do
    prev=$("$CLI/sbatch" --parsable -J "$JOBNAME" -o /dev/null --wrap true 2>>"$T/sbatch.err")
    for ((i = 1; i < 10; i++)); do
      prev=$("$CLI/sbatch" --parsable -J "$JOBNAME" -o /dev/null -d "afterok:${prev%%;*}" --wrap true 2>>"$T/sbatch.err")
    done
  done
  for ((c = 0; c < fanins; c++)); do
    ids=""
    for ((i = 0; i < 49; i++)); do
      id=$("$CLI/sbatch" --parsable -J "$JOBNAME" -o /dev/null --wrap true 2>>"$T/sbatch.err")
      ids="$ids:${id%%;*}"
    done
    "$CLI/sbatch" --parsable -J "$JOBNAME" -o /dev/null -d "afterok$ids" --wrap true >/dev/null 2>>"$T/sbatch.err"
  done
  t1=$(now)
  left=$(wait_drained "$E2E_TIMEOUT")
  t2=$(now)
  local n=$((chains * 10 + fanins * 50))
  if [ "$left" -gt 0 ]; then
    report "$sys" "dependent_jobs_$n" - jobs/s "(TIMEOUT: $left left)"
  else
    report "$sys" "dependent_jobs_$n" "$(calc "$n / ($t2 - $t0)")" jobs/s \
      "($chains afterok chains of 10, $fanins fan-ins of 49 into 1; $(calc "$t2 - $t0" 2) s, submitting $(calc "$t1 - $t0" 2) s)"
  fi

  t0=$(now)
  "$CLI/sbatch" --parsable -J "$JOBNAME" -o /dev/null --array="0-$((N_ARRAY - 1))" --wrap true >/dev/null 2>>"$T/sbatch.err"
  t1=$(now)
  left=$(wait_drained "$E2E_TIMEOUT")
  t2=$(now)
  if [ "$left" -gt 0 ]; then
    report "$sys" "array_$N_ARRAY" - tasks/s "(TIMEOUT: $left left)"
  else
    report "$sys" "array_$N_ARRAY" "$(calc "$N_ARRAY / ($t2 - $t0)")" tasks/s \
      "(submit $(calc "($t1 - $t0) * 1000" 1) ms; all tasks done in $(calc "$t2 - $t0" 2) s)"
  fi
}

# ---- main -------------------------------------------------------------------------------------

HAVE_SLURM=0
if slurm_available; then HAVE_SLURM=1
elif [ "${BENCH_SLURM:-auto}" = 1 ]; then echo "e2e.sh: BENCH_SLURM=1 but no Slurm controller answers scontrol ping" >&2
fi

echo "# Drover e2e benchmark  $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)"
echo "# host $(hostname), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); build $(grep -s '^CMAKE_BUILD_TYPE:' "$BIN/CMakeCache.txt" | cut -d= -f2)"
echo "# sizes: $N_SEQ sequential, $N_PEND pending, $N_E2E end to end ($NODES nodes), squeue x$SQ_RUNS, $PAR parallel clients (BENCH_SCALE=$SCALE)"
echo "# state in $T ($(df -T "$T" | awk 'NR == 2 { print $2 }'))"
if [ "$HAVE_SLURM" = 1 ]; then
  use_slurm
  echo "# slurm: $("$CLI/sbatch" --version), $("$CLI/scontrol" ping | head -n 1)"
else
  echo "# slurm: not compared (no slurmctld answering '$SLURM_BIN/scontrol ping'); targets use reference figures"
fi
echo

# Drover: a cluster for the pending-job figures, a fresh one for the end-to-end run
if start_drover "$T/a"; then
  use_drover "$T/a"
  run_suite drover "$(cat "$T/a/ctld.pid")"
  cluster_stop "$T/a" >/dev/null 2>&1
  if start_drover "$T/b"; then
    use_drover "$T/b"
    run_e2e drover
    run_workflows drover
    cluster_stop "$T/b" >/dev/null 2>&1
  fi
fi

if [ "$HAVE_SLURM" = 1 ]; then
  use_slurm
  SLURM_USED=1
  echo
  maxjobs=$("$CLI/scontrol" show config 2>/dev/null | awk '$1 == "MaxJobCount" { print $3 }')
  if [ -n "$maxjobs" ] && [ "$maxjobs" -lt $((N_PEND + N_E2E + 100)) ]; then
    echo "# warning: Slurm's MaxJobCount=$maxjobs; raise it above $((N_PEND + N_E2E)) (finished jobs count until MinJobAge)"
  fi
  pre=$("$CLI/squeue" -h 2>/dev/null | wc -l)
  [ "$pre" -gt 0 ] && echo "# note: Slurm's queue already held $pre jobs; squeue times include them"
  run_suite slurm "$(pgrep -o -x slurmctld)"
  run_e2e slurm "(the running Slurm cluster)"
  run_workflows slurm
fi

# ---- targets ----------------------------------------------------------------------------------

row() { printf '%-22s %12s %12s %-30s %s\n' "$@"; }
status() {  # status VALUE OP LIMIT
  [ -n "$1" ] && [ -n "$3" ] || { echo n/a; return; }
  awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN { ok = (op == ">=") ? v >= l : v <= l; print ok ? "met" : "MISSED" }'
}

echo
echo "== targets =="
row metric drover slurm target status
if [ -n "${R[slurm.sbatch]:-}" ]; then base=${R[slurm.sbatch]}; src="5x slurm here"; else base=$REF_SLURM_SBATCH; src="5x slurm ref $REF_SLURM_SBATCH/s"; fi
lim=$(calc "5 * $base"); v=${R[drover.sbatch]:-}
row "sbatch_sequential /s" "${v:--}" "${R[slurm.sbatch]:--}" ">= $lim ($src)" "$(status "$v" ">=" "$lim")"

if [ -n "${R[slurm.squeue]:-}" ]; then base=${R[slurm.squeue]}; src="1/5 slurm here"; else base=$REF_SLURM_SQUEUE; src="1/5 slurm ref $REF_SLURM_SQUEUE ms@10k"; fi
lim=$(calc "$base / 5"); v=${R[drover.squeue]:-}
row "squeue ms (${R[drover.pending]:-?} pend)" "${v:--}" "${R[slurm.squeue]:--}" "<= $lim ($src)" "$(status "$v" "<=" "$lim")"

v=${R[drover.mem]:-}
row "B per pending job" "${v:--}" "${R[slurm.mem]:--}" "<= 1024" "$(status "$v" "<=" 1024)"

v=${R[drover.e2e]:-}
row "e2e trivial jobs/s" "${v:--}" "${R[slurm.e2e]:--}" ">= 500" "$(status "$v" ">=" 500)"

if [ "${R[drover.pending]:-0}" != 10000 ] && [ -z "${R[slurm.squeue]:-}" ]; then
  echo "(squeue's reference is for 10,000 pending jobs; this run had ${R[drover.pending]:-0}, so its row is only indicative)"
fi
exit 0
