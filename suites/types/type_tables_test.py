#!/usr/bin/python3
"""The element-type tables kept outside C++ agree with the registry (`qconform types --json`):
golden/verify_outputs.py's (the contract judge) and the Python kit's
(adapters/python/qconform_exec.py), field by field, and the kit's decoder gives each type's
largest finite value.

    type_tables_test.py QCONFORM SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import unittest

QCONFORM, SOURCE = sys.argv.pop(1), sys.argv.pop(1)
sys.path.insert(0, os.path.join(SOURCE, "adapters", "python"))
sys.path.insert(0, os.path.join(SOURCE, "golden"))
import numpy as np  # noqa: E402
import qconform_exec as kit  # noqa: E402
import verify_outputs as contract  # noqa: E402

REGISTRY = json.loads(subprocess.run([QCONFORM, "types", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
TYPES = REGISTRY["types"]


class ContractTable(unittest.TestCase):
    def test_every_registry_type_is_in_the_contract(self):
        self.assertEqual(sorted(contract.TYPES), sorted(t["data_type"] for t in TYPES))

    def test_fields(self):
        for t in TYPES:
            name, bits, kind, zero_sign = contract.TYPES[t["data_type"]]
            with self.subTest(t["name"]):
                self.assertEqual(name, t["name"])
                self.assertEqual(bits, t["bits"])
                want = "float" if t["kind"] == "float" else "int" if t["signed"] else "uint"
                self.assertEqual(kind, want)
                # The sign bit of a zero, where the type has -0 (what +0 == -0 needs).
                self.assertEqual(zero_sign, 1 << (t["bits"] - 1) if t["negative_zero"] else None)


class KitTable(unittest.TestCase):
    NAN = {"ieee": "ieee", "all-ones": "all-ones", "negative-zero": "negative-zero", "none": None}

    def test_fields(self):
        for t in TYPES:
            k = kit.TYPES[t["data_type"]]
            with self.subTest(t["name"]):
                self.assertEqual(k.name, t["name"])
                self.assertEqual(k.bits, t["bits"])
                if t["kind"] == "integer":
                    self.assertEqual(k.kind, "int")
                    self.assertEqual(k.signed, t["signed"])
                    continue
                self.assertIn(k.kind, ("float", "minifloat", "e8m0"))
                if k.kind == "minifloat":
                    self.assertEqual((k.exponent, k.mantissa, k.bias),
                                     (t["exponent_bits"], t["mantissa_bits"], t["bias"]))
                    self.assertEqual(k.nan, self.NAN[t["nan"]])
                    self.assertEqual(k.inf, t["has_infinity"])
                    self.assertEqual(k.neg_zero, t["negative_zero"])

    def test_largest_values_decode(self):
        for t in TYPES:
            with self.subTest(t["name"]):
                got = kit.decode(np.array([t["max_finite_code"]]), t["data_type"])[0]
                self.assertEqual(got, float(t["max_finite"]))
                if t["nan"] != "none":
                    self.assertTrue(np.isnan(kit.decode(np.array([t["canonical_nan"]]), t["data_type"])[0]))

    def test_onnx_names_of_the_other_types(self):
        for number, k in kit.TYPES.items():
            with self.subTest(k.name):
                self.assertEqual(k.name, REGISTRY["onnx_names"][str(number)])


if __name__ == "__main__":
    unittest.main()
