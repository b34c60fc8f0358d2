#!/usr/bin/env bash
# Sharded runs merged: four shards of one run (qconform run --shard K/4) merged by qconform merge
# give the unsharded run's results.json, report.md, reproducers and exit status; baseline
# entries are judged across every shard (stale, unexpected pass); shards of another run, a missing, repeated or
# incomplete shard, a directory that is no shard, and a journal of other cases are refused.
#   merge_test.sh QCONFORM FAULT_BACKEND
set -uo pipefail
qconform=$1
fault_backend=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"

# One crash among the cases, known to the baseline; one entry no case meets (stale).
baseline="$work/baseline.txt"
printf '%s\n' "# qconform expectations, format 2" \
  "dq21-int8-axis1-zp crash the fault backend crashes here" >"$baseline"
backend="exec:$fault_backend crash-before-outputs dq21-int8-axis1-zp 0 merge-test"
run=("$qconform" run --backend "$backend" --filter dq21- --expectations "$baseline")

"${run[@]}" --report "$work/whole" >"$work/whole.log" 2>&1
whole_rc=$?
expect "the unsharded run matches its baseline" 0 "" -- test "$whole_rc" -eq 0
for k in 1 2 3 4; do
  expect "shard $k/4 runs" 0 "" -- "${run[@]}" --shard "$k/4" --report "$work/s$k"
done
expect "the four shards merge" "$whole_rc" "qconform merge: 4 shards of [0-9]+ cases" -- \
  "$qconform" merge "$work/s1" "$work/s2" "$work/s3" "$work/s4" --report "$work/merged"
norm() { sed -E 's/"(seconds|started)": ("[^"]*"|[0-9.e+-]+)//g' "$1"; }
expect "the merged results.json is the unsharded run's" 0 "" -- \
  diff <(norm "$work/whole/results.json") <(norm "$work/merged/results.json")
expect "so is report.md" 0 "" -- \
  diff <(grep -vE "cases/s| cases in [0-9.]+ s" "$work/whole/report.md") \
  <(grep -vE "cases/s| cases in [0-9.]+ s" "$work/merged/report.md")
expect "and the reproducers" 0 "" -- diff -r -I "/repro/" "$work/whole/repro" "$work/merged/repro"
expect "the merged directory is itself a run: its journal holds every case" 0 "" -- \
  test "$(grep -c . "$work/merged/observed.jsonl")" -eq "$(grep -c . "$work/whole/results.jsonl")"

# Baseline entries the merged run judges: one of a case gone from the catalogue (stale), and one
# of a case that now passes (an unexpected pass); each lies in one shard only.
printf '%s\n' "dq21-gone-from-the-catalogue crash it used to crash" \
  "dq21-int8-pt wrong-outputs it used to fail" >>"$baseline"
for k in 1 2; do "${run[@]}" --shard "$k/2" --report "$work/t$k" >/dev/null 2>&1; done
expect "a stale entry fails the merged gate" 1 "^stale +dq21-gone-from-the-catalogue" -- \
  "$qconform" merge "$work/t1" "$work/t2" --report "$work/stale"
expect "so does an unexpected pass" 1 "^unexpected-pass +dq21-int8-pt" -- \
  "$qconform" merge "$work/t1" "$work/t2" --report "$work/stale"

# Relative baseline paths: shards run in one directory with a relative --expectations merge from
# another (the path is read where the shards ran); merge --expectations replaces the baseline.
mkdir -p "$work/rel/ci" "$work/elsewhere"
cp "$work/baseline.txt" "$work/rel/ci/libnpu-0.1.txt"
for k in 1 2; do
  (cd "$work/rel/ci" && "$qconform" run --backend "$backend" --filter dq21- \
     --expectations libnpu-0.1.txt --shard "$k/2" --report "$work/rel/r$k" >/dev/null 2>&1)
done
expect "a shard's relative --expectations is read where the shard ran" 1 "^stale +dq21-gone-from-the-catalogue" -- \
  bash -c "cd '$work/elsewhere' && '$qconform' merge '$work/rel/r1' '$work/rel/r2' --report '$work/rel/merged'"
printf '%s\n' "# qconform expectations, format 2" >"$work/empty.txt"
expect "merge --expectations gates against the file given" 1 "^new-failure +dq21-int8-axis1-zp" -- \
  "$qconform" merge "$work/rel/r1" "$work/rel/r2" --report "$work/rel/merged2" --expectations "$work/empty.txt"
expect "merge --expectations with no such file is refused" 2 "--expectations /nonexistent.txt: no such file" -- \
  "$qconform" merge "$work/rel/r1" "$work/rel/r2" --report "$work/x" --expectations /nonexistent.txt

expect "a missing shard is refused" 2 "shard\(s\) 3 of 4 missing" -- \
  "$qconform" merge "$work/s1" "$work/s2" "$work/s4" --report "$work/x"
expect "a repeated shard is refused" 2 "shard 2 twice" -- \
  "$qconform" merge "$work/s1" "$work/s2" "$work/s2" "$work/s3" "$work/s4" --report "$work/x"
expect "shards of different counts are refused" 2 "is a shard of 2" -- \
  "$qconform" merge "$work/s1" "$work/t2" --report "$work/x"
"${run[@]}" --filter dq21-int8 --shard 2/4 --report "$work/other" >/dev/null 2>&1
expect "a shard of another run (other options) is refused" 2 "is a shard of another run" -- \
  "$qconform" merge "$work/s1" "$work/other" "$work/s3" "$work/s4" --report "$work/x"
expect "a directory that is no shard is refused" 2 "is not a shard" -- \
  "$qconform" merge "$work/whole" --report "$work/x"
expect "a directory that is no run is refused" 2 "no run.json" -- \
  "$qconform" merge "$work" --report "$work/x"
cp -r "$work/s3" "$work/cut"
sed -i 's/"complete": true/"complete": false/' "$work/cut/results.json"
expect "an incomplete shard is refused, naming --resume" 2 "incomplete: finish it with qconform run --resume" -- \
  "$qconform" merge "$work/s1" "$work/s2" "$work/cut" "$work/s4" --report "$work/x"
cp -r "$work/s3" "$work/foreign"
head -1 "$work/s1/observed.jsonl" >>"$work/foreign/observed.jsonl"
expect "a journal holding another shard's case is refused" 2 "is not among shard 3's cases" -- \
  "$qconform" merge "$work/s1" "$work/s2" "$work/foreign" "$work/s4" --report "$work/x"
expect "merge needs --report" 2 "--report OUT" -- "$qconform" merge "$work/s1"
finish
