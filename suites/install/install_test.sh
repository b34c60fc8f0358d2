#!/usr/bin/env bash
# qconform as a vendor consumes it: cmake --install into a fresh prefix, then the
# examples/consumer project configured against it with find_package(qconform), built and run;
# and the installed qconform, run from outside the source tree, finds its own catalogue,
# baselines and plugins under the prefix.
#   install_test.sh BUILD_DIR SOURCE_DIR [CXX_COMPILER]
# The consumer is built with the compiler qconform was built with (a sanitizer build's libraries
# need its runtime; the exported targets carry the link options).
set -euo pipefail
build=$1
source=$2
compiler=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/lib/cmake/qconform/qconformConfig.cmake"
test -f "$prefix/lib/cmake/qconform/qconformConfigVersion.cmake"

cmake -S "$source/examples/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  ${compiler:+-DCMAKE_CXX_COMPILER="$compiler"} >/dev/null
cmake --build "$work/consumer"
(cd "$work/consumer" && ctest --output-on-failure)

cd "$work"  # nowhere near the source or build tree
out=$("$prefix/bin/qconform" check "$prefix/share/qconform/golden" --quiet)
echo "$out" | tail -1
# Every case of the installed manifest (its rows after the comment and the header) passes.
cases=$(grep -v '^#' "$prefix/share/qconform/golden/manifest.tsv" | tail -n +2 | grep -c .)
grep -qx "$cases passed, 0 failed" <<<"$(echo "$out" | tail -1)"
out=$("$prefix/bin/qconform" run --backend plugin:example --report "$work/report" --filter dq21-int8)
echo "$out" | tail -2
grep -q "baseline $prefix/share/qconform/expectations/example-f32-1.0.txt" <<<"$out"
grep -q -- "-> MATCHES" <<<"$out"
"$prefix/bin/qconform" --version | head -1
echo "install: prefix, find_package consumer and the installed command all pass"
