#!/usr/bin/env bash
# Fails when a source file includes a header from a layer above its own (layers.txt beside this
# script gives the order). Usage:
#   check_layers.sh SOURCE_ROOT            check the tree
#   check_layers.sh --self-test SOURCE_ROOT  prove the check can fail: copy the tree's layer
#                                          folders, add one upward include, expect a failure
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
table="$here/layers.txt"

# Prints "folder rank" lines, longest folder first (oracle/core before oracle).
layer_table() { awk '!/^#/ && NF >= 2 { print length($2), $2, $1 }' "$table" | sort -rn | cut -d' ' -f2-; }

rank_of() {  # rank_of PATH -> the rank of the layer holding PATH, or nothing
  local path=$1 folder rank
  while read -r folder rank; do
    if [[ $path == "$folder"/* ]]; then echo "$rank"; return; fi
  done <<<"$table_rows"
}

# The oracle's families (oracle/semantics/*/, ranks of their own): the arrows between its files,
# a file's own header aside, are counted apart so that a run shows them.
family_root=oracle/semantics/

check() {
  local root=$1 violations=0 files=0 file header from to inner=0 inner_up=0
  table_rows=$(layer_table)
  cd "$root"
  while read -r folder _; do
    [[ -d $folder ]] || { echo "layering: $folder (in $table) does not exist" >&2; return 2; }
  done <<<"$table_rows"
  while IFS= read -r file; do
    from=$(rank_of "$file")
    [[ -n $from ]] || continue
    files=$((files + 1))
    while IFS= read -r header; do
      to=$(rank_of "$header")
      [[ -n $to ]] || continue
      if ((to > from)); then
        echo "layering: $file (layer $from) includes $header (layer $to, above it)"
        violations=$((violations + 1))
      fi
      if [[ $file == "$family_root"* && $header == "$family_root"* && ${header%.h} != "${file%.*}" ]]; then
        inner=$((inner + 1))
        ((to > from)) && inner_up=$((inner_up + 1))
      fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
  done < <(find . \( -name '*.h' -o -name '*.cc' \) -not -path './build*' | sed 's|^\./||' | sort)
  if ((files == 0)); then echo "layering: no source files found under $root" >&2; return 2; fi
  echo "layering: $files files checked, $violations upward includes"
  echo "layering: inside $family_root: $inner include arrows between files, $inner_up upward"
  ((violations == 0))
}

if [[ ${1:-} == --self-test ]]; then
  root=$2
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  while read -r _ folder _; do
    mkdir -p "$scratch/$folder" && cp -R "$root/$folder/." "$scratch/$folder/"
  done < <(awk '!/^#/ && NF >= 2' "$table")
  if ! (check "$scratch" >/dev/null); then
    echo "self-test: the unmodified copy already fails" >&2; exit 1
  fi
  echo '#include "runner/conformance_run.h"' >>"$scratch/oracle/core/case.h"
  if out=$(check "$scratch"); then
    echo "self-test: an upward include (oracle/core -> runner) was not detected" >&2; exit 1
  fi
  grep -q 'oracle/core/case.h (layer 1) includes runner/conformance_run.h' <<<"$out" || {
    echo "self-test: the violation was not named: $out" >&2; exit 1; }
  # The same inside the oracle: a family's file reaching up to a later family.
  rm -rf "$scratch"/* && while read -r _ folder _; do
    mkdir -p "$scratch/$folder" && cp -R "$root/$folder/." "$scratch/$folder/"
  done < <(awk '!/^#/ && NF >= 2' "$table")
  echo '#include "oracle/semantics/qlinear_group/qlinear_group.h"' \
    >>"$scratch/oracle/semantics/common/evaluation.h"
  if out=$(check "$scratch"); then
    echo "self-test: an upward include between families (common -> qlinear_group) was not detected" >&2
    exit 1
  fi
  grep -q 'oracle/semantics/common/evaluation.h (layer 3) includes oracle/semantics/qlinear_group/qlinear_group.h (layer 8' <<<"$out" || {
    echo "self-test: the family violation was not named: $out" >&2; exit 1; }
  echo "self-test: the injected upward includes (core -> runner, common -> qlinear_group) were detected and named"
  exit 0
fi
check "${1:?usage: check_layers.sh [--self-test] SOURCE_ROOT}"
