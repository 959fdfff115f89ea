#!/bin/sh
# format.sh - applies .clang-format to every C and C++ source in the tree; --check lists the
# files that differ from it and fails if there are any.
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' | grep -v '_generated\.h$')
if [ "${1:-}" = --check ]; then
    exec clang-format --dry-run -Werror $files
fi
clang-format -i $files
