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

# The newcomer path, as a vendor's CI runs it: the consumer's plugin (examples/consumer/
# my_plugin.cc, the ABI header from qconform::plugin) gets a baseline from the installed qconform,
# the gate that qconform_add_conformance_test registers passes on it, and fails, naming the
# reciprocal multiplier, once the plugin is rebuilt with one.
plugin="$work/consumer/libmy_plugin.so"
test -f "$plugin"
"$prefix/bin/qconform" baseline --backend "plugin:$plugin" --op QuantizeLinear --save \
  --expectations "$work/my-npu-0.1.txt" | tail -1
test -s "$work/my-npu-0.1.txt"
cmake -S "$source/examples/consumer" -B "$work/consumer" -DMY_NPU_EXPECTATIONS="$work/my-npu-0.1.txt" \
  >/dev/null
cmake --build "$work/consumer"
(cd "$work/consumer" && ctest --output-on-failure -R '^my_npu\.conformance$') | tail -3
cmake -S "$source/examples/consumer" -B "$work/consumer" -DMY_PLUGIN_RECIPROCAL=ON >/dev/null
cmake --build "$work/consumer"
if gate=$(cd "$work/consumer" && ctest --output-on-failure -R '^my_npu\.conformance$' 2>&1); then
  echo "install: the gate passed a plugin with a reciprocal multiplier" >&2
  exit 1
fi
grep -q "new-failure .*reciprocal multiplier" <<<"$gate" || {
  echo "$gate" | tail -20 >&2
  echo "install: the failing gate does not name the reciprocal multiplier" >&2
  exit 1
}
echo "install: newcomer path: baseline saved, gate passes, the reciprocal multiplier fails it" \
  "($(grep -c '^new-failure' <<<"$gate") new failures)"

# A plugin-only project needs none of the C++ libraries' dependencies: with Boost, Protobuf and
# ONNX hidden from find_package, the package still gives qconform::plugin and the gate function.
mkdir -p "$work/plugin-only"
cp "$source/examples/consumer/my_plugin.cc" "$work/plugin-only/"
cat >"$work/plugin-only/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(plugin_only LANGUAGES CXX)
find_package(qconform 0.1 CONFIG REQUIRED)
if(qconform_LIBRARIES_FOUND)
  message(FATAL_ERROR "the libraries were loaded with their dependencies hidden")
endif()
enable_testing()
add_library(my_plugin MODULE my_plugin.cc)
target_link_libraries(my_plugin PRIVATE qconform::plugin)
qconform_add_conformance_test(NAME plugin_only.conformance BACKEND plugin:$<TARGET_FILE:my_plugin>
                              EXPECTATIONS ${BASELINE} ARGS --op QuantizeLinear)
CMAKE
cmake -S "$work/plugin-only" -B "$work/plugin-only/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DBASELINE="$work/my-npu-0.1.txt" -DCMAKE_DISABLE_FIND_PACKAGE_Boost=TRUE \
  -DCMAKE_DISABLE_FIND_PACKAGE_Protobuf=TRUE -DCMAKE_DISABLE_FIND_PACKAGE_ONNX=TRUE >/dev/null
cmake --build "$work/plugin-only/build" >/dev/null
(cd "$work/plugin-only/build" && ctest --output-on-failure) | tail -1

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
