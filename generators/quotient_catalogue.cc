// QuantizeLinear 19 and 21 with a float16 or bfloat16 x, whose y_scale has x's type: inputs whose
// quotient, rounded to x's type before it is rounded to y, lands on the other side of a tie from
// the exact quotient and from the float32 one (the two results those versions admit,
// docs/semantics.md#d39). A kernel dividing in x's own type fails them in every integer cell.
// The inputs are found by search: for each candidate scale, every finite code of x; the scale
// separating the most inputs within y's range is kept, with up to 48 of its inputs.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/schema.h"

namespace qconform {
namespace {

using D = DataType;

constexpr double kCandidateScales[] = {0.75, 0.625, 0.875, 1.5, 3, 5, 7, 0.375};
constexpr size_t kMostInputs = 48;
struct Separation {
  double scale = 0;
  std::vector<uint32_t> codes;
};

// The x codes whose quotient by `scale`, rounded in x's type, gives another integer y than both
// the exact and the float32 quotient (y's range: [lo, hi], saturating).
Separation Separate(const ElementType& x, double scale, double lo, double hi) {
  const auto to_y = [&](double q, int sticky) {
    return std::clamp(RoundHalfEvenSticky(q, sticky), lo, hi);
  };
  Separation s{scale, {}};
  for (uint32_t code = 0; code <= x.code_mask(); ++code) {
    const double v = DecodeDouble(x, code);
    if (!std::isfinite(v)) continue;
    // The exact quotient: its double and the sign of what that dropped.
    const double q = v / scale;
    if (q < lo - 1 || q > hi + 1) continue;
    const int sticky = QuotientSticky(v, scale, q);
    const double exact = to_y(q, sticky);
    const auto f32 = static_cast<float>(static_cast<float>(v) / static_cast<float>(scale));
    const double in_float32 = to_y(f32, 0);
    // Rounded once into x's type, then to y.
    const double in_x =
        to_y(DecodeDouble(x, *EncodeDoubleSticky(x, q, sticky, Saturation::kNone)), 0);
    if (in_x != exact && in_x != in_float32) s.codes.push_back(code);
  }
  return s;
}

void AddQuotientCases(CatalogueBuilder& b, const OpSchema& s, D x, D y) {
  const ElementType &xt = ElementTypeOf(x), &yt = ElementTypeOf(y);
  const double lo = DecodeDouble(yt, yt.integer.is_signed ? yt.sign_bit() : 0);
  const double hi = DecodeDouble(yt, yt.integer.is_signed ? yt.sign_bit() - 1 : yt.code_mask());
  Separation best;
  for (const double scale : kCandidateScales) {
    Separation c = Separate(xt, scale, lo, hi);
    if (c.codes.size() > best.codes.size()) best = std::move(c);
  }
  if (best.codes.empty()) return;
  // Spread over the range found, an even count (two rows).
  std::vector<uint32_t> codes;
  const size_t n = std::min(best.codes.size(), kMostInputs) & ~size_t{1};
  for (size_t i = 0; i < n; ++i) codes.push_back(best.codes[i * best.codes.size() / n]);
  const auto columns = static_cast<int64_t>(codes.size() / 2);
  const D scale_type = QuantizeScaleType(s, x);
  for (const RowLayout& layout : kRowLayouts) {
    const Granularity g = layout.granularity;
    if (!s.allows(g)) continue;
    const RowParameters p = RowLayoutParameters(g, 2, columns);
    const std::vector<int64_t>& shape = p.shape;
    const std::string name = layout.name;
    const auto count = static_cast<size_t>(ShapeElements(shape));
    const std::string id =
        CasePrefix(s) + "-x" + TypeName(x) + "-" + TypeName(y) + "-quotient-in-x-" + name;
    b.Add(MakeCase("QuantizeLinear", s.since_version,
                   {MakeTensorFromCodes(x, {2, columns}, codes),
                    MakeTensor(scale_type, shape, std::vector<double>(count, best.scale)),
                    MakeTensor(y, shape, std::vector<double>(count, 0.0))},
                   p.attributes, std::string(s.domain), id),
          "type:" + TypeName(x) + ",scale:" + TypeName(scale_type) + ",y:" + TypeName(y) +
              ",granularity:" + std::string(GranularityName(g)) + ",boundary:quotient-rounded-in-x",
          "docs/semantics.md#d14 (the quotient rounded once, docs/semantics.md#d39)");
  }
}

}  // namespace

std::vector<GoldenCase> QuotientCatalogue() {
  CatalogueBuilder b;
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() != OperatorKind::kQuantizeLinear || !s.domain.empty()) continue;
    if (s.since_version >= 23) continue;  // from 23 the quotient in x's type is admitted
    for (const D x : {D::kFloat16, D::kBfloat16}) {
      if (std::find(s.x_types.begin(), s.x_types.end(), x) == s.x_types.end()) continue;
      for (const D y : s.output_types) {
        if (ElementTypeOf(y).is_integer()) AddQuotientCases(b, s, x, y);
      }
    }
  }
  return std::move(b.cases);
}

}  // namespace qconform
