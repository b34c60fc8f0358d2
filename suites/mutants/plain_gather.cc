// com.microsoft GatherBlockQuantized, plainly: its own reading of the page (shares no code with
// the oracle), as ONNX Runtime's kernel computes it: each gathered code's block found from its
// coordinate along quantize_axis, float32(code - zero_point) * float32(scale) (exact for these
// widths), rounded to the scales' type. uint8 data of bits < 8 unpacked along its last axis, its
// zero points along quantize_axis, low bits first. Refuses what ONNX Runtime refuses beyond the
// page (uint8 quantized along another axis than the last). With its defects (defects.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_format.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}
int64_t Product(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Index tensors are int32 or int64, little-endian.
bool ReadIndices(const qconform_tensor& t, std::vector<int64_t>& v) {
  const size_t width = t.data_type == QCONFORM_INT32 ? 4 : t.data_type == QCONFORM_INT64 ? 8 : 0;
  if (width == 0) return false;
  int64_t n = 1;
  for (int32_t d = 0; d < t.rank; ++d) n *= t.dims[d];
  if (static_cast<size_t>(n) * width > t.byte_size) return false;
  const auto* bytes = static_cast<const uint8_t*>(t.data);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t u = 0;
    for (size_t b = 0; b < width; ++b) u |= uint64_t{bytes[i * width + b]} << (8 * b);
    v.push_back(width == 4 ? static_cast<int32_t>(u) : static_cast<int64_t>(u));
  }
  return true;
}

// The integer a code of data's type stands for (int4 two's complement, unless read unsigned).
int64_t Integer(int32_t type, uint32_t code) {
  if (type == QCONFORM_INT4 && !On(Defect::kGbqInt4ReadUnsigned)) {
    return static_cast<int64_t>(code & 7) - static_cast<int64_t>(code & 8);
  }
  return code;
}

// Field `slot` of a byte holding 8 / bits fields, low bits first (or high first, a defect).
uint32_t FieldOf(uint32_t byte, int64_t slot, int64_t bits, bool high_first) {
  const int64_t per = 8 / bits;
  return (byte >> ((high_first ? per - 1 - slot : slot) * bits)) & ((1u << bits) - 1);
}

}  // namespace

int32_t RunGatherBlockQuantized(const PlainNode& n, const Output& out) {
  const int count = n.node->input_count;
  if (count < 3 || count > 4) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "inputs");
  for (int32_t a = 0; a < n.node->attribute_count; ++a) {
    const std::string name = n.node->attributes[a].name;
    if (name != "bits" && name != "block_size" && name != "gather_axis" && name != "quantize_axis")
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "attribute " + name);
  }
  const bool codes_high = On(Defect::kGbqCodesHighFirst);
  const bool zp_high = On(Defect::kGbqZeroPointNibblesSwapped);
  const PlainTensor data =
      Unpack(n.node->inputs[0], codes_high ? BitOrder::kHighFirst : BitOrder::kLowFirst);
  const PlainTensor scales = Unpack(n.node->inputs[2]);
  const PlainTensor zp =
      count > 3 ? Unpack(n.node->inputs[3], zp_high ? BitOrder::kHighFirst : BitOrder::kLowFirst)
                : PlainTensor{};
  std::vector<int64_t> indices;
  if (!ReadIndices(n.node->inputs[1], indices))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "indices");
  const int32_t type = data.data_type;
  if (type != QCONFORM_INT4 && type != QCONFORM_UINT4 && type != QCONFORM_UINT8)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "data type");
  if (scales.format == nullptr || scales.format->is_integer() ||
      (scales.data_type != QCONFORM_FLOAT && scales.data_type != QCONFORM_FLOAT16 &&
       scales.data_type != QCONFORM_BFLOAT16))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scales type");
  if (zp.present() && zp.data_type != type)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point type");
  const bool uint8 = type == QCONFORM_UINT8;
  const int64_t bits = n.Int("bits", 4), block = n.Int("block_size", 128);
  if (uint8 ? bits != 2 && bits != 4 && bits != 8 : bits != 4)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "bits");
  if (block < 16 || (block & (block - 1)) != 0)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "block_size");
  const auto rank = static_cast<int64_t>(data.dims.size());
  if (rank < 1) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "rank");
  int64_t g = n.Int("gather_axis", 0), q = n.Int("quantize_axis", 1);
  if (g < -rank || g >= rank || q < -rank || q >= rank)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "axes");
  g = g < 0 ? g + rank : g, q = q < 0 ? q + rank : q;
  if (uint8 && (g != 0 || q != rank - 1 || g == q))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "uint8 axes");
  const int64_t per_byte = uint8 ? 8 / bits : 1;
  std::vector<int64_t> logical = data.dims;
  logical.back() *= per_byte;
  std::vector<int64_t> scale_shape = logical;
  scale_shape[static_cast<size_t>(q)] = (logical[static_cast<size_t>(q)] + block - 1) / block;
  if (scales.dims != scale_shape) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scales shape");
  std::vector<int64_t> zp_shape = scale_shape;
  zp_shape[static_cast<size_t>(q)] = (zp_shape[static_cast<size_t>(q)] + per_byte - 1) / per_byte;
  if (zp.present() && zp.dims != zp_shape)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero points shape");
  const int64_t size = logical[static_cast<size_t>(g)];
  for (int64_t v : indices) {
    if (v < -size || v >= size) return Fail(out, QCONFORM_REJECTED, "index out of range");
  }
  // Output: logical[:g] + indices' shape + logical[g+1:].
  const qconform_tensor& it = n.node->inputs[1];
  std::vector<int64_t> dims(logical.begin(), logical.begin() + g);
  dims.insert(dims.end(), it.dims, it.dims + it.rank);
  dims.insert(dims.end(), logical.begin() + g + 1, logical.end());
  const std::vector<int64_t> ys = Strides(dims), ds = Strides(logical), ss = Strides(scale_shape),
                             zs = Strides(zp_shape);
  const Format& y = *scales.format;
  std::vector<uint32_t> codes;
  const auto index_rank = static_cast<int64_t>(it.rank);
  for (int64_t i = 0; i < Product(dims); ++i) {
    std::vector<int64_t> at(static_cast<size_t>(rank));
    int64_t flat_index = 0;
    for (int64_t d = 0; d < index_rank; ++d) {
      flat_index = flat_index * dims[static_cast<size_t>(g + d)] +
                   (i / ys[static_cast<size_t>(g + d)]) % dims[static_cast<size_t>(g + d)];
    }
    int64_t index = indices[static_cast<size_t>(flat_index)];
    if (index < 0 && On(Defect::kGbqNegativeIndexZeros)) {
      codes.push_back(EncodeFloat(y, 0, Rounding{}));
      continue;
    }
    if (index < 0) index += size;
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t yd = d < g ? d : d + index_rank - 1;
      at[static_cast<size_t>(d)] =
          d == g ? index : (i / ys[static_cast<size_t>(yd)]) % dims[static_cast<size_t>(yd)];
    }
    int64_t flat = 0, s = 0, z = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += at[static_cast<size_t>(d)] * ds[static_cast<size_t>(d)];
    uint32_t code;
    if (per_byte == 1) {
      code = data.codes[static_cast<size_t>(flat)];
    } else {
      const int64_t last = at.back();
      code = FieldOf(data.codes[static_cast<size_t>(flat / logical.back() * data.dims.back() +
                                                    last / per_byte)],
                     last % per_byte, bits, codes_high);
    }
    std::vector<int64_t> b = at;
    b[static_cast<size_t>(q)] /= block;
    for (int64_t d = 0; d < rank; ++d) s += b[static_cast<size_t>(d)] * ss[static_cast<size_t>(d)];
    if (On(Defect::kGbqBlockFromFlatIndex)) s = std::min(flat / block, Product(scale_shape) - 1);
    int64_t zero_point;
    if (!zp.present()) {
      zero_point = uint8 && !On(Defect::kGbqDefaultZeroPointZero) ? int64_t{1} << (bits - 1) : 0;
    } else if (per_byte == 1) {
      zero_point = Integer(type, zp.codes[static_cast<size_t>(s)]);
    } else {
      const int64_t along = b[static_cast<size_t>(q)];
      b[static_cast<size_t>(q)] = along / per_byte;
      for (int64_t d = 0; d < rank; ++d)
        z += b[static_cast<size_t>(d)] * zs[static_cast<size_t>(d)];
      zero_point = FieldOf(zp.codes[static_cast<size_t>(z)], along % per_byte, bits, zp_high);
    }
    const auto scale = static_cast<float>(Decode(y, scales.codes[static_cast<size_t>(s)]));
    const int64_t value = Integer(type, code);
    float result = static_cast<float>(value - zero_point) * scale;
    if (On(Defect::kGbqZeroPointAfterScaling)) {
      result = static_cast<float>(value) * scale - static_cast<float>(zero_point) * scale;
    }
    codes.push_back(EncodeFloat(y, result, Rounding{}));
  }
  return WriteOutput(out.alloc, out.context, 0, y, dims, codes, BitOrder::kLowFirst, true,
                     out.message, out.message_size);
}

}  // namespace qconform::mutants
