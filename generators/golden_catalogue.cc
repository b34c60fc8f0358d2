#include "generators/golden_catalogue.h"

namespace qconform {

std::vector<GoldenCase> GoldenCatalogue() {
  std::vector<GoldenCase> all = DequantizeGoldenCatalogue();
  for (GoldenCase& g : QuantizeGoldenCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : TensorRtGoldenCatalogue()) all.push_back(std::move(g));
  for (auto part : {DequantizeBoundaryCatalogue, CodeSweepCatalogue, QuotientCatalogue,
                    QuantizeBoundaryCatalogue, DynamicBoundaryCatalogue, RuleBoundaryCatalogue,
                    MatMulBoundaryCatalogue, ConvBoundaryCatalogue, MicrosoftQLinearConvCatalogue,
                    ComputeCellCatalogue, SeparatingCellCatalogue, GraphBoundaryCatalogue,
                    GraphOperatorCatalogue, QdqRewriteCatalogue}) {
    for (GoldenCase& g : part()) all.push_back(std::move(g));
  }
  for (GoldenCase& g : QLinearOperatorCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : QGemmGoldenCatalogue()) all.push_back(std::move(g));
  return all;
}

std::vector<GoldenCase> QLinearOperatorCatalogue(CatalogueParts parts) {
  std::vector<GoldenCase> all;
  for (auto part : {QLinearGroupCatalogue, QLinearAddMultiplierCatalogue, QLinearConcatCatalogue,
                    QLinearWhereCatalogue, QLinearPoolCatalogue}) {
    for (GoldenCase& g : part(parts)) all.push_back(std::move(g));
  }
  return all;
}

}  // namespace qconform
