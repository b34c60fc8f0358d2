#!/usr/bin/env bash
# Several backends on the same cases: the oracle, the example plugin and ONNX Runtime. Each gets
# its own report and is gated by its own baseline; compare.md lists where they disagree, and a
# known case (ORT quantizes -inf with y_zero_point -1 to 127: int32's minimum plus -1 wraps)
# shows there side by side. A compute case (QLinearConv, w per channel) and a com.microsoft one
# (QLinearAdd) are among them: their cells are named by layout ("w per-channel") and by graph,
# which a matrix of fixed granularity columns once dropped, leaving links to no anchor.
#   compare_test.sh QCONFORM
set -uo pipefail
qconform=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"

expect "three backends on the same cases, each matching its baseline" 0 "cases on which the backends disagree" -- \
  "$qconform" run --backend oracle --backend plugin:example --backend onnxruntime \
  --filter ql19-specials-xfloat16-int8-axis --filter dq21-int8-pt \
  --filter qlc10-ties-cell-pc-uint8-int8 --filter qladd1-ties-int8 --report "$work/cmp"
expect "each backend has its own report" 0 "" -- \
  test -f "$work/cmp/oracle-0.1.0/report.html" -a -f "$work/cmp/example-f32-1.0/report.html" \
  -a -f "$work/cmp/onnxruntime-1.30.0/report.html"
expect "the disagreement section shows the known case side by side" 0 \
  "^\| ql19-specials-xfloat16-int8-axis \| 🟢 conformant \| .* \| 🔴 \[wrong-outputs\]\(onnxruntime-1.30.0/repro/ql19-specials-xfloat16-int8-axis/README.txt\) \|" -- \
  cat "$work/cmp/compare.md"
expect "a runtime difference comes before a harness limit" 0 "" -- bash -c \
  "grep -n 'summary' '$work/cmp/compare.md' | head -1 | grep -q 'wrong-outputs'"
# Every matrix cell links to its worst cases in that backend's report, and each anchor is there.
expect "the matrix's wrong-values cell links into ONNX Runtime's report" 0 \
  "^\| QuantizeLinear-19 \| float16 -> int8 \| .* \| 🔴 \[[0-9]+/[0-9]+\]\(onnxruntime-1.30.0/report.html#cell-QuantizeLinear-19-float16-int8-per-axis\) \|" -- \
  cat "$work/cmp/compare.md"
expect "the compute case's cell has a column of its own" 0 \
  "^\| QLinearConv-10 \| uint8 x int8 -> uint8 (\| )+🟢 \[1/1\]\(#cell-QLinearConv-10-uint8-x-int8-uint8-w-per-channel\) \|" -- \
  cat "$work/cmp/oracle-0.1.0/report.md"
missing=0 links=0
while read -r link; do
  links=$((links + 1))
  grep -q "id=\"${link#*#}\"" "$work/cmp/${link%%#*}" || { echo "no anchor for $link"; missing=$((missing + 1)); }
done < <(grep -o '([a-z0-9.-]*/report.html#[^)]*)' "$work/cmp/compare.md" | tr -d '()' | sort -u)
expect "the matrix links into the reports" 0 "" -- test "$links" -ge 3
expect "every matrix link lands on an anchor of its backend's report" 0 "" -- test "$missing" -eq 0
expect "the HTML comparison is written" 0 "Where the backends disagree" -- cat "$work/cmp/compare.html"
expect "one baseline cannot serve several backends" 2 "each uses its own" -- \
  "$qconform" run --backend oracle --backend plugin:example --expectations /dev/null --report "$work/x"
finish
