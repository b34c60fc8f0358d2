#!/usr/bin/env bash
# onnx.reference (ONNX >= 1.13) as a backend through the Python kit: every DequantizeLinear case,
# with no baseline, must run and be judged (exit 0 or 1, never 2). SKIPPED (77) with the reason
# when the module is missing, as with Debian's python3-onnx 1.12.
#   onnx_reference_test.sh QCONFORM ADAPTER
qconform=$1
adapter=$2
if ! why=$(/usr/bin/python3 -c "import onnx.reference" 2>&1); then
  echo "SKIPPED: onnx.reference is not importable here (${why##*$'\n'}); it needs onnx >= 1.13"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$qconform" run --backend "exec:$adapter" --op DequantizeLinear --report "$work" --count 0
rc=$?
((rc <= 1)) && grep -q '"complete": true' "$work/results.json"
