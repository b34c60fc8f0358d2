#!/usr/bin/python3
"""PyTorch (Debian's python3-torch 1.13) as a qconform backend on the Python kit (exec:pytorch).

It maps each node onto what PyTorch's quantization API offers, as a PyTorch user writes it:

  QuantizeLinear    torch.quantize_per_tensor / quantize_per_channel (scales as double, int64
                    zero points) to quint8, qint8 or qint32, then .int_repr()
  DequantizeLinear  torch._make_per_tensor_quantized_tensor / _make_per_channel_quantized_tensor
                    from the integer codes, then .dequantize() (float32)
  QLinearMatMul     torch.ops.quantized.linear with weights packed by linear_prepack (qint8,
                    2-D) and a quint8 input, on the engine the build offers (qnnpack, onednn)
  com.microsoft DynamicQuantizeMatMul
                    torch.ops.quantized.linear_dynamic (reduce_range off) over the same packed
                    weights and bias: PyTorch quantizes the float A by its own parameters
  com.microsoft QLinearAdd, QLinearMul
                    torch.ops.quantized.add / mul of two per-tensor quantized tensors, C's
                    scale and zero point as the output's
  com.microsoft QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax, QLinearConcat
                    torch.sigmoid (its fixed output parameters only), quantized.leaky_relu,
                    quantized.softmax (one axis), quantized.cat, Y's parameters as the output's
  com.microsoft QLinearAveragePool, QLinearGlobalAveragePool
                    the quantized avg_pool1d/2d/3d (symmetric pads) and adaptive_avg_pool to
                    one element, which keep X's parameters (another Y is refused)

and refuses at load what the API cannot say (blocked scales, float8, 4-bit and 16-bit codes,
float16 outputs). Run it with Debian's /usr/bin/python3: another python3 earlier on PATH does not
see Debian's torch and numpy.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qconform_exec as q  # noqa: E402  (first: it says so in one line when numpy is missing)
import numpy as np  # noqa: E402

try:
    import torch  # noqa: E402
except ImportError:
    sys.stderr.write("pytorch_backend: %s cannot import torch; run it with Debian's /usr/bin/python3 "
                     "(apt-get install python3-torch)\n" % (sys.executable or "this python"))
    sys.exit(3)

LIBRARY = "PyTorch " + torch.__version__.split("+")[0]
# ONNX integer type -> the quantized dtype PyTorch has for it, and the codes' plain dtype.
QTYPES = {q.UINT8: (torch.quint8, torch.uint8), q.INT8: (torch.qint8, torch.int8),
          q.INT32: (torch.qint32, torch.int32)}


def qtype(data_type, what):
    if data_type not in QTYPES:
        raise q.RejectedAtLoad("%s has no quantized %s %s (quint8, qint8, qint32)"
                               % (LIBRARY, q.type_name(data_type), what))
    return QTYPES[data_type]


def parameters(case, x, scale, zero_point):
    """(per_channel, axis, scales, zero points) as PyTorch takes them."""
    if case.attributes.get("block_size", 0):
        raise q.RejectedAtLoad("%s has no blocked quantization" % LIBRARY)
    if scale.data_type not in (q.FLOAT, q.FLOAT16, q.BFLOAT16):
        raise q.RejectedAtLoad("%s takes scales as floating point, not %s"
                               % (LIBRARY, q.type_name(scale.data_type)))
    s = scale.values().astype(np.float64).reshape(-1)
    zp = (zero_point.values().astype(np.int64).reshape(-1) if zero_point is not None
          else np.zeros(s.shape, dtype=np.int64))
    if s.size == 1 and len(scale.dims) <= 1:
        return False, 0, float(s[0]), int(zp[0])
    axis = case.attributes.get("axis", 1)
    axis = axis + len(x.dims) if axis < 0 else axis
    return True, axis, torch.from_numpy(s.copy()), torch.from_numpy(zp.copy())


def quantize(case):
    x, scale = case.inputs[0], case.inputs[1]
    zero_point = case.inputs[2] if len(case.inputs) > 2 else None
    out_type = case.attributes.get("output_dtype", 0) or (
        zero_point.data_type if zero_point is not None else q.UINT8)
    dtype, _ = qtype(out_type, "output")
    if x.data_type not in (q.FLOAT, q.FLOAT16, q.BFLOAT16):
        raise q.RejectedAtLoad("%s quantizes floating-point tensors, not %s"
                               % (LIBRARY, q.type_name(x.data_type)))
    xs = torch.from_numpy(x.values().astype(np.float32))
    per_channel, axis, s, zp = parameters(case, x, scale, zero_point)
    if per_channel:
        y = torch.quantize_per_channel(xs, s, zp, axis, dtype)
    else:
        y = torch.quantize_per_tensor(xs, s, zp, dtype)
    return [q.Tensor.from_values(y.int_repr().numpy(), out_type)]


def dequantize(case):
    x, scale = case.inputs[0], case.inputs[1]
    zero_point = case.inputs[2] if len(case.inputs) > 2 else None
    out_type = case.attributes.get("output_dtype", 0) or scale.data_type
    if out_type != q.FLOAT:
        raise q.RejectedAtLoad("%s dequantizes to float32, not %s" % (LIBRARY, q.type_name(out_type)))
    _, plain = qtype(x.data_type, "input")
    codes = torch.from_numpy(x.values().astype(np.int64)).to(plain)
    per_channel, axis, s, zp = parameters(case, x, scale, zero_point)
    if per_channel:
        qx = torch._make_per_channel_quantized_tensor(codes, s, zp, axis)
    else:
        qx = torch._make_per_tensor_quantized_tensor(codes, s, zp)
    return [q.Tensor.from_values(qx.dequantize().numpy(), q.FLOAT)]


def qlinear_matmul(case):
    a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp = case.inputs[:8]
    if a.data_type != q.UINT8 or b.data_type != q.INT8 or y_zp.data_type != q.UINT8:
        raise q.RejectedAtLoad("%s quantized.linear takes quint8 input, qint8 weights and a quint8 "
                               "output, not %s x %s -> %s" % (LIBRARY, q.type_name(a.data_type),
                                                             q.type_name(b.data_type),
                                                             q.type_name(y_zp.data_type)))
    if len(b.dims) != 2 or a_scale.size != 1 or y_scale.size != 1 or a_zp.size != 1:
        raise q.RejectedAtLoad("%s quantized.linear takes 2-D weights and a per-tensor input"
                               % LIBRARY)
    w = torch.from_numpy(b.values().astype(np.int64).T.copy()).to(torch.int8)  # [N, K]
    if b_scale.size == 1:
        qw = torch._make_per_tensor_quantized_tensor(w, float(b_scale.values().reshape(-1)[0]),
                                                     int(b_zp.values().reshape(-1)[0]))
    else:
        qw = torch._make_per_channel_quantized_tensor(
            w, torch.from_numpy(b_scale.values().astype(np.float64).reshape(-1)),
            torch.from_numpy(b_zp.values().astype(np.int64).reshape(-1)), 0)
    qa = torch._make_per_tensor_quantized_tensor(
        torch.from_numpy(a.values().astype(np.int64)).to(torch.uint8),
        float(a_scale.values().reshape(-1)[0]), int(a_zp.values().reshape(-1)[0]))
    try:
        packed = torch.ops.quantized.linear_prepack(qw, None)
        y = torch.ops.quantized.linear(qa, packed, float(y_scale.values().reshape(-1)[0]),
                                       int(y_zp.values().reshape(-1)[0]))
    except RuntimeError as e:
        raise q.RejectedAtLoad("%s (%s engine): %s" % (LIBRARY, torch.backends.quantized.engine,
                                                      str(e).splitlines()[0]))
    return [q.Tensor.from_values(y.int_repr().numpy(), q.UINT8)]


def dynamic_quantize_matmul(case):
    """com.microsoft DynamicQuantizeMatMul: quantized.linear_dynamic, which quantizes the float A
    by PyTorch's own parameters (reduce_range off), with B as linear_prepack's qint8 weights."""
    a, b, b_scale = case.inputs[:3]
    b_zp = case.inputs[3] if len(case.inputs) > 3 else None
    bias = case.inputs[4] if len(case.inputs) > 4 else None
    if a.data_type != q.FLOAT or case.attributes:
        raise q.RejectedAtLoad("%s quantized.linear_dynamic takes a float32 input and no attributes"
                               % LIBRARY)
    if b.data_type != q.INT8 or len(b.dims) != 2:
        raise q.RejectedAtLoad("%s quantized.linear_dynamic takes 2-D qint8 weights, not %s %s"
                               % (LIBRARY, q.type_name(b.data_type), list(b.dims)))
    w = torch.from_numpy(b.values().astype(np.int64).T.copy()).to(torch.int8)  # [N, K]
    zps = (b_zp.values().astype(np.int64).reshape(-1) if b_zp is not None
           else np.zeros(b_scale.size, dtype=np.int64))
    if b_scale.size == 1 and zps.size == 1:
        qw = torch._make_per_tensor_quantized_tensor(w, float(b_scale.values().reshape(-1)[0]),
                                                     int(zps[0]))
    else:
        n = w.shape[0]
        scales = np.broadcast_to(b_scale.values().astype(np.float64).reshape(-1), (n,)).copy()
        qw = torch._make_per_channel_quantized_tensor(
            w, torch.from_numpy(scales), torch.from_numpy(np.broadcast_to(zps, (n,)).copy()), 0)
    b_bias = (torch.from_numpy(bias.values().astype(np.float32).reshape(-1))
              if bias is not None else None)
    x = torch.from_numpy(a.values().astype(np.float32))
    try:
        packed = torch.ops.quantized.linear_prepack(qw, b_bias)
        y = torch.ops.quantized.linear_dynamic(x, packed, False)
    except RuntimeError as e:
        raise q.RejectedAtLoad("%s (%s engine): %s" % (LIBRARY, torch.backends.quantized.engine,
                                                      str(e).splitlines()[0]))
    return [q.Tensor.from_values(y.numpy(), q.FLOAT)]


def per_tensor(tensor, zero_point, what):
    """A quantized tensor of one scale and zero point (an absent zero point is 0)."""
    scale = tensor_scale = what[1]
    if scale.size != 1 or (zero_point is not None and zero_point.size != 1):
        raise q.RejectedAtLoad("%s takes %s per tensor" % (LIBRARY, what[0]))
    _, plain = qtype(tensor.data_type, "input")
    codes = torch.from_numpy(tensor.values().astype(np.int64)).to(plain)
    zp = int(zero_point.values().reshape(-1)[0]) if zero_point is not None else 0
    return torch._make_per_tensor_quantized_tensor(
        codes, float(tensor_scale.values().reshape(-1)[0]), zp)


def qlinear_binary(case, op):
    """com.microsoft QLinearAdd and QLinearMul: quantized.add / quantized.mul, C's scale and zero
    point as the output's (the engine's broadcasting, where it has any)."""
    def at(k):
        return case.inputs[k] if k < len(case.inputs) else None
    a, b, c_scale, c_zp = at(0), at(3), at(6), at(7)
    if a.data_type != b.data_type:
        raise q.RejectedAtLoad("%s adds and multiplies tensors of one quantized dtype" % LIBRARY)
    qa = per_tensor(a, at(2), ("A's parameters", at(1)))
    qb = per_tensor(b, at(5), ("B's parameters", at(4)))
    if c_scale.size != 1 or (c_zp is not None and c_zp.size != 1):
        raise q.RejectedAtLoad("%s takes C's parameters per tensor" % LIBRARY)
    y = op(qa, qb, float(c_scale.values().reshape(-1)[0]),
           int(c_zp.values().reshape(-1)[0]) if c_zp is not None else 0)
    return [q.Tensor.from_values(y.int_repr().numpy(), a.data_type)]


def scalar_of(tensor, default=0.0):
    return tensor.values().reshape(-1)[0].item() if tensor is not None else default


def x_and_y(case):
    """X (inputs 0-2) as a per-tensor quantized tensor, and Y's scale and zero point (3, 4)."""
    def at(k):
        return case.inputs[k] if k < len(case.inputs) else None
    x, y_scale, y_zp = at(0), at(3), at(4)
    qx = per_tensor(x, at(2), ("X's parameters", at(1)))
    if y_scale.size != 1 or (y_zp is not None and y_zp.size != 1):
        raise q.RejectedAtLoad("%s takes Y's parameters per tensor" % LIBRARY)
    return x, qx, float(scalar_of(y_scale)), int(scalar_of(y_zp, 0))


def qlinear_unary(case, kind):
    """com.microsoft QLinearSigmoid, QLinearLeakyRelu and QLinearSoftmax: X's parameters at 1 and 2,
    Y's at 3 and 4."""
    x, qx, ys, yz = x_and_y(case)
    if kind == "sigmoid":
        fixed = (1.0 / 256, 0 if x.data_type == q.UINT8 else -128)
        if (ys, yz) != fixed:
            raise q.RejectedAtLoad("%s's quantized sigmoid has fixed output parameters (scale 1/256, "
                                   "zero point %d), not %r, %d" % (LIBRARY, fixed[1], ys, yz))
        y = torch.sigmoid(qx)
    elif kind == "leaky_relu":
        y = torch.ops.quantized.leaky_relu(qx, float(case.attributes.get("alpha", 0.01)), False,
                                           ys, yz)
    else:
        opset = case.attributes.get("opset", 13)
        axis = case.attributes.get("axis", -1 if opset >= 13 else 1)
        rank = len(x.dims)
        axis = axis + rank if axis < 0 else axis
        if opset < 13 and axis != rank - 1:
            raise q.RejectedAtLoad("%s's softmax runs along one axis; Softmax-%d coerces the input "
                                   "to a matrix at axis %d" % (LIBRARY, opset, axis))
        y = torch.ops.quantized.softmax(qx, axis, ys, yz)
    return [q.Tensor.from_values(y.int_repr().numpy(), x.data_type)]


def qlinear_concat(case):
    """com.microsoft QLinearConcat: Y's parameters, then (X, X_scale, X_zero_point) per operand:
    quantized.cat with Y's scale and zero point."""
    y_scale, y_zp = case.inputs[0], case.inputs[1]
    operands = []
    for k in range(2, len(case.inputs), 3):
        x = case.inputs[k]
        if operands and x.data_type != case.inputs[2].data_type:
            raise q.RejectedAtLoad("%s concatenates tensors of one quantized dtype" % LIBRARY)
        operands.append(per_tensor(x, case.inputs[k + 2], ("each operand's parameters",
                                                           case.inputs[k + 1])))
    axis = case.attributes.get("axis", 0)
    y = torch.ops.quantized.cat(operands, axis, float(scalar_of(y_scale)), int(scalar_of(y_zp, 0)))
    return [q.Tensor.from_values(y.int_repr().numpy(), case.inputs[2].data_type)]


def qlinear_pool(case, global_pool):
    """com.microsoft QLinearAveragePool and QLinearGlobalAveragePool: the quantized avg_pool1d/2d/
    3d (kernel, strides, symmetric pads, ceil_mode, count_include_pad) and adaptive_avg_pool to
    one element. PyTorch's quantized pools keep the input's scale and zero point: another Y is
    refused at load. channels_last 1: permuted to channels-first and back (no arithmetic)."""
    x, qx, ys, yz = x_and_y(case)
    if (ys, yz) != (qx.q_scale(), qx.q_zero_point()):
        raise q.RejectedAtLoad("%s's quantized pools keep the input's scale and zero point (%r, %d); "
                               "Y's differ" % (LIBRARY, qx.q_scale(), qx.q_zero_point()))
    rank = len(x.dims)
    spatial = rank - 2
    if spatial not in (1, 2, 3):
        raise q.RejectedAtLoad("%s pools 1-D, 2-D and 3-D inputs, not %d-D" % (LIBRARY, spatial))
    last = case.attributes.get("channels_last", 0) != 0
    if last:
        qx = qx.permute(0, rank - 1, *range(1, rank - 1))
    functional = torch.nn.functional
    if global_pool:
        y = [functional.adaptive_avg_pool1d, functional.adaptive_avg_pool2d,
             functional.adaptive_avg_pool3d][spatial - 1](qx, [1] * spatial)
    else:
        kernel = list(case.attributes["kernel_shape"])
        strides = list(case.attributes.get("strides", [1] * spatial))
        pads = list(case.attributes.get("pads", [0] * (2 * spatial)))
        auto_pad = case.attributes.get("auto_pad", "NOTSET")
        if isinstance(auto_pad, bytes):
            auto_pad = auto_pad.decode()
        if auto_pad == "VALID":
            pads = [0] * (2 * spatial)
        elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            pads = [0] * (2 * spatial)
            for i in range(spatial):
                n = x.dims[i + (1 if last else 2)]
                total = max(0, (-(-n // strides[i]) - 1) * strides[i] + kernel[i] - n)
                small, large = total // 2, total - total // 2
                pads[i], pads[i + spatial] = ((small, large) if auto_pad == "SAME_UPPER"
                                              else (large, small))
        if pads[:spatial] != pads[spatial:]:
            raise q.RejectedAtLoad("%s's pools pad each axis symmetrically; pads %r are not"
                                   % (LIBRARY, pads))
        y = [functional.avg_pool1d, functional.avg_pool2d, functional.avg_pool3d][spatial - 1](
            qx, kernel, strides, pads[:spatial], bool(case.attributes.get("ceil_mode", 0)),
            bool(case.attributes.get("count_include_pad", 0)))
    if last:
        y = y.permute(0, *range(2, rank), 1)
    return [q.Tensor.from_values(y.int_repr().contiguous().numpy(), x.data_type)]


# (domain, op type) -> mapping.
MAPPINGS = {("", "QuantizeLinear"): quantize, ("", "DequantizeLinear"): dequantize,
            ("", "QLinearMatMul"): qlinear_matmul,
            ("com.microsoft", "DynamicQuantizeMatMul"): dynamic_quantize_matmul,
            ("com.microsoft", "QLinearAdd"):
                lambda case: qlinear_binary(case, torch.ops.quantized.add),
            ("com.microsoft", "QLinearMul"):
                lambda case: qlinear_binary(case, torch.ops.quantized.mul),
            ("com.microsoft", "QLinearSigmoid"): lambda case: qlinear_unary(case, "sigmoid"),
            ("com.microsoft", "QLinearLeakyRelu"): lambda case: qlinear_unary(case, "leaky_relu"),
            ("com.microsoft", "QLinearSoftmax"): lambda case: qlinear_unary(case, "softmax"),
            ("com.microsoft", "QLinearConcat"): qlinear_concat,
            ("com.microsoft", "QLinearAveragePool"): lambda case: qlinear_pool(case, False),
            ("com.microsoft", "QLinearGlobalAveragePool"): lambda case: qlinear_pool(case, True)}


def run(case):
    domain = "" if case.domain == "ai.onnx" else case.domain
    mapping = MAPPINGS.get((domain, case.op_type))
    if mapping is None:
        raise q.Unsupported("%s: %s %s is not mapped" % (LIBRARY, case.domain, case.op_type))
    try:
        return mapping(case)
    except (RuntimeError, ValueError, TypeError, OverflowError) as e:
        raise q.RejectedAtRun("%s: %s" % (LIBRARY, str(e).splitlines()[0] if str(e) else type(e)))


if __name__ == "__main__":
    torch.set_num_threads(1)
    if "qnnpack" in torch.backends.quantized.supported_engines:
        torch.backends.quantized.engine = "qnnpack"
    q.serve("pytorch", ".".join(torch.__version__.split("+")[0].split(".")[:2]),
        "torch.quantize_per_tensor/per_channel, dequantize, quantized.linear(_dynamic), "
        "quantized.add/mul, "
        "sigmoid, quantized.leaky_relu/softmax/cat, avg_pool and adaptive_avg_pool (%s engine)"
        % torch.backends.quantized.engine, run)
