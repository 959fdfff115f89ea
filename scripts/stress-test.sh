#!/usr/bin/env bash
# stress-test.sh - the tests on a busy machine: stress-ng keeps STRESS_CPUS cores busy (default 2)
# while ctest runs the suite STRESS_ROUNDS times (default 2); it fails as soon as a round fails.
# The tests wait on events, never on an idle machine: this is how that is checked.
#   scripts/stress-test.sh                    every test, twice, beside stress-ng --cpu 2
#   scripts/stress-test.sh -L integration     only those that start daemons (ctest arguments pass through)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cpus=${STRESS_CPUS:-2}
rounds=${STRESS_ROUNDS:-2}
stress-ng --cpu "$cpus" --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null; wait "$stress" 2>/dev/null' EXIT
cd build
for round in $(seq 1 "$rounds"); do
  echo "stress-test: round $round of $rounds, beside stress-ng --cpu $cpus"
  ctest --output-on-failure --timeout 600 -j "${DROVER_TEST_JOBS:-2}" "$@"
done
