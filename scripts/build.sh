#!/usr/bin/env bash
# build.sh - configures and builds Drover in ./build (Ninja, RelWithDebInfo, ccache when present).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${DROVER_BUILD_JOBS:-$(nproc)}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j "$jobs"
