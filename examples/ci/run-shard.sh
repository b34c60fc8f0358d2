#!/usr/bin/env bash
# One shard of a qconform run, as a CI job runs it: `run-shard.sh K N REPORT_DIR [RUN ARGS...]`.
# The shard's own gate verdict is not the job's: a shard that differs from the baseline still
# succeeds, so that its report reaches the merge job, which gives the one verdict (merge.sh).
# Only a run that could not be made (usage or input errors, exit 2; a signal) fails the job.
#   QCONFORM   the qconform executable (default: qconform on PATH)
#   BACKEND    the backend (default: onnxruntime)
#   EXPECTATIONS  the backend's baseline (qconform baseline --save writes it), if it is not in
#              qconform's own suites/expectations/
set -uo pipefail
if (($# < 3)); then
  echo "usage: run-shard.sh K N REPORT_DIR [qconform run arguments...]" >&2
  exit 2
fi
shard=$1 shards=$2 report=$3
shift 3
baseline=()
[[ -z ${EXPECTATIONS:-} ]] || baseline=(--expectations "$EXPECTATIONS")
"${QCONFORM:-qconform}" run --backend "${BACKEND:-onnxruntime}" --shard "$shard/$shards" \
  --report "$report" ${baseline[@]+"${baseline[@]}"} "$@"
status=$?
mkdir -p "$report" && echo "$status" >"$report/shard-exit-status"
case $status in
  0 | 1) exit 0 ;;  # a report was written; merge.sh decides
  *) exit "$status" ;;
esac
