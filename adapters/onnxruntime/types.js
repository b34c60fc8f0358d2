// The ONNX data_type numbers and onnxruntime-node's names for the types its binding can carry.
// The others (bfloat16, float8, float4, e8m0, int2/uint2) it cannot carry: the C++ side of the
// adapter reports them as unsupported before a case is sent. Tested against `qconform types
// --json` (suites/types/type_tables_test.js): a number must name the same type on both sides.
'use strict';

const kTypeNames = {
  1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64',
  9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64', 21: 'uint4', 22: 'int4',
};
const kTypeNumbers = Object.fromEntries(Object.entries(kTypeNames).map(([k, v]) => [v, +k]));

module.exports = {kTypeNames, kTypeNumbers};
