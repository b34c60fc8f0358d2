#!/usr/bin/env bash
# A second configuration for CI: Release with Debian's clang, warnings as errors, the oracle and
# element-type tests (the exact arithmetic is where a compiler difference would show).
#   tools/ci_clang_release.sh [BUILD_DIR]   (default build-clang)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-clang}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DQCONFORM_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target oracle_test types_test qconform
cd "$build" && ctest --output-on-failure -j"$(nproc)" -L '^(oracle|layer:types)$'
