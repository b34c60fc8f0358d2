#!/usr/bin/env python3
"""A baseline's reasons name their own case's types.

    baseline_reasons_test.py EXPECTATIONS_DIR GOLDEN_DIR

A reason is what a reader of the report sees for a known failure. Reasons are often written once
per refusal and copied to the cases with the same refusal; where the runtime's message names no
type ("Could not find an implementation for DequantizeLinear(19)"), a copied reason can name
another case's types. For every golden case a baseline lists, this checks the types its reason
names against the case's manifest features (type, scale, output):
  "kernel for x X, scale S, y Y"   X, S and Y
  "no kernel for (a|an) T x_scale" T is the case's scale type
  "no kernel for T x "             T is the case's x type
Prints each mismatch and 'N checked, N wrong'; exits 1 when any is wrong.
"""
import os
import re
import sys

PATTERNS = [
    (re.compile(r"kernel for x (\S+), scale (\S+), y (\S+) "), ("type", "scale", "output")),
    (re.compile(r"no kernel for an? (\S+) x_scale"), ("scale",)),
    (re.compile(r"no kernel for (\S+) x "), ("type",)),
]


def manifest_features(golden):
    features = {}
    with open(os.path.join(golden, "manifest.tsv")) as f:
        header = None
        for line in f:
            if line.startswith("#"):
                continue
            cells = line.rstrip("\n").split("\t")
            if header is None:
                header = cells
                continue
            row = dict(zip(header, cells))
            features[row["id"]] = dict(
                kv.split(":", 1) for kv in row["features"].split(",") if ":" in kv)
    return features


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: baseline_reasons_test.py EXPECTATIONS_DIR GOLDEN_DIR")
    expectations, golden = sys.argv[1], sys.argv[2]
    features = manifest_features(golden)
    checked = wrong = 0
    for name in sorted(os.listdir(expectations)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(expectations, name)) as f:
            for number, line in enumerate(f, 1):
                if line.startswith("#") or not line.strip():
                    continue
                case, _, reason = line.rstrip("\n").split(" ", 2)
                have = features.get(case)
                if have is None:
                    continue
                for pattern, keys in PATTERNS:
                    m = pattern.search(reason)
                    if not m or not all(k in have for k in keys):
                        continue
                    checked += 1
                    named = dict(zip(keys, m.groups()))
                    bad = {k: v for k, v in named.items() if have[k] != v}
                    if bad:
                        wrong += 1
                        print("%s:%d: %s: the reason names %s; the case has %s" % (
                            name, number, case,
                            ", ".join("%s %s" % kv for kv in sorted(bad.items())),
                            ", ".join("%s %s" % (k, have[k]) for k in sorted(bad))))
                    break
    print("%d checked, %d wrong" % (checked, wrong))
    return 1 if wrong or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
