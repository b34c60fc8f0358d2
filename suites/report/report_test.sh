#!/usr/bin/env bash
# The report a runtime engineer reads, as they read it: report.html rendered by headless
# Chromium (its DOM checked by check_dom.py), results.json against its JSON Schema, and
# `qconform diff` on recorded runs: a regression and a fix, a changed kind, an unchanged run.
#   report_test.sh QCONFORM FAULT_BACKEND SOURCE_DIR
set -uo pipefail
qconform=$1
fault_backend=$2
source_dir=$3
here=$(dirname "${BASH_SOURCE[0]}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../lib/expect.sh"

# Three runs of the same cases: one wrong element in case X, then in case Y instead, then a
# crash on X. The fault backend answers every other case as the oracle does.
x=dq21-int8-axis1-zp
y=dq21-int8-pt-zp
run() {  # run NAME MODE CASE
  "$qconform" run --backend "exec:$fault_backend $2 $3" --filter dq21-int8- --count 0 \
    --report "$work/$1" >"$work/$1.log" 2>&1
}
run x-wrong wrong-value "$x"
run y-wrong wrong-value "$y"
run x-crash crash-before-outputs "$x"

schema="$source_dir/report/results.schema.json"
expect "results.json follows its schema" 0 "valid" -- \
  python3 "$here/json_schema_check.py" "$schema" "$work/x-wrong/results.json" "$work/x-crash/results.json"
sed 's/"kind": "wrong-outputs"/"kind": "wrongoutputs"/; s/"planned_cases": [0-9]*,//' \
  "$work/x-wrong/results.json" >"$work/broken.json"
expect "the schema check can fail: a bad kind and a missing field are named" 1 "lacks 'planned_cases'" -- \
  python3 "$here/json_schema_check.py" "$schema" "$work/broken.json"

expect "diff of a run with itself: nothing changed, exit 0" 0 "^0 regressions, 0 fixes, 0 changed kinds" -- \
  "$qconform" diff "$work/x-wrong" "$work/x-wrong/results.json"
expect "diff: a regression exits 1 and comes first" 1 "^Regressions \(1\)" -- \
  "$qconform" diff "$work/x-wrong" "$work/y-wrong" --out "$work/diff"
expect "diff: the regression is the case that now fails, grouped by cause" 1 \
  "wrong values: DequantizeLinear -> float, nearest strategy [a-z0-9]+ \(1\)" -- "$qconform" diff "$work/x-wrong" "$work/y-wrong"
expect "diff: the fix is listed" 1 "$x  wrong-outputs -> conformant" -- "$qconform" diff "$work/x-wrong" "$work/y-wrong"
expect "diff: a failure of another kind is a changed kind, not a regression" 0 "$x  wrong-outputs -> crash" -- \
  "$qconform" diff "$work/x-wrong" "$work/x-crash"
expect "diff --out writes Markdown and HTML" 0 "" -- grep -q "Regressions (1)" "$work/diff/diff.md" "$work/diff/diff.html"
expect "diff of something else is an input error naming it" 2 "broken.txt: not a qconform results.json" -- \
  bash -c "echo '{}' >'$work/broken.txt'; '$qconform' diff '$work/broken.txt' '$work/x-wrong'"

# The HTML report in a browser.
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "SKIP the Chromium DOM checks: chromium is not installed (tools/setup.sh installs it)"
else
  dom="$work/dom.html"
  "$chromium" --headless --no-sandbox --disable-gpu --dump-dom "file://$work/x-wrong/report.html" \
    >"$dom" 2>/dev/null
  expect "Chromium renders report.html: verdict, groups, legend, links, no machine path" 0 "" -- \
    python3 "$here/check_dom.py" "$dom" "$work/x-wrong" "Differs from no baseline: 1 new-failure" \
    "wrong values: DequantizeLinear -> float" "$work" "$source_dir" "/tmp/" "/home/" "/root/"
fi
finish
