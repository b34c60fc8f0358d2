#!/usr/bin/env bash
# The merge job: `merge.sh OUT SHARD_DIR...`: the shards' reports as one report, one
# results.json and junit.xml, and one verdict against the baseline. Its exit status is the
# run's: 0 the whole run matches the baseline, 1 it does not, 2 the shards do not belong
# together (missing, repeated, incomplete, or of different runs; the message names which).
#   QCONFORM   the qconform executable (default: qconform on PATH)
#   EXPECTATIONS  the baseline to gate against (default: the one the shards ran with, read where
#              they ran when it is there, else from here)
set -uo pipefail
if (($# < 2)); then
  echo "usage: merge.sh OUT SHARD_DIR..." >&2
  exit 2
fi
out=$1
shift
baseline=()
[[ -z ${EXPECTATIONS:-} ]] || baseline=(--expectations "$EXPECTATIONS")
exec "${QCONFORM:-qconform}" merge "$@" --report "$out" ${baseline[@]+"${baseline[@]}"}
