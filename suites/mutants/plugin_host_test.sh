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
for defect in none ql-reciprocal dq-e8m0-code0-zero dynql-zero-point-half-away rule-axis-range-unchecked; do
  if [[ $defect == none ]]; then
    want=0
  else
    want=$("$gate" --golden "$golden" --defect "$defect" --min-kills 0 | awk -v d="$defect" '$2 == d {print $5}')
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
checked=5
echo
echo "$((checked - failures)) passed, $failures failed"
((failures == 0))
