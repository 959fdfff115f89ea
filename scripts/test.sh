#!/usr/bin/env bash
# test.sh - the README's second command: installs what is missing, builds, runs every test.
#   scripts/test.sh              everything (unit, fuzz, plugin, integration, sdk)
#   scripts/test.sh -L unit      only the fast ones (any ctest arguments pass through)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh -DDROVER_WERROR=ON
cd build
ctest --output-on-failure --timeout 600 -j "${DROVER_TEST_JOBS:-2}" "$@"
