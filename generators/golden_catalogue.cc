#include "generators/golden_catalogue.h"

#include <set>
#include <stdexcept>

namespace qconform {

std::vector<GoldenCase> GoldenCatalogue() {
  std::vector<GoldenCase> all = DequantizeGoldenCatalogue();
  for (GoldenCase& g : QuantizeGoldenCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : TensorRtGoldenCatalogue()) all.push_back(std::move(g));
  for (auto part : {DequantizeBoundaryCatalogue, CodeSweepCatalogue, QuotientCatalogue,
                    QuantizeBoundaryCatalogue, DynamicBoundaryCatalogue, RuleBoundaryCatalogue,
                    MatMulBoundaryCatalogue, ConvBoundaryCatalogue, MicrosoftQLinearConvCatalogue,
                    ComputeCellCatalogue, SeparatingCellCatalogue, GraphBoundaryCatalogue,
                    GraphOperatorCatalogue, QdqRewriteCatalogue, KernelKindsCatalogue}) {
    for (GoldenCase& g : part()) all.push_back(std::move(g));
  }
  for (GoldenCase& g : QLinearOperatorCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : QGemmGoldenCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : MatMulNBitsGoldenCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : MatMulToFloatGoldenCatalogue()) all.push_back(std::move(g));
  for (GoldenCase& g : GatherBlockQuantizedCatalogue()) all.push_back(std::move(g));
  // A case is its directory: two cases of one id would overwrite each other.
  std::set<std::string> ids;
  for (const GoldenCase& g : all) {
    if (!ids.insert(g.c.id).second) {
      throw std::logic_error("the golden catalogue holds two cases named " + g.c.id +
                             ": one would overwrite the other's directory");
    }
  }
  return all;
}

std::vector<GoldenCase> QLinearOperatorCatalogue(CatalogueParts parts) {
  std::vector<GoldenCase> all;
  for (auto part : {QLinearGroupCatalogue, QLinearAddMultiplierCatalogue, QLinearConcatCatalogue,
                    QLinearWhereCatalogue, QLinearPoolCatalogue, QLinearRealValueCatalogue,
                    RequantizeSeparationCatalogue}) {
    for (GoldenCase& g : part(parts)) all.push_back(std::move(g));
  }
  return all;
}

}  // namespace qconform
