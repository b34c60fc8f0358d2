# Sourced by the shell tests: `expect NAME WANT_EXIT PATTERN -- command...` runs the command and
# checks its exit status and (when PATTERN is not empty) that its output matches PATTERN;
# `finish` prints 'N passed, M failed' and sets the status.
failures=0
passes=0

expect() {
  local name=$1 want=$2 pattern=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want ]]; then
    echo "FAIL $name: exit $rc, expected $want"; echo "$out" | head -20; failures=$((failures + 1)); return
  fi
  if [[ -n $pattern ]] && ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: output lacks /$pattern/"; echo "$out" | head -20; failures=$((failures + 1)); return
  fi
  passes=$((passes + 1))
  echo "ok   $name"
}

finish() {
  echo
  echo "$passes passed, $failures failed"
  [[ $failures -eq 0 ]]
}
