#!/usr/bin/env bash
# The reproduce loop as a user meets it: a run with a failure writes repro/<case>/README.txt, and
# its first lines, pasted into a shell from where the run started, rerun the case on the backend
# and judge it, judge the stored observed/ outputs offline, and explain the first wrong element
# beside the backend's value.
#   repro_test.sh QCONFORM FAULT_BACKEND
set -uo pipefail
qconform=$1
fault_backend=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
cd "$work"
cp "$qconform" ./qconform

# The fault backend answers like the oracle except one bit of one element of this case.
id=dq21-int8-axis1-zp
expect "a run with one wrong element fails" 1 "new-failure +$id  wrong-outputs" -- \
  ./qconform run --backend "exec:$fault_backend wrong-value $id" --filter dq21-int8- --count 0 --report out
readme="out/repro/$id/README.txt"
expect "the reproducer's first line reruns the case on the backend and judges it" 1 "wrong-outputs: 1" -- \
  bash -c "$(sed -n 1p "$readme")"
expect "its second line judges the observed outputs offline" 1 "new-failure +$id  wrong-outputs: 1 of .* elements not admissible" -- \
  bash -c "$(sed -n 2p "$readme")"
expect "its third line explains the first wrong element, the backend's value beside" 0 "backend +-> 0x.*\(differs\)" -- \
  bash -c "$(sed -n 3p "$readme")"
expect "the oracle's own outputs pass the same check" 0 "^1 passed, 0 failed" -- \
  ./qconform check "out/repro/$id" --outputs "out/repro/$id/test_data_set_0"
cp -r "out/repro/$id" bare && rm -r bare/observed
expect "explain with nothing observed needs an index" 2 "explain needs --index I" -- ./qconform explain bare
expect "an --observed directory without output_0.pb is named" 2 "--observed none: no output_0.pb" -- \
  ./qconform explain bare --observed none
mkdir empty
expect "an --outputs directory without output files is a refusal (as in golden/verify_outputs.py)" 1 \
  "rejected-valid" -- ./qconform check "out/repro/$id" --outputs empty
expect "a missing --outputs directory is a usage error" 2 "no such directory" -- \
  ./qconform check "out/repro/$id" --outputs nowhere
expect "--outputs judges one case only" 2 "judges one case" -- \
  ./qconform check out/repro "out/repro/$id" --outputs empty
finish
