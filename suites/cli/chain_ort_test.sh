#!/usr/bin/env bash
# The golden Quantize -> Dequantize chain models (the examples of TensorRT's Quantize/Dequantize layer pages) run in a real ONNX
# runner: ONNX Runtime computes each chain from the case's own input files, and qconform check
# must accept what it computed. Usage: chain_ort_test.sh QCONFORM RUNNER_JS NODE_MODULES GOLDEN
set -euo pipefail
qconform=$1 runner=$2 modules=$3 golden=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count=0
# The chain cases, from one read of the manifest (its id column is the case directory's name).
chains=$(awk -F'\t' '$0 !~ /^#/ && index($0, "chain:QuantizeLinear>DequantizeLinear") {print $1}' \
         "$golden/manifest.tsv")
for name in $chains; do
  dir="$golden/$name"
  [[ -d $dir ]] || { echo "the manifest lists $name, which is not a directory of $golden" >&2; exit 1; }
  cp -r "$dir" "$work/$name"
  rm "$work/$name/test_data_set_0/output_0.pb"
  NODE_PATH=$modules node "$runner" --once "$work/$name" "$work/$name/test_data_set_0"
  "$qconform" check "$work/$name"
  count=$((count + 1))
done
[ "$count" -ge 2 ] || { echo "expected at least 2 chain models, found $count" >&2; exit 1; }
echo "ONNX Runtime ran $count chain models; qconform check accepted them"
