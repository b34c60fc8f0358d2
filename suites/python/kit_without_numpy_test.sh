#!/usr/bin/env bash
# The Python kit on an interpreter without numpy (here: Debian's python3 with its site packages
# off, -S) says so in one line, naming the interpreter, and exits 3: no traceback.
#   kit_without_numpy_test.sh SOURCE_DIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"
kit="$1/adapters/python"
expect "a python without numpy gets one line and exit 3" 3 "^qconform_exec: .* has no numpy; run the backend with an interpreter that has it" -- \
  /usr/bin/python3 -S -c "import sys; sys.path.insert(0, '$kit'); import qconform_exec"
out=$(/usr/bin/python3 -S -c "import sys; sys.path.insert(0, '$kit'); import qconform_exec" 2>&1)
expect "no traceback" 1 "" -- grep -q Traceback <<<"$out"
expect "the numpy example on a python without numpy: the same line" 3 "has no numpy" -- \
  /usr/bin/python3 -S "$kit/numpy_dequantize.py"
expect "the same kit with numpy imports" 0 "" -- \
  /usr/bin/python3 -c "import sys; sys.path.insert(0, '$kit'); import qconform_exec"
finish
