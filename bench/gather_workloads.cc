// The GatherBlockQuantized row (bench/compute_workloads.h): a 4-bit quantized embedding table,
// uint8 data of bits 4 [8192, 2048] bytes (8192 rows of 4096 codes), blocks of 32 along the
// rows, float32 scales and packed zero points, 512 token indices: the lookup a quantized
// language model's first layer makes. An element is one operation. The plain loop unpacks each
// gathered code and its zero point and computes float32(code - zero_point) * scale, as ONNX
// Runtime's kernel does.
#include <bit>

#include "bench/compute_workloads.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"

namespace qconform::bench {
namespace {

using D = DataType;
constexpr int64_t kRows = 8192, kColumns = 4096, kBlock = 32, kTokens = 512;
constexpr int64_t kBlocks = kColumns / kBlock;

int64_t PlainGather(const ComputeWorkload& wl, std::vector<int32_t>&, std::vector<uint8_t>&) {
  const Codes& data = wl.c.input(0)->codes;
  const Codes& scales = wl.c.input(2)->codes;
  const Codes& zero_points = wl.c.input(3)->codes;
  const Codes& indices = wl.c.input(1)->codes;
  std::vector<float> y(static_cast<size_t>(kTokens * kColumns));
  for (int64_t t = 0; t < kTokens; ++t) {
    const auto row = static_cast<int64_t>(static_cast<int32_t>(indices[static_cast<size_t>(t)]));
    for (int64_t j = 0; j < kColumns; ++j) {
      const uint32_t byte = data[static_cast<size_t>(row * kColumns / 2 + j / 2)];
      const int32_t code = static_cast<int32_t>(j % 2 ? byte >> 4 : byte & 15);
      const int64_t b = j / kBlock;
      const uint32_t zp_byte = zero_points[static_cast<size_t>(row * kBlocks / 2 + b / 2)];
      const int32_t zp = static_cast<int32_t>(b % 2 ? zp_byte >> 4 : zp_byte & 15);
      const float scale = std::bit_cast<float>(scales[static_cast<size_t>(row * kBlocks + b)]);
      y[static_cast<size_t>(t * kColumns + j)] = static_cast<float>(code - zp) * scale;
    }
  }
  int64_t sum = 0;
  for (float v : y) sum += static_cast<int64_t>(v * 16);
  return sum;
}

}  // namespace

std::vector<ComputeWorkload> GatherWorkloads() {
  Prng p(20261128);
  std::vector<int64_t> tokens(kTokens);
  for (int64_t& t : tokens) t = static_cast<int64_t>(p.Below(2 * kRows)) - kRows;  // half negative
  std::vector<double> scales(static_cast<size_t>(kRows * kBlocks));
  for (double& s : scales) s = 0.001 + static_cast<double>(p.Below(1000)) / 9973;
  Case c = MakeCase("GatherBlockQuantized", 1,
                    {RandomCodes(p, D::kUint8, {kRows, kColumns / 2}),
                     MakeIndexTensor(D::kInt64, {kTokens}, tokens),
                     MakeRoundedTensor(D::kFloat, {kRows, kBlocks}, scales),
                     RandomCodes(p, D::kUint8, {kRows, kBlocks / 2})},
                    {{"bits", 4}, {"block_size", kBlock}, {"quantize_axis", 1}}, "com.microsoft");
  const size_t bytes = static_cast<size_t>(kRows * kColumns / 2 + kRows * kBlocks * 4 +
                                           kRows * kBlocks / 2 + kTokens * kColumns * 4);
  return {{"GatherBlockQuantized uint8 4-bit block 32 8192x4096, 512 indices", std::move(c),
           kTokens * kColumns, bytes, PlainGather}};
}

}  // namespace qconform::bench
