#!/usr/bin/env bash
# metrics_test.sh - the controller's OpenMetrics endpoints (MetricsType=metrics/openmetrics) on
# SlurmctldPort, scraped over HTTP as Prometheus does and read by the Prometheus project's own
# parser: jobs by state, nodes and their CPUs, partitions, the scheduler's passes, the state
# store's commits, the calls into each plugin; an unknown
# path, another method, an oversized head are answered or closed and the controller keeps
# serving its commands; PrivateData turns the endpoints off unless MetricsParameters=
# ignore_private_data; every metric docs/grafana-dashboard.json plots is one the controller serves.
source "$(dirname "$0")/lib.sh"
start_cluster 2 "MetricsType=metrics/openmetrics" "SchedulerType=sched/backfill"
cd "$T"
port=$(awk -F= '/^SlurmctldPort/ {print $2}' "$SLURM_CONF")
url=http://127.0.0.1:$port
# scrape PATH: the page as the parser reads it (one line per sample), or "unparsable: ...".
scrape() { curl -sf --max-time 20 "$url$1" | /usr/bin/python3 "$ROOT/tests/integration/openmetrics_check.py"; }
sample() { grep -F -x -- "$1" <<<"$2" >/dev/null && ok "$3" || fail "$3: no [$1] in: $(head -c 600 <<<"$2")"; }

run=$(sbatch --parsable -w n1 --wrap "sleep 300")
held=$(sbatch --parsable -H --wrap true)
wait_running "$run" || fail "job $run did not start"

jobs=$(scrape /metrics/jobs)
sample 'TYPE slurm_jobs gauge' "$jobs" "/metrics/jobs parses as OpenMetrics"
sample 'slurm_jobs{state="running"} 1' "$jobs" "a running job"
sample 'slurm_jobs{state="pending"} 1' "$jobs" "a pending job"
sample 'slurm_jobs_cpus_alloc{} 1' "$jobs" "the CPU it holds"
sample 'slurm_jobs_submitted_total{} 2' "$jobs" "submissions counted as sdiag counts them"
assert_match "Jobs submitted: +2" "$(sdiag)" "sdiag says the same"

ua=$(scrape /metrics/jobs-users-accts)
sample 'slurm_user_jobs{state="running",user="root"} 1' "$ua" "/metrics/jobs-users-accts: a user's running jobs"
sample 'slurm_user_jobs{state="pending",user="root"} 1' "$ua" "and pending ones"
sample 'slurm_user_cpus_alloc{user="root"} 1' "$ua" "the CPUs the user holds"
grep -qE '^slurm_account_jobs\{account="[^"]*",state="running"\} 1$' <<<"$ua" &&
  ok "an account's jobs" || fail "no account row: $ua"

nodes=$(scrape /metrics/nodes)
sample 'slurm_nodes{state="allocated"} 1' "$nodes" "/metrics/nodes: one node allocated"
sample 'slurm_nodes{state="idle"} 1' "$nodes" "one idle"
sample 'slurm_cpus{} 2' "$nodes" "CPUs of all nodes"
sample 'slurm_node_cpus_alloc{node="n1"} 1' "$nodes" "n1's CPU allocated"
sample 'slurm_node_cpus_alloc{node="n2"} 0' "$nodes" "n2's not"
scontrol update NodeName=n2 State=DRAIN Reason=metrics
sample 'slurm_nodes_drain{} 1' "$(scrape /metrics/nodes)" "a drained node"

parts=$(scrape /metrics/partitions)
sample 'slurm_partition_jobs{partition="debug",state="running"} 1' "$parts" "/metrics/partitions: running jobs"
sample 'slurm_partition_jobs{partition="debug",state="pending"} 1' "$parts" "pending jobs"
sample 'slurm_partition_nodes{partition="debug"} 2' "$parts" "its nodes"

sched=$(scrape /metrics/scheduler)
sample 'TYPE slurm_sched_cycles counter' "$sched" "/metrics/scheduler parses"
grep -qE '^slurm_sched_cycles_total\{\} [1-9]' <<<"$sched" && ok "the main scheduler's passes" ||
  fail "no pass counted: $sched"
grep -qE '^slurm_backfill_cycles_total\{\} [0-9]' <<<"$sched" && ok "backfill's counters" ||
  fail "no backfill counter: $sched"

ctl=$(scrape /metrics/controller)
grep -qE '^slurm_state_commits_total\{\} [1-9]' <<<"$ctl" && ok "/metrics/controller: the state store's commits" ||
  fail "no commit counted: $ctl"
grep -qE '^slurm_state_store_bytes\{\} [1-9]' <<<"$ctl" && ok "and its size" || fail "no store size: $ctl"
sample 'TYPE slurm_standby_behind gauge' "$ctl" "standby lag (no standby here: no samples)"
grep -qE '^slurm_plugin_calls_total\{op="job_begin",plugin="select/linear"\} [1-9]' <<<"$ctl" &&
  ok "calls into each plugin, op by op" || fail "no select/linear job_begin calls: $ctl"
grep -qE '^slurm_plugin_call_seconds_total\{op="schedule",plugin="sched/backfill"\} [0-9.e-]+$' <<<"$ctl" &&
  ok "and their time" || fail "no sched/backfill schedule time: $ctl"

# ---- what else reaches the port ----
assert_eq "/metrics/jobs" "$(curl -sf "$url/metrics" | head -1)" "/metrics lists the endpoints"
assert_eq 404 "$(curl -s -o /dev/null -w '%{http_code}' "$url/metrics/nope")" "an unknown path is 404"
assert_eq 000 "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url/metrics/jobs")" \
  "another method is no frame and no GET: the connection is closed"
long=$(head -c 9000 /dev/zero | tr '\0' a)
assert_eq 000 "$(curl -s --max-time 20 -o /dev/null -w '%{http_code}' -H "X-Long: $long" "$url/metrics/jobs")" \
  "a request head over 8 KiB is closed unanswered"
assert_eq 0 "$(scontrol ping >/dev/null; echo $?)" "after all that the controller serves its commands"
assert_eq "R" "$(squeue -h -j "$run" -o %t)" "and its jobs are as they were"

# ---- the dashboard plots what is served ----
served=$(for p in jobs jobs-users-accts nodes partitions scheduler controller; do scrape /metrics/$p; done | awk '$1 == "TYPE" {print $2}')
wanted=$(/usr/bin/python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
for p in d["panels"]:
    for t in p["targets"]:
        for m in re.findall(r"\b(slurm_[a-z_]+)", t["expr"]):
            print(re.sub(r"_total$", "", m))
' "$ROOT/docs/grafana-dashboard.json" | sort -u)
missing=$(comm -23 <(echo "$wanted") <(echo "$served" | sort -u))
assert_eq "" "$missing" "every metric the Grafana dashboard plots is served"

# ---- PrivateData turns the endpoints off, MetricsParameters=ignore_private_data on ----
scancel "$run" "$held"; wait_job "$run"
kill_ctld TERM
echo "PrivateData=jobs" >> "$SLURM_CONF"
restart_ctld
curl -sf --max-time 20 "$url/metrics/jobs" >/dev/null && fail "PrivateData: metrics still served" ||
  ok "with PrivateData the port answers no HTTP"
kill_ctld TERM
echo "MetricsParameters=ignore_private_data" >> "$SLURM_CONF"
restart_ctld
sample 'TYPE slurm_jobs gauge' "$(scrape /metrics/jobs)" "MetricsParameters=ignore_private_data serves them"

sed 's|^MetricsType=.*|MetricsType=metrics/other|' "$SLURM_CONF" > "$T/bad.conf"
out=$(SLURM_CONF=$T/bad.conf sinfo 2>&1)
assert_match "bad value for MetricsType: 'metrics/other' \(expected metrics/openmetrics\)" "$out" \
  "another MetricsType is refused, in a line that names it"
finish
