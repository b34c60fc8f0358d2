// The golden catalogue's boundary-built DequantizeLinear cases, one case per cell (version,
// x type, output type, granularity) and boundary class:
//   specials  float8/float4 x: every NaN and infinity code, +-0, the smallest and largest
//             subnormals, the largest finite value (and e4m3fn's codes of exponent 1111);
//   extremes  integer x: the extreme codes and zero points, and differences x - x_zero_point
//             beyond float16's and bfloat16's significands (odd values past 2^11 and 2^8);
//   e8m0      24+: e8m0 scales 2^-127, 2^127, NaN and between, into float32 y.
// The parameters cycle through a non-power-of-two scale, one that overflows the output type at
// x's largest values and one that makes its small results subnormal, so every per-axis and
// blocked cell holds infinities, subnormals and rounded products at once.
#include <algorithm>

#include "generators/boundaries.h"
#include "generators/boundary_cells.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"

namespace qconform {
namespace {

using D = DataType;
constexpr int64_t kElements = 24;

Rational LargestMagnitude(const ElementType& t) {
  if (t.is_integer()) return Rational(std::max(-IntegerMin(t), IntegerMax(t)));
  return Decode(t, MaxFiniteCode(t)).value();
}

uint32_t ScaleCode(const ElementType& scale, const Rational& v) {
  return *Encode(scale, Exact::Finite(v), Saturation::kSaturate);
}

// The three scales a cell's parameters cycle through.
std::vector<uint32_t> CellScales(const ElementType& x, const ElementType& scale,
                                 const ElementType& y) {
  const Rational y_max = Decode(y, MaxFiniteCode(y)).value();
  const Rational y_normal = Exact::Dyadic(1, 1 - y.fp.bias).value();
  const uint32_t separating = SeparatingScaleCodes(scale).front();
  const uint32_t overflow = ScaleCode(scale, y_max / LargestMagnitude(x) * Rational(3, 2));
  const uint32_t subnormal = ScaleCode(scale, y_normal / 256 * Rational(3, 4));
  return {separating, overflow, subnormal};
}

// A float x type's boundary codes.
std::vector<uint32_t> SpecialCodes(const ElementType& x) {
  const uint32_t sign = x.sign_bit(), max = MaxFiniteCode(x);
  const uint32_t largest_subnormal = (1u << x.fp.mantissa_bits) - 1;
  std::vector<uint32_t> codes = {0,
                                 sign,
                                 1,
                                 sign | 1,
                                 largest_subnormal,
                                 sign | largest_subnormal,
                                 max,
                                 sign | max,
                                 1u << x.fp.mantissa_bits,
                                 (max >> 1) | 1};
  const uint32_t all_ones = (1u << x.fp.exponent_bits) - 1;
  for (uint32_t c = 0; c <= x.code_mask(); ++c) {
    const bool top_exponent = ((c >> x.fp.mantissa_bits) & all_ones) == all_ones;
    if (IsNanCode(x, c) || IsInfinityCode(x, c) || (x.bits == 8 && top_exponent))
      codes.push_back(c);
  }
  std::vector<uint32_t> distinct;
  for (uint32_t c : codes) {
    c &= x.code_mask();
    if (std::find(distinct.begin(), distinct.end(), c) == distinct.end()) distinct.push_back(c);
  }
  return distinct;
}

// An integer x type's extreme codes, and odd values past float16's and bfloat16's significands.
std::vector<int64_t> ExtremeValues(const ElementType& x) {
  const int64_t lo = IntegerMin(x), hi = IntegerMax(x);
  std::vector<int64_t> out;
  for (int64_t v : {lo, hi, lo + 1, hi - 1, int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{257},
                    int64_t{-259}, int64_t{2049}, int64_t{-2051}, int64_t{4097}, int64_t{16385},
                    int64_t{-32767}, int64_t{65521}, int64_t{16777217}, int64_t{-16777219}}) {
    if (v >= lo && v <= hi && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

class DequantizeBoundaries : public CatalogueBuilder {
 public:
  void Cells(const OpSchema& s) {
    for (D x : s.x_types) {
      for (D y : s.output_types) {
        if (!s.allows_scale(y)) continue;  // the output type is the scale's
        for (const CellLayout& layout : CellLayouts(s, kElements)) {
          Cell(s, x, y, y, layout, {});
          if (s.allows_scale(D::kFloat8E8M0) && y == D::kFloat &&
              (x == D::kInt8 || x == D::kFloat8E4M3FN)) {
            Cell(s, x, D::kFloat8E8M0, y, layout, {{"output_dtype", static_cast<int64_t>(y)}});
          }
          if (s.allows_scale(D::kFloat8E8M0) &&
              (x == D::kInt8 || x == D::kUint4 || x == D::kFloat8E4M3FN)) {
            E8m0Ends(s, x, y, layout);
          }
        }
      }
    }
  }

 private:
  void Cell(const OpSchema& s, D x, D scale, D y, const CellLayout& layout,
            std::map<std::string, int64_t> attributes) {
    const ElementType &xt = ElementTypeOf(x), &st = ElementTypeOf(scale), &yt = ElementTypeOf(y);
    const bool e8m0 = scale == D::kFloat8E8M0;
    const std::vector<uint32_t> cycle =
        e8m0 ? std::vector<uint32_t>{0, 0xFF, 1, 127, 254, 100, 160} : CellScales(xt, st, yt);
    std::vector<uint32_t> scales, zps;
    std::vector<uint32_t> x_codes;
    std::string what;
    what = xt.is_float() ? "specials" : "extremes";
    const std::vector<uint32_t> codes =
        xt.is_float() ? SpecialCodes(xt) : IntegerCodes(xt, ExtremeValues(xt));
    x_codes = FillByParameter(layout, [&](int64_t p) {
      // Each parameter starts elsewhere: a block of two elements would otherwise hold +-0 alone.
      std::vector<uint32_t> rotated = codes;
      std::rotate(rotated.begin(), rotated.begin() + p % static_cast<int64_t>(rotated.size()),
                  rotated.end());
      return rotated;
    });
    // Zero points: the extremes and an odd middle value (int32 and float x take 0: a non-zero
    // one is implementation-defined there, docs/semantics.md#d10, #d11).
    const bool zero_only = x == D::kInt32 || xt.is_float();
    const std::vector<int64_t> zp_cycle =
        zero_only
            ? std::vector<int64_t>{0}
            : std::vector<int64_t>{(IntegerMin(xt) + (IntegerMax(xt) - IntegerMin(xt)) / 2) | 1,
                                   IntegerMax(xt), IntegerMin(xt)};
    for (int64_t p = 0; p < layout.parameters(); ++p) {
      scales.push_back(cycle[static_cast<size_t>(p) % cycle.size()]);
      zps.push_back(IntegerCodesOrZero(xt, zp_cycle[static_cast<size_t>(p) % zp_cycle.size()]));
    }
    if (layout.granularity == Granularity::kPerTensor && e8m0) scales = {0};  // 2^-127
    for (const auto& [k, v] : layout.attributes) attributes[k] = v;
    const std::string id = std::string(s.op().id_prefix) + std::to_string(s.since_version) + "-" +
                           (e8m0 ? "e8m0" : what) + "-" + TypeName(x) + "-" + TypeName(y) + "-" +
                           layout.name;
    Add(MakeCase(std::string(s.op_type), s.since_version,
                 {MakeTensorFromCodes(x, layout.x_shape, x_codes),
                  MakeTensorFromCodes(scale, layout.scale_shape, scales),
                  MakeTensorFromCodes(x, layout.scale_shape, zps)},
                 attributes, std::string(s.domain), id),
        CellFeatures(x, scale, y, layout, what),
        e8m0 ? "docs/semantics.md#d19: e8m0 scales at both ends and NaN"
             : "docs/semantics.md#d1: overflow to infinity, subnormal results, one rounding");
  }

  // e8m0's two ends that decoders get wrong, code 0 (2^-127, not 0) and 0xFF (NaN, not an
  // infinity), times non-zero finite x in every parameter; per tensor one case for each.
  void E8m0Ends(const OpSchema& s, D x, D y, const CellLayout& layout) {
    const ElementType& xt = ElementTypeOf(x);
    const std::vector<uint32_t> codes = NonZeroCodes(xt);
    const std::vector<uint32_t> x_codes = FillByParameter(layout, [&](int64_t) { return codes; });
    const bool per_tensor = layout.granularity == Granularity::kPerTensor;
    for (const uint32_t first :
         per_tensor ? std::vector<uint32_t>{0, 0xFF} : std::vector<uint32_t>{0}) {
      std::vector<uint32_t> scales;
      for (int64_t p = 0; p < layout.parameters(); ++p)
        scales.push_back(p % 2 == 0 ? first : first ^ 0xFFu);
      std::map<std::string, int64_t> attributes = {{"output_dtype", static_cast<int64_t>(y)}};
      for (const auto& [k, v] : layout.attributes) attributes[k] = v;
      const std::string id = std::string(s.op().id_prefix) + std::to_string(s.since_version) +
                             "-e8m0-ends-" + TypeName(x) + "-" + TypeName(y) + "-" + layout.name +
                             (first == 0 ? "" : "-ff");
      Add(MakeCase(std::string(s.op_type), s.since_version,
                   {MakeTensorFromCodes(x, layout.x_shape, x_codes),
                    MakeTensorFromCodes(D::kFloat8E8M0, layout.scale_shape, scales)},
                   attributes, std::string(s.domain), id),
          CellFeatures(x, D::kFloat8E8M0, y, layout, "e8m0-ends"),
          "docs/semantics.md#d19: e8m0 code 0 is 2^-127 and 0xFF is NaN");
    }
  }

  // Non-zero finite codes of x: the extremes and +-1 (integers); the largest finite value, the
  // smallest normal and the smallest subnormal, both signs (floats). The largest come first: a
  // block's two elements then stay above bfloat16's subnormals when the scale is 2^-127.
  static std::vector<uint32_t> NonZeroCodes(const ElementType& x) {
    if (x.is_integer()) {
      std::vector<int64_t> values = {IntegerMax(x), 1, 3};
      if (IntegerMin(x) < 0) values.insert(values.end(), {IntegerMin(x), -1});
      return IntegerCodes(x, values);
    }
    const uint32_t sign = x.sign_bit(), max = MaxFiniteCode(x), normal = 1u << x.fp.mantissa_bits;
    return {max, sign | max, normal, sign | normal, 1, sign | 1};
  }

  static uint32_t IntegerCodesOrZero(const ElementType& t, int64_t v) {
    return t.is_integer() ? IntegerCodes(t, {v})[0] : 0;
  }
};

}  // namespace

std::vector<GoldenCase> DequantizeBoundaryCatalogue() {
  DequantizeBoundaries b;
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() == OperatorKind::kDequantizeLinear) b.Cells(s);
  }
  return b.cases;
}

}  // namespace qconform
