#!/usr/bin/env python3
"""Contract version 3's admitted ranges (golden/INTERPRETING.md), judged by both judges.

    range_contract_test.py QCONFORM GOLDEN_DIR

1. golden/verify_outputs.py judges every row of suites/golden/range_verdicts.tsv (a range, the
   exact code, a runner's code, the verdict) from files, as suites/oracle/range_verdict_test.cc
   makes the C++ comparator judge the same rows: one table, two judges.
2. Broken stored ranges (one end missing, the wrong shape, the wrong type, lo > hi) are bad
   input to verify_outputs.py (exit 2, naming the file and the output) and a case-error of
   `qconform check` naming the file; a well-formed range the oracle does not state is a
   case-error of `qconform check` too.
Prints one line per check and 'N passed, N failed'; exits 1 on any failure.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "golden"))
import verify_outputs as contract  # noqa: E402

NAMES = {v[0]: k for k, v in contract.TYPES.items()}


def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def tensor(data_type, dims, codes):
    """A TensorProto with raw_data (dims 1, data_type 2, name 8, raw_data 9)."""
    bits = contract.TYPES[data_type][1]
    if bits >= 8:
        raw = b"".join(c.to_bytes(bits // 8, "little") for c in codes)
    else:
        per = 8 // bits
        raw = bytearray((len(codes) + per - 1) // per)
        for i, c in enumerate(codes):
            raw[i // per] |= c << (bits * (i % per))
        raw = bytes(raw)
    out = b"".join(varint(1 << 3) + varint(d) for d in dims) + varint(2 << 3) + varint(data_type)
    out += varint((8 << 3) | 2) + varint(1) + b"y"
    return out + varint((9 << 3) | 2) + varint(len(raw)) + raw


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


RESULTS = []


def check(ok, what):
    RESULTS.append(ok)
    print("%-4s %s" % ("pass" if ok else "FAIL", what))


def table(work):
    rows = []
    with open(os.path.join(HERE, "range_verdicts.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append(line.rstrip("\n").split("\t"))
    check(len(rows) >= 10, "the shared table has %d rows (at least ten ways)" % len(rows))
    for n, (type_name, lo, hi, exact, got, verdict, what) in enumerate(rows):
        t = NAMES[type_name]
        expected = os.path.join(work, "table", str(n))
        write(os.path.join(expected, "output_0.pb"), tensor(t, [1], [int(exact, 16)]))
        write(os.path.join(expected, "range", "lo", "output_0.pb"), tensor(t, [1], [int(lo, 16)]))
        write(os.path.join(expected, "range", "hi", "output_0.pb"), tensor(t, [1], [int(hi, 16)]))
        got_file = os.path.join(work, "table", "got%d.pb" % n)
        write(got_file, tensor(t, [1], [int(got, 16)]))
        why = contract.judge_outputs(expected, [got_file], False)
        check((why is None) == (verdict == "pass"),
              "verify_outputs.py: %s %s (%s)" % (type_name, what, why or "admissible"))


# Each breakage: (name, edit of the data set's range/ files, words the error must contain).
def missing_hi(s):
    os.remove(os.path.join(s, "range", "hi", "output_0.pb"))


def breakages(t, dims, exact):
    count = 1
    for d in dims:
        count *= d
    below = [(c - 1) & ((1 << contract.TYPES[t][1]) - 1) for c in exact]
    # Another type of the same width: float and int32, float16 and int16, int8 and uint8.
    other = {1: 6, 6: 1, 10: 5, 5: 10, 3: 2}.get(t, 3)
    return [
        ("one end missing", missing_hi, "missing"),
        ("the wrong shape", lambda s: write(os.path.join(s, "range", "lo", "output_0.pb"),
                                            tensor(t, [count, 1], exact)), "output_0.pb is"),
        ("the wrong type", lambda s: write(os.path.join(s, "range", "lo", "output_0.pb"),
                                           tensor(other, dims, exact)), "output_0.pb is"),
        ("lo > hi", lambda s: write(os.path.join(s, "range", "hi", "output_0.pb"),
                                    tensor(t, dims, below)), "element 0"),
    ]


def broken_files(qconform, golden, work):
    case = "dq21-int8-pt-zp"  # a valid case whose every element admits one code
    source = os.path.join(golden, case)
    data_type, dims, exact = contract.read_tensor(os.path.join(source, "test_data_set_0", "output_0.pb"))
    for name, breakage, words in breakages(data_type, dims, exact):
        cases = os.path.join(work, "broken", name.replace(" ", "-"))
        copy = os.path.join(cases, case)
        shutil.copytree(source, copy)
        s = os.path.join(copy, "test_data_set_0")
        write(os.path.join(s, "range", "lo", "output_0.pb"), tensor(data_type, dims, exact))
        write(os.path.join(s, "range", "hi", "output_0.pb"), tensor(data_type, dims, exact))
        breakage(s)
        outputs = os.path.join(work, "broken-outputs", name.replace(" ", "-"), case)
        os.makedirs(outputs)
        shutil.copy(os.path.join(s, "output_0.pb"), outputs)
        py = subprocess.run([sys.executable, os.path.join(golden, "verify_outputs.py"), cases,
                             os.path.dirname(outputs)], capture_output=True, text=True)
        check(py.returncode == 2 and "range" in py.stderr and words in py.stderr,
              "verify_outputs.py, a range with %s: exit %d, %s" % (name, py.returncode, py.stderr.strip()))
        cc = subprocess.run([qconform, "check", copy], capture_output=True, text=True)
        text = cc.stdout + cc.stderr
        check(cc.returncode != 0 and "case-error" in text and "range" in text and words in text,
              "qconform check, a range with %s: exit %d, %s" % (name, cc.returncode,
                                                                 text.strip().splitlines()[0]))
    # Well formed, but not the oracle's: qconform check names it (verify_outputs.py, which has
    # no oracle, judges by it).
    copy = os.path.join(work, "unstated", case)
    shutil.copytree(source, copy)
    s = os.path.join(copy, "test_data_set_0")
    write(os.path.join(s, "range", "lo", "output_0.pb"), tensor(data_type, dims, exact))
    write(os.path.join(s, "range", "hi", "output_0.pb"), tensor(data_type, dims, exact))
    cc = subprocess.run([qconform, "check", copy], capture_output=True, text=True)
    text = cc.stdout + cc.stderr
    check(cc.returncode != 0 and "does not state" in text,
          "qconform check, a range the oracle does not state: exit %d" % cc.returncode)


def main(qconform, golden):
    work = tempfile.mkdtemp()
    try:
        table(work)
        broken_files(qconform, golden, work)
    finally:
        shutil.rmtree(work)
    passed = sum(RESULTS)
    print("\n%d passed, %d failed" % (passed, len(RESULTS) - passed))
    return 0 if all(RESULTS) else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
