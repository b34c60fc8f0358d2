#!/usr/bin/env python3
"""Judge a runner's outputs against the golden cases, as golden/INTERPRETING.md (contract
version 3) says, with nothing but Python's standard library.

    verify_outputs.py GOLDEN_DIR OUTPUT_DIR [--strict-zero] [--quiet]

GOLDEN_DIR is this directory (or any directory of qconform cases with a manifest.tsv, or one
case). OUTPUT_DIR holds what the runner produced: OUTPUT_DIR/<case-id>/output_K.pb for every
case it computed; a case whose directory is missing or holds no output file was refused.
Prints one line per case and 'N passed, M failed'; exits 1 when a case fails, 2 on bad input.
"""
import os
import struct
import sys

# ONNX data_type -> (name, bits, kind, sign bit or None). kind: "int", "uint" or "float".
TYPES = {
    1: ("float", 32, "float", 1 << 31), 2: ("uint8", 8, "uint", None),
    3: ("int8", 8, "int", None), 4: ("uint16", 16, "uint", None), 5: ("int16", 16, "int", None),
    6: ("int32", 32, "int", None), 10: ("float16", 16, "float", 1 << 15),
    16: ("bfloat16", 16, "float", 1 << 15), 17: ("float8e4m3fn", 8, "float", 0x80),
    18: ("float8e4m3fnuz", 8, "float", None), 19: ("float8e5m2", 8, "float", 0x80),
    20: ("float8e5m2fnuz", 8, "float", None), 21: ("uint4", 4, "uint", None),
    22: ("int4", 4, "int", None), 23: ("float4e2m1", 4, "float", 0x8),
    24: ("float8e8m0", 8, "float", None), 25: ("uint2", 2, "uint", None),
    26: ("int2", 2, "int", None),
}


def is_nan(data_type, c):
    """Whether code c is a NaN of the type (every NaN equals every NaN)."""
    if data_type == 1:
        return (c & 0x7F800000) == 0x7F800000 and (c & 0x007FFFFF) != 0
    if data_type == 10:
        return (c & 0x7C00) == 0x7C00 and (c & 0x03FF) != 0
    if data_type == 16:
        return (c & 0x7F80) == 0x7F80 and (c & 0x007F) != 0
    if data_type == 17:
        return (c & 0x7F) == 0x7F
    if data_type in (18, 20):
        return c == 0x80  # the fnuz types: the code that would be -0
    if data_type == 19:
        return (c & 0x7C) == 0x7C and (c & 0x03) != 0
    if data_type == 24:
        return c == 0xFF
    return False  # integers and float4e2m1 have no NaN


def is_zero(data_type, c):
    """Whether code c is +0 or -0 of a type that has both."""
    sign = TYPES[data_type][3]
    return sign is not None and (c & ~sign) == 0


class BadInput(Exception):
    pass


def varint(buf, pos):
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise BadInput("truncated varint")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def fields(buf):
    """(field number, wire type, value) of a protobuf message, in order."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise BadInput("unsupported wire type %d" % wire)
        if pos > len(buf):
            raise BadInput("truncated field %d" % number)
        yield number, wire, value


def packed_varints(wire, value):
    if wire == 0:
        return [value]
    out, pos = [], 0
    while pos < len(value):
        v, pos = varint(value, pos)
        out.append(v)
    return out


def unpack(bits, data, count):
    """count codes of `bits` bits each from little-endian packed bytes."""
    if bits >= 8:
        width = bits // 8
        return [int.from_bytes(data[i * width:(i + 1) * width], "little") for i in range(count)]
    per_byte = 8 // bits
    mask = (1 << bits) - 1
    return [(data[i // per_byte] >> (bits * (i % per_byte))) & mask for i in range(count)]


def read_tensor(path):
    """(data_type, dims, codes) of a TensorProto file: raw_data or the typed fields."""
    with open(path, "rb") as f:
        buf = f.read()
    data_type, dims, raw, floats, ints = 0, [], None, [], []
    try:
        for number, wire, value in fields(buf):
            if number == 1:
                dims += packed_varints(wire, value)
            elif number == 2:
                data_type = value
            elif number == 4:
                chunk = value if wire == 2 else value
                floats += [struct.unpack_from("<I", chunk, i)[0] for i in range(0, len(chunk), 4)]
            elif number == 5:
                ints += packed_varints(wire, value)
            elif number == 9:
                raw = value
    except BadInput as e:
        raise BadInput("%s: not a TensorProto (%s)" % (path, e))
    if data_type not in TYPES:
        raise BadInput("%s: data_type %d is not one the contract knows" % (path, data_type))
    bits = TYPES[data_type][1]
    count = 1
    for d in dims:
        count *= d
    if raw is not None:
        need = (count * bits + 7) // 8
        if len(raw) != need:  # exactly: an over-long raw_data is as malformed as a short one
            raise BadInput("%s: raw_data holds %d bytes, %d for %d elements" % (path, len(raw), need, count))
        codes = unpack(bits, raw, count)
    elif data_type == 1:
        codes = floats
    elif bits < 8:  # one packed byte per int32_data entry
        codes = unpack(bits, bytes(v & 0xFF for v in ints), count)
    else:
        codes = [v & ((1 << bits) - 1) for v in ints]
    if len(codes) != count:
        raise BadInput("%s: %d elements for dims %s" % (path, len(codes), dims))
    return data_type, dims, codes


def outputs_in(directory):
    """The output_K.pb files of a directory, by K (stops at the first gap)."""
    found = []
    while os.path.isfile(os.path.join(directory, "output_%d.pb" % len(found))):
        found.append(os.path.join(directory, "output_%d.pb" % len(found)))
    return found


def subdirectories(directory):
    return sorted(os.path.join(directory, d) for d in os.listdir(directory)
                  if os.path.isdir(os.path.join(directory, d))) if os.path.isdir(directory) else []


def ordinal(data_type, c):
    """Code c's place in the order of the type's values (integers: the value; floats: the signed
    magnitude, -0 and +0 both 0); None for NaN, which is outside the order."""
    _, bits, kind, _ = TYPES[data_type]
    if kind == "uint":
        return c
    if kind == "int":
        return c - (1 << bits) if c & (1 << (bits - 1)) else c
    if is_nan(data_type, c):
        return None
    sign = None if data_type == 24 else 1 << (bits - 1)  # float8e8m0 has no sign bit
    if sign is not None and c & sign:
        return -(c & ~sign)
    return c


def in_range(data_type, got, lo, hi):
    """Whether got lies in [lo, hi]: NaN ends admit NaN alone; NaN is in no other range."""
    a, b, g = ordinal(data_type, lo), ordinal(data_type, hi), ordinal(data_type, got)
    if a is None or b is None:
        return a is None and b is None and g is None
    return g is not None and a <= g <= b


def read_range(expected_dir, k, data_type, dims):
    """Output k's stored range (lo codes, hi codes), or None; a broken one is BadInput."""
    lo_file = os.path.join(expected_dir, "range", "lo", "output_%d.pb" % k)
    hi_file = os.path.join(expected_dir, "range", "hi", "output_%d.pb" % k)
    has_lo, has_hi = os.path.isfile(lo_file), os.path.isfile(hi_file)
    if not has_lo and not has_hi:
        return None
    if has_lo != has_hi:
        raise BadInput("%s: missing (the range of output %d has only its other end)"
                       % (hi_file if has_lo else lo_file, k))
    ends = []
    for path in (lo_file, hi_file):
        t, d, codes = read_tensor(path)
        if (t, d) != (data_type, dims):
            raise BadInput("%s: the range of output %d is %s%s, output_%d.pb is %s%s"
                           % (path, k, TYPES[t][0], d, k, TYPES[data_type][0], dims))
        ends.append(codes)
    for i, (lo, hi) in enumerate(zip(*ends)):
        a, b = ordinal(data_type, lo), ordinal(data_type, hi)
        if (a is None) != (b is None) or (a is not None and a > b):
            raise BadInput("%s: the range of output %d at element %d: lo 0x%x > hi 0x%x"
                           % (lo_file, k, i, lo, hi))
    return ends


def element_ok(data_type, got, want, strict_zero):
    if got == want:
        return True
    if is_nan(data_type, got) and is_nan(data_type, want):
        return True
    return not strict_zero and is_zero(data_type, got) and is_zero(data_type, want)


def judge_outputs(expected_dir, got_files, strict_zero):
    """None when every output matches expected_dir's exact result, its range/ (lo..hi), its
    admissible/ strategies and its any/ masks (contract version 3); else why not."""
    want_files = outputs_in(expected_dir)
    if len(got_files) < len(want_files):
        return "%d outputs, %d expected" % (len(got_files), len(want_files))
    strategies = subdirectories(os.path.join(expected_dir, "admissible"))
    for k, want_file in enumerate(want_files):
        data_type, dims, want = read_tensor(want_file)
        try:  # a runner's output that cannot be read fails its case; the run goes on
            got_type, got_dims, got = read_tensor(got_files[k])
        except BadInput as e:
            return "output %d cannot be read: %s" % (k, e)
        if (got_type, got_dims) != (data_type, dims):
            return "output %d is %s%s, expected %s%s" % (
                k, TYPES[got_type][0], got_dims, TYPES[data_type][0], dims)
        alternatives = []
        for s in strategies:
            path = os.path.join(s, "output_%d.pb" % k)
            if os.path.isfile(path):
                alternatives.append(read_tensor(path)[2])
        mask_file = os.path.join(expected_dir, "any", "output_%d.pb" % k)
        free = read_tensor(mask_file)[2] if os.path.isfile(mask_file) else [0] * len(want)
        ranges = read_range(expected_dir, k, data_type, dims)
        for i, g in enumerate(got):
            if free[i] or element_ok(data_type, g, want[i], strict_zero):
                continue
            if ranges is not None and in_range(data_type, g, ranges[0][i], ranges[1][i]):
                continue
            if any(element_ok(data_type, g, a[i], strict_zero) for a in alternatives):
                continue
            return "output %d element %d is 0x%x, exact 0x%x%s%s" % (
                k, i, g, want[i],
                ", range 0x%x..0x%x" % (ranges[0][i], ranges[1][i]) if ranges is not None else "",
                "".join(", or 0x%x" % a[i] for a in alternatives))
    return None


def read_manifest(directory):
    path = os.path.join(directory, "manifest.tsv")
    if not os.path.isfile(path):
        return {}
    entries = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "# qconform golden manifest, format 2":
        raise BadInput("%s: not a manifest of format 2" % path)
    columns = lines[1].split("\t")
    for n, line in enumerate(lines[2:], start=3):
        cells = line.split("\t")
        if len(cells) != len(columns):
            raise BadInput("%s:%d: %d fields, %d expected" % (path, n, len(cells), len(columns)))
        entries[cells[0]] = dict(zip(columns, cells))
    return entries


def judge_case(case_dir, entry, output_dir, strict_zero):
    """(passed, why) for one case."""
    case_id = os.path.basename(os.path.normpath(case_dir))
    data_set = os.path.join(case_dir, "test_data_set_0")
    expected = entry["expected"] if entry else ("outputs" if outputs_in(data_set) else "reject:?")
    may_reject = entry["may_reject"] == "yes" if entry else not expected.startswith("outputs")
    got = outputs_in(os.path.join(output_dir, case_id))
    if not got:
        if expected.startswith("reject:"):
            return True, "refused as required (%s)" % expected[7:]
        if may_reject:
            return True, "refused; refusing is admissible (%s)" % expected
        return False, "refused a valid case"
    if expected.startswith("reject:"):
        return False, "computed a case the specification forbids (%s)" % expected[7:]
    why = judge_outputs(data_set, got, strict_zero)
    if why is None:
        return True, "admissible"
    for outcome in subdirectories(os.path.join(data_set, "outcomes")):
        if judge_outputs(outcome, got, strict_zero) is None:
            return True, "matches the admissible outcome %s" % os.path.basename(outcome)
    return False, why


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = set(a for a in argv if a.startswith("--"))
    unknown = flags - {"--strict-zero", "--quiet"}
    if len(args) != 2 or unknown:
        sys.stderr.write(__doc__)
        return 2
    golden, output_dir = args
    try:
        if os.path.isfile(os.path.join(golden, "model.onnx")):
            cases = [golden]
            manifest = read_manifest(os.path.dirname(os.path.normpath(golden)))
        else:
            cases = [d for d in subdirectories(golden) if os.path.isfile(os.path.join(d, "model.onnx"))]
            manifest = read_manifest(golden)
        if not cases:
            raise BadInput("no cases under %s" % golden)
        passed = failed = 0
        for case_dir in cases:
            case_id = os.path.basename(os.path.normpath(case_dir))
            ok, why = judge_case(case_dir, manifest.get(case_id), output_dir, "--strict-zero" in flags)
            passed += ok
            failed += not ok
            if not ok or "--quiet" not in flags:
                print("%-4s %s  %s" % ("pass" if ok else "fail", case_id, why))
    except (BadInput, OSError) as e:
        sys.stderr.write("verify_outputs.py: %s\n" % e)
        return 2
    print("\n%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
