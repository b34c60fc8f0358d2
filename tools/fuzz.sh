#!/usr/bin/env bash
# Runs every libFuzzer target long: tools/fuzz.sh [SECONDS] (default 600 each), nproc at a time.
#   tools/fuzz.sh --backend plugin:LIB.so SECONDS [--refusals]
#       the differential fuzzer against a plugin (plugin:NAME for an in-tree one), libFuzzer's
#       -fork on every core, seeded from the minimal corpus and the golden catalogue; stops at
#       the first result the oracle does not admit and prints its reproducer (a case
#       directory). A library's refusals of valid cases are not findings unless --refusals.
#   tools/fuzz.sh --defects SECONDS
#       the differential fuzzer's time to the first finding of every defect of suites/mutants,
#       from the minimal corpus, into docs/mutation-score.md.
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

if [[ ${1:-} == --backend || ${1:-} == --defects ]]; then
  mode=$1 spec=${2:-} seconds=${3:-}
  [[ $mode == --defects ]] && seconds=$spec
  [[ $seconds =~ ^[0-9]+$ ]] || { echo "usage: tools/fuzz.sh --backend plugin:LIB.so SECONDS | --defects SECONDS" >&2; exit 2; }
  out="$build/fuzz/differential"
  fuzzer="$build/suites/fuzz/fuzz_differential"
  if [[ $mode == --defects ]]; then
    cmake --build "$build" -j"$(nproc)" --target fuzz_differential qconform_mutants_plugin
    exec bash "$root/suites/fuzz/measure_defects.sh" "$fuzzer" "$build/suites/libqconform_mutants.so" \
      "$seconds" "$out/defects" "$root/docs/mutation-score.md"
  fi
  [[ $spec == plugin:* ]] || { echo "tools/fuzz.sh --backend takes plugin:LIB.so (a plugin runs in process)" >&2; exit 2; }
  library=${spec#plugin:}
  if [[ $library != */* && $library != *.so ]]; then  # an in-tree plugin, by name
    cmake --build "$build" -j"$(nproc)" --target "qconform_${library}_plugin" fuzz_differential
    library="$build/adapters/libqconform_${library}_plugin.so"
  else
    cmake --build "$build" -j"$(nproc)" --target fuzz_differential
  fi
  [[ -f $library ]] || { echo "tools/fuzz.sh: no plugin at $library" >&2; exit 2; }
  source "$root/suites/fuzz/differential_flags.sh"
  rm -rf "$out/run" && mkdir -p "$out/run/corpus"
  QCONFORM_FUZZ_WRITE_SEEDS="$out/run/seeds" "$fuzzer"
  [[ ${4:-} == --refusals ]] || export QCONFORM_FUZZ_IGNORE_REFUSALS=1
  QCONFORM_FUZZ_PLUGIN=$(realpath "$library") QCONFORM_FUZZ_REPRO="$out/run/findings" \
    "$fuzzer" "${differential_flags[@]}" -fork="$(nproc)" -max_total_time="$seconds" \
    -artifact_prefix="$out/run/" "$out/run/corpus" "$out/run/seeds/minimal" \
    "$out/run/seeds/golden" 2>&1 | tee "$out/run/log.txt" | grep -E "FINDING|reproducer|^    |INFO: fuzzed|Done"
  if ls "$out/run/findings"/*/finding.txt >/dev/null 2>&1; then
    echo "findings: $out/run/findings (replay: qconform run --golden DIR --backend $spec)"
    exit 1
  fi
  echo "no finding in $seconds s"
  exit 0
fi
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
