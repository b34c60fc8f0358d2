#!/usr/bin/python3
"""A small DequantizeLinear in numpy, as a qconform backend through qconform_exec: the kit's
example and its test (ctest -L backend:numpy-dequantize). It computes the way a typical kernel
does, in float32: (float)(x - x_zero_point) * x_scale, rounded once to the output type.

    qconform run --backend exec:adapters/python/numpy_dequantize.py   (Debian's python3-numpy)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qconform_exec as q  # noqa: E402  (first: it says so in one line when numpy is missing)
import numpy as np  # noqa: E402


def dequantize(case):
    if case.op_type != "DequantizeLinear" or case.domain not in ("", "ai.onnx"):
        raise q.RejectedAtLoad("no kernel for %s %s" % (case.domain, case.op_type))
    x, scale = case.inputs[0], case.inputs[1]
    zero_point = case.inputs[2] if len(case.inputs) > 2 else None
    if x is None or scale is None:
        raise q.RejectedAtLoad("x and x_scale are required")
    axis = case.attributes.get("axis", 1)
    block_size = case.attributes.get("block_size", 0)
    xv = x.values().astype(np.float64)
    rank = len(x.dims)
    if scale.size == 1:  # per tensor
        s = scale.values().reshape(())
        zp = zero_point.values().reshape(()) if zero_point is not None else 0.0
    else:
        axis = axis + rank if axis < 0 else axis
        shape = [1] * rank
        if block_size:  # blocked: repeat each scale block_size times along the axis
            s = np.repeat(scale.values(), block_size, axis=axis).take(
                range(x.dims[axis]), axis=axis)
            zp = (np.repeat(zero_point.values(), block_size, axis=axis).take(
                range(x.dims[axis]), axis=axis) if zero_point is not None else 0.0)
        else:
            shape[axis] = x.dims[axis]
            s = scale.values().reshape(shape)
            zp = zero_point.values().reshape(shape) if zero_point is not None else 0.0
    y = (xv - zp).astype(np.float32) * np.asarray(s, dtype=np.float32)
    out_type = case.attributes.get("output_dtype", 0) or scale.data_type
    if out_type not in (q.FLOAT, q.FLOAT16, q.BFLOAT16):
        raise q.RejectedAtRun("output type %s" % q.type_name(out_type))
    return [q.Tensor.from_values(y, out_type)]


if __name__ == "__main__":
    q.serve("numpy-dequantize", "1.0",
            "DequantizeLinear in numpy, float32 arithmetic (qconform_exec's example)", dequantize)
