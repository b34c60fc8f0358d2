"""qconform_exec: wrap a runtime with a Python API as a qconform backend in about 20 lines.

It speaks the exec protocol (adapters/PROTOCOL.md, version 3): the handshake, one answer per
request, the case's files and the outputs inline, and the mapping of exceptions to answer kinds.
It reads the case (model.onnx and test_data_set_0/input_K.pb, put in a scratch directory of its
own) and sends output_K.pb, for every ONNX element type, with nothing but the standard library
and numpy: the few protobuf messages involved are read and written here, in their wire format.

    import qconform_exec as q

    def run(case):                      # a q.Case: op_type, domain, opset, attributes, inputs
        x, scale = case.inputs[0], case.inputs[1]
        y = (x.values() * scale.values()).astype("float32")
        return [q.Tensor.from_values(y, q.FLOAT)]

    q.serve("mine", "1.0", "what it runs", run)

Raise q.RejectedAtLoad / q.RejectedAtRun when the runtime refuses the model, q.Unsupported for a
limit of your harness; any other exception is reported as rejected-at-run with its message.
float8, float4, e8m0, bfloat16 and the sub-byte integer types travel as raw codes
(Tensor.codes, a numpy uint32 array); Tensor.values() decodes any type to float64 exactly.
"""
import math
import os
import shutil
import struct
import sys
import tempfile
import traceback

try:
    import numpy as np
except ImportError:  # the first python3 on PATH need not be the one with numpy (Debian's is)
    _debian = "/usr/bin/python3"
    sys.stderr.write(
        "qconform_exec: %s has no numpy; run the backend with an interpreter that has it%s\n"
        % (sys.executable or "this python", " (%s, with python3-numpy)" % _debian
           if os.path.exists(_debian) and os.path.realpath(sys.executable or "") != os.path.realpath(_debian)
           else " (Debian: apt-get install python3-numpy)"))
    sys.exit(3)

PROTOCOL = 3

# ONNX TensorProto.DataType numbers.
FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL, FLOAT16 = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
DOUBLE, UINT32, UINT64, BFLOAT16 = 11, 12, 13, 16
FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ = 17, 18, 19, 20
UINT4, INT4, FLOAT4E2M1, FLOAT8E8M0, UINT2, INT2 = 21, 22, 23, 24, 25, 26


class RejectedAtLoad(Exception):
    """The runtime refused the model (no kernel, a graph check)."""


class RejectedAtRun(Exception):
    """The runtime refused when running."""


class Unsupported(Exception):
    """A limit of the harness: this backend cannot run the case at all."""


# ---- element types -----------------------------------------------------------------------

class ElementType:
    def __init__(self, name, bits, kind, signed=False, exponent=0, mantissa=0, bias=0,
                 nan="ieee", inf=True, neg_zero=True, numpy=None):
        self.name, self.bits, self.kind, self.signed = name, bits, kind, signed
        self.exponent, self.mantissa, self.bias = exponent, mantissa, bias
        self.nan, self.inf, self.neg_zero, self.numpy = nan, inf, neg_zero, numpy


TYPES = {
    FLOAT: ElementType("float", 32, "float", numpy=np.float32),
    DOUBLE: ElementType("double", 64, "float", numpy=np.float64),
    FLOAT16: ElementType("float16", 16, "float", numpy=np.float16),
    BFLOAT16: ElementType("bfloat16", 16, "minifloat", exponent=8, mantissa=7, bias=127),
    FLOAT8E4M3FN: ElementType("float8e4m3fn", 8, "minifloat", exponent=4, mantissa=3, bias=7,
                              nan="all-ones", inf=False),
    FLOAT8E4M3FNUZ: ElementType("float8e4m3fnuz", 8, "minifloat", exponent=4, mantissa=3,
                                bias=8, nan="negative-zero", inf=False, neg_zero=False),
    FLOAT8E5M2: ElementType("float8e5m2", 8, "minifloat", exponent=5, mantissa=2, bias=15),
    FLOAT8E5M2FNUZ: ElementType("float8e5m2fnuz", 8, "minifloat", exponent=5, mantissa=2,
                                bias=16, nan="negative-zero", inf=False, neg_zero=False),
    FLOAT4E2M1: ElementType("float4e2m1", 4, "minifloat", exponent=2, mantissa=1, bias=1,
                            nan=None, inf=False),
    FLOAT8E8M0: ElementType("float8e8m0", 8, "e8m0"),
    UINT8: ElementType("uint8", 8, "int", numpy=np.uint8),
    INT8: ElementType("int8", 8, "int", signed=True, numpy=np.int8),
    UINT16: ElementType("uint16", 16, "int", numpy=np.uint16),
    INT16: ElementType("int16", 16, "int", signed=True, numpy=np.int16),
    UINT32: ElementType("uint32", 32, "int", numpy=np.uint32),
    INT32: ElementType("int32", 32, "int", signed=True, numpy=np.int32),
    UINT64: ElementType("uint64", 64, "int", numpy=np.uint64),
    INT64: ElementType("int64", 64, "int", signed=True, numpy=np.int64),
    BOOL: ElementType("bool", 8, "int", numpy=np.bool_),
    UINT4: ElementType("uint4", 4, "int"),
    INT4: ElementType("int4", 4, "int", signed=True),
    UINT2: ElementType("uint2", 2, "int"),
    INT2: ElementType("int2", 2, "int", signed=True),
}


def type_name(data_type):
    t = TYPES.get(data_type)
    return t.name if t else "type %d" % data_type


def decode_minifloat(t, code):
    """One code of a small float type as a Python float (exact)."""
    sign = -1.0 if code >> (t.bits - 1) & 1 else 1.0
    e = code >> t.mantissa & ((1 << t.exponent) - 1)
    m = code & ((1 << t.mantissa) - 1)
    top = (1 << t.exponent) - 1
    if t.nan == "negative-zero" and code == 1 << (t.bits - 1):
        return math.nan
    if t.nan == "all-ones" and e == top and m == (1 << t.mantissa) - 1:
        return math.nan
    if t.nan == "ieee" and e == top:
        return sign * math.inf if m == 0 else math.nan
    if e == 0:
        return sign * m * 2.0 ** (1 - t.bias - t.mantissa)
    return sign * (1 + m / (1 << t.mantissa)) * 2.0 ** (e - t.bias)


def _decode_table(data_type):
    t = TYPES[data_type]
    if t.kind == "e8m0":
        return np.array([math.nan if c == 255 else 2.0 ** (c - 127) for c in range(256)])
    return np.array([decode_minifloat(t, c) for c in range(1 << t.bits)])


_TABLES = {}


def decode(codes, data_type):
    """Codes (uint32 array; uint64 for 64-bit types) of any type -> float64 values: exactly,
    but for 64-bit integers beyond 2^53, which float64 rounds."""
    t = TYPES[data_type]
    codes = np.asarray(codes, dtype=np.uint64 if t.bits == 64 else np.uint32)
    if t.kind in ("minifloat", "e8m0") and t.bits <= 8:
        if data_type not in _TABLES:
            _TABLES[data_type] = _decode_table(data_type)
        return _TABLES[data_type][codes]
    if data_type == BFLOAT16:
        return (codes.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if t.kind == "float":  # float16, float32, double: the bit patterns viewed as the type
        view = {16: np.uint16, 32: np.uint32, 64: np.uint64}[t.bits]
        return codes.astype(view).view(t.numpy).astype(np.float64)
    if t.signed:
        if t.bits == 64:
            return codes.view(np.int64).astype(np.float64)
        sign = np.int64(1) << (t.bits - 1)
        c = codes.astype(np.int64)
        return np.where(c & sign, c - (sign << 1), c).astype(np.float64)
    return codes.astype(np.float64)


def encode_bfloat16(values):
    """float values -> bfloat16 codes, rounded to nearest even (NaN stays NaN)."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    return np.where(nan, 0x7FC0, rounded).astype(np.uint32)


# ---- protobuf wire format: just what case directories use ---------------------------------

def _varint(buf, i):
    shift = result = 0
    while True:
        if i >= len(buf):
            raise ValueError("truncated varint")
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7
        if shift > 70:
            raise ValueError("varint too long")


def _fields(buf):
    """(field number, wire type, value) for each field of a message."""
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 2:
            n, i = _varint(buf, i)
            value, i = buf[i:i + n], i + n
            if i > len(buf):
                raise ValueError("truncated field %d" % number)
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("unsupported wire type %d" % wire)
        yield number, wire, value


def _packed(value, wire, fmt=None):
    """A repeated scalar field's values, packed or not."""
    if wire == 0:
        return [value]
    if wire in (1, 5):
        return list(struct.unpack("<" + fmt, value))
    if fmt:
        size = struct.calcsize(fmt)
        return list(struct.unpack("<%d%s" % (len(value) // size, fmt), value))
    out, i = [], 0
    while i < len(value):
        v, i = _varint(value, i)
        out.append(v)
    return out


def _key(number, wire):
    return _put_varint((number << 3) | wire)


def _put_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def _bytes_field(number, data):
    return _key(number, 2) + _put_varint(len(data)) + data


def _signed(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _unpack_codes(raw, bits, count):
    """Little-endian codes from raw bytes; sub-byte codes low bits first."""
    data = np.frombuffer(raw, dtype=np.uint8)
    if bits >= 8:
        width = bits // 8
        if len(raw) != width * count:
            raise ValueError("raw_data holds %d bytes for %d elements of %d bits"
                             % (len(raw), count, bits))
        dtype = {1: "<u1", 2: "<u2", 4: "<u4", 8: "<u8"}[width]
        return np.frombuffer(raw, dtype=dtype).astype(np.uint64 if bits == 64 else np.uint32)
    per_byte = 8 // bits
    if len(raw) != (count + per_byte - 1) // per_byte:
        raise ValueError("raw_data holds %d bytes for %d elements of %d bits"
                         % (len(raw), count, bits))
    shifts = np.arange(per_byte, dtype=np.uint8) * bits
    codes = (data[:, None] >> shifts[None, :]) & ((1 << bits) - 1)
    return codes.reshape(-1)[:count].astype(np.uint32)


def _pack_codes(codes, bits):
    codes = np.asarray(codes)
    if bits >= 8:
        dtype = {8: "<u1", 16: "<u2", 32: "<u4", 64: "<u8"}[bits]
        return codes.astype(dtype).tobytes()
    per_byte = 8 // bits
    padded = np.zeros((len(codes) + per_byte - 1) // per_byte * per_byte, dtype=np.uint8)
    padded[:len(codes)] = codes.astype(np.uint8) & ((1 << bits) - 1)
    shifts = np.arange(per_byte, dtype=np.uint8) * bits
    return (padded.reshape(-1, per_byte) << shifts[None, :]).sum(axis=1).astype(np.uint8).tobytes()


class Tensor:
    """A tensor as codes: `codes` is a flat numpy array of each element's bit pattern (uint32;
    uint64 for 64-bit types), `dims` its shape. values() decodes to float64."""

    def __init__(self, data_type, dims, codes, name=""):
        if data_type not in TYPES:
            raise Unsupported("element type %d" % data_type)
        self.data_type, self.dims, self.name = data_type, list(dims), name
        self.codes = np.asarray(codes).reshape(-1)
        if self.codes.size != self.size:
            raise ValueError("%d codes for shape %s" % (self.codes.size, self.dims))

    @property
    def type(self):
        return TYPES[self.data_type]

    @property
    def size(self):
        return int(np.prod(self.dims, dtype=np.int64)) if self.dims else 1

    def values(self):
        """Every element's exact value, as float64 (NaN for NaN codes), in dims' shape."""
        return decode(self.codes, self.data_type).reshape(self.dims)

    @staticmethod
    def from_values(values, data_type, name=""):
        """A tensor of an ordinary numpy type (float32, float16, float64, the integers) or of
        bfloat16 (rounded to nearest even) from values; other types: Tensor(type, dims, codes)."""
        values = np.asarray(values)
        t = TYPES[data_type]
        if data_type == BFLOAT16:
            codes = encode_bfloat16(values.reshape(-1))
        elif t.numpy is not None and t.kind == "float":
            view = {16: np.uint16, 32: np.uint32, 64: np.uint64}[t.bits]
            codes = values.astype(t.numpy).reshape(-1).view(view)
        elif t.numpy is not None:
            codes = values.astype(t.numpy).reshape(-1).view(
                {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[t.bits])
        else:
            codes = values.astype(np.int64).reshape(-1) & ((1 << t.bits) - 1)
        return Tensor(data_type, values.shape, codes.astype(np.uint64 if t.bits == 64 else np.uint32),
                      name)

    @staticmethod
    def parse(buf, where="tensor"):
        """A serialized TensorProto (raw_data or the typed fields; not external data)."""
        dims, data_type, raw, name = [], 0, None, ""
        typed = []
        for number, wire, value in _fields(buf):
            if number == 1:
                dims += [_signed(v, 64) for v in _packed(value, wire)]
            elif number == 2:
                data_type = value
            elif number == 8:
                name = value.decode("utf-8", "replace")
            elif number == 9:
                raw = value
            elif number == 4:
                typed += _packed(value, wire, "f")
            elif number in (5, 7, 11):
                typed += _packed(value, wire)
            elif number == 10:
                typed += _packed(value, wire, "d")
            elif number in (13, 14):
                raise Unsupported(where + ": external data")
        if data_type not in TYPES:
            raise ValueError("%s: data_type %d" % (where, data_type))
        t = TYPES[data_type]
        count = int(np.prod(dims, dtype=np.int64)) if dims else 1
        if raw is not None:
            return Tensor(data_type, dims, _unpack_codes(raw, t.bits, count), name)
        if data_type in (FLOAT, DOUBLE):
            return Tensor.from_values(np.array(typed, dtype=np.float64).reshape(dims), data_type,
                                      name)
        if t.bits < 8:  # int32_data holds the packed bytes
            return Tensor(data_type, dims, _unpack_codes(bytes(v & 0xFF for v in typed), t.bits,
                                                         count), name)
        mask = (1 << t.bits) - 1
        codes = np.array([v & mask for v in typed], dtype=np.uint64 if t.bits == 64 else np.uint32)
        return Tensor(data_type, dims, codes, name)

    def serialize(self, name=None):
        """This tensor as a TensorProto, raw_data (the canonical form)."""
        out = b"".join(_key(1, 0) + _put_varint(d & (2 ** 64 - 1)) for d in self.dims)
        out += _key(2, 0) + _put_varint(self.data_type)
        out += _bytes_field(8, (self.name if name is None else name).encode("utf-8"))
        out += _bytes_field(9, _pack_codes(self.codes, self.type.bits))
        return out


# ---- the case directory --------------------------------------------------------------------

class Case:
    """One case: the node (op_type, domain, opset, attributes), its inputs in the node's order
    (a Tensor, or None for an omitted optional input), and its outputs' names and types."""

    def __init__(self):
        self.id, self.op_type, self.domain, self.opset = "", "", "", 0
        self.directory = ""  # the case directory (model.onnx, test_data_set_0/)
        self.attributes, self.inputs, self.outputs = {}, [], []
        self.node_count = 0


def _attribute(buf):
    name, value, ints, floats = "", None, [], []
    for number, wire, v in _fields(buf):
        if number == 1:
            name = v.decode()
        elif number == 2:
            value = struct.unpack("<f", v)[0]
        elif number == 3:
            value = _signed(v, 64)
        elif number == 4:
            value = v.decode("utf-8", "replace")
        elif number == 7:
            floats += _packed(v, wire, "f")
        elif number == 8:
            ints += [_signed(x, 64) for x in _packed(v, wire)]
    if value is None:
        value = ints or floats
    return name, value


def _value_info(buf):
    name, elem_type = "", 0
    for number, _, v in _fields(buf):
        if number == 1:
            name = v.decode()
        elif number == 2:
            for n2, _, tensor_type in _fields(v):
                if n2 == 1:
                    for n3, _, t in _fields(tensor_type):
                        if n3 == 1:
                            elem_type = t
    return name, elem_type


def read_case(case_dir):
    """Reads case_dir/model.onnx and test_data_set_0/input_K.pb."""
    with open(os.path.join(case_dir, "model.onnx"), "rb") as f:
        model = f.read()
    case, opsets, graph = Case(), {}, b""
    case.directory = case_dir
    for number, _, v in _fields(model):
        if number == 8:
            domain, version = "", 0
            for n2, _, x in _fields(v):
                if n2 == 1:
                    domain = x.decode()
                elif n2 == 2:
                    version = x
            opsets[domain] = version
        elif number == 7:
            graph = v
    nodes, initializers, inputs = [], {}, []
    for number, _, v in _fields(graph):
        if number == 1:
            nodes.append(v)
        elif number == 2:
            case.id = v.decode("utf-8", "replace")
        elif number == 5:
            t = Tensor.parse(v, "initializer")
            initializers[t.name] = t
        elif number == 11:
            inputs.append(_value_info(v)[0])
        elif number == 12:
            case.outputs.append(_value_info(v))
    case.node_count = len(nodes)
    if not nodes:
        raise RejectedAtLoad("the model has no node")
    node_inputs = []
    for number, _, v in _fields(nodes[0]):
        if number == 1:
            node_inputs.append(v.decode())
        elif number == 4:
            case.op_type = v.decode()
        elif number == 7:
            case.domain = v.decode()
        elif number == 5:
            name, value = _attribute(v)
            case.attributes[name] = value
    case.opset = opsets.get(case.domain, opsets.get("ai.onnx" if case.domain == "" else "", 0))
    fed = {}
    fed_names = [n for n in inputs if n not in initializers]
    for k, name in enumerate(fed_names):
        path = os.path.join(case_dir, "test_data_set_0", "input_%d.pb" % k)
        if os.path.exists(path):
            with open(path, "rb") as f:
                fed[name] = Tensor.parse(f.read(), path)
    case.inputs = [initializers.get(n, fed.get(n)) if n else None for n in node_inputs]
    return case


# ---- the protocol --------------------------------------------------------------------------

def _say(out, line, frames=()):
    """Writes one answer line and, for version 3's ok, its frames."""
    data = b"@qconform " + line.replace("\n", " ").encode("utf-8", "replace") + b"\n"
    for name, payload in frames:
        data += b"@qconform file %s %d\n" % (name.encode(), len(payload)) + payload
    out.write(data)
    out.flush()


# Exceptions -> answer kinds; anything else is the runtime refusing when it ran.
KINDS = ((RejectedAtLoad, "rejected-at-load"), (RejectedAtRun, "rejected-at-run"),
         (Unsupported, "unsupported"))


def answer_for(error):
    for cls, kind in KINDS:
        if isinstance(error, cls):
            return kind
    return "rejected-at-run"


def _safe_name(name):
    """A relative path of portable characters, no empty, "." or ".." part (PROTOCOL.md)."""
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./")
    parts = name.split("/")
    return (0 < len(name) <= 255 and set(name) <= allowed
            and all(p not in ("", ".", "..") for p in parts))


class _ProtocolError(Exception):
    pass


def _read_request(stdin, scratch):
    """One request: None for quit or the end of input, else (id, case_dir). The case's frames
    are written under scratch/case, which is emptied first."""
    line = stdin.readline()
    words = line.decode("utf-8", "replace").split()
    if not words or words[0] == "quit":
        return None
    if words[0] != "run" or len(words) != 3 or not words[2].isdigit():
        raise _ProtocolError(words[1] if len(words) > 1 else "?",
                             "unknown request: " + line.decode("utf-8", "replace").strip())
    request, count = words[1], int(words[2])
    case_dir = os.path.join(scratch, "case")
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    for _ in range(count):
        header = stdin.readline().decode("utf-8", "replace").split()
        if len(header) != 3 or header[0] != "file" or not header[2].isdigit() \
                or not _safe_name(header[1]):
            raise _ProtocolError(request, "a broken frame header: %s" % " ".join(header), True)
        payload = stdin.read(int(header[2]))
        if len(payload) != int(header[2]):
            raise _ProtocolError(request, "the input ended in frame " + header[1], True)
        path = os.path.join(case_dir, header[1])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(payload)
    return request, case_dir


def _scratch_root():
    """$TMPDIR when set, else /dev/shm (memory) when writable: a case is a few files written
    and read once, which on a disk costs more than the runtime's work; else /tmp."""
    if os.environ.get("TMPDIR"):
        return os.environ["TMPDIR"]
    return "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def serve(name, version, capabilities, run, stdin=None, stdout=None, graphs=False):
    """Answers qconform's requests until it says quit: run(case) returns the output tensors in
    the model's output order, or raises (see the module's text). Cases arrive inline (protocol
    3): they are written to a scratch directory of this process's own, so the backend may run on
    another machine behind any byte pipe. A graph case (a model of several nodes: a QDQ group) is
    answered unsupported unless graphs=True, for a run(case) that reads case.model itself."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    _say(stdout, "hello %d %s %s %s" % (PROTOCOL, name, version, capabilities))
    scratch = tempfile.mkdtemp(prefix="qconform-exec-", dir=_scratch_root())
    try:
        while True:
            try:
                got = _read_request(stdin, scratch)
            except _ProtocolError as e:
                _say(stdout, "error %s protocol-error %s" % (e.args[0], e.args[1]))
                if len(e.args) > 2:  # the input cannot be followed any more
                    return
                continue
            if got is None:
                return
            request, case_dir = got
            try:
                case = read_case(case_dir)
                if case.node_count > 1 and not graphs:
                    raise Unsupported("a graph case (%d nodes): this backend takes single nodes"
                                      % case.node_count)
                outputs = run(case)
                frames = [("output_%d.pb" % k,
                           t.serialize(case.outputs[k][0] if k < len(case.outputs) else ""))
                          for k, t in enumerate(outputs)]
                _say(stdout, "ok %s %d" % (request, len(frames)), frames)
            except Exception as e:  # every failure is an answer; the process lives on
                if os.environ.get("QCONFORM_EXEC_TRACE"):
                    traceback.print_exc()
                ours = isinstance(e, (RejectedAtLoad, RejectedAtRun, Unsupported))
                words = str(e) if ours else "%s: %s" % (type(e).__name__, e)
                _say(stdout, "error %s %s %s" % (request, answer_for(e), words))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
