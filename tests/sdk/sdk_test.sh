#!/usr/bin/env bash
# sdk_test.sh - a vendor's view: install the SDK, build sdk/examples/hello_sched, hello_priority
# and hello_job_submit as CMake projects of their own against the installed package, name them in
# slurm.conf, and watch them decide the order in which a running controller starts jobs (shortest
# time limit first, where sched/builtin would keep submission order), the jobs' priorities
# (smaller jobs first, as sprio shows), and what is submitted (a default time limit; no job
# without an account).
source "$(dirname "$0")/../integration/lib.sh"

cmake --install "$BIN" --prefix "$T/prefix" >/dev/null || fail "cmake --install failed"
[ -f "$T/prefix/lib/cmake/Drover/DroverConfig.cmake" ] || [ -f "$T/prefix/lib/x86_64-linux-gnu/cmake/Drover/DroverConfig.cmake" ] &&
  ok "the SDK installs a CMake package" || fail "no DroverConfig.cmake under $T/prefix"
if cmake -S "$ROOT/sdk/examples/hello_sched" -B "$T/ex" -DCMAKE_PREFIX_PATH="$T/prefix" >"$T/ex.log" 2>&1 &&
   cmake --build "$T/ex" >>"$T/ex.log" 2>&1; then
  ok "the example builds out of tree against the installed SDK"
else
  fail "example build failed: $(tail -5 "$T/ex.log")"
fi
so=$(find "$T/ex" -name 'sched_sjf.so' | head -1)
assert_eq "drover_plugin_entry" "$(nm -D --defined-only "$so" | awk '$2 == "T" {print $3}')" "it exports only drover_plugin_entry"
if cmake -S "$ROOT/sdk/examples/hello_priority" -B "$T/exp" -DCMAKE_PREFIX_PATH="$T/prefix" >"$T/exp.log" 2>&1 &&
   cmake --build "$T/exp" >>"$T/exp.log" 2>&1; then
  ok "the priority example builds out of tree"
else
  fail "priority example build failed: $(tail -5 "$T/exp.log")"
fi
so_p=$(find "$T/exp" -name 'priority_smallfair.so' | head -1)
if cmake -S "$ROOT/sdk/examples/hello_job_submit" -B "$T/exj" -DCMAKE_PREFIX_PATH="$T/prefix" \
     >"$T/exj.log" 2>&1 && cmake --build "$T/exj" >>"$T/exj.log" 2>&1; then
  ok "the job_submit example builds out of tree"
else
  fail "job_submit example build failed: $(tail -5 "$T/exj.log")"
fi
so_j=$(find "$T/exj" -name 'job_submit_defaults.so' | head -1)

start_cluster 1 "SchedulerType=sched/sjf" "PriorityType=priority/smallfair" \
  "PriorityWeightFairshare=10000" "JobSubmitPlugins=defaults" "DefaultJobMinutes=15" \
  "PluginDir=$(dirname "$so"):$(dirname "$so_p"):$(dirname "$so_j"):$BIN/plugins/lib"
assert_match "sched/sjf" "$(grep 'loaded' "$T/c/log/droverctld.log")" "the controller loaded the vendor plugin"
assert_match "priority/smallfair" "$(grep 'loaded' "$T/c/log/droverctld.log")" "and the vendor's priority plugin"
assert_match "job_submit/defaults" "$(grep 'loaded' "$T/c/log/droverctld.log")" "and its job_submit plugin"
cd "$T"
out=$(sbatch --wrap true 2>&1)
assert_match "every job needs an account" "$out" "job_submit/defaults refuses a job without an account"
export SBATCH_ACCOUNT=vendor
j=$(sbatch --parsable --hold --wrap true)
assert_eq "15:00" "$(squeue -h -j "$j" -o %l)" "and gives one without a time limit the site's default"
scancel "$j"
blocker=$(sbatch --parsable -J blocker --wrap 'sleep 2')
wait_until 10 bash -c "[ \"\$(squeue -h -j $blocker -o %t)\" = R ]"
for spec in "long 30" "medium 10" "short 2"; do
  set -- $spec
  sbatch -J "$1" -t "$2" -o /dev/null --wrap "echo $1 >> $T/order.txt" >/dev/null
done
for _ in $(seq 1 100); do [ -z "$(squeue -h)" ] && break; sleep 0.2; done
assert_eq "short medium long" "$(tr '\n' ' ' < "$T/order.txt" | sed 's/ $//')" "sched/sjf started the shortest job first"
small=$(sbatch --parsable --mem=10 --begin=now+1hour --wrap true)
big=$(sbatch --parsable --mem=90 --begin=now+1hour --wrap true)
p_small=$(squeue -h -j "$small" -o %Q); p_big=$(squeue -h -j "$big" -o %Q)
[ -n "$p_big" ] && [ "${p_small:-0}" -gt "$p_big" ] && ok "priority/smallfair puts the smaller job first ($p_small > $p_big)" \
  || fail "priorities: small $p_small, big $p_big"
assert_match "10000" "$(sprio -w)" "sprio -w shows the plugin's weights"
scancel "$small" "$big"
finish
