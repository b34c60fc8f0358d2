#!/usr/bin/env bash
# qconform run --shard K/N: the N slices partition the run (every case in exactly one shard, the
# failures summed are the whole run's), each slice meets its own part of the baseline (no entry
# of another slice is stale), a shard is chosen by the case id alone, and a bad K/N is a usage
# error.
#   shard_test.sh QCONFORM
set -uo pipefail
qconform=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/results.sh"

ids() {  # the case ids of a run's results.json
  case_lines "$1" id
}
expect "the whole run matches the example plugin's baseline" 0 "MATCHES" -- \
  "$qconform" run --backend plugin:example -j 2 --report "$work/all"
for k in 1 2 3; do
  expect "shard $k/3 matches its part of the baseline" 0 "MATCHES" -- \
    "$qconform" run --backend plugin:example -j 2 --shard "$k/3" --report "$work/s$k"
done
ids "$work/all/results.json" | sort >"$work/all.ids"
cat <(ids "$work/s1/results.json") <(ids "$work/s2/results.json") <(ids "$work/s3/results.json") |
  sort >"$work/shards.ids"
expect "the shards partition the run: every case once" 0 "" -- cmp "$work/all.ids" "$work/shards.ids"
# A case keeps its shard when the catalogue changes: a filtered run's shard holds the same ids.
"$qconform" run --backend oracle --filter dq21 --shard 2/3 --count 0 --report "$work/f" >/dev/null 2>&1
comm -23 <(ids "$work/f/results.json" | sort) <(ids "$work/s2/results.json" | sort) >"$work/moved"
expect "a case stays in its shard when others are left out" 0 "" -- test ! -s "$work/moved"
expect "a shard out of range is a usage error" 2 "--shard takes K/N" -- \
  "$qconform" run --backend oracle --shard 4/3
expect "a malformed shard is a usage error" 2 "--shard takes K/N" -- \
  "$qconform" run --backend oracle --shard 1-3
finish
