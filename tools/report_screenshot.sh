#!/usr/bin/env bash
# Regenerates the README's picture of a real report: the conformance run against ONNX Runtime
# (tools/build.sh run), its report.html rendered by headless Chromium into
# docs/report-onnxruntime.png (the first screen: the verdict, the outcomes, the failure groups).
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
