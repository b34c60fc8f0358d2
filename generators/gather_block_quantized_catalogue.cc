// com.microsoft GatherBlockQuantized's golden cases (docs/semantics.md#d36), built from the
// boundaries. The operator is exact: each element is (code - zero_point) * scale rounded once.
//   cells     data's type (int4, uint4, uint8 of bits 2, 4 and 8) x the output's (float, float16,
//             bfloat16) x zero points (given, default): data [3, 40] holding every code in a
//             sweep (neighbours differ, so a field read from the wrong end of its byte is a wrong
//             value), blocks of 16 along the last axis (the third block partial), zero points
//             from the type's ends and middle (each block its own, so nibbles swapped between
//             blocks move), scales (1 + (2s + 1) u) 2^-(s mod 3) with u the unit of the output's
//             type (each block its own, an odd significand: differences of 3 land on exact ties),
//             indices negative and repeated;
//   ties      differences of +-1, +-3, +-6 at scales 1 + u and 1 + 3u: ties below and above;
//   overflow  products on the midpoint between the type's largest value and the next power of two
//             (float 1082401 * 2^103 * 31, float16 21840 * 3, bfloat16 73 * 2^119 * 7): infinity;
//   axes      quantize_axis not the last (rank 3), gather_axis on the quantize axis, negative
//             axes, a scalar index, int32 indices, rank-1 data;
//   plus one implementation-defined case per such rule (unusual scales, uint8 quantized along
//   another axis) and the must-reject cases (gather_block_quantized_rejects.cc).
#include <cmath>

#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"

namespace qconform {
namespace {

using D = DataType;

struct Spec {
  std::string id;
  D data = D::kInt4;
  int64_t bits = 4;
  D t = D::kFloat;
  bool zero_points = true;
  std::vector<int64_t> logical = {3, 40};
  int64_t gather_axis = 0, quantize_axis = 1, block = 16;
  bool spell_negative = false;
  std::vector<int64_t> index_shape = {2, 2}, indices = {-1, 0, 2, -3};
  D index_type = D::kInt64;
  enum class Values { kSweep, kTies, kOverflow, kUnusual } values = Values::kSweep;
};

int Precision(D t) {
  return t == D::kFloat ? 24 : t == D::kFloat16 ? 11 : 8;
}
// A code of data's type for the integer v (int4's two's complement nibble).
uint32_t CodeOf(int64_t v, int64_t bits) {
  return static_cast<uint32_t>(v) & ((1u << bits) - 1);
}

class GatherCatalogue : public CatalogueBuilder {
 public:
  // A computed case, or (`rule` given) an implementation-defined one of that rule.
  void Put(const Spec& s, const std::string& boundary, const std::string& rule = "") {
    Add(Build(s),
        rule.empty() ? "op:GatherBlockQuantized,type:" + TypeName(s.data) + ",y:" + TypeName(s.t) +
                           ",boundary:" + boundary
                     : "implementation-defined:" + rule,
        rule.empty() ? "d36" : "d36: " + boundary);
  }

  Case Build(const Spec& s) const {
    const bool uint8 = s.data == D::kUint8;
    const int64_t per_byte = uint8 ? 8 / s.bits : 1;
    const int64_t top = (int64_t{1} << s.bits) - 1;
    const int64_t q = s.quantize_axis;
    std::vector<int64_t> scale_shape = s.logical;
    scale_shape[static_cast<size_t>(q)] =
        (scale_shape[static_cast<size_t>(q)] + s.block - 1) / s.block;
    const int64_t blocks = ShapeElements(scale_shape);
    // Zero points: the type's ends and middle, block by block (int4's as signed values).
    const int64_t lo = s.data == D::kInt4 ? -8 : 0, hi = lo + top;
    const std::vector<int64_t> zp_cycle = {lo, hi, lo + (top + 1) / 2, lo + 1, hi - 1, lo + 3};
    std::vector<int64_t> zps(static_cast<size_t>(blocks));
    for (int64_t b = 0; b < blocks; ++b)
      zps[static_cast<size_t>(b)] = zp_cycle[static_cast<size_t>(b % 6)];
    if (!s.zero_points) std::fill(zps.begin(), zps.end(), uint8 ? int64_t{1} << (s.bits - 1) : 0);
    // The codes: a sweep, or differences from the block's zero point.
    const std::vector<int64_t> strides = Strides(s.logical);
    std::vector<uint32_t> codes(static_cast<size_t>(ShapeElements(s.logical)));
    for (size_t j = 0; j < codes.size(); ++j) {
      int64_t v = lo + (static_cast<int64_t>(j) * 5 + 1) % (top + 1);
      if (s.values != Spec::Values::kSweep && s.values != Spec::Values::kUnusual) {
        const std::vector<int64_t> diffs =
            s.values == Spec::Values::kTies ? std::vector<int64_t>{3, -3, 1, -1, 6, -6}
                                            : std::vector<int64_t>{31, -31, 30, 7, -7, 3, 2, -3, 1};
        const int64_t zp =
            zps[static_cast<size_t>(BlockOf(s, strides, scale_shape, static_cast<int64_t>(j)))];
        v = std::clamp(zp + diffs[j % diffs.size()], lo, hi);
      }
      codes[j] = CodeOf(v, s.bits);
    }
    Case c;
    c.op_type = "GatherBlockQuantized", c.domain = "com.microsoft", c.opset = 1, c.id = s.id;
    c.inputs.push_back(Pack(s.data, s.logical, codes, per_byte, s.bits, true));
    c.inputs.push_back(s.index_type == D::kInt64
                           ? MakeIndexTensor(D::kInt64, s.index_shape, s.indices)
                           : MakeTensor(D::kInt32, s.index_shape,
                                        std::vector<double>(s.indices.begin(), s.indices.end())));
    c.inputs.push_back(MakeRoundedTensor(s.t, scale_shape, Scales(s, blocks)));
    if (s.zero_points) {
      std::vector<uint32_t> zp_codes(zps.size());
      for (size_t b = 0; b < zps.size(); ++b) zp_codes[b] = CodeOf(zps[b], s.bits);
      c.inputs.push_back(Pack(s.data, scale_shape, zp_codes, per_byte, s.bits, false, q));
    }
    for (auto& in : c.inputs) {
      if (in && &in != &c.inputs[1]) in->is_initializer = true;
    }
    const auto rank = static_cast<int64_t>(s.logical.size());
    if (s.bits != 4) c.attributes["bits"] = Attribute::Int(s.bits);
    c.attributes["block_size"] = Attribute::Int(s.block);
    c.attributes["gather_axis"] =
        Attribute::Int(s.spell_negative ? s.gather_axis - rank : s.gather_axis);
    c.attributes["quantize_axis"] = Attribute::Int(s.spell_negative ? q - rank : q);
    return c;
  }

 private:
  static std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
    std::vector<int64_t> st(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) st[d - 1] = st[d] * shape[d];
    return st;
  }
  static int64_t BlockOf(const Spec& s, const std::vector<int64_t>& strides,
                         const std::vector<int64_t>& scale_shape, int64_t j) {
    const std::vector<int64_t> sst = Strides(scale_shape);
    int64_t b = 0;
    for (size_t d = 0; d < strides.size(); ++d) {
      int64_t at = (j / strides[d]) % s.logical[d];
      if (static_cast<int64_t>(d) == s.quantize_axis) at /= s.block;
      b += at * sst[d];
    }
    return b;
  }

  std::vector<double> Scales(const Spec& s, int64_t blocks) const {
    const double u = std::ldexp(1.0, 1 - Precision(s.t));
    std::vector<double> v(static_cast<size_t>(blocks));
    for (int64_t b = 0; b < blocks; ++b) {
      double& x = v[static_cast<size_t>(b)];
      switch (s.values) {
        case Spec::Values::kSweep:
          x = (1 + static_cast<double>(2 * b + 1) * u) * std::ldexp(1.0, -static_cast<int>(b % 3));
          break;
        case Spec::Values::kTies:
          x = 1 + (b % 2 == 0 ? 1 : 3) * u;
          break;
        case Spec::Values::kOverflow:
          x = s.t == D::kFloat     ? std::ldexp(1082401.0, 103)
              : s.t == D::kFloat16 ? 21840.0
                                   : std::ldexp(73.0, 119);
          break;
        case Spec::Values::kUnusual: {
          const double unusual[] = {0.0, INFINITY, NAN, std::ldexp(1.0, -140), -0.5, 0.25};
          x = unusual[b % 6];
          break;
        }
      }
    }
    return v;
  }

  // codes of a tensor of `shape` (logical), as data's type holds them: int4 and uint4 one code
  // an element; uint8 of bits < 8 per_byte codes a byte along `axis` (the last for data; the
  // quantize axis for zero points), low bits first, the last byte padded.
  static Tensor Pack(D type, std::vector<int64_t> shape, const std::vector<uint32_t>& codes,
                     int64_t per_byte, int64_t bits, bool is_data, int64_t axis = -1) {
    if (per_byte == 1) return MakeTensorFromCodes(type, shape, codes);
    const size_t along = is_data ? shape.size() - 1 : static_cast<size_t>(axis);
    std::vector<int64_t> packed = shape;
    packed[along] = (shape[along] + per_byte - 1) / per_byte;
    const std::vector<int64_t> st = Strides(shape), pst = Strides(packed);
    std::vector<uint32_t> bytes(static_cast<size_t>(ShapeElements(packed)), 0);
    for (size_t j = 0; j < codes.size(); ++j) {
      int64_t at = 0, slot = 0;
      for (size_t d = 0; d < shape.size(); ++d) {
        int64_t x = (static_cast<int64_t>(j) / st[d]) % shape[d];
        if (d == along) slot = x % per_byte, x /= per_byte;
        at += x * pst[d];
      }
      bytes[static_cast<size_t>(at)] |= codes[j] << (slot * bits);
    }
    return MakeTensorFromCodes(D::kUint8, packed, bytes);
  }
};

struct DataCell {
  const char* name;
  D data;
  int64_t bits;
};
constexpr DataCell kDataCells[] = {{"int4", D::kInt4, 4},
                                   {"uint4", D::kUint4, 4},
                                   {"uint8-bits2", D::kUint8, 2},
                                   {"uint8-bits4", D::kUint8, 4},
                                   {"uint8", D::kUint8, 8}};
constexpr D kOutputs[] = {D::kFloat, D::kFloat16, D::kBfloat16};

}  // namespace

std::vector<GoldenCase> GatherBlockQuantizedCatalogue(CatalogueParts parts) {
  GatherCatalogue b;
  for (GoldenCase& g : GatherBlockQuantizedRejectCases()) b.cases.push_back(std::move(g));
  b.Put({.id = "gbq1-int4-unusual-scales", .logical = {3, 40}, .values = Spec::Values::kUnusual},
        "unusual scales (d26)", "gbq.scale.unusual");
  b.Put({.id = "gbq1-uint8-quantize-axis-first",
         .data = D::kUint8,
         .bits = 8,
         .logical = {3, 40, 2},
         .quantize_axis = 1},
        "uint8 quantized along a middle axis", "gbq.uint8.quantize_axis");
  if (parts == CatalogueParts::kRules) return std::move(b.cases);
  for (const DataCell& cell : kDataCells) {
    for (D t : kOutputs) {
      for (bool zp : {true, false}) {
        Spec s{.id = "gbq1-" + std::string(cell.name) + "-" + TypeName(t) +
                     (zp ? "-zero-points" : "-default-zero-points"),
               .data = cell.data,
               .bits = cell.bits,
               .t = t,
               .zero_points = zp};
        b.Put(s, "cell");
      }
    }
  }
  for (D t : kOutputs) {
    b.Put({.id = "gbq1-int4-ties-" + TypeName(t), .t = t, .values = Spec::Values::kTies}, "ties");
    b.Put({.id = "gbq1-uint8-ties-" + TypeName(t),
           .data = D::kUint8,
           .bits = 8,
           .t = t,
           .values = Spec::Values::kTies},
          "ties");
    b.Put({.id = "gbq1-uint8-overflow-" + TypeName(t),
           .data = D::kUint8,
           .bits = 8,
           .t = t,
           .values = Spec::Values::kOverflow},
          "overflow");
  }
  b.Put({.id = "gbq1-int4-quantize-axis-middle",
         .logical = {2, 40, 3},
         .gather_axis = 2,
         .quantize_axis = 1,
         .index_shape = {3},
         .indices = {-1, 0, 1}},
        "axes");
  b.Put({.id = "gbq1-uint4-gather-on-quantize-axis",
         .data = D::kUint4,
         .gather_axis = 1,
         .quantize_axis = 1,
         .index_shape = {5},
         .indices = {-1, 17, 16, 0, -25}},
        "axes");
  b.Put({.id = "gbq1-uint8-bits4-rank3-negative-axes",
         .data = D::kUint8,
         .logical = {3, 2, 40},
         .quantize_axis = 2,
         .spell_negative = true,
         .index_shape = {},
         .indices = {-2}},
        "axes");
  b.Put({.id = "gbq1-int4-negative-axes-int32-indices",
         .logical = {4, 40},
         .spell_negative = true,
         .index_type = D::kInt32},
        "axes");
  b.Put({.id = "gbq1-uint4-rank1",
         .data = D::kUint4,
         .logical = {40},
         .quantize_axis = 0,
         .index_shape = {4},
         .indices = {39, -40, 16, 15}},
        "axes");
  b.Put({.id = "gbq1-int4-block-32", .logical = {3, 40}, .block = 32}, "axes");
  return std::move(b.cases);
}

}  // namespace qconform
