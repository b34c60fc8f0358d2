// d42's golden cases: com.microsoft QLinear operators whose page formula's real value rounds to
// another code than the float32 dequantize chain does (a real value of 2.5000000641 beside the
// chain's tie 2.5). Found by search: for each operator, the generated valid cases of seeds 1 to
// 2,000 (valid_cases.h, the same draws the property tests make) in order, keeping the first three
// where some element's exact code (the real value's) differs from the graph's float32 chain's.
// The golden output then holds the real value's code, and the range admits the chain's.
// QLinearMul and QLinearSigmoid have none in those seeds: Mul's DequantizeLinear nodes take
// scale 1 (exact; the scales' product is the page's own float step), and Sigmoid's chain
// differs only where its TOSA bound already spans both codes. QLinearSoftmax has none either
// (a softmax value is irrational: a tie lies between the two chains' values about once in
// 10^4 random elements), so its cases are searched for directly (SoftmaxDraw: large values,
// whose float32 products move each exponential most), draws in order until three cases per
// type differ.
#include <algorithm>
#include <cmath>

#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/qlinear_group_codes.h"
#include "generators/valid_cases.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/graph/graph_oracle.h"
#include "oracle/semantics/oracle.h"
#include "oracle/semantics/qlinear_group/qlinear_group.h"

namespace qconform {
namespace {

// Whether some element of c's output has a real-value code the float32 chain does not give.
bool ChainsDiffer(const Case& c, const OpSchema& s) {
  const OracleResult r = RunOracle(c);
  if (r.must_reject() || r.outputs.empty()) return false;
  EvaluateOptions chain;  // the graph's own float32 chain
  chain.node_oracle = &RunOracle;
  const OracleResult f = RunGraphOracle(QLinearGroupGraph(c, s), chain);
  if (f.outputs.empty()) return false;
  const OutputEvaluation &y = r.outputs[0], &g = f.outputs[0];
  for (size_t i = 0; i < y.exact.size() && i < g.exact.size(); ++i) {
    if (!y.is_free(i) && y.exact[i] != g.exact[i]) return true;
  }
  return false;
}

using qlinear_codes::F;

// QLinearSoftmax of type t, draw `draw`: 128 rows of 8 codes near the top of T's range (a row's
// largest code, the others up to 11 codes below it: values about 30 to 60 whose exponentials all
// count), x_zero_point T's lowest, x_scale a float32 of full mantissa in [1/8, 1/4).
Case SoftmaxDraw(DataType t, uint64_t draw) {
  Prng p(CaseSeed("qlsoftmax1-real-value-" + std::string(ElementTypeOf(t).name)) + draw);
  const ElementType& type = ElementTypeOf(t);
  const int64_t lowest = IntegerMin(type);
  std::vector<uint32_t> codes;
  for (int row = 0; row < 128; ++row) {
    const int64_t top = lowest + 200 + static_cast<int64_t>(p.Below(56));
    for (int j = 0; j < 8; ++j) {
      const int64_t v = j == 0 ? top : top - static_cast<int64_t>(p.Below(12));
      codes.push_back(static_cast<uint32_t>(v) & 0xff);
    }
  }
  const double x_scale = std::ldexp(1 + static_cast<double>(p.Below(1 << 23) | 1) / 0x1p23, -3);
  std::vector<std::optional<Tensor>> in = {MakeTensorFromCodes(t, {128, 8}, codes), F(x_scale),
                                           MakeScalar(t, static_cast<double>(lowest)), F(0x1p-8),
                                           MakeScalar(t, static_cast<double>(lowest))};
  Case c = MakeCase("QLinearSoftmax", 1, std::move(in), {}, "com.microsoft", "");
  c.attributes = {{"opset", Attribute::Int(13)}};
  return c;
}

// A quick filter before ChainsDiffer: whether some element's softmax in long double, from the
// float32 and from the real dequantized values, lies on two sides of a multiple of 2^-9 (a tie
// of Y's scale 2^-8, or a code boundary), or within 2^-40 of one.
bool MaybeDiffers(const Case& c) {
  const Tensor& x = *c.input(0);
  const ElementType& type = *FindElementType(x.data_type);
  const double x_scale = DecodeDouble(ElementTypeOf(DataType::kFloat), c.input(1)->codes[0]);
  const double zero_point = DecodeDouble(type, c.input(2)->codes[0]);
  for (size_t row = 0; row < x.codes.size() / 8; ++row) {
    long double real[8], chain[8], real_sum = 0, chain_sum = 0, top_r = -1e30L, top_c = -1e30L;
    for (size_t j = 0; j < 8; ++j) {
      const double v = (DecodeDouble(type, x.codes[row * 8 + j]) - zero_point) * x_scale;
      real[j] = v, chain[j] = static_cast<float>(v);
      top_r = std::max(top_r, real[j]), top_c = std::max(top_c, chain[j]);
    }
    for (size_t j = 0; j < 8; ++j) {
      real[j] = std::exp(real[j] - top_r), chain[j] = std::exp(chain[j] - top_c);
      real_sum += real[j], chain_sum += chain[j];
    }
    for (size_t j = 0; j < 8; ++j) {
      const long double a = real[j] / real_sum * 512, b = chain[j] / chain_sum * 512;
      if (std::floor(a) != std::floor(b) || std::fabs(a - std::round(a)) < 0x1p-40L) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<GoldenCase> QLinearRealValueCatalogue(CatalogueParts parts) {
  CatalogueBuilder b;
  if (parts != CatalogueParts::kAll) return b.cases;
  const std::pair<const char*, const char*> ops[] = {{"QLinearAdd", "qladd1"},
                                                     {"QLinearMul", "qlmul1"},
                                                     {"QLinearLeakyRelu", "qlleakyrelu1"},
                                                     {"QLinearSigmoid", "qlsig1"},
                                                     {"QLinearGlobalAveragePool", "qlgap1"},
                                                     {"QLinearAveragePool", "qlavgpool1"},
                                                     {"QLinearSoftmax", "qlsoftmax1"},
                                                     {"QLinearConcat", "qlconcat1"},
                                                     {"QLinearWhere", "qlwhere1"}};
  for (const auto& [op, prefix] : ops) {
    const OpSchema* s = ResolveSchema("com.microsoft", op, 1);
    if (s == nullptr) continue;
    int found = 0;
    for (uint64_t seed = 1; seed <= 2000 && found < 3; ++seed) {
      PrngChoices ch(seed);
      Case c = GenerateValid(ch, *s, GeneratorLimits{});
      if (!ChainsDiffer(c, *s)) continue;
      c.id = std::string(prefix) + "-real-value-seed" + std::to_string(seed);
      b.Add(std::move(c), "op:" + std::string(op) + ",boundary:real-value", "d35,d42");
      ++found;
    }
  }
  const OpSchema* softmax = ResolveSchema("com.microsoft", "QLinearSoftmax", 1);
  for (const DataType t : {DataType::kUint8, DataType::kInt8}) {
    int found = 0;
    for (uint64_t draw = 0; draw < 20000 && found < 3 && softmax != nullptr; ++draw) {
      Case c = SoftmaxDraw(t, draw);
      if (!MaybeDiffers(c) || !ChainsDiffer(c, *softmax)) continue;
      c.id = "qlsoftmax1-real-value-" + std::string(ElementTypeOf(t).name) + "-draw" +
             std::to_string(draw);
      b.Add(std::move(c), "op:QLinearSoftmax,boundary:real-value", "d35,d42");
      ++found;
    }
  }
  return b.cases;
}

}  // namespace qconform
