# Sourced by the shell tests that read a run's results.json: `case_lines RESULTS_JSON FIELD...`
# prints the named fields of every case, one case per line, sorted (what a run found, without
# its timings).
case_lines() {
  /usr/bin/python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    print(" ".join(str(c[f]) for f in sys.argv[2:]))
' "$@" | sort
}
