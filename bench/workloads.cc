#include "bench/workloads.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"

namespace qconform::bench {
namespace {

using D = DataType;
constexpr Layout kT = Layout::kPerTensor, kA = Layout::kPerAxis, kB = Layout::kBlocked;

// clang-format off
const std::vector<WorkloadSpec> kSpecs = {
  // name, op, opset, x, scale, y, layout, block_size, zero point, saturate, output_dtype
  {"DQ int8->float32 per-tensor", "DequantizeLinear", 21, D::kInt8, D::kFloat, D::kFloat, kT, 0, true, 1},
  {"DQ int8->float32 per-axis", "DequantizeLinear", 21, D::kInt8, D::kFloat, D::kFloat, kA, 0, true, 1},
  {"DQ uint8->float16 per-axis", "DequantizeLinear", 21, D::kUint8, D::kFloat16, D::kFloat16, kA, 0, true, 1},
  {"DQ int16->float32 per-tensor", "DequantizeLinear", 21, D::kInt16, D::kFloat, D::kFloat, kT, 0, true, 1},
  {"DQ int16->bfloat16 per-axis", "DequantizeLinear", 21, D::kInt16, D::kBfloat16, D::kBfloat16, kA, 0, true, 1},
  {"DQ int32->float32 per-tensor", "DequantizeLinear", 21, D::kInt32, D::kFloat, D::kFloat, kT, 0, false, 1},
  {"DQ int32->float16 per-axis", "DequantizeLinear", 23, D::kInt32, D::kFloat, D::kFloat16, kA, 0, false, 1, true},
  {"DQ int4->float32 blocked 16", "DequantizeLinear", 21, D::kInt4, D::kFloat, D::kFloat, kB, 16, true, 1},
  {"DQ uint4->float16 blocked 32", "DequantizeLinear", 21, D::kUint4, D::kFloat16, D::kFloat16, kB, 32, true, 1},
  {"DQ int4->bfloat16 blocked 32, float32 scale", "DequantizeLinear", 23, D::kInt4, D::kFloat, D::kBfloat16, kB, 32, true, 1, true},
  {"DQ int2->bfloat16 blocked 128", "DequantizeLinear", 25, D::kInt2, D::kBfloat16, D::kBfloat16, kB, 128, true, 1},
  {"DQ float8e4m3fn->bfloat16 per-tensor", "DequantizeLinear", 21, D::kFloat8E4M3FN, D::kBfloat16, D::kBfloat16, kT, 0, false, 1},
  {"DQ float8e5m2->float32 per-axis", "DequantizeLinear", 21, D::kFloat8E5M2, D::kFloat, D::kFloat, kA, 0, false, 1},
  {"DQ float8e4m3fnuz->float16 per-tensor", "DequantizeLinear", 21, D::kFloat8E4M3FNUZ, D::kFloat16, D::kFloat16, kT, 0, false, 1},
  {"DQ float8e5m2fnuz->float32 per-axis", "DequantizeLinear", 21, D::kFloat8E5M2FNUZ, D::kFloat, D::kFloat, kA, 0, false, 1},
  {"DQ float4e2m1->float32 blocked 32, e8m0 scale", "DequantizeLinear", 25, D::kFloat4E2M1, D::kFloat8E8M0, D::kFloat, kB, 32, false, 1, true},
  {"DQ float8e4m3fn->bfloat16 blocked 32, e8m0 scale", "DequantizeLinear", 24, D::kFloat8E4M3FN, D::kFloat8E8M0, D::kBfloat16, kB, 32, false, 1, true},
  {"QL float32->int8 per-axis", "QuantizeLinear", 21, D::kFloat, D::kFloat, D::kInt8, kA, 0, true, 1},
  {"QL float32->float8e4m3fn saturate=1", "QuantizeLinear", 21, D::kFloat, D::kFloat, D::kFloat8E4M3FN, kT, 0, true, 1},
  {"QL float32->float8e4m3fn saturate=0", "QuantizeLinear", 21, D::kFloat, D::kFloat, D::kFloat8E4M3FN, kT, 0, true, 0},
  {"QL float16->int4 blocked 32", "QuantizeLinear", 21, D::kFloat16, D::kFloat16, D::kInt4, kB, 32, true, 1},
  {"QL bfloat16->uint8 per-tensor", "QuantizeLinear", 21, D::kBfloat16, D::kBfloat16, D::kUint8, kT, 0, true, 1},
  {"DynQL float32->uint8", "DynamicQuantizeLinear", 11, D::kFloat, D::kFloat, D::kUint8, kT, 0, false, 1},
};
// clang-format on

// A tensor of `type` whose element codes come from code(prng).
template <class CodeOf>
Tensor Filled(D type, std::vector<int64_t> shape, uint64_t seed, CodeOf code) {
  const ElementType& t = ElementTypeOf(type);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  Prng prng(seed);
  Tensor out{static_cast<int32_t>(type), std::move(shape), Codes(t.bits, static_cast<size_t>(n)),
             false};
  for (int64_t i = 0; i < n; ++i) out.codes.set(static_cast<size_t>(i), code(t, prng));
  return out;
}

// Scales (1 + k/64) * 2^-7, exact in every float scale type with 7+ mantissa bits; powers of
// two 2^-(3..10) for e8m0.
double ScaleValue(D type, Prng& prng) {
  if (type == D::kFloat8E8M0) return std::ldexp(1.0, -3 - static_cast<int>(prng.Below(8)));
  return (1 + static_cast<double>(prng.Below(64)) / 64) / 128;
}

// x for QuantizeLinear: values spread over y's range and a little beyond (so that some
// saturate), as multiples of the largest scale, rounded to x's type.
Tensor QuantizeInput(const WorkloadSpec& s, std::vector<int64_t> shape) {
  const ElementType& y = ElementTypeOf(s.y);
  const double span = y.is_integer() ? static_cast<double>(IntegerMax(y)) * 1.25 : 600;
  const double largest_scale = 2.0 / 128;
  return Filled(s.x, std::move(shape), 1, [&](const ElementType& t, Prng& prng) {
    const double u = static_cast<double>(prng.Next32()) / 4294967296.0 * 2 - 1;
    return *EncodeDouble(t, u * span * largest_scale, Saturation::kSaturate);
  });
}

}  // namespace

int64_t BenchElements() {
  const char* env = std::getenv("QCONFORM_BENCH_ELEMENTS");
  const int64_t n = env && *env ? std::atoll(env) : int64_t{16} << 20;
  if (n < 4096) throw std::invalid_argument("QCONFORM_BENCH_ELEMENTS must be at least 4096");
  return n;
}

const std::vector<WorkloadSpec>& WorkloadSpecs() {
  return kSpecs;
}

const WorkloadSpec& WorkloadNamed(const std::string& name) {
  for (const WorkloadSpec& s : kSpecs) {
    if (name == s.name) return s;
  }
  throw std::invalid_argument("no workload " + name);
}

size_t InputBytes(const Case& c) {
  size_t bytes = 0;
  for (const auto& t : c.inputs) {  // codes' storage: a sub-byte code in a byte of its own
    bytes += t ? t->codes.size() * static_cast<size_t>(t->codes.width()) : 0;
  }
  return bytes;
}

Workload MakeWorkload(const WorkloadSpec& spec, int64_t elements) {
  const int64_t cols = 4096, rows = elements / cols;
  const std::vector<int64_t> shape = {rows, cols};
  std::vector<int64_t> scale_shape;
  std::map<std::string, int64_t> attributes;
  switch (spec.layout) {
    case Layout::kPerTensor:
      break;
    case Layout::kPerAxis:
      scale_shape = {rows};
      attributes["axis"] = 0;
      break;
    case Layout::kBlocked:
      scale_shape = {rows, (cols + spec.block_size - 1) / spec.block_size};
      attributes = {{"axis", 1}, {"block_size", spec.block_size}};
      break;
  }
  const std::string op = spec.op_type;
  std::vector<std::optional<Tensor>> inputs;
  if (op == "DynamicQuantizeLinear") {
    inputs = {QuantizeInput(spec, shape)};
  } else {
    const bool dequantize = op == "DequantizeLinear";
    // DequantizeLinear's x: every code at random (NaN and inf included for float types: they
    // are part of the type's range).
    inputs.push_back(dequantize ? Filled(spec.x, shape, 1,
                                         [](const ElementType& t, Prng& prng) {
                                           return prng.Next32() & t.code_mask();
                                         })
                                : QuantizeInput(spec, shape));
    inputs.push_back(Filled(spec.scale, scale_shape, 2, [&](const ElementType& t, Prng& prng) {
      return *EncodeDouble(t, ScaleValue(spec.scale, prng), Saturation::kNone);
    }));
    const D zero_point_type = dequantize ? spec.x : spec.y;
    if (spec.zero_point && ElementTypeOf(zero_point_type).is_integer()) {
      inputs.push_back(Filled(zero_point_type, scale_shape, 3, [](const ElementType& t, Prng& p) {
        // Small zero points, so that QuantizeLinear's y is not mostly saturated.
        return static_cast<uint32_t>(p.Below(7)) & t.code_mask();
      }));
    } else if (spec.zero_point) {
      inputs.push_back(
          Filled(zero_point_type, scale_shape, 3, [](const ElementType&, Prng&) { return 0u; }));
    }
    if (dequantize && spec.output_dtype) attributes["output_dtype"] = static_cast<int64_t>(spec.y);
    if (!dequantize && spec.saturate == 0) attributes["saturate"] = 0;
  }
  Workload w{
      spec, MakeCase(op, spec.opset, inputs, attributes, "", spec.name), rows, cols, rows * cols, 0,
      0};
  w.input_bytes = InputBytes(w.c);
  w.output_bytes = static_cast<size_t>(w.elements) *
                   static_cast<size_t>(ElementTypeOf(spec.y).bytes_per_element());
  return w;
}

}  // namespace qconform::bench
