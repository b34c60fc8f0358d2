#!/usr/bin/env python3
"""One verdict in two judges: `qconform check CASE --outputs DIR` (the C++ judge) and
golden/verify_outputs.py (the contract's executable form, standard library only) must agree,
exit status for exit status (0 pass, 1 fail), on a runner's outputs corrupted in every way this
test knows.

    same_verdict_test.py QCONFORM GOLDEN_DIR

Each corruption is applied to several golden cases (a float output, a sub-byte output, a
three-output DynamicQuantizeLinear, an implementation-defined and a must-reject case); the
test prints one line per (case, corruption) with both verdicts and fails on any disagreement,
and when a corruption's verdict is not the one it must have.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

# ---- TensorProto, written field by field (dims 1, data_type 2, float_data 4, name 8, raw_data 9)
# with the Python kit's wire-format helpers: the corruptions need exact control of every field.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "adapters", "python"))
from qconform_exec import _fields, _key, _put_varint  # noqa: E402


def field(number, wire, payload):
    return _key(number, wire) + (_put_varint(payload) if wire == 0
                                 else _put_varint(len(payload)) + payload)


def tensor(data_type, dims, raw=None, floats=None, name="y"):
    out = b"".join(field(1, 0, d) for d in dims) + field(2, 0, data_type)
    if floats is not None:
        out += field(4, 2, b"".join(struct.pack("<f", v) for v in floats))
    out += field(8, 2, name.encode())
    if raw is not None:
        out += field(9, 2, raw)
    return out


def parse(buf):
    """(data_type, dims, raw, name) of a TensorProto written with raw_data."""
    dims, data_type, raw, name = [], 0, b"", "y"
    for number, _, value in _fields(buf):
        if number == 1:
            dims.append(value)
        elif number == 2:
            data_type = value
        elif number == 8:
            name = value.decode()
        elif number == 9:
            raw = value
    return data_type, dims, raw, name


# ---- The corruptions: each takes the case's data set and an output directory holding the
# exact outputs, edits it, and names the verdict it must have (None: whichever, both agree).


def outputs(d):
    return sorted(f for f in os.listdir(d) if f.startswith("output_"))


def edit(path, fn):
    with open(path, "rb") as f:
        t = parse(f.read())
    with open(path, "wb") as f:
        f.write(fn(*t))


def flip_bit(d):
    """Bit 2 of the first byte of output 0: a few units off an element, never admissible here."""
    edit(os.path.join(d, "output_0.pb"),
         lambda t, dims, raw, name: tensor(t, dims, bytes([raw[0] ^ 4]) + raw[1:], name=name))


def wrong_type(d):
    edit(os.path.join(d, "output_0.pb"),
         lambda t, dims, raw, name: tensor(6 if t != 6 else 1, dims, raw + raw + raw + raw, name=name))


def wrong_shape(d):
    edit(os.path.join(d, "output_0.pb"),
         lambda t, dims, raw, name: tensor(t, [1] + dims, raw, name=name))


def raw_one_byte_long(d):
    edit(os.path.join(d, "output_0.pb"),
         lambda t, dims, raw, name: tensor(t, dims, raw + b"\0", name=name))


def raw_one_byte_short(d):
    edit(os.path.join(d, "output_0.pb"),
         lambda t, dims, raw, name: tensor(t, dims, raw[:-1], name=name))


def garbage(d):
    with open(os.path.join(d, "output_0.pb"), "wb") as f:
        f.write(b"\xff\xff\xff\xff not a tensor")


def unknown_data_type(d):
    edit(os.path.join(d, "output_0.pb"), lambda t, dims, raw, name: tensor(99, dims, raw, name=name))


def missing_all(d):
    for f in outputs(d):
        os.remove(os.path.join(d, f))


def missing_last(d):
    files = outputs(d)
    os.remove(os.path.join(d, files[-1]))


def extra_output(d):
    files = outputs(d)
    shutil.copy(os.path.join(d, files[0]), os.path.join(d, "output_%d.pb" % len(files)))


def typed_floats(d):
    """float output carried in float_data instead of raw_data: the same values."""
    def rewrite(t, dims, raw, name):
        if t != 1:
            return tensor(t, dims, raw, name=name)
        return tensor(t, dims, floats=[v for (v,) in struct.iter_unpack("<f", raw)], name=name)
    edit(os.path.join(d, "output_0.pb"), rewrite)


def zero_sign(d):
    """Every +0 of a float output written as -0 (equal unless --strict-zero)."""
    def rewrite(t, dims, raw, name):
        width = {1: 4, 10: 2, 16: 2}.get(t)
        if width is None:
            return tensor(t, dims, raw, name=name)
        sign = 1 << (8 * width - 1)
        words = [int.from_bytes(raw[i:i + width], "little") for i in range(0, len(raw), width)]
        words = [sign if w == 0 else w for w in words]
        return tensor(t, dims, b"".join(w.to_bytes(width, "little") for w in words), name=name)
    edit(os.path.join(d, "output_0.pb"), rewrite)


def admissible_alternative(d, data_set):
    """The first stored admissible strategy's outputs instead of the exact ones."""
    alt = os.path.join(data_set, "admissible")
    if os.path.isdir(alt):
        strategy = sorted(os.listdir(alt))[0]
        for f in os.listdir(os.path.join(alt, strategy)):
            shutil.copy(os.path.join(alt, strategy, f), os.path.join(d, f))


CORRUPTIONS = [
    ("exact", lambda d, s: None),
    ("admissible-alternative", admissible_alternative),
    ("flip-bit", lambda d, s: flip_bit(d)),
    ("wrong-type", lambda d, s: wrong_type(d)),
    ("wrong-shape", lambda d, s: wrong_shape(d)),
    ("raw-one-byte-long", lambda d, s: raw_one_byte_long(d)),
    ("raw-one-byte-short", lambda d, s: raw_one_byte_short(d)),
    ("garbage", lambda d, s: garbage(d)),
    ("unknown-data-type", lambda d, s: unknown_data_type(d)),
    ("missing-all", lambda d, s: missing_all(d)),
    ("missing-last", lambda d, s: missing_last(d)),
    ("extra-output", lambda d, s: extra_output(d)),
    ("typed-float-data", lambda d, s: typed_floats(d)),
    ("negative-zeros", lambda d, s: zero_sign(d)),
]

# The verdict a corruption must have (others, a refusal or an extra output, depend on the case
# and need only agreement). A runner's output that cannot be read fails its case, as a backend's
# garbage does in a run; it is not bad input to the judge.
REQUIRED = {
    "exact": 0, "admissible-alternative": 0, "flip-bit": 1, "wrong-type": 1, "wrong-shape": 1,
    "raw-one-byte-long": 1, "raw-one-byte-short": 1, "garbage": 1, "unknown-data-type": 1,
    "typed-float-data": 0, "negative-zeros": 0,
}
# A must-reject case has no outputs to corrupt: refusing it passes, computing it fails.
MUST_REJECT = [("refused", lambda d, s: None, 0),
               ("computed", lambda d, s: shutil.copy(ANY_OUTPUT, os.path.join(d, "output_0.pb")), 1)]
ANY_OUTPUT = ""
CASES = ["dq21-int8-pt-zp", "dq13-int32-pt", "ql21-specials-xfloat-int4-blocked",
         "dynql11-seed-default", "ql25-extremes-xfloat-float8e4m3fn-pt-sat0",
         "dq21-impl-int32-zero-point", "dq21-reject-zero-point-shape"]


def main(qconform, golden):
    work = tempfile.mkdtemp()
    disagreements = wrong = checked = 0
    try:
        global ANY_OUTPUT
        ANY_OUTPUT = os.path.join(golden, CASES[0], "test_data_set_0", "output_0.pb")
        for case in CASES:
            data_set = os.path.join(golden, case, "test_data_set_0")
            has_outputs = bool(outputs(data_set))
            plan = [(n, c, REQUIRED.get(n)) for n, c in CORRUPTIONS] if has_outputs else MUST_REJECT
            for name, corrupt, must in plan:
                out = os.path.join(work, name, case)
                os.makedirs(out)
                for f in outputs(data_set):
                    shutil.copy(os.path.join(data_set, f), out)
                corrupt(out, data_set)
                cpp = subprocess.run([qconform, "check", os.path.join(golden, case), "--outputs", out],
                                     capture_output=True, text=True).returncode
                py = subprocess.run([sys.executable, os.path.join(golden, "verify_outputs.py"),
                                     os.path.join(golden, case), os.path.join(work, name)],
                                    capture_output=True, text=True).returncode
                checked += 1
                verdict = "agree" if cpp == py else "DISAGREE"
                disagreements += cpp != py
                if must is not None and cpp != must:
                    wrong += 1
                    verdict += ", expected %d" % must
                print("%-45s %-24s qconform check %d, verify_outputs.py %d  %s"
                      % (case, name, cpp, py, verdict))
    finally:
        shutil.rmtree(work)
    print("\n%d passed, %d failed" % (checked - disagreements - wrong, disagreements + wrong))
    return 0 if disagreements == 0 and wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
