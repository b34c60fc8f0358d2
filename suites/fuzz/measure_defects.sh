#!/usr/bin/env bash
# The differential fuzzer's power: for every defect of the catalogue (suites/mutants), the time
# it takes to find it from the minimal corpus (one plain valid case per operator, no golden case),
# one fuzzer process per defect (libFuzzer -seed=1), nproc of them at a time. Writes the table as
# the last section of the mutation score document.
#   measure_defects.sh FUZZER MUTANTS_PLUGIN SECONDS WORK_DIR DOCUMENT
set -uo pipefail
fuzzer=$1 plugin=$2 seconds=$3 work=$4 document=$5
rm -rf "$work"
mkdir -p "$work"
QCONFORM_FUZZ_WRITE_SEEDS="$work/seeds" "$fuzzer" >/dev/null
# The catalogue's defects and operators: the first table of the document (the gate writes it).
mapfile -t rows < <(sed -n '/^| defect |/,/^$/p' "$document" | grep '^| `' |
  sed -E 's/^\| `([^`]+)` \| ([^|]+) \|.*/\1 \2/' | sed 's/ *$//')

one() {  # DEFECT: fuzz until the first finding or the time limit; DEFECT.result holds
  local defect=$1 dir=$work/$1 start end status
  mkdir -p "$dir/corpus"
  start=$(date +%s.%N)
  QCONFORM_FUZZ_PLUGIN=$plugin QCONFORM_MUTANT=$defect QCONFORM_FUZZ_REPRO="$dir/repro" \
    QCONFORM_FUZZ_NO_GOLDEN=1 \
    "$fuzzer" -seed=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" "$work/seeds/minimal" \
    >"$dir/log.txt" 2>&1
  status=$?
  end=$(date +%s.%N)
  local found kind case execs
  found=$(grep -m1 'FINDING' "$dir/log.txt")
  kind=$(sed -E 's/.*FINDING ([a-z-]+) on .*/\1/' <<<"$found")
  case=$(sed -E 's/.* on ([^ ]+) \((.*)\)$/\2/' <<<"$found")
  execs=$(grep -oE '^#[0-9]+' "$dir/log.txt" | tail -1 | tr -d '#')
  if [[ -n $found ]]; then
    printf '%s|%.1f|%s|%s|%s\n' "$defect" "$(echo "$end - $start" | bc)" "${execs:-0}" "$kind" "$case"
  else
    printf '%s|-|%s|not found (exit %s)|\n' "$defect" "${execs:-0}" "$status"
  fi >"$dir.result"
}

for row in "${rows[@]}"; do
  while (($(jobs -rp | wc -l) >= $(nproc))); do sleep 0.2; done
  one "${row%% *}" &
done
wait

found=0 total=0
table=""
for row in "${rows[@]}"; do
  defect=${row%% *} op=${row#* }
  IFS='|' read -r _ time execs kind case <"$work/$defect.result"
  total=$((total + 1))
  [[ $time != - ]] && found=$((found + 1))
  table+="| \`$defect\` | $op | $time | ${execs:-0} | $kind | $case |"$'\n'
done
times=$(cut -d'|' -f2 "$work"/*.result | grep -v '^-$' | sort -g)
median=$(awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}' <<<"$times")
slowest=$(tail -1 <<<"$times")

section=$(cat <<DOC

## The differential fuzzer: time to the first finding

Written by \`tools/fuzz.sh --defects $seconds\` (suites/fuzz/measure_defects.sh). The differential
fuzzer (\`suites/fuzz/fuzz_differential.cc\`) turns bytes into cases of any operator through the
generators' choices, runs the mutant backend in process with one defect switched on, and stops at
the first result the oracle does not admit. Each defect is hunted from the **minimal corpus** (one
plain valid case per operator: 8 inputs of 2 bytes) with generated cases only
(\`QCONFORM_FUZZ_NO_GOLDEN=1\`: no input may pick a golden case), by one libFuzzer process
(-seed=1, ASan and UBSan on), $(nproc) at a time on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); a
defect not found within $seconds s says so. The time includes the process's start.

**Found: $found of $total defects; median time to the first finding ${median:-} s, slowest ${slowest:-} s.**

| defect | operator | seconds to the first finding | executions | verdict | the case that found it |
|---|---|---|---|---|---|
$table
DOC
)
# Replace the section (from its heading to the end) or append it.
/usr/bin/python3 - "$document" "$section" <<'PY'
import sys
path, section = sys.argv[1], sys.argv[2]
text = open(path).read()
at = text.find("\n## The differential fuzzer")
text = (text if at < 0 else text[:at]).rstrip("\n") + "\n" + section.rstrip("\n") + "\n"
open(path, "w").write(text)
PY
echo "found $found of $total defects (median ${median:-} s, slowest ${slowest:-} s); $document updated"
((found == total))
