#include "generators/golden_catalogue.h"

namespace qconform {

std::vector<GoldenCase> GoldenCatalogue() {
  std::vector<GoldenCase> all = DequantizeGoldenCatalogue();
  for (GoldenCase& g : QuantizeGoldenCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : TensorRtGoldenCatalogue()) all.push_back(std::move(g));
  for (auto part : {DequantizeBoundaryCatalogue, QuantizeBoundaryCatalogue,
                    DynamicBoundaryCatalogue, RuleBoundaryCatalogue, MatMulBoundaryCatalogue,
                    ConvBoundaryCatalogue, GraphBoundaryCatalogue, GraphOperatorCatalogue,
                    QLinearGroupCatalogue, QLinearConcatCatalogue, QLinearWhereCatalogue}) {
    for (GoldenCase& g : part()) all.push_back(std::move(g));
  }
  return all;
}

}  // namespace qconform
