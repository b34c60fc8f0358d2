#!/usr/bin/env bash
# Several backends on the same cases: the oracle, the example plugin and ONNX Runtime. Each gets
# its own report and is gated by its own baseline; compare.md lists where they disagree, and a
# known case (ORT ignores a float8 y_zero_point the oracle applies) shows there side by side.
#   compare_test.sh QCONFORM
set -uo pipefail
qconform=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"

expect "three backends on the same cases, each matching its baseline" 0 "cases on which the backends disagree" -- \
  "$qconform" run --backend oracle --backend plugin:example --backend onnxruntime \
  --filter ql21-impl --filter dq21-int8-pt --report "$work/cmp"
expect "each backend has its own report" 0 "" -- \
  test -f "$work/cmp/oracle-0.1.0/report.html" -a -f "$work/cmp/example-f32-1.0/report.html" \
  -a -f "$work/cmp/onnxruntime-1.30.0/report.html"
expect "the disagreement section shows the known case side by side" 0 \
  "^\| ql21-impl-float8-zero-point \| 🟢 conformant \| .* \| 🔴 \[wrong-outputs\]\(onnxruntime-1.30.0/repro/ql21-impl-float8-zero-point/README.txt\) \|" -- \
  cat "$work/cmp/compare.md"
expect "a runtime difference comes before a harness limit" 0 "" -- bash -c \
  "grep -n 'summary' '$work/cmp/compare.md' | head -1 | grep -q 'wrong-outputs'"
expect "the HTML comparison is written" 0 "Where the backends disagree" -- cat "$work/cmp/compare.html"
expect "one baseline cannot serve several backends" 2 "each uses its own" -- \
  "$qconform" run --backend oracle --backend plugin:example --expectations /dev/null --report "$work/x"
finish
