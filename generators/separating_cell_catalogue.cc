// QLinearMatMul's requantization defects separated in every integer cell (docs/semantics.md#d39):
// a kernel that multiplies by a precomputed 1 / y_scale (as many NPUs do) differs from the exact
// and the float32 results only near ties, and only for some scales, so the per-tensor u8 x s8
// cases that separate it say nothing about the other operand pairs and granularities.
// For each version (10, 21), operand pair and granularity (per tensor, a per row, b per column,
// both): a 2 x 2 product whose scales (per row, per column or one) are drawn at random until every
// element has an accumulator near a tie of acc * M where the strategy gives neither the exact nor
// the f32 code (SearchSeparating); each element's accumulator is realised as a block of products
// of the operands' extreme codes (Products), zero points 0, y's zero point odd.
// `qlmm{10,21}-separate-cell-{pt,row,col,row-col}-{a}-{b}-{strategy}`.
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "generators/catalogue_builder.h"
#include "generators/feature_keys.h"
#include "generators/near_ties.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;

const NamedRequantization kStrategies[] = {
    {"reciprocal", RequantizeReciprocalCode},
};
constexpr int64_t kRows = 2, kColumns = 2;
constexpr int kAttempts = 400, kTiesPerElement = 8;

bool Signed(D t) {
  return t == D::kInt8;
}

// acc[r][c] for every element, with the scales that separate them, or nothing.
struct Separated {
  std::vector<float> a_scales, b_scales;  // one each, or per row / per column
  float y_scale = 0;
  int64_t y_zero_point = 0;
  std::vector<int64_t> accs;  // row-major [kRows, kColumns]
};

std::optional<Separated> Search(const NamedRequantization& s, D at, D bt, const MatMulGrain& g,
                                Prng& p) {
  const bool signed_acc = Signed(at) || Signed(bt);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    Separated out;
    out.a_scales.resize(g.rows ? kRows : 1), out.b_scales.resize(g.columns ? kColumns : 1);
    // Every scale in one binade, so that the elements' multipliers stay within a factor of 4.
    for (float& v : out.a_scales) v = RandomFloatScale(p, -7, 1);
    for (float& v : out.b_scales) v = RandomFloatScale(p, -7, 1);
    // M between 2^-12 and 2^-1 for the first element.
    out.y_scale = static_cast<float>(static_cast<double>(out.a_scales[0]) * out.b_scales[0] *
                                     std::ldexp(1.0 + static_cast<double>(p.Below(1000)) / 1000,
                                                1 + static_cast<int>(p.Below(12))));
    out.y_zero_point = Signed(at) ? static_cast<int64_t>(p.Below(21)) * 2 - 19
                                  : 1 + 2 * static_cast<int64_t>(p.Below(100));
    RequantizeOperands o;
    o.y_scale = out.y_scale, o.zero_point = out.y_zero_point;
    o.lo = Signed(at) ? -128 : 0, o.hi = Signed(at) ? 127 : 255;
    for (int64_t r = 0; r < kRows; ++r) {
      for (int64_t c = 0; c < kColumns; ++c) {
        o.a_scale = out.a_scales[g.rows ? static_cast<size_t>(r) : 0];
        o.b_scale = out.b_scales[g.columns ? static_cast<size_t>(c) : 0];
        std::vector<int64_t> found;
        for (int tries = 0; tries < kTiesPerElement && found.empty(); ++tries)
          found = SearchSeparating(s.fn, o, signed_acc, 1, p);
        if (found.empty()) break;
        out.accs.push_back(found[0]);
      }
      if (out.accs.size() != static_cast<size_t>((r + 1) * kColumns)) break;
    }
    if (out.accs.size() == static_cast<size_t>(kRows * kColumns)) return out;
  }
  return std::nullopt;
}

// a [kRows, K] and b [K, kColumns], K = kRows * kColumns * width: element (r, c)'s segment holds
// its products in row r of a and column c of b, zeros elsewhere. The sign goes to the signed
// operand (b's if both are).
std::pair<Tensor, Tensor> Operands(const std::vector<int64_t>& accs, D at, D bt) {
  const int a_max = Signed(at) ? 127 : 255, b_max = Signed(bt) ? 127 : 255;
  const bool sign_on_b = Signed(bt);
  std::vector<std::vector<std::pair<int, int>>> products;
  size_t width = 0;
  for (int64_t acc : accs) {
    // Products puts the sign on its second factor: swap the roles when a carries it.
    products.push_back(sign_on_b ? Products(acc, a_max, b_max) : Products(acc, b_max, a_max));
    if (!sign_on_b) {
      for (auto& [x, y] : products.back()) std::swap(x, y);
    }
    width = std::max(width, products.back().size());
  }
  const auto k = static_cast<int64_t>(accs.size() * width);
  std::vector<double> a(static_cast<size_t>(kRows * k), 0), b(static_cast<size_t>(k * kColumns), 0);
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t c = 0; c < kColumns; ++c) {
      const auto& segment = products[static_cast<size_t>(r * kColumns + c)];
      const int64_t start = (r * kColumns + c) * static_cast<int64_t>(width);
      for (size_t i = 0; i < segment.size(); ++i) {
        const int64_t at_k = start + static_cast<int64_t>(i);
        a[static_cast<size_t>(r * k + at_k)] = segment[i].first;
        b[static_cast<size_t>(at_k * kColumns + c)] = segment[i].second;
      }
    }
  }
  return {MakeTensor(at, {kRows, k}, a), MakeTensor(bt, {k, kColumns}, b)};
}

Tensor Parameter(const std::vector<float>& values, std::vector<int64_t> shape) {
  if (values.size() == 1) return MakeScalar(D::kFloat, values[0]);
  return MakeTensor(D::kFloat, std::move(shape), std::vector<double>(values.begin(), values.end()));
}
Tensor ZeroPoint(D t, size_t count, std::vector<int64_t> shape) {
  if (count == 1) return MakeScalar(t, 0);
  return MakeTensor(t, std::move(shape), std::vector<double>(count, 0));
}

}  // namespace

std::vector<GoldenCase> SeparatingCellCatalogue() {
  CatalogueBuilder b;
  for (const NamedRequantization& s : kStrategies) {
    for (const int64_t opset : {10, 21}) {
      for (const auto& [at, bt] : kIntegerOperandPairs) {
        for (const MatMulGrain& g : kMatMulGrains) {
          const std::string id = "qlmm" + std::to_string(opset) + "-separate-cell-" + g.name + "-" +
                                 TypeName(at) + "-" + TypeName(bt) + "-" + s.name;
          Prng p(CaseSeed(id));
          const std::optional<Separated> found = Search(s, at, bt, g, p);
          if (!found)
            throw std::logic_error("separating_cell_catalogue.cc: no accumulators for " + id);
          const auto [a, bm] = Operands(found->accs, at, bt);
          b.Add(MakeCase("QLinearMatMul", opset,
                         {a, Parameter(found->a_scales, {kRows, 1}),
                          ZeroPoint(at, found->a_scales.size(), {kRows, 1}), bm,
                          Parameter(found->b_scales, {1, kColumns}),
                          ZeroPoint(bt, found->b_scales.size(), {1, kColumns}),
                          MakeScalar(D::kFloat, found->y_scale),
                          MakeScalar(at, static_cast<double>(found->y_zero_point))},
                         {}, "", id),
                "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",y:" + TypeName(at) +
                    ",granularity:" + GranularityFeature(g.name) + ",boundary:separating-" + s.name,
                "d20,d21,d39");
        }
      }
    }
  }
  return std::move(b.cases);
}

}  // namespace qconform
