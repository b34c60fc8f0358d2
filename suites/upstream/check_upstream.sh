#!/usr/bin/env bash
# `qconform check` on an external directory of ONNX test cases, which may be absent:
#   check_upstream.sh QCONFORM DIR [check options...]
# Exit 77 (ctest's SKIP_RETURN_CODE) with the reason when DIR is not there; else check's status.
set -uo pipefail
qconform=$1
dir=$2
shift 2
if [[ -z $dir || ! -d $dir ]]; then
  echo "SKIPPED: ONNX's upstream test data is not here (${dir:-no directory configured})."
  echo "Provide it with: cmake -DQCONFORM_ONNX_NODE_TESTS=DIR, where DIR is onnx/backend/test/data/node"
  echo "of ONNX 1.18 or later (for opsets 19-25); Debian's libonnx-testdata is installed by tools/setup.sh."
  exit 77
fi
exec "$qconform" check "$dir" "$@"
