#!/usr/bin/env bash
# The golden Quantize -> Dequantize chain models (the examples of TensorRT's Quantize/Dequantize layer pages) run in a real ONNX
# runner: ONNX Runtime computes each chain from the case's own input files, and qconform check
# must accept what it computed. Usage: chain_ort_test.sh QCONFORM RUNNER_JS NODE_MODULES GOLDEN
set -euo pipefail
qconform=$1 runner=$2 modules=$3 golden=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count=0
for dir in "$golden"/*; do
  grep -q 'chain:QuantizeLinear>DequantizeLinear' <(grep "^$(basename "$dir")	" "$golden/manifest.tsv") || continue
  name=$(basename "$dir")
  cp -r "$dir" "$work/$name"
  rm "$work/$name/test_data_set_0/output_0.pb"
  NODE_PATH=$modules node "$runner" --once "$work/$name" "$work/$name/test_data_set_0"
  "$qconform" check "$work/$name"
  count=$((count + 1))
done
[ "$count" -ge 2 ] || { echo "expected at least 2 chain models, found $count" >&2; exit 1; }
echo "ONNX Runtime ran $count chain models; qconform check accepted them"
