// d42's golden cases: com.microsoft QLinear operators whose page formula's real value rounds to
// another code than the float32 dequantize chain does (a real value of 2.5000000641 beside the
// chain's tie 2.5). Found by search: for each operator, the generated valid cases of seeds 1 to
// 2,000 (valid_cases.h, the same draws the property tests make) in order, keeping the first three
// where some element's exact code (the real value's) differs from the graph's float32 chain's.
// The golden output then holds the real value's code, and the range admits the chain's.
// QLinearMul and QLinearSigmoid have none in those seeds: Mul's DequantizeLinear nodes take
// scale 1 (exact; the scales' product is the page's own float step), and Sigmoid's chain
// differs only where its TOSA bound already spans both codes.
#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/valid_cases.h"
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
  return b.cases;
}

}  // namespace qconform
