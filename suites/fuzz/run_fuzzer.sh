#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time and prints its figures.
#   run_fuzzer.sh FUZZER SECONDS WORK_DIR SEED_DIR [DICT]
# WORK_DIR/corpus collects what the fuzzer finds (the seeds stay untouched); a crashing input is
# saved as WORK_DIR/crash-* and fails the run, as do leaks, timeouts (10 s per input) and
# sanitizer reports. Prints: target, executions, coverage, corpus size, findings.
set -uo pipefail
fuzzer=$1 seconds=$2 work=$3 seeds=$4 dict=${5:-}
mkdir -p "$work/corpus"
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
      -print_final_stats=1 -artifact_prefix="$work/")
[[ -n $dict && -f $dict ]] && args+=(-dict="$dict")
"$fuzzer" "${args[@]}" "$work/corpus" "$seeds" >"$work/log.txt" 2>&1
rc=$?
runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$work/log.txt" | grep -oE '[0-9]+$' || echo 0)
cov=$(grep -oE 'cov: [0-9]+' "$work/log.txt" | tail -1 | grep -oE '[0-9]+' || echo 0)
corpus=$(find "$work/corpus" -type f | wc -l)
findings=$(find "$work" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' -o -maxdepth 1 -name 'timeout-*' -o -maxdepth 1 -name 'oom-*' | wc -l)
printf '%s: %s executions in %s s, coverage %s edges, corpus %s, findings %s\n' \
  "$(basename "$fuzzer")" "$runs" "$seconds" "$cov" "$corpus" "$findings"
if ((rc != 0 || findings > 0)); then
  grep -E 'ERROR|SUMMARY|==[0-9]+==|runtime error|Test unit written' "$work/log.txt" | head -30
  exit 1
fi
