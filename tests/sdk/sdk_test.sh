#!/usr/bin/env bash
# sdk_test.sh - a vendor's view: install the SDK, build sdk/examples/hello_sched as its own CMake
# project against the installed package, name it in slurm.conf, and watch it decide the order in
# which a running controller starts jobs (shortest time limit first, where sched/builtin would
# keep submission order).
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

start_cluster 1 "SchedulerType=sched/sjf" "PluginDir=$(dirname "$so"):$BIN/plugins/lib"
assert_match "sched/sjf" "$(grep 'loaded' "$T/c/log/droverctld.log")" "the controller loaded the vendor plugin"
cd "$T"
blocker=$(sbatch --parsable -J blocker --wrap 'sleep 2')
wait_until 10 bash -c "[ \"\$(squeue -h -j $blocker -o %t)\" = R ]"
for spec in "long 30" "medium 10" "short 2"; do
  set -- $spec
  sbatch -J "$1" -t "$2" -o /dev/null --wrap "echo $1 >> $T/order.txt" >/dev/null
done
for _ in $(seq 1 100); do [ -z "$(squeue -h)" ] && break; sleep 0.2; done
assert_eq "short medium long" "$(tr '\n' ' ' < "$T/order.txt" | sed 's/ $//')" "sched/sjf started the shortest job first"
finish
