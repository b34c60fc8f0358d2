#include "bench/workloads.h"

#include <cstdlib>
#include <stdexcept>

#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/core/prng.h"

namespace qconform::bench {
namespace {

using D = DataType;

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

// Uniformly random codes (NaN and inf included for float types: they are valid inputs).
Tensor Random(D type, std::vector<int64_t> shape, uint64_t seed) {
  return Filled(type, std::move(shape), seed,
                [](const ElementType& t, Prng& prng) { return prng.Next32() & t.code_mask(); });
}

// Scales (1 + k/64) * 2^-7, k random: exact in every float scale type with 7+ mantissa bits.
Tensor Scales(D type, std::vector<int64_t> shape, uint64_t seed) {
  return Filled(type, std::move(shape), seed, [](const ElementType& t, Prng& prng) {
    const double v = (1 + static_cast<double>(prng.Below(64)) / 64) / 128;
    return *Encode(t, Exact::FromDouble(v), Saturation::kNone);
  });
}

size_t Bytes(const Tensor& t) {
  const int bits = ElementTypeOf(static_cast<D>(t.data_type)).bits;
  return static_cast<size_t>(t.element_count()) * static_cast<size_t>((bits + 7) / 8);
}

}  // namespace

int64_t BenchElements() {
  const char* env = std::getenv("QCONFORM_BENCH_ELEMENTS");
  const int64_t n = env && *env ? std::atoll(env) : int64_t{16} << 20;
  if (n < 64) throw std::invalid_argument("QCONFORM_BENCH_ELEMENTS must be at least 64");
  return n;
}

std::vector<std::string> WorkloadNames() {
  return {"int8->float32 per-tensor", "int8->float32 per-axis", "uint4 blocked->float16",
          "float8e4m3fn->bfloat16", "int32->float32"};
}

Workload MakeWorkload(const std::string& name, int64_t elements) {
  const int64_t cols = elements >= 4096 ? 4096 : elements;
  const int64_t rows = elements / cols;
  const std::vector<int64_t> shape = {rows, cols};
  std::vector<std::optional<Tensor>> inputs;
  std::map<std::string, int64_t> attributes;
  if (name == "int8->float32 per-tensor") {
    inputs = {Random(D::kInt8, shape, 1), Scales(D::kFloat, {}, 2), MakeScalar(D::kInt8, 3)};
  } else if (name == "int8->float32 per-axis") {
    inputs = {Random(D::kInt8, shape, 1), Scales(D::kFloat, {rows}, 2),
              Random(D::kInt8, {rows}, 3)};
    attributes["axis"] = 0;
  } else if (name == "uint4 blocked->float16") {
    const std::vector<int64_t> blocks = {rows, (cols + 31) / 32};
    inputs = {Random(D::kUint4, shape, 1), Scales(D::kFloat16, blocks, 2),
              Random(D::kUint4, blocks, 3)};
    attributes = {{"axis", 1}, {"block_size", 32}};
  } else if (name == "float8e4m3fn->bfloat16") {
    // Finite codes only would change nothing: NaN inputs are part of the type's range.
    inputs = {Random(D::kFloat8E4M3FN, shape, 1), Scales(D::kBfloat16, {}, 2)};
  } else if (name == "int32->float32") {
    inputs = {Random(D::kInt32, shape, 1), MakeScalar(D::kFloat, 0.100000001490116119384765625)};
  } else {
    throw std::invalid_argument("no workload " + name);
  }
  Workload w{name, MakeCase("DequantizeLinear", 21, inputs, attributes, "", name), rows * cols, 0,
             0};
  for (const auto& t : w.c.inputs) w.input_bytes += t ? Bytes(*t) : 0;
  const D out = static_cast<D>(w.c.input(1)->data_type);
  w.output_bytes =
      static_cast<size_t>(w.elements) * static_cast<size_t>(ElementTypeOf(out).bits / 8);
  return w;
}

}  // namespace qconform::bench
