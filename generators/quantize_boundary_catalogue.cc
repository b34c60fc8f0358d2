// The golden catalogue's boundary-built QuantizeLinear cases, one case per cell (version, x type,
// y type, granularity) and boundary class:
//   ties      quotients on and one ulp of x beside ties (k + 1/2 for integer y, midpoints of the
//             float grid for float8/float4 y), with non-power-of-two scales whose reciprocals are
//             inexact, the elements that separate the float strategies first; odd zero points;
//   specials  +-inf, +-0, the smallest subnormal and the largest finite x (NaN too for float y);
//   extremes  per version, x type and y type: the last finite value, the tie above it, the region
//             that rounds to the first missing code and the first value past it, the subnormal
//             boundaries, both signs, under saturate 0 and 1 for float8.
// Per-axis and blocked cells use a negative axis along the first, not the last, dimension, and
// the blocked ones end in a partial block (boundary_cells.h).
#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

#include "generators/boundaries.h"
#include "generators/boundary_cells.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"

namespace qconform {
namespace {

using D = DataType;
using Attrs = std::map<std::string, int64_t>;
constexpr int64_t kElements = 24;

// The scale type of a cell: x's own in 19 and 21 ("y_scale: T1"), else float.
D ScaleType(const OpSchema& s, D x) {
  return s.scale_type_is_x_type ? x : D::kFloat;
}

int64_t RoundToInt(double v) {
  return static_cast<int64_t>(std::nearbyint(std::clamp(v, -1e15, 1e15)));
}

// How strongly an x code separates the strategies a runtime might use for x / s (integer y):
// 0 the reciprocal multiplier gives neither the exact nor float32's result; 1 the quotient in
// x's own half type does that (19, 21 admit neither); 2 an exact tie; 3 any other near tie.
int SeparationRank(const ElementType& x, uint32_t x_code, const ElementType& s, uint32_t s_code) {
  const Rational xv = Decode(x, x_code).value(), sv = Decode(s, s_code).value();
  const auto xf = static_cast<float>(static_cast<double>(xv));
  const auto sf = static_cast<float>(static_cast<double>(sv));
  const auto exact = static_cast<int64_t>(RoundHalfEven(Rational(xv / sv)));
  const int64_t f32 = RoundToInt(xf / sf);
  const int64_t reciprocal = RoundToInt(xf * (1.0f / sf));
  if (reciprocal != exact && reciprocal != f32) return 0;
  if (x.id == D::kFloat16 || x.id == D::kBfloat16) {
    const std::optional<uint32_t> h = Encode(x, Exact::Finite(xv / sv), Saturation::kSaturate);
    const int64_t half = RoundToInt(static_cast<double>(Decode(x, *h).value()));
    if (half != exact && half != f32) return 1;
  }
  const Rational q = xv / sv;
  return denominator(q) == 2 ? 2 : 3;
}

// Odd zero points around the middle of y's range, one per parameter.
std::vector<int64_t> OddZeroPoints(const ElementType& y, int64_t count) {
  const int64_t lo = IntegerMin(y), hi = IntegerMax(y);
  int64_t centre = lo + (hi - lo) / 2;
  if (centre % 2 == 0) centre += 1;
  const int64_t spread = hi - lo >= 15 ? 2 : 0;
  std::vector<int64_t> out;
  for (int64_t p = 0; p < count; ++p) {
    const int64_t offset = (p % 3 == 1 ? 1 : p % 3 == 2 ? -1 : 0) * spread;
    out.push_back(std::clamp(centre + offset, lo, hi));
  }
  return out;
}

// Midpoints between neighbouring codes of a float y, across its binades, both signs.
std::vector<Rational> FloatGridTies(const ElementType& y) {
  std::vector<uint32_t> positives;
  for (uint32_t c = 1; c <= (y.code_mask() >> 1); ++c) {
    if (Decode(y, c).is_finite() && NextCodeUp(y, c)) positives.push_back(c);
  }
  std::vector<Rational> out;
  const size_t step = std::max<size_t>(1, positives.size() / 8);
  for (size_t i = 0; i < positives.size(); i += step) {
    const Rational a = Decode(y, positives[i]).value();
    const Rational b = Decode(y, *NextCodeUp(y, positives[i])).value();
    out.push_back((a + b) / 2), out.push_back(-(a + b) / 2);
  }
  return out;
}

// For a 16-bit x and a quotient range wider than 8 bits (int16, uint16 y): the x codes (every
// positive finite one swept) whose reciprocal-multiplier code differs from both the exact and
// float32's, with the quotient in [q_lo, q_hi]; at most `limit`. A 16-bit x has too few
// significant bits to come near a tie of a quotient below 2^8 (defect_cells.cc), so the
// separating inputs are far up the range, where near-tie search around a few ties misses them.
std::vector<uint32_t> SweptSeparating(const ElementType& x, const ElementType& s, uint32_t scale,
                                      int64_t q_lo, int64_t q_hi, size_t limit) {
  std::vector<uint32_t> out;
  if (x.bits != 16 || !x.is_float() || q_hi - q_lo < 512) return out;
  const double sv = static_cast<double>(Decode(s, scale).value());
  const float reciprocal = 1.0f / static_cast<float>(sv);
  for (uint32_t code = 1; code < (x.sign_bit()) && out.size() < limit; ++code) {
    const Exact xv = Decode(x, code);
    if (!xv.is_finite()) continue;
    const double xd = static_cast<double>(xv.value()), q = xd / sv;
    if (q < static_cast<double>(q_lo) || q > static_cast<double>(q_hi)) continue;
    const double by_reciprocal =
        std::nearbyint(static_cast<float>(static_cast<float>(xd) * reciprocal));
    if (by_reciprocal == std::nearbyint(q)) continue;  // a quick filter; the rank decides
    if (SeparationRank(x, code, s, scale) == 0) out.push_back(code);
  }
  return out;
}

// The candidate scales of a cell (integer y), those whose float32 reciprocal separates the most
// of their near-tie inputs (the reciprocal multiplier giving neither the exact nor float32's
// code) first: a cell with one parameter, per tensor, gets the strongest (d39: a reciprocal
// multiplier must fail in every cell, the per-tensor int8 and uint8 ones above all).
std::vector<uint32_t> ReciprocalSeparatingFirst(const ElementType& x, const ElementType& s,
                                                const std::vector<Rational>& ties, int64_t q_lo,
                                                int64_t q_hi) {
  std::vector<std::pair<int, uint32_t>> scored;
  const auto score = [&](uint32_t scale) {
    auto separating = static_cast<int>(SweptSeparating(x, s, scale, q_lo, q_hi, 8).size());
    for (uint32_t code : NearTieCodes(x, 1 / Decode(s, scale).value(), ties)) {
      separating += SeparationRank(x, code, s, scale) == 0 ? 1 : 0;
    }
    scored.push_back({separating, scale});
  };
  for (uint32_t scale : SeparatingScaleCodes(s)) score(scale);
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  // None separates (few ties, as for 2-bit y): search the float32 scales 0.1 * (1 + k / 256)
  // for one whose reciprocal does, and put it first.
  if (scored.front().first == 0 && s.id == D::kFloat) {
    const size_t fixed = scored.size();
    for (int k = 1; k < 256 && scored.size() == fixed; ++k) {
      const auto candidate = std::bit_cast<uint32_t>(static_cast<float>(0.1 * (1 + k / 256.0)));
      score(candidate);
      if (scored.back().first == 0) scored.pop_back();
    }
    std::rotate(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(fixed), scored.end());
  }
  std::vector<uint32_t> out;
  for (const auto& [n, scale] : scored) out.push_back(scale);
  return out;
}

class QuantizeBoundaries : public CatalogueBuilder {
 public:
  void Cells(const OpSchema& s) {
    for (D x : s.x_types) {
      for (D y : s.output_types) {
        for (const CellLayout& layout : CellLayouts(s, kElements)) {
          Ties(s, x, y, layout);
          if (ElementTypeOf(y).is_integer() && ElementTypeOf(x).is_float()) {
            Reciprocal(s, x, y, layout);
          }
          if (x != D::kInt32) Specials(s, x, y, layout);
        }
        Extremes(s, x, y);
      }
    }
  }

 private:
  std::string Id(const OpSchema& s, const char* what, D x, D y, const std::string& tail) {
    return CasePrefix(s) + "-" + what + "-x" + TypeName(x) + "-" + TypeName(y) + "-" + tail;
  }

  void AddCell(const std::string& id, const OpSchema& s, D x, D scale, D y,
               const CellLayout& layout, const std::vector<uint32_t>& x_codes,
               const std::vector<uint32_t>& scales, const std::vector<uint32_t>& zps,
               Attrs attributes, const std::string& what, const std::string& decision) {
    for (const auto& [k, v] : layout.attributes) attributes[k] = v;
    Add(MakeCase("QuantizeLinear", s.since_version,
                 {MakeTensorFromCodes(x, layout.x_shape, x_codes),
                  MakeTensorFromCodes(scale, layout.scale_shape, scales),
                  MakeTensorFromCodes(y, layout.scale_shape, zps)},
                 attributes, std::string(s.domain), id),
        CellFeatures(x, scale, y, layout, what), decision);
  }

  // Per parameter: a separating scale and (integer y) an odd zero point.
  struct Parameters {
    std::vector<uint32_t> scales, zps;
    std::vector<int64_t> zp_values;
  };
  Parameters ParametersFor(D x, D scale, D y, const CellLayout& layout) {
    const ElementType &yt = ElementTypeOf(y), &st = ElementTypeOf(scale);
    // An int32 x is on a tie of x / s only where s is twice an odd number over an odd one: the
    // separating scales (odd numerators over powers of two) have none, so an int32 x takes
    // 6, 10 and 14 (its float or int32 scale holds them exactly), which also differ per axis.
    std::vector<uint32_t> candidates;
    if (x == D::kInt32) {
      for (double v : {6.0, 10.0, 14.0})
        candidates.push_back(*Encode(st, Exact::FromDouble(v), Saturation::kSaturate));
    } else {
      candidates = SeparatingScaleCodes(st);
    }
    Parameters p;
    for (int64_t k = 0; k < layout.parameters(); ++k) {
      p.scales.push_back(candidates[static_cast<size_t>(k) % candidates.size()]);
    }
    p.zp_values = yt.is_integer()
                      ? OddZeroPoints(yt, layout.parameters())
                      : std::vector<int64_t>(static_cast<size_t>(layout.parameters()), 0);
    p.zps = IntegerCodes(yt, p.zp_values);
    return p;
  }

  void Ties(const OpSchema& s, D x, D y, const CellLayout& layout) {
    const D scale = ScaleType(s, x);
    const ElementType &xt = ElementTypeOf(x), &st = ElementTypeOf(scale), &yt = ElementTypeOf(y);
    const Parameters p = ParametersFor(x, scale, y, layout);
    std::vector<Rational> ties;
    if (yt.is_integer()) {
      const auto [zlo, zhi] = std::minmax_element(p.zp_values.begin(), p.zp_values.end());
      ties = HalfIntegerTies(IntegerMin(yt) - *zlo, IntegerMax(yt) - 1 - *zhi, 10);
    } else {
      ties = FloatGridTies(yt);
    }
    const std::vector<uint32_t> codes = FillByParameter(layout, [&](int64_t k) {
      const uint32_t s_code = p.scales[static_cast<size_t>(k)];
      std::vector<uint32_t> near = NearTieCodes(xt, 1 / Decode(st, s_code).value(), ties);
      if (yt.is_integer()) {
        std::stable_sort(near.begin(), near.end(), [&](uint32_t a, uint32_t b) {
          return SeparationRank(xt, a, st, s_code) < SeparationRank(xt, b, st, s_code);
        });
      }
      // x is exactly on a tie only where (k + 1/2) * scale fits its significand: where y's ties
      // need more bits than x has (float16 into 16-bit y, bfloat16 into 8- and 16-bit y), x on
      // the ties around 0 comes first.
      if (yt.is_integer() && xt.is_float() && xt.fp.mantissa_bits + 1 < yt.bits + 1) {
        std::vector<uint32_t> exact;
        for (const Rational& t : HalfIntegerTies(-2, 1, 4)) {
          const std::vector<uint32_t> at = CodesAround(xt, t * Decode(st, s_code).value());
          if (at.size() == 1) exact.push_back(at[0]);
        }
        near.insert(near.begin(), exact.begin(), exact.end());
      }
      return near;
    });
    AddCell(Id(s, "ties", x, y, layout.name), s, x, scale, y, layout, codes, p.scales, p.zps, {},
            "ties", "docs/semantics.md#d14: quotients at and beside ties, non-power-of-two scales");
  }

  // Integer y (docs/semantics.md#d39): near-tie inputs that only a reciprocal multiplier rounds
  // the other way, at the catalogue's scale whose float32 reciprocal separates the most (a
  // 16-bit x: every code swept); no case where no scale separates any input.
  void Reciprocal(const OpSchema& s, D x, D y, const CellLayout& layout) {
    const D scale = ScaleType(s, x);
    const ElementType &xt = ElementTypeOf(x), &st = ElementTypeOf(scale), &yt = ElementTypeOf(y);
    Parameters p = ParametersFor(x, scale, y, layout);
    const auto [zlo, zhi] = std::minmax_element(p.zp_values.begin(), p.zp_values.end());
    const int64_t q_lo = IntegerMin(yt) - *zlo, q_hi = IntegerMax(yt) - 1 - *zhi;
    const std::vector<Rational> ties = HalfIntegerTies(q_lo, q_hi, 10);
    const std::vector<uint32_t> strongest = ReciprocalSeparatingFirst(xt, st, ties, q_lo, q_hi);
    for (size_t k = 0; k < p.scales.size(); ++k) p.scales[k] = strongest[k % strongest.size()];
    size_t separating = 0;
    const std::vector<uint32_t> codes = FillByParameter(layout, [&](int64_t k) {
      const uint32_t s_code = p.scales[static_cast<size_t>(k)];
      std::vector<uint32_t> near = SweptSeparating(xt, st, s_code, q_lo, q_hi, 2);
      for (uint32_t c : NearTieCodes(xt, 1 / Decode(st, s_code).value(), ties)) near.push_back(c);
      std::stable_sort(near.begin(), near.end(), [&](uint32_t a, uint32_t b) {
        return SeparationRank(xt, a, st, s_code) < SeparationRank(xt, b, st, s_code);
      });
      separating += !near.empty() && SeparationRank(xt, near[0], st, s_code) == 0 ? 1 : 0;
      return near;
    });
    if (separating == 0) return;
    AddCell(Id(s, "reciprocal", x, y, layout.name), s, x, scale, y, layout, codes, p.scales, p.zps,
            {}, "reciprocal",
            "docs/semantics.md#d39: inputs only a float32 reciprocal multiplier rounds the other "
            "way");
  }

  void Specials(const OpSchema& s, D x, D y, const CellLayout& layout) {
    const D scale = ScaleType(s, x);
    const ElementType &xt = ElementTypeOf(x), &yt = ElementTypeOf(y);
    const Parameters p = ParametersFor(x, scale, y, layout);
    const uint32_t sign = xt.sign_bit(), max = MaxFiniteCode(xt);
    std::vector<uint32_t> specials = {OverflowCode(xt, false, Saturation::kNone),
                                      OverflowCode(xt, true, Saturation::kNone),
                                      0,
                                      sign,
                                      1,
                                      sign | 1,
                                      max,
                                      sign | max};
    if (yt.is_float()) specials.push_back(xt.canonical_nan);  // NaN into an integer: d15
    AddCell(Id(s, "specials", x, y, layout.name), s, x, scale, y, layout,
            FillByParameter(layout, [&](int64_t) { return specials; }), p.scales, p.zps, {},
            "specials", "docs/semantics.md#d15-17: infinities, zeros, subnormal and largest x");
  }

  void Extremes(const OpSchema& s, D x, D y) {
    const D scale = ScaleType(s, x);
    const ElementType &xt = ElementTypeOf(x), &yt = ElementTypeOf(y);
    const Rational sv = x == D::kInt32 ? Rational(1) : Rational(1, 4);  // exact in every type
    const uint32_t s_code = *Encode(ElementTypeOf(scale), Exact::Finite(sv), Saturation::kNone);
    std::vector<Rational> quotients;
    int64_t zp = 0;
    if (yt.is_integer()) {
      zp = OddZeroPoints(yt, 1)[0];
      for (int64_t edge : {IntegerMax(yt) - zp, IntegerMin(yt) - zp}) {
        const int64_t out = edge > 0 ? 1 : -1;
        for (Rational d : {Rational(0), Rational(1, 4), Rational(1, 2), Rational(3, 4), Rational(1),
                           Rational(3, 2), Rational(1 << 20)}) {
          quotients.push_back(edge + out * d), quotients.push_back(edge - out * d / 4);
        }
      }
    } else {
      for (const std::vector<Rational>& group :
           {SaturationBoundaries(yt), SubnormalBoundaries(yt)}) {
        for (const Rational& v : group) quotients.push_back(v), quotients.push_back(-v);
      }
    }
    std::vector<Rational> xs;
    for (const Rational& q : quotients) xs.push_back(q * sv);
    std::vector<uint32_t> codes = ExactCodes(xt, xs);
    if (codes.empty()) return;
    const CellLayout pt{
        Granularity::kPerTensor, "pt", {static_cast<int64_t>(codes.size())}, {}, {}};
    const bool float8 = yt.is_float() && yt.bits == 8;
    const std::vector<int64_t> saturates =
        float8 ? std::vector<int64_t>{1, 0} : std::vector<int64_t>{-1};
    for (int64_t saturate : saturates) {
      Attrs a;
      std::string tail = "pt";
      if (saturate >= 0) a["saturate"] = saturate, tail += "-sat" + std::to_string(saturate);
      AddCell(
          Id(s, "extremes", x, y, tail), s, x, scale, y, pt, codes, {s_code},
          IntegerCodes(yt, {zp}), a, "extremes",
          "docs/semantics.md#d15-17: the last finite code, the tie above it, the region past it");
    }
  }
};

}  // namespace

std::vector<GoldenCase> QuantizeBoundaryCatalogue() {
  QuantizeBoundaries b;
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() == OperatorKind::kQuantizeLinear) b.Cells(s);
  }
  return b.cases;
}

}  // namespace qconform
