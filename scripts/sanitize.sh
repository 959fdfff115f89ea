#!/usr/bin/env bash
# sanitize.sh - builds Drover with AddressSanitizer and UndefinedBehaviorSanitizer in ./build-asan
# and runs the tests against it (any ctest arguments pass through; none: every test). The build
# is -O1 -g1 and warnings are errors: sanitized objects at -O2 -g take about 2.7 times as long to
# compile as plain ones, at -O1 -g1 about 1.5 times, which keeps CI's one build within its time.
# scripts/test.sh (CI's command) runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${DROVER_BUILD_JOBS:-$(nproc)}
flags="-O1 -g1 -DNDEBUG"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDROVER_WERROR=ON \
    -DDROVER_SANITIZE=address,undefined "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$flags" >/dev/null
cmake --build build-asan -j "$jobs"
# Leaks are not checked: the daemons end by signal with their state in place by design.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}
export UBSAN_OPTIONS=print_stacktrace=1:${UBSAN_OPTIONS:-}
cd build-asan
ctest --output-on-failure --timeout 900 -j "${DROVER_TEST_JOBS:-2}" "$@"
