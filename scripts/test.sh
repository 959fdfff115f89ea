#!/usr/bin/env bash
# test.sh - the README's second command: installs what is missing, builds, runs every test. The
# tests run against one build with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan,
# scripts/sanitize.sh): a memory error or undefined behaviour anywhere fails the run.
#   scripts/test.sh              everything (unit, fuzz, plugin, integration, sdk)
#   scripts/test.sh -L unit      only the fast ones (any ctest arguments pass through)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
exec scripts/sanitize.sh "$@"
