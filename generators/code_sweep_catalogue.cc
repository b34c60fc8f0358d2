// Every code of DequantizeLinear's x types in every cell: for each version, input type, scale
// (output) type and granularity, a case whose x holds every code of the type (its edges for the
// 16- and 32-bit ones). A defect in how one type is read (a NaN taken for a number, a bias off
// by one, nibbles swapped, subnormals flushed) then changes a result in every cell of that type,
// not only where the per-tensor float cases are (docs/semantics.md#d39). The per-tensor cells
// with a float scale are dequantize_golden_catalogue.cc's every-code cases.
#include <map>
#include <string>
#include <vector>

#include "generators/boundaries.h"
#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/schema.h"

namespace qconform {
namespace {

using D = DataType;

// Two channels (or two rows of blocks) with scales that are not powers of two and are values
// of every float scale type.
constexpr double kScales[] = {0.375, 0.625};
constexpr int64_t kBlockSize = 4;

struct Layout {
  const char* name;
  Granularity granularity;
};
constexpr Layout kLayouts[] = {{"pt", Granularity::kPerTensor},
                               {"axis0", Granularity::kPerAxis},
                               {"blocked", Granularity::kBlocked}};

std::vector<double> Scales(int64_t count) {
  std::vector<double> out;
  for (int64_t k = 0; k < count; ++k) out.push_back(kScales[k % 2]);
  return out;
}

void AddSweepCase(CatalogueBuilder& b, const OpSchema& s, D x, D scale, const Layout& layout) {
  std::vector<uint32_t> codes = EveryCodeOrEdges(ElementTypeOf(x));
  if (codes.size() % 2 != 0) codes.push_back(0);  // two rows
  const auto columns = static_cast<int64_t>(codes.size() / 2);
  std::map<std::string, int64_t> attributes;
  Tensor scale_tensor;
  switch (layout.granularity) {
    case Granularity::kPerTensor:
      scale_tensor = MakeScalar(scale, kScales[0]);
      break;
    case Granularity::kPerAxis:
      scale_tensor = MakeTensor(scale, {2}, Scales(2));
      attributes = {{"axis", 0}};
      break;
    default: {
      const int64_t blocks = (columns + kBlockSize - 1) / kBlockSize;
      scale_tensor = MakeTensor(scale, {2, blocks}, Scales(2 * blocks));
      attributes = {{"axis", 1}, {"block_size", kBlockSize}};
    }
  }
  const std::string id =
      CasePrefix(s) + "-" + TypeName(x) + "-codes-" + layout.name + "-" + TypeName(scale);
  b.Add(MakeCase("DequantizeLinear", s.since_version,
                 {MakeTensorFromCodes(x, {2, columns}, codes), scale_tensor}, attributes,
                 std::string(s.domain), id),
        "type:" + TypeName(x) + ",scale:" + TypeName(scale) + ",output:" + TypeName(scale) +
            ",granularity:" + std::string(GranularityName(layout.granularity)) +
            ",zero_point:no,edges:all-codes",
        "docs/semantics.md#d1 (every code in every cell, docs/semantics.md#d39)");
}

}  // namespace

std::vector<GoldenCase> CodeSweepCatalogue() {
  CatalogueBuilder b;
  for (const OpSchema& s : AllSchemas()) {
    // com.microsoft's DequantizeLinear reads its granularity from the axis' presence; its
    // cells are the type sweep's.
    if (s.kind() != OperatorKind::kDequantizeLinear || !s.domain.empty()) continue;
    for (D x : s.x_types) {
      for (D scale : s.scale_types) {
        if (!s.allows_output(scale)) continue;
        for (const Layout& layout : kLayouts) {
          if (!s.allows(layout.granularity)) continue;
          if (layout.granularity == Granularity::kPerTensor && scale == D::kFloat) continue;
          AddSweepCase(b, s, x, scale, layout);
        }
      }
    }
  }
  return b.cases;
}

}  // namespace qconform
