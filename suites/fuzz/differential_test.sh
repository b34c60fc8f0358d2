#!/usr/bin/env bash
# The differential fuzzer in ctest: it raises no false alarm (the defect-free mutant backend
# agrees with the oracle on every case it makes in SECONDS, from the minimal and the golden
# seeds), it finds planted defects from the minimal seeds alone (one of QuantizeLinear's, one a
# boundary move must reach), and the reproducer it writes is the case directory with the verdict.
#   differential_test.sh FUZZER MUTANTS_PLUGIN SECONDS WORK_DIR
set -uo pipefail
fuzzer=$1 plugin=$2 seconds=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
export QCONFORM_FUZZ_PLUGIN=$plugin
source "$(dirname "${BASH_SOURCE[0]}")/differential_flags.sh"
flags=("${differential_flags[@]}" -seed=1 -print_final_stats=1)

expect "the seeds are written: one per operator, one per golden case" 0 "wrote [0-9]+ minimal and [0-9]{4} golden seeds" -- \
  env QCONFORM_FUZZ_WRITE_SEEDS="$work/seeds" "$fuzzer"
mkdir -p "$work/clean-corpus"
expect "no false alarm: the defect-free mutant agrees with the oracle for $seconds s" 0 "Done [0-9]+ runs" -- \
  env QCONFORM_MUTANT=none QCONFORM_FUZZ_REPRO="$work/clean-repro" "$fuzzer" "${flags[@]}" \
  -max_total_time="$seconds" -artifact_prefix="$work/clean-" "$work/clean-corpus" \
  "$work/seeds/minimal" "$work/seeds/golden"
mkdir -p "$work/defect-corpus"
expect "a planted defect is found from the minimal seeds (libFuzzer exits 77 on it)" 77 "FINDING wrong-outputs" -- \
  env QCONFORM_MUTANT=ql-zero-point-ignored QCONFORM_FUZZ_REPRO="$work/repro" QCONFORM_FUZZ_NO_GOLDEN=1 "$fuzzer" "${flags[@]}" \
  -max_total_time=120 -artifact_prefix="$work/defect-" "$work/defect-corpus" "$work/seeds/minimal"
mkdir -p "$work/compute-corpus"
expect "a compute operator's defect through a boundary move: MatMulInteger's float32 accumulator (a wide K)" 77 \
  "FINDING wrong-outputs on fuzz-[0-9a-f]+ \(MatMulInteger-10\)" -- \
  env QCONFORM_MUTANT=mmi-acc-float32 QCONFORM_FUZZ_REPRO="$work/compute-repro" QCONFORM_FUZZ_NO_GOLDEN=1 "$fuzzer" \
  "${flags[@]}" -max_total_time=120 -artifact_prefix="$work/compute-" "$work/compute-corpus" "$work/seeds/minimal"
expect "its reproducer is a case directory" 0 "" -- sh -c "ls '$work'/repro/*/model.onnx"
expect "with the verdict" 0 "wrong-outputs" -- sh -c "cat '$work'/repro/*/finding.txt"
expect "and libFuzzer kept the input" 0 "" -- sh -c "ls '$work'/defect-crash-*"
expect "a missing plugin is named" 2 "QCONFORM_FUZZ_PLUGIN names no plugin" -- \
  env -u QCONFORM_FUZZ_PLUGIN "$fuzzer" -runs=1
finish
