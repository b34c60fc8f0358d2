#!/usr/bin/env bash
# The differential fuzzer's power: for every defect of the catalogue (suites/mutants), the time
# it takes to find it from the minimal corpus (one plain valid case per operator, no golden case),
# one fuzzer process per defect (libFuzzer -seed=1), nproc of them at a time. Writes the table as
# the last section of the mutation score document.
#   measure_defects.sh FUZZER MUTANTS_PLUGIN SECONDS WORK_DIR DOCUMENT
# With DEFECTS="a b ..." only those are hunted (again), with this SECONDS; the others keep their
# results from an earlier run in WORK_DIR (a second, longer pass for the ones not found), or,
# where WORK_DIR has none, their row of the document's table (a defect added since the last
# full measurement is hunted alone).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/differential_flags.sh"
fuzzer=$1 plugin=$2 seconds=$3 work=$4 document=$5
[[ -n ${DEFECTS:-} ]] || rm -rf "$work"
mkdir -p "$work"
rm -rf "$work/seeds"
QCONFORM_FUZZ_WRITE_SEEDS="$work/seeds" "$fuzzer" >/dev/null
# The catalogue's defects and operators: the first table of the document (the gate writes it).
mapfile -t rows < <(awk '/^\| defect \|/ {t++} t == 1 && /^$/ {exit} t == 1' "$document" | grep '^| `' |
  sed -E 's/^\| `([^`]+)` \| ([^|]+) \|.*/\1 \2/' | sed 's/ *$//')
if [[ -n ${DEFECTS:-} ]]; then  # earlier results from the document's own table
  sed -n '/^## The differential fuzzer/,$p' "$document" | grep '^| `' |
    while IFS='|' read -r _ defect _ time limit execs kind case _; do
      defect=$(tr -d ' `' <<<"$defect")
      [[ -e $work/$defect.result ]] && continue
      trim() { sed -E 's/^ +| +$//g' <<<"$1"; }
      printf '%s|%s|%s|%s|%s|%s\n' "$defect" "$(trim "$time")" "$(trim "$execs")" "$(trim "$kind")" \
        "$(trim "$case")" "$(trim "$limit")" >"$work/$defect.result"
    done
fi

one() {  # DEFECT OPERATOR: fuzz until the first finding or the time limit; DEFECT.result holds
  local defect=$1 dir=$work/$1 start end status groups=0
  # The QDQ groups' defects are hunted with groups among the inputs (fuzz_groups.h).
  [[ $2 == "QDQ groups" ]] && groups=1
  rm -rf "$dir"
  mkdir -p "$dir/corpus"
  start=$(date +%s.%N)
  QCONFORM_FUZZ_PLUGIN=$plugin QCONFORM_MUTANT=$defect QCONFORM_FUZZ_REPRO="$dir/repro" \
    QCONFORM_FUZZ_NO_GOLDEN=1 QCONFORM_FUZZ_GROUPS=$groups QCONFORM_FUZZ_CLEAN_CHECK=1 \
    "$fuzzer" "${differential_flags[@]}" -seed=1 -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" "$work/seeds/minimal" \
    >"$dir/log.txt" 2>&1
  status=$?
  end=$(date +%s.%N)
  local found kind case execs
  found=$(grep -m1 'FINDING' "$dir/log.txt")
  kind=$(sed -E 's/.*FINDING ([a-z-]+) on .*/\1/' <<<"$found")
  case=$(sed -E 's/.* on ([^ ]+) \((.*)\)$/\2/' <<<"$found")
  # The backend itself broken in process (a signal, a sanitizer's report in its code) is a
  # crash: qconform's verdict on it through the plugin host.
  if [[ -z $found ]] && grep -qE 'runtime error|ERROR: (AddressSanitizer|libFuzzer: deadly signal)' "$dir/log.txt"; then
    found=crash kind="crash ($(grep -m1 -oE 'runtime error: [a-z ]+|AddressSanitizer: [a-z-]+|deadly signal' "$dir/log.txt"))"
    case=$(grep -m1 -oE 'suites/mutants/[a-z_]+\.cc:[0-9]+' "$dir/log.txt")
  fi
  execs=$(grep -oE '^#[0-9]+' "$dir/log.txt" | tail -1 | tr -d '#')
  if [[ -n $found ]]; then
    printf '%s|%.1f|%s|%s|%s|%s\n' "$defect" "$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')" "${execs:-0}" "$kind" "$case" "$seconds"
  else
    printf '%s|-|%s|not found (exit %s)||%s\n' "$defect" "${execs:-0}" "$status" "$seconds"
  fi >"$dir.result"
}

for row in "${rows[@]}"; do
  defect=${row%% *}
  [[ -z ${DEFECTS:-} || " $DEFECTS " == *" $defect "* ]] || continue
  while (($(jobs -rp | wc -l) >= $(nproc))); do sleep 0.2; done
  one "$defect" "${row#* }" &
done
wait

found=0 total=0
table=""
for row in "${rows[@]}"; do
  defect=${row%% *} op=${row#* }
  IFS='|' read -r _ time execs kind case limit <"$work/$defect.result"
  total=$((total + 1))
  [[ $time != - ]] && found=$((found + 1))
  table+="| \`$defect\` | $op | $time | $limit | ${execs:-0} | $kind | $case |"$'\n'
done
missed=$(awk -F'|' '$2 == "-" {printf "%s`%s`", (n++ ? ", " : ""), $1}' "$work"/*.result)
times=$(cut -d'|' -f2 "$work"/*.result | grep -v '^-$' | sort -g)
median=$(awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}' <<<"$times")
slowest=$(tail -1 <<<"$times")
# Inputs the defect-free backend fails too (not counted for any defect): the oracle and the
# mutants disagree there, which is a finding of its own.
shared=$(cat "$work"/*/log.txt 2>/dev/null | grep -c 'fuzz_differential: SHARED')
shared_first=$(cat "$work"/*/log.txt 2>/dev/null | grep -m1 -A1 'fuzz_differential: SHARED' | sed -E 's/^fuzz_differential: SHARED //; s/^ +//' | tr '\n' ' ')

section=$(cat <<DOC

## The differential fuzzer: time to the first finding

Written by \`tools/fuzz.sh --defects SECONDS\` (suites/fuzz/measure_defects.sh). The differential
fuzzer (\`suites/fuzz/fuzz_differential.cc\`) turns bytes into cases of any operator through the
generators' choices, moves them onto boundaries the bytes choose (\`suites/fuzz/fuzz_boundary_moves.h\`:
x onto ties of x / y_scale and where a float y saturates; acc * M onto ties through QLinearConv's
bias; a wide K past float32's exact integers; version 21's float8 operands), runs the mutant
backend in process with one defect switched on, and stops at the first result the oracle does not
admit. The QDQ groups' defects are hunted among groups too (\`QCONFORM_FUZZ_GROUPS=1\`,
\`suites/fuzz/fuzz_groups.h\`: a pattern runtimes rewrite, its codes and dyadic scales, then
ties with an odd zero point, a 2^-24 ratio, a negative or tiny scale, a weight's axis, a second
grid, an outlier activation), run in process by the plain graph backend. Each defect is hunted
from the **minimal corpus** (one plain valid case per operator and one plain group per pattern,
inputs of 2 to 3 bytes) with generated cases only
(\`QCONFORM_FUZZ_NO_GOLDEN=1\`: no input may pick a golden case), by one libFuzzer process
(-seed=1, -len_control=0, ASan and UBSan on), $(nproc) at a time on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');
a defect not found within its time limit says so (a first pass of every defect, then a longer
pass of the ones it missed: \`DEFECTS="..." tools/fuzz.sh --defects SECONDS\`). The time
includes the process's start. A crash of the backend in process (a signal, a sanitizer's report
in its code) is a finding: through the plugin host it is the verdict \`crash\`.

**Found: $found of $total defects; median time to the first finding ${median:-} s, slowest ${slowest:-} s.**
${missed:+Not found: $missed.}
Inputs the defect-free backend fails too, so counted for no defect (\`QCONFORM_FUZZ_CLEAN_CHECK=1\`):
${shared}${shared_first:+; the first: $shared_first}.

| defect | operator | seconds to the first finding | time limit (s) | executions | verdict | the operator version of the case that found it |
|---|---|---|---|---|---|---|
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
