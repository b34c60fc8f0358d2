// com.microsoft MatMulNBits, plainly: its own reading of the page (shares no code with the
// oracle): each weight dequantized to float32, (q - zero_point) * scale, then one float32 dot
// product per element in order, bias added, the result rounded to A's type; at accuracy_level 4
// the same (the float result is admitted there). With MatMulNBits' defects (defects.h).
#include <algorithm>
#include <cmath>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_format.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

// Element `index` of `bits`-bit fields packed in `bytes` from byte `base`: low bits first, or
// high bits first (a defect).
int64_t Field(const std::vector<uint32_t>& bytes, int64_t base, int64_t index, int64_t bits,
              bool high_first) {
  const int64_t bit = index * bits;
  const int64_t shift = high_first ? 8 - bits - bit % 8 : bit % 8;
  return (bytes[static_cast<size_t>(base + bit / 8)] >> shift) & ((1 << bits) - 1);
}

// A per block quantized to int8 (scale maxabs / 127, half to even, or half away from zero), back
// to float: the block-int8 function's view of A.
void Int8Blocks(std::vector<float>& a, int64_t k, int64_t block, bool away = false) {
  for (int64_t begin = 0; begin < k; begin += block) {
    const int64_t end = std::min(k, begin + block);
    float amax = 0;
    for (int64_t i = begin; i < end; ++i)
      amax = std::max(amax, std::fabs(a[static_cast<size_t>(i)]));
    const float scale = amax / 127.0f;
    for (int64_t i = begin; i < end; ++i) {
      float& x = a[static_cast<size_t>(i)];
      x = scale == 0 ? 0 : (away ? std::round(x / scale) : std::nearbyint(x / scale)) * scale;
    }
  }
}

}  // namespace

int32_t RunMatMulNBits(const PlainNode& n, const Output& out) {
  const int count = n.node->input_count;
  if (count < 3 || count > 6) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "input count");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  in.resize(6);
  const PlainTensor &a = in[0], &b = in[1], &scales = in[2], &zp = in[3], &g_idx = in[4];
  for (int i = 0; i < n.node->attribute_count; ++i) {
    const qconform_attribute& attribute = n.node->attributes[i];
    const std::string name = attribute.name;
    const bool known = name == "K" || name == "N" || name == "bits" || name == "block_size" ||
                       name == "accuracy_level" || name == "weight_prepacked";
    if (!known || attribute.kind != QCONFORM_ATTR_INT)
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "attribute " + name);
  }
  if (n.attribute("K") == nullptr || n.attribute("N") == nullptr ||
      n.attribute("block_size") == nullptr)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "K, N and block_size are required");
  const int64_t k = n.Int("K", -1), cols = n.Int("N", -1), bits = n.Int("bits", 4);
  const int64_t block = n.Int("block_size", -1), level = n.Int("accuracy_level", 0);
  if (bits != 2 && bits != 4 && bits != 8) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "bits");
  if (block < 16 || (block & (block - 1)) != 0)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "block_size");
  if (k < 1 || cols < 1 || level < 0 || level > 4 || n.Int("weight_prepacked", 0) != 0)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "attributes");
  if (!a.present() || !a.format || a.format->is_integer() || a.dims.empty() || a.dims.back() != k)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "A");
  const int64_t kb = (k + block - 1) / block, blob = block * bits / 8;
  if (b.data_type != QCONFORM_UINT8 || b.dims != std::vector<int64_t>{cols, kb, blob})
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "B");
  const auto matrix = [](const PlainTensor& t, int64_t r, int64_t c) {
    return t.dims == std::vector<int64_t>{r, c} || t.dims == std::vector<int64_t>{r * c};
  };
  if (scales.data_type != a.data_type || !matrix(scales, cols, kb))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scales");
  const bool packed = zp.present() && zp.data_type == QCONFORM_UINT8;
  const int64_t zp_row = (kb * bits + 7) / 8;
  if (zp.present() &&
      (packed ? !matrix(zp, cols, zp_row) : zp.data_type != a.data_type || !matrix(zp, cols, kb)))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero_points");
  if (g_idx.present() &&
      (g_idx.data_type != QCONFORM_INT32 || g_idx.dims != std::vector<int64_t>{k}))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "g_idx");
  for (uint32_t g : g_idx.codes) {
    if (static_cast<int32_t>(g) < 0 || static_cast<int32_t>(g) >= kb)
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "g_idx value");
  }
  if (in[5].present() &&
      (in[5].data_type != a.data_type || in[5].dims != std::vector<int64_t>{cols}))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "bias");
  for (uint32_t code : scales.codes) {
    const long double s = Decode(*scales.format, code);
    if (!(std::isnormal(static_cast<double>(s)) && s > 0))
      return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
  }
  // The weights, [N][K] in float32.
  std::vector<float> w(static_cast<size_t>(cols * k));
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t x = 0; x < k; ++x) {
      const int64_t blk =
          g_idx.present() ? static_cast<int32_t>(g_idx.codes[static_cast<size_t>(x)]) : x / block;
      const int64_t scale_block = On(Defect::kMnbScalePerColumn) ? 0 : blk;
      const int64_t q = Field(b.codes, (j * kb + x / block) * blob, x % block, bits,
                              On(Defect::kMnbCodesHighFirst));
      double z = On(Defect::kMnbDefaultZeroPointZero) ? 0 : static_cast<double>(1 << (bits - 1));
      if (packed) {
        z = static_cast<double>(
            Field(zp.codes, j * zp_row, blk, bits, On(Defect::kMnbZeroPointNibblesSwapped)));
      } else if (zp.present()) {
        z = static_cast<double>(Decode(*zp.format, zp.codes[static_cast<size_t>(j * kb + blk)]));
      }
      const auto s = static_cast<float>(
          Decode(*scales.format, scales.codes[static_cast<size_t>(j * kb + scale_block)]));
      w[static_cast<size_t>(j * k + x)] = static_cast<float>(static_cast<double>(q) - z) * s;
    }
  }
  const int64_t rows = a.count() / k;
  Rounding trunc;
  trunc.truncate = true;
  std::vector<uint32_t> codes;
  std::vector<int64_t> dims = a.dims;
  dims.back() = cols;
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<float> row(static_cast<size_t>(k));
    for (int64_t x = 0; x < k; ++x) {
      row[static_cast<size_t>(x)] =
          static_cast<float>(Decode(*a.format, a.codes[static_cast<size_t>(i * k + x)]));
    }
    if (On(Defect::kMnbInt8Activations)) Int8Blocks(row, k, block);
    if (level == 4 && On(Defect::kMnbLevel4HalfAway)) Int8Blocks(row, k, block, true);
    // The accumulators the tensor-level test (d41) is for: every partial sum rounded to
    // bfloat16 (a float16 A), or truncated towards zero into A's type.
    const bool bf16 = On(Defect::kMnbBfloat16Accumulation) && a.data_type == QCONFORM_FLOAT16;
    const bool truncated = On(Defect::kMnbTruncatedAccumulation);
    const Format& bfloat16 = *FindFormat(QCONFORM_BFLOAT16);
    const auto step = [&](float s) -> float {
      if (bf16) return static_cast<float>(RoundTrip(bfloat16, s));
      if (truncated) return static_cast<float>(Decode(*a.format, EncodeFloat(*a.format, s, trunc)));
      return s;
    };
    for (int64_t j = 0; j < cols; ++j) {
      float sum = 0;
      for (int64_t x = 0; x < k; ++x)
        sum = step(sum + row[static_cast<size_t>(x)] * w[static_cast<size_t>(j * k + x)]);
      if (in[5].present()) {
        const auto bias =
            static_cast<float>(Decode(*in[5].format, in[5].codes[static_cast<size_t>(j)]));
        sum += bias;
        if (On(Defect::kMnbBiasTwice)) sum += bias;
      }
      codes.push_back(EncodeFloat(*a.format, sum, Rounding{}));
    }
  }
  return WriteOutput(out.alloc, out.context, 0, *a.format, dims, codes, BitOrder::kLowFirst, true,
                     out.message, out.message_size);
}

}  // namespace qconform::mutants
