// Every code in every cell (docs/semantics.md#d39): a defect in how one type is read or written
// (a NaN taken for a number, a bias off by one, nibbles swapped, subnormals flushed, a bound of
// the wrong signedness, a saturation mode ignored) then changes a result in every cell of that
// type, not only where the per-tensor float cases are.
// - DequantizeLinear, edge scales: every code of x times the scale type's largest power of two,
//   1 + 3 ulp and smallest subnormal, in every cell (overflow, ties, subnormal results).
// - DequantizeLinear: for each version, input type, scale (output) type and granularity, x holds
//   every code of the type (its edges for the 16- and 32-bit ones). The per-tensor cells with a
//   float scale are dequantize_golden_catalogue.cc's every-code cases.
// - QuantizeLinear: for each version, x type, y type (float8 under both saturate values) and
//   granularity, x / y_scale holds every value of y's codes (its edges for 16-bit y), the ties
//   between neighbours, values beyond both ends and, for a float x, the infinities and NaN.
//   The per-tensor cells of a float32 x are quantize_golden_catalogue.cc's.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "generators/boundaries.h"
#include "generators/catalogue_builder.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/schema.h"

namespace qconform {
namespace {

using D = DataType;

// Two channels (or two rows of blocks) with scales that are not powers of two and are values
// of every float scale type.
constexpr double kScales[] = {0.375, 0.625};

std::vector<double> Scales(int64_t count) {
  std::vector<double> out;
  for (int64_t k = 0; k < count; ++k) out.push_back(kScales[k % 2]);
  return out;
}

void AddSweepCase(CatalogueBuilder& b, const OpSchema& s, D x, D scale, const RowLayout& layout) {
  std::vector<uint32_t> codes = EveryCodeOrEdges(ElementTypeOf(x));
  if (codes.size() % 2 != 0) codes.push_back(0);  // two rows
  const auto columns = static_cast<int64_t>(codes.size() / 2);
  const RowParameters p = RowLayoutParameters(layout.granularity, 2, columns);
  const Tensor scale_tensor = MakeTensor(scale, p.shape, Scales(ShapeElements(p.shape)));
  const std::map<std::string, int64_t>& attributes = p.attributes;
  const std::string id =
      CasePrefix(s) + "-" + TypeName(x) + "-codes-" + layout.name + "-" + TypeName(scale);
  b.Add(MakeCase("DequantizeLinear", s.since_version,
                 {MakeTensorFromCodes(x, {2, columns}, codes), scale_tensor}, attributes,
                 std::string(s.domain), id),
        "type:" + TypeName(x) + ",scale:" + TypeName(scale) + ",y:" + TypeName(scale) +
            ",granularity:" + std::string(GranularityName(layout.granularity)) +
            ",zero_point:no,edges:all-codes",
        "docs/semantics.md#d1 (every code in every cell, docs/semantics.md#d39)");
}

// Scales at the output type's edges (an IEEE type: float, float16, bfloat16), each applied to
// every code of x: the largest power of two (every |x| >= 2 overflows to infinity), 1 + 3 ulp
// (x = 3 lands half-way between two values, where half to even and half away differ; a wide x
// needs more bits than the type), the smallest subnormal (small |x| give subnormal results).
struct EdgeScale {
  const char* name;
  double (*value)(const FloatFormat& f);
};
constexpr EdgeScale kEdgeScales[] = {
    {"huge",
     [](const FloatFormat& f) { return std::ldexp(1.0, (1 << f.exponent_bits) - 2 - f.bias); }},
    {"tie", [](const FloatFormat& f) { return 1 + std::ldexp(3.0, -f.mantissa_bits); }},
    {"tiny", [](const FloatFormat& f) { return std::ldexp(1.0, 1 - f.bias - f.mantissa_bits); }}};

// DequantizeLinear with the edge scales: per tensor one case per scale; per axis and blocked
// one case of three rows (every code of x in each), row r scaled by kEdgeScales[r].
void AddEdgeScaleCases(CatalogueBuilder& b, const OpSchema& s, D x, D scale,
                       const RowLayout& layout) {
  const ElementType& xt = ElementTypeOf(x);
  std::vector<uint32_t> codes = EveryCodeOrEdges(xt);
  // A wide x: its edges, and +-3 (the tie scale's half-way products), +-257 and +-2049 (the
  // first integers bfloat16 and float16 cannot hold: a product formed in y's type moves).
  if (xt.bits > 8) {
    for (const uint32_t v : {3u, 257u, 2049u}) {
      codes.push_back(v);
      if (xt.is_integer() && xt.integer.is_signed) codes.push_back((0u - v) & xt.code_mask());
    }
  }
  const auto columns = static_cast<int64_t>(codes.size());
  const FloatFormat& f = ElementTypeOf(scale).fp;
  const std::string prefix =
      CasePrefix(s) + "-" + TypeName(x) + "-edge-scales-" + layout.name + "-" + TypeName(scale);
  const std::string features = "type:" + TypeName(x) + ",scale:" + TypeName(scale) +
                               ",y:" + TypeName(scale) +
                               ",granularity:" + std::string(GranularityName(layout.granularity)) +
                               ",zero_point:no,edges:all-codes,boundary:scale-edges";
  const char* decision = "docs/semantics.md#d1 (overflow, ties and subnormals in every cell, #d39)";
  if (layout.granularity == Granularity::kPerTensor) {
    for (const EdgeScale& e : kEdgeScales) {
      b.Add(MakeCase("DequantizeLinear", s.since_version,
                     {MakeTensorFromCodes(x, {columns}, codes), MakeScalar(scale, e.value(f))}, {},
                     std::string(s.domain), prefix + "-" + e.name),
            features, decision);
    }
    return;
  }
  std::vector<uint32_t> rows;
  for (size_t r = 0; r < std::size(kEdgeScales); ++r)
    rows.insert(rows.end(), codes.begin(), codes.end());
  const auto n = static_cast<int64_t>(std::size(kEdgeScales));
  const RowParameters p = RowLayoutParameters(layout.granularity, n, columns);
  std::vector<double> scales;
  for (const EdgeScale& e : kEdgeScales)
    scales.insert(scales.end(), static_cast<size_t>(ShapeElements(p.shape) / n), e.value(f));
  b.Add(MakeCase("DequantizeLinear", s.since_version,
                 {MakeTensorFromCodes(x, {n, columns}, rows), MakeTensor(scale, p.shape, scales)},
                 p.attributes, std::string(s.domain), prefix),
        features, decision);
}

// The quotients a QuantizeLinear case of y type `y` holds: every code's value (the edges of a
// 16-bit type), the tie between each pair of neighbours, a step and far beyond each end.
std::vector<Exact> Quotients(const ElementType& y) {
  std::vector<Exact> values;
  for (uint32_t code : EveryCodeOrEdges(y)) {
    const Exact v = Decode(y, code);
    if (v.is_finite()) values.push_back(v);
  }
  std::sort(values.begin(), values.end(),
            [](const Exact& a, const Exact& b) { return LessThan(a, b); });
  std::vector<Exact> out = values;
  const Exact half = Exact::Dyadic(BigInt(1), -1);
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    if (!(values[i] == values[i + 1])) out.push_back((values[i] + values[i + 1]) * half);
  }
  const Exact &lo = values.front(), &hi = values.back();
  const Exact step = Exact::Integer(1);
  for (const Exact& beyond : {hi + step, hi + hi, lo - step, lo + lo}) out.push_back(beyond);
  if (y.is_float() && values.size() > 1) {
    // Past the largest finite value by half a step of its binade (the tie of rounding to the
    // type's range), one and one and a half steps (where a wider type has its next values).
    const Exact ulp = hi - values[values.size() - 2];
    for (const Exact& k : {half, Exact::Integer(1), Exact::Integer(3) * half}) {
      out.push_back(hi + ulp * k);
      out.push_back(lo - ulp * k);
    }
  }
  return out;
}

// x = q * 2 for each quotient q that x's type holds exactly, then the infinities and NaN where
// it has them; padded with zeros to an even count (two rows).
std::vector<uint32_t> SweepX(const ElementType& x, const ElementType& y) {
  std::vector<uint32_t> codes;
  const Exact two = Exact::Integer(2);
  for (const Exact& q : Quotients(y)) {
    const std::optional<uint32_t> c = Encode(x, q * two, Saturation::kNone);
    if (c && Decode(x, *c) == q * two) codes.push_back(*c);
  }
  if (x.is_float()) {
    for (const Exact& special : {Exact::Infinity(false), Exact::Infinity(true), Exact::NaN()}) {
      if (const std::optional<uint32_t> c = Encode(x, special, Saturation::kNone)) {
        if (!Decode(x, *c).is_finite()) codes.push_back(*c);
      }
    }
  }
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  if (codes.size() % 2 != 0) codes.push_back(0);
  return codes;
}

void AddQuantizeSweepCase(CatalogueBuilder& b, const OpSchema& s, D x, D y, const RowLayout& layout,
                          std::optional<int64_t> saturate) {
  const D scale = QuantizeScaleType(s, x);
  const std::vector<uint32_t> codes = SweepX(ElementTypeOf(x), ElementTypeOf(y));
  const auto columns = static_cast<int64_t>(codes.size() / 2);
  const RowParameters p = RowLayoutParameters(layout.granularity, 2, columns);
  std::map<std::string, int64_t> attributes = p.attributes;
  const std::vector<int64_t>& parameter_shape = p.shape;
  if (saturate) attributes["saturate"] = *saturate;
  const int64_t parameters = ShapeElements(parameter_shape);
  const std::string id = CasePrefix(s) + "-x" + TypeName(x) + "-" + TypeName(y) + "-codes-" +
                         layout.name +
                         (saturate ? "-sat" + std::to_string(*saturate) : std::string());
  b.Add(MakeCase("QuantizeLinear", s.since_version,
                 {MakeTensorFromCodes(x, {2, columns}, codes),
                  MakeTensor(scale, parameter_shape,
                             std::vector<double>(static_cast<size_t>(parameters), 2.0)),
                  MakeTensor(y, parameter_shape,
                             std::vector<double>(static_cast<size_t>(parameters), 0.0))},
                 attributes, std::string(s.domain), id),
        "type:" + TypeName(x) + ",scale:" + TypeName(scale) + ",y:" + TypeName(y) +
            ",granularity:" + std::string(GranularityName(layout.granularity)) +
            ",zero_point:yes,edges:all-codes",
        "docs/semantics.md#d14-d17 (every code of y in every cell, docs/semantics.md#d39)");
}

}  // namespace

std::vector<GoldenCase> CodeSweepCatalogue() {
  CatalogueBuilder b;
  for (const OpSchema& s : AllSchemas()) {
    // com.microsoft's DequantizeLinear reads its granularity from the axis' presence; its
    // cells are the type sweep's, the edge scales apart.
    if (s.kind() != OperatorKind::kDequantizeLinear) continue;
    for (D x : s.x_types) {
      for (D scale : s.scale_types) {
        if (!s.allows_output(scale)) continue;
        for (const RowLayout& layout : kRowLayouts) {
          if (!s.allows(layout.granularity)) continue;
          AddEdgeScaleCases(b, s, x, scale, layout);
          if (!s.domain.empty()) continue;
          if (layout.granularity == Granularity::kPerTensor && scale == D::kFloat) continue;
          AddSweepCase(b, s, x, scale, layout);
        }
      }
    }
  }
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() != OperatorKind::kQuantizeLinear || !s.domain.empty()) continue;
    const bool has_saturate = s.attribute("saturate") != nullptr;
    for (D x : s.x_types) {
      for (D y : s.output_types) {
        const ElementType& yt = ElementTypeOf(y);
        std::vector<std::optional<int64_t>> saturates = {std::nullopt};
        if (has_saturate && yt.is_float() && yt.bits == 8) saturates = {0, 1};
        for (const RowLayout& layout : kRowLayouts) {
          if (!s.allows(layout.granularity)) continue;
          if (layout.granularity == Granularity::kPerTensor && x == D::kFloat) continue;
          for (const std::optional<int64_t>& saturate : saturates) {
            AddQuantizeSweepCase(b, s, x, y, layout, saturate);
          }
        }
      }
    }
  }
  return b.cases;
}

}  // namespace qconform
