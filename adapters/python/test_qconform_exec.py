#!/usr/bin/python3
"""The kit's own checks: the decoders against values the ONNX specification tables give, the
sub-byte packing both ways, TensorProto reading of every golden input and output file (raw_data)
and of the typed fields, writing read back, and a whole protocol exchange.

    test_qconform_exec.py GOLDEN_DIR
"""
import io
import math
import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qconform_exec as q  # noqa: E402

GOLDEN = sys.argv.pop(1) if len(sys.argv) > 1 else None


class Decoders(unittest.TestCase):
    def value(self, data_type, code):
        return float(q.decode(np.array([code]), data_type)[0])

    def test_float8_and_float4_landmarks(self):
        # The largest finite value and NaN of each type (ONNX's float8 and float4 tables).
        self.assertEqual(self.value(q.FLOAT8E4M3FN, 0x7E), 448)
        self.assertTrue(math.isnan(self.value(q.FLOAT8E4M3FN, 0x7F)))
        self.assertEqual(self.value(q.FLOAT8E4M3FNUZ, 0x7F), 240)
        self.assertTrue(math.isnan(self.value(q.FLOAT8E4M3FNUZ, 0x80)))
        self.assertEqual(self.value(q.FLOAT8E5M2, 0x7B), 57344)
        self.assertEqual(self.value(q.FLOAT8E5M2, 0x7C), math.inf)
        self.assertEqual(self.value(q.FLOAT8E5M2FNUZ, 0x7F), 57344)
        self.assertEqual(self.value(q.FLOAT8E4M3FN, 0x01), 2.0 ** -9)  # smallest subnormal
        self.assertEqual([self.value(q.FLOAT4E2M1, c) for c in range(8)],
                         [0, 0.5, 1, 1.5, 2, 3, 4, 6])
        self.assertEqual(self.value(q.FLOAT4E2M1, 0xF), -6)
        self.assertEqual(self.value(q.FLOAT8E8M0, 127), 1)
        self.assertTrue(math.isnan(self.value(q.FLOAT8E8M0, 255)))
        self.assertEqual(self.value(q.BFLOAT16, 0x3F80), 1)
        self.assertEqual(self.value(q.FLOAT16, 0x3C00), 1)

    def test_sixty_four_bit_types(self):
        # Codes wider than 32 bits keep their high bits: double, int64, uint64.
        self.assertEqual(self.value(q.DOUBLE, 0x3FF8000000000000), 1.5)
        self.assertEqual(self.value(q.DOUBLE, 0xC000000000000000), -2.0)
        self.assertEqual(self.value(q.INT64, 0xFFFFFFFFFFFFFFFF), -1)
        self.assertEqual(self.value(q.INT64, 0x8000000000000000), -2.0 ** 63)
        self.assertEqual(self.value(q.UINT64, 0x8000000000000000), 2.0 ** 63)
        self.assertEqual(self.value(q.UINT64, 0x100000001), 2.0 ** 32 + 1)

    def test_signed_sub_byte_integers(self):
        self.assertEqual(list(q.decode(np.arange(16), q.INT4)),
                         [0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1])
        self.assertEqual(list(q.decode(np.arange(4), q.INT2)), [0, 1, -2, -1])

    def test_bfloat16_rounds_half_to_even(self):
        # 1 + 2^-8 is halfway between two bfloat16 values: it goes to the even one (1).
        self.assertEqual(list(q.encode_bfloat16(np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8]))),
                         [0x3F80, 0x3F82])


class TensorProtos(unittest.TestCase):
    def test_sub_byte_packing_round_trips(self):
        for data_type, bits in ((q.INT4, 4), (q.UINT2, 2), (q.FLOAT4E2M1, 4)):
            codes = np.arange(7, dtype=np.uint32) % (1 << bits)
            t = q.Tensor(data_type, [7], codes)
            again = q.Tensor.parse(t.serialize())
            self.assertEqual(list(again.codes), list(codes))
            self.assertEqual(again.dims, [7])

    def test_typed_fields(self):
        # int32_data with a negative int8 (a 10-byte varint) and float_data, packed.
        raw = q._key(1, 0) + q._put_varint(2) + q._key(2, 0) + q._put_varint(q.INT8)
        raw += q._bytes_field(5, q._put_varint(2 ** 64 - 3) + q._put_varint(5))
        self.assertEqual(list(q.Tensor.parse(raw).values()), [-3, 5])
        raw = q._key(1, 0) + q._put_varint(1) + q._key(2, 0) + q._put_varint(q.FLOAT)
        raw += q._bytes_field(4, np.array([0.25], dtype="<f4").tobytes())
        self.assertEqual(list(q.Tensor.parse(raw).values()), [0.25])

    @unittest.skipUnless(GOLDEN, "no golden directory given")
    def test_every_golden_tensor_reads_and_writes_back(self):
        count = 0
        for root, _, files in os.walk(GOLDEN):
            for name in files:
                if not name.endswith(".pb"):
                    continue
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                t = q.Tensor.parse(data, name)
                again = q.Tensor.parse(t.serialize())
                self.assertEqual((again.data_type, again.dims), (t.data_type, t.dims), name)
                self.assertTrue(np.array_equal(again.codes, t.codes), name)
                count += 1
        self.assertGreater(count, 1000)


class Protocol(unittest.TestCase):
    @unittest.skipUnless(GOLDEN, "no golden directory given")
    def test_an_exchange(self):
        case_dir = os.path.join(GOLDEN, "dq13-seed-axis")
        frames = b""
        names = ["model.onnx"] + ["test_data_set_0/" + n for n in
                                  sorted(os.listdir(os.path.join(case_dir, "test_data_set_0")))
                                  if n.startswith("input_")]
        for n in names:
            with open(os.path.join(case_dir, n), "rb") as f:
                payload = f.read()
            frames += b"file %s %d\n" % (n.encode(), len(payload)) + payload
        request = b"run %d %d\n" % (1, len(names)) + frames
        stdin = io.BytesIO(request + request.replace(b"run 1 ", b"run 2 ", 1)
                           + b"run 3 1\nfile ../x 1\nx" + b"run 4 0\n")
        stdout = io.BytesIO()
        calls = []

        def run(case):
            calls.append(case)
            if len(calls) == 2:
                raise q.RejectedAtLoad("second time")
            return [q.Tensor.from_values(np.zeros(case.inputs[0].dims, np.float32), q.FLOAT)]
        q.serve("t", "1", "a test", run, stdin=stdin, stdout=stdout)
        out = stdout.getvalue()
        hello, rest = out.split(b"\n", 1)
        self.assertEqual(hello, b"@qconform hello 3 t 1 a test")
        ok, rest = rest.split(b"\n", 1)
        self.assertEqual(ok, b"@qconform ok 1 1")
        header, rest = rest.split(b"\n", 1)
        self.assertTrue(header.startswith(b"@qconform file output_0.pb "), header)
        size = int(header.split()[-1])
        y = q.Tensor.parse(rest[:size])
        self.assertEqual(y.dims, [1, 3, 3, 2])
        self.assertEqual(y.data_type, q.FLOAT)
        lines = rest[size:].decode().splitlines()
        self.assertEqual(lines[0], "@qconform error 2 rejected-at-load second time")
        # A frame that climbs out of the scratch directory ends the exchange: nothing after it
        # can be trusted, so request 4 is never read.
        self.assertTrue(lines[1].startswith("@qconform error 3 protocol-error"), lines[1])
        self.assertEqual(len(lines), 2)
        self.assertEqual(calls[0].op_type, "DequantizeLinear")
        self.assertEqual(calls[0].opset, 13)
        self.assertEqual(calls[0].inputs[0].dims, [1, 3, 3, 2])
        self.assertEqual(len(calls[0].inputs[1].codes), 3)  # per-axis x_scale


if __name__ == "__main__":
    unittest.main(verbosity=1)
