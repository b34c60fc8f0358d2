#!/usr/bin/env bash
# examples/ci as a vendor's CI runs it: four shard jobs at once (run-shard.sh), then the merge
# job (merge.sh). The merged verdict is the unsharded run's; a shard that differs from the
# baseline still hands its report on (its job succeeds) and the merge job fails instead; the
# workflows call only scripts that exist.
#   ci_example_test.sh QCONFORM SOURCE_DIR
set -uo pipefail
qconform=$1 source_dir=$2
examples=$source_dir/examples/ci
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/results.sh"
export QCONFORM=$qconform BACKEND=plugin:example
args=(--filter dq21 --filter ql21 --count 40)

shards() {  # PREFIX [extra args]: the four shard jobs in parallel; their exit statuses
  local prefix=$1 k
  shift
  for k in 1 2 3 4; do
    "$examples/run-shard.sh" "$k" 4 "$work/$prefix-$k" "${args[@]}" "$@" >/dev/null 2>&1 &
  done
  local statuses=""
  for job in $(jobs -p); do
    wait "$job"
    statuses+="$? "
  done
  echo "$statuses"
}

"$qconform" run --backend "$BACKEND" "${args[@]}" --report "$work/whole" >/dev/null 2>&1
expect "four shard jobs succeed" 0 "^0 0 0 0 $" -- shards ok
expect "the merge job passes: the run matches the baseline" 0 "MATCHES" -- \
  "$examples/merge.sh" "$work/merged" "$work"/ok-{1,2,3,4}
case_lines "$work/whole/results.json" id kind gate detail >"$work/a"
case_lines "$work/merged/results.json" id kind gate detail >"$work/b"
expect "the merged verdicts are the unsharded run's" 0 "" -- diff "$work/a" "$work/b"
expect "report.md too" 0 "" -- diff <(grep -vE "cases/s| cases in [0-9.]+ s" "$work/whole/report.md") \
  <(grep -vE "cases/s| cases in [0-9.]+ s" "$work/merged/report.md")

# Against an empty baseline every shard differs: the shard jobs still succeed, the merge fails.
: >"$work/empty-baseline.txt"
expect "shard jobs differing from the baseline still succeed" 0 "^0 0 0 0 $" -- \
  shards bad --expectations "$work/empty-baseline.txt"
expect "each kept its own exit status" 0 "" -- grep -qx 1 "$work/bad-1/shard-exit-status"
expect "the merge job fails the run" 1 "" -- "$examples/merge.sh" "$work/merged-bad" "$work"/bad-{1,2,3,4}
# A baseline of the vendor's own (EXPECTATIONS): the shards and the merge gate against it, and
# the merged report names it (it once read "baseline (none)").
cp "$source_dir/suites/expectations/example-f32-1.0.txt" "$work/mine.txt"
export EXPECTATIONS="$work/mine.txt"
expect "shard jobs with EXPECTATIONS succeed" 0 "^0 0 0 0 $" -- shards mine
expect "the merge job gates against EXPECTATIONS and names it" 0 "baseline .*mine.txt: .*MATCHES" -- \
  "$examples/merge.sh" "$work/merged-mine" "$work"/mine-{1,2,3,4}
unset EXPECTATIONS
expect "a missing shard fails the merge job, named" 2 "shard" -- \
  "$examples/merge.sh" "$work/merged-3" "$work"/ok-{1,2,3}
expect "a shard job that cannot run fails" 2 "" -- "$examples/run-shard.sh" 5 4 "$work/x"

# The workflows call scripts that are there.
for yml in "$examples"/*.yml; do
  for script in $(grep -o 'examples/ci/[a-z-]*\.sh' "$yml" | sort -u); do
    expect "$(basename "$yml") calls $script, which exists" 0 "" -- test -x "$source_dir/$script"
  done
done
finish
