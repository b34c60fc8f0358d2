#!/usr/bin/env bash
# golden/verify_outputs.py, the executable form of golden/INTERPRETING.md, judges a correct, a
# wrong and an admissible-but-inexact output, refusals, whole alternative outcomes, and every
# golden case given its own exact outputs.
#   verify_outputs_test.sh GOLDEN_DIR
set -uo pipefail
golden=$1
verify=(python3 "$golden/verify_outputs.py")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"

answer() {  # answer CASE FILE... : the runner's outputs for CASE are these files, in order
  local case=$1 k=0
  shift
  mkdir -p "$work/out/$case"
  for f in "$@"; do cp "$f" "$work/out/$case/output_$k.pb"; k=$((k + 1)); done
}
set0() { echo "$golden/$1/test_data_set_0"; }

# A correct output, a wrong one (the low bit of the last element flipped), an admissible one.
answer dq21-int8-pt-zp "$(set0 dq21-int8-pt-zp)/output_0.pb"
expect "the exact output passes" 0 "^pass dq21-int8-pt-zp  admissible" -- "${verify[@]}" "$golden/dq21-int8-pt-zp" "$work/out"
f="$work/out/dq21-int8-pt-zp/output_0.pb"
off=$(($(stat -c %s "$f") - 4))
byte=$(od -An -tu1 -j "$off" -N1 "$f" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
expect "a wrong element fails and is named" 1 "^fail dq21-int8-pt-zp  output 0 element [0-9]+ is 0x" -- "${verify[@]}" "$golden/dq21-int8-pt-zp" "$work/out"
answer dq13-int32-pt "$(set0 dq13-int32-pt)/admissible/f32/output_0.pb"
expect "the f32 strategy's output is admissible, though not exact" 0 "^pass dq13-int32-pt  admissible" -- "${verify[@]}" "$golden/dq13-int32-pt" "$work/out"
cmp -s "$(set0 dq13-int32-pt)/admissible/f32/output_0.pb" "$(set0 dq13-int32-pt)/output_0.pb" &&
  { echo "FAIL the f32 output should differ from the exact one"; failures=$((failures + 1)); }

# Refusals: required for a must-reject case, admissible for an implementation-defined one,
# a failure for a valid one; outputs for a must-reject case fail.
expect "refusing a must-reject case passes" 0 "^pass dq21-reject-zero-point-shape  refused as required" -- "${verify[@]}" "$golden/dq21-reject-zero-point-shape" "$work/out"
answer dq21-reject-zero-point-shape "$(set0 dq21-int8-pt-zp)/output_0.pb"
expect "computing a must-reject case fails" 1 "^fail dq21-reject-zero-point-shape  computed a case the specification forbids" -- "${verify[@]}" "$golden/dq21-reject-zero-point-shape" "$work/out"
expect "refusing an implementation-defined case passes" 0 "^pass dq21-impl-int32-zero-point  refused; refusing is admissible" -- "${verify[@]}" "$golden/dq21-impl-int32-zero-point" "$work/out"
expect "refusing a valid case fails" 1 "^fail dq21-uint8-pt  refused a valid case" -- "${verify[@]}" "$golden/dq21-uint8-pt" "$work/out"

# Whole alternative outcomes: QuantizeLinear ignoring a float8 zero point, and ONNX Runtime's
# reading of all-zero DynamicQuantizeLinear input.
answer ql21-impl-float8-zero-point "$(set0 ql21-impl-float8-zero-point)/outcomes/zero-point-ignored/output_0.pb"
expect "the zero-point-ignored outcome passes" 0 "^pass ql21-impl-float8-zero-point  matches the admissible outcome zero-point-ignored" -- "${verify[@]}" "$golden/ql21-impl-float8-zero-point" "$work/out"
o="$(set0 dynql11-impl-all-zero)/outcomes/onnxruntime-y_scale-1"
answer dynql11-impl-all-zero "$o/output_0.pb" "$o/output_1.pb" "$o/output_2.pb"
expect "ONNX Runtime's all-zero outcome passes" 0 "^pass dynql11-impl-all-zero  matches the admissible outcome" -- "${verify[@]}" "$golden/dynql11-impl-all-zero" "$work/out"

# Every golden case, answered with its own exact outputs (refused where it has none), passes:
# the contract and the catalogue agree.
rm -rf "$work/out" && mkdir -p "$work/out"
# (answer's copies, for every case at once: one process, not three per case)
/usr/bin/python3 - "$golden" "$work/out" <<'PY'
import glob, os, shutil, sys
golden, out = sys.argv[1:3]
for d in sorted(glob.glob(os.path.join(golden, "*", ""))):
    outputs = sorted(glob.glob(os.path.join(d, "test_data_set_0", "output_*.pb")))
    if not outputs:
        continue
    target = os.path.join(out, os.path.basename(os.path.dirname(d)))
    os.makedirs(target)
    for k, f in enumerate(outputs):
        shutil.copyfile(f, os.path.join(target, "output_%d.pb" % k))
PY
expect "every golden case passes with its exact outputs" 0 "^[0-9]+ passed, 0 failed" -- "${verify[@]}" "$golden" "$work/out" --quiet
expect "an empty directory is bad input" 2 "no cases under" -- "${verify[@]}" "$work/out" "$work/out"

finish
