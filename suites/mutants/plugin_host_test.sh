#!/usr/bin/env bash
# The mutant backend as a vendor runs a plugin (qconform run --backend plugin:..., through the
# plugin host process) fails exactly the golden cases the in-process mutation gate counts, for a
# defect of each operator, and passes everything with no defect.
#   plugin_host_test.sh QCONFORM MUTATION_GATE LIBQCONFORM_MUTANTS GOLDEN_DIR
set -uo pipefail
qconform=$1 gate=$2 plugin=$3 golden=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
defects=(ql-reciprocal dq-e8m0-code0-zero dynql-zero-point-half-away qlmm-q31-double-round
         mm-a-zero-point-ignored qlc-q31-double-round conv-padding-zero rule-axis-range-unchecked)
# The gate's counts, all in one run of it (one load of the catalogue and its oracle).
gate_args=()
for defect in "${defects[@]}"; do gate_args+=(--defect "$defect"); done
"$gate" --golden "$golden" "${gate_args[@]}" --min-kills 0 >"$work/gate.txt"
for defect in none "${defects[@]}"; do
  if [[ $defect == none ]]; then
    want=0
  else
    want=$(awk -v d="$defect" '$2 == d {print $5}' "$work/gate.txt")
  fi
  summary=$(QCONFORM_MUTANT=$defect "$qconform" run --backend "plugin:$plugin" --golden "$golden" \
            -j 2 --report "$work/$defect" 2>/dev/null | grep -E '^qconform-mutants .* cases, ')
  got=$(sed -E 's/.* ([0-9]+) failing.*/\1/' <<<"$summary")
  if [[ -n $want && $got == "$want" ]]; then
    echo "ok   $defect: the plugin host run fails $got cases, as the gate counts"
  else
    echo "FAIL $defect: the plugin host run says '$summary', the gate counts '${want:-?}'"
    failures=$((failures + 1))
  fi
done
checked=9
# --admit (docs/semantics.md#d21): a backend that ships a named requantization knowingly passes
# when it admits that one by name, and the cases it explains read so; any other name still fails.
admit() {  # admit DEFECT NAME: the run's exit status; results in $work/admit-NAME
  QCONFORM_MUTANT=$1 "$qconform" run --backend "plugin:$plugin" --golden "$golden" --op QLinearMatMul \
    --count 0 --admit "$2" --report "$work/admit-$2" >/dev/null 2>&1
}
checked=$((checked + 3))
if admit qlmm-zero-point-first zero-point-first &&
   grep -q 'conformant with admitted strategy zero-point-first' "$work/admit-zero-point-first/results.json"; then
  echo "ok   --admit zero-point-first: the zero-point-first backend conforms, named as admitted"
else
  echo "FAIL --admit zero-point-first: the run failed or does not name the admitted strategy"
  failures=$((failures + 1))
fi
if ! admit qlmm-zero-point-first q31-double-round; then
  echo "ok   --admit q31-double-round does not excuse zero-point-first"
else
  echo "FAIL --admit q31-double-round excused the zero-point-first backend"
  failures=$((failures + 1))
fi
if admit none no-such-strategy; [[ $? == 2 ]]; then
  echo "ok   --admit of an unknown name is a usage error"
else
  echo "FAIL --admit no-such-strategy was not a usage error"
  failures=$((failures + 1))
fi
echo
echo "$((checked - failures)) passed, $failures failed"
((failures == 0))
