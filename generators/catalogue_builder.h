// What every golden catalogue builder shares: the list of cases it adds to, the seed of a case's
// values (from its id, so the catalogue is the same on every machine) and type names for the
// manifest's feature tags.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "generators/golden_catalogue.h"
#include "oracle/core/element_type.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/schema.h"

namespace qconform {

class CatalogueBuilder {
 public:
  std::vector<GoldenCase> cases;

  void Add(Case c, std::string features, std::string decision, std::string rule = "") {
    cases.push_back({std::move(c), std::move(features), std::move(decision), std::move(rule)});
  }
};

// FNV-1a of the case id: the PRNG seed of a case's values.
uint64_t CaseSeed(const std::string& id);
// "int8"
std::string TypeName(DataType t);
// The registry row's case-id prefix and the version: "dq21", "msdq1", "msql1".
std::string CasePrefix(const OpSchema& s);
// The y_scale type a QuantizeLinear case of x type `x` is given: x's own type where the version
// ties them (19, 21: "y_scale: T1") or allows it, else float.
DataType QuantizeScaleType(const OpSchema& s, DataType x);
// The number of elements of a tensor of this shape (1 for a scalar).
int64_t ShapeElements(const std::vector<int64_t>& shape);
// A tensor of `type` and `shape` holding `value` everywhere (the must-reject cases' operands).
Tensor Filled(DataType type, const std::vector<int64_t>& shape, double value);
// `inputs` with input `at` replaced by `t` (grown to hold it): a base case broken in one place.
std::vector<std::optional<Tensor>> WithInput(std::vector<std::optional<Tensor>> inputs, size_t at,
                                             std::optional<Tensor> t);
// The three layouts of a [rows, columns] x whose parameters vary along its rows: per tensor,
// per axis (axis 0, one parameter per row), blocked (axis 1, one per block of kRowBlockSize).
struct RowLayout {
  const char* name;  // in case ids: "pt", "axis0", "blocked"
  Granularity granularity;
};
inline constexpr RowLayout kRowLayouts[] = {{"pt", Granularity::kPerTensor},
                                            {"axis0", Granularity::kPerAxis},
                                            {"blocked", Granularity::kBlocked}};
inline constexpr int64_t kRowBlockSize = 4;
// The parameters' shape and the node's axis and block_size for x of [rows, columns].
struct RowParameters {
  std::vector<int64_t> shape;
  std::map<std::string, int64_t> attributes;
};
RowParameters RowLayoutParameters(Granularity g, int64_t rows, int64_t columns);
// The matmul family's integer cells: its operand type pairs, and its parameter granularities
// (per tensor, a per row, b per column, both), named as in case ids.
inline constexpr std::pair<DataType, DataType> kIntegerOperandPairs[] = {
    {DataType::kUint8, DataType::kUint8},
    {DataType::kUint8, DataType::kInt8},
    {DataType::kInt8, DataType::kUint8},
    {DataType::kInt8, DataType::kInt8}};
struct MatMulGrain {
  const char* name;  // "pt", "row", "col", "row-col"
  bool rows, columns;
};
inline constexpr MatMulGrain kMatMulGrains[] = {
    {"pt", false, false}, {"row", true, false}, {"col", false, true}, {"row-col", true, true}};
// The case with these node attributes.
Case WithAttributes(Case c, std::map<std::string, Attribute> attributes);

}  // namespace qconform
