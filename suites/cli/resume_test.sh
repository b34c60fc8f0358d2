#!/usr/bin/env bash
# An interrupted run and its resumption equal one uninterrupted run: SIGINT (and SIGTERM) stop
# `qconform run` half way with exit 130 (143), the backend's processes gone and a report marked
# incomplete; `qconform run --resume DIR` finishes it, and its results.json, report.md and
# reproducers are the uninterrupted run's (timings aside).
#   resume_test.sh QCONFORM FAULT_BACKEND
set -uo pipefail
qconform=$1
fault_backend=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"

# 5 ms per case (463 cases: over 2 s a run, and ten results in well under one), and one case
# that crashes: the report has a failure and a reproducer. The marker word lets us look for the
# backend's processes afterwards.
marker="resume-test-$$"
backend="exec:$fault_backend crash-before-outputs dq21-int8-axis1-zp 5 $marker"
run=("$qconform" run --backend "$backend" --filter dq21- --count 0 --timeout 5)

"${run[@]}" --report "$work/whole" >"$work/whole.log" 2>&1
whole_rc=$?
expect "the uninterrupted run fails on the crash only" 0 "" -- grep -q "crash: 1" "$work/whole.log"
cases=$(grep -c . "$work/whole/results.jsonl")
expect "the selection is big enough to interrupt" 0 "" -- test "$cases" -gt 40

# Interrupts a run in $1 with signal $2 once 10 results are in; prints its exit status.
interrupt() {
  "${run[@]}" --report "$1" >"$1.log" 2>&1 &
  local pid=$!
  for _ in $(seq 500); do
    [[ -f $1/results.jsonl ]] && (($(grep -c . "$1/results.jsonl") >= 10)) && break
    sleep 0.02
  done
  kill "-$2" "$pid"
  wait "$pid"
  echo $?
}

for signal in INT TERM; do
  dir="$work/cut-$signal"
  rc=$(interrupt "$dir" "$signal")
  want=$([[ $signal == INT ]] && echo 130 || echo 143)
  expect "SIG$signal exits $want" 0 "" -- test "$rc" -eq "$want"
  expect "SIG$signal: the backend's processes are gone" 1 "" -- pgrep -f "$marker"
  expect "SIG$signal: the report says it is incomplete" 0 "Incomplete: interrupted by" -- cat "$dir/report.md"
  expect "SIG$signal: results.json says so too" 0 '"complete": false' -- cat "$dir/results.json"
  done_cases=$(grep -c . "$dir/observed.jsonl")
  expect "SIG$signal: the journal holds some cases, not all" 0 "" -- test "$done_cases" -ge 10 -a "$done_cases" -lt "$cases"
  expect "SIG$signal: --resume runs only the rest" "$whole_rc" "resuming .*: $done_cases cases done, $((cases - done_cases)) to run" -- "$qconform" run --resume "$dir"
  expect "SIG$signal: the resumed results equal the uninterrupted ones" 0 "" -- \
    diff <(sed -E 's/"(seconds|started)": ("[^"]*"|[0-9.e+-]+)//g' "$work/whole/results.json") <(sed -E 's/"(seconds|started)": ("[^"]*"|[0-9.e+-]+)//g' "$dir/results.json")
  expect "SIG$signal: so does report.md" 0 "" -- \
    diff <(grep -vE "cases/s| cases in [0-9.]+ s" "$work/whole/report.md") <(grep -vE "cases/s| cases in [0-9.]+ s" "$dir/report.md")
  # (their README commands name their own directory)
  expect "SIG$signal: and the reproducers" 0 "" -- diff -r -I "/repro/" "$work/whole/repro" "$dir/repro"
done

expect "--resume of a directory without run.json is a usage error" 2 "no run.json" -- "$qconform" run --resume "$work"
expect "--resume takes no other option" 2 "takes no other option" -- "$qconform" run --resume "$work/whole" --strict
printf '{"id": "dq21-int8-axis1-zp", "seconds": 0.1, "outputs": ["%%%%"]}\n' >"$work/whole/observed.jsonl"
expect "a corrupt journal names its line" 2 "observed.jsonl:1: .*base64" -- "$qconform" run --resume "$work/whole"
printf '{"id": "no-such-case", "seconds": 0.1, "outputs": []}\n' >"$work/whole/observed.jsonl"
expect "a journal of other cases is refused" 2 "case no-such-case is not among the run's cases" -- "$qconform" run --resume "$work/whole"
finish
