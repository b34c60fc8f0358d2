#!/usr/bin/env bash
# The mutation gate runs each defect only on the golden cases whose defect-free run consulted it
# (suites/mutants/defects.h, ConsultedDefects). That must change nothing: for a defect of every
# family, the gate's lines (each defect's kill count, every surviving cell) are the same as when
# every defect runs on every case (--every-case).
#   skips_exact_test.sh MUTATION_GATE GOLDEN_DIR
set -uo pipefail
gate=$1 golden=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=()
for defect in ql-reciprocal dq-zero-point-ignored dynql-range-without-zero qlmm-onnx-reference \
              mm-a-zero-point-ignored qlc-onnx-reference qgemm-zero-point-first mnb-int8-activations \
              mitf-a-zero-point-ignored dqmm-round-half-away gbq-codes-high-first conv-padding-zero \
              qlg-zero-point-before-rounding graph-zero-point-before-rounding \
              rule-block-size-onnx-reference rule-axis-range-unchecked; do
  args+=(--defect "$defect")
done
"$gate" --golden "$golden" "${args[@]}" --min-kills 0 >"$work/skipping.txt"
"$gate" --golden "$golden" "${args[@]}" --min-kills 0 --every-case >"$work/every.txt"
kills=$(grep -cE 'killed by +[0-9]+ golden cases' "$work/every.txt")
if ((kills == ${#args[@]} / 2)) && diff "$work/every.txt" "$work/skipping.txt"; then
  echo "ok   $kills defects: the same kills and cells with and without the skipped cases"
  echo "1 passed, 0 failed"
else
  echo "FAIL the gate's lines differ between --every-case (<) and the default (>), or a defect is missing"
  echo "0 passed, 1 failed"
  exit 1
fi
