#!/usr/bin/env bash
# Seeds for the fuzz targets, made from the golden catalogue and a run directory.
#   make_seeds.sh GOLDEN_DIR OUT_DIR [EVERY]
# Writes OUT_DIR/<target>/ for the targets whose inputs golden/ has: every EVERY-th case
# directory (default 1: all of them). The checked-in corpus/ was made with EVERY=40, plus a few
# hand-written seeds (exec_answer, plugin_outputs, journal, expectations).
set -euo pipefail
golden=$1 out=$2 every=${3:-1}
separator=$'\n--qconform-fuzz-file--\n'
mkdir -p "$out/tensor_proto" "$out/case_directory" "$out/manifest"
k=0
for dir in "$golden"/*/; do
  [[ -f $dir/model.onnx ]] || continue
  k=$((k + 1))
  ((k % every == 0)) || continue
  name=$(basename "$dir")
  {
    cat "$dir/model.onnx"
    for f in "$dir"/test_data_set_0/input_*.pb; do
      [[ -f $f ]] || continue
      printf '%s' "$separator"
      cat "$f"
    done
  } >"$out/case_directory/$name"
  for f in "$dir"/test_data_set_0/*.pb; do
    [[ -f $f ]] && cp "$f" "$out/tensor_proto/$name-$(basename "$f")"
  done
done
head -n 40 "$golden/manifest.tsv" >"$out/manifest/manifest-head.tsv"
