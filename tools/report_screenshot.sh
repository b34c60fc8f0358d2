#!/usr/bin/env bash
# Regenerates the README's picture of a real report: the conformance run against ONNX Runtime
# (tools/build.sh run), its report.html rendered by headless Chromium into
# docs/report-onnxruntime.png (the first screen: the verdict, the outcomes, the failure groups),
# and the audit of the test CNN into docs/audit-cnn-qdq.png.
#   tools/report_screenshot.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${QCONFORM_BUILD_DIR:-$root/build}
"$root/tools/build.sh" run >/dev/null 2>&1
rc=$?
((rc <= 1)) || { echo "report_screenshot: the run failed (exit $rc)" >&2; exit 1; }
chromium=$(command -v chromium || command -v chromium-browser) || {
  echo "report_screenshot: chromium is not installed (tools/setup.sh installs it)" >&2; exit 1; }
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1300 \
  --screenshot="$root/docs/report-onnxruntime.png" "file://$build/report/onnxruntime/report.html" \
  2>/dev/null
echo "wrote docs/report-onnxruntime.png"
# The audit of the test CNN at ONNX Runtime's default level (docs/audit.md): its audit.html.
models=$(mktemp -d)
"$build/suites/make_audit_models" "$models" >/dev/null &&
  (cd "$models" && "$build/tools/qconform" audit cnn_qdq.onnx --backend onnxruntime:all -j 2 \
     --report audit >/dev/null 2>&1)
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,760 \
  --screenshot="$root/docs/audit-cnn-qdq.png" "file://$models/audit/audit.html" 2>/dev/null
rm -rf "$models"
echo "wrote docs/audit-cnn-qdq.png"
