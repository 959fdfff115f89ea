#!/usr/bin/env bash
# sanitize.sh - builds Drover with AddressSanitizer and UndefinedBehaviorSanitizer in
# ./build-asan and runs the unit tests and the integration tests that are not labelled slow
# against it (any ctest arguments pass through). Not part of scripts/test.sh: a clean
# sanitized build takes about 25 minutes on two cores, on top of the main build and suite.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${DROVER_BUILD_JOBS:-$(nproc)}
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDROVER_WERROR=ON \
    -DDROVER_SANITIZE=address,undefined -DDROVER_BUILD_FUZZ=OFF >/dev/null
cmake --build build-asan -j "$jobs"
# Leaks are not checked: the daemons end by signal with their state in place by design.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}
export UBSAN_OPTIONS=print_stacktrace=1:${UBSAN_OPTIONS:-}
cd build-asan
if [ $# -eq 0 ]; then set -- -L 'unit|integration' -LE slow; fi
ctest --output-on-failure --timeout 900 -j "${DROVER_TEST_JOBS:-2}" "$@"
