#!/usr/bin/env bash
# Runs every libFuzzer target long: tools/fuzz.sh [SECONDS] (default 600 each), nproc at a time.
# Builds them into build-sanitize/ (clang, ASan + UBSan, as tools/build.sh test --sanitize does),
# seeds each from suites/fuzz/corpus/ plus every golden case, and prints one line per target:
# executions, coverage, corpus size, findings. The table also goes to
# build-sanitize/fuzz/results.txt; crashing inputs to build-sanitize/fuzz/<target>/crash-*.
# Exits 1 when any target has a finding.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-600}
build=${QCONFORM_SANITIZE_BUILD_DIR:-$root/build-sanitize}
"$root/tools/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DQCONFORM_WARNINGS_AS_ERRORS=ON -DQCONFORM_FUZZ=ON >/dev/null
targets=(tensor_proto case_directory oracle_case manifest expectations exec_answer plugin_outputs journal)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

out="$build/fuzz"
rm -rf "$out/seeds"
"$root/suites/fuzz/make_seeds.sh" "$root/golden" "$out/seeds"
run() {
  local name=$1 corpus=${1/oracle_case/case_directory}
  mkdir -p "$out/seeds/$corpus"
  cp -n "$root/suites/fuzz/corpus/$corpus"/* "$out/seeds/$corpus/" 2>/dev/null || true
  bash "$root/suites/fuzz/run_fuzzer.sh" "$build/suites/fuzz/fuzz_$name" "$seconds" "$out/$name" \
    "$out/seeds/$corpus" "$root/suites/fuzz/dict/$corpus.dict" >"$out/$name.summary" 2>&1
}
pids=()
for name in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= $(nproc))); do sleep 1; done
  run "$name" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for name in "${targets[@]}"; do cat "$out/$name.summary"; done | tee "$out/results.txt"
exit $status
