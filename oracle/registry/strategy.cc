#include "oracle/registry/strategy.h"

#include <iterator>
#include <stdexcept>
#include <string>

namespace qconform {
namespace {

struct StrategyRow {
  Strategy strategy;
  std::string_view name;
  const ElementType* (*working)(const QuantizationPlan&);
};

const ElementType* None(const QuantizationPlan&) {
  return nullptr;
}
const ElementType* Float32(const QuantizationPlan&) {
  return &ElementTypeOf(DataType::kFloat);
}
const ElementType* OutputType(const QuantizationPlan& p) {
  return p.output_type;
}
const ElementType* PrecisionType(const QuantizationPlan& p) {
  return p.precision_type;
}

constexpr StrategyRow kStrategies[] = {
    {Strategy::kExact, "exact", None},
    {Strategy::kF32, "f32", Float32},
    {Strategy::kOut, "out", OutputType},
    {Strategy::kPrecision, "precision", PrecisionType},
    {Strategy::kExactQuotient, "exact-quotient", None},
    {Strategy::kReciprocal, "reciprocal", Float32},
    {Strategy::kOnnxReference, "onnx-reference", None},
    {Strategy::kQ31DoubleRound, "q31-double-round", None},
    {Strategy::kQ31SingleRound, "q31-single-round", None},
    {Strategy::kMantissaTiesUp, "mantissa-ties-up", None},
    {Strategy::kZeroPointFirst, "zero-point-first", None},
    {Strategy::kInt16PairSaturation, "int16-pair-saturation", None},
    {Strategy::kInt32Wrap, "int32-wrap", None},
    {Strategy::kTiesAway, "ties-away", None},
    {Strategy::kTiesUp, "ties-up", None},
    {Strategy::kFloorReciprocal, "floor-reciprocal", None},
    {Strategy::kMinimumOnOverflow, "minimum-on-overflow", None},
    {Strategy::kPaddingCounted, "padding-counted", None},
    {Strategy::kFixedPoint21, "fixed-point-21", None},
    {Strategy::kFixedPoint22, "fixed-point-22", None},
};

// Row k describes strategy k: the lookup below indexes by the enum, so every strategy has its
// row (a strategy added without one fails to compile, never reads past the table).
static_assert(std::size(kStrategies) == static_cast<size_t>(Strategy::kCount),
              "every Strategy needs its row in kStrategies");
constexpr bool RowsInEnumOrder() {
  for (size_t k = 0; k < std::size(kStrategies); ++k) {
    if (static_cast<size_t>(kStrategies[k].strategy) != k) return false;
  }
  return true;
}
static_assert(RowsInEnumOrder());

const StrategyRow& Row(Strategy s) {
  const auto k = static_cast<size_t>(s);
  if (k >= std::size(kStrategies)) throw std::logic_error("no strategy " + std::to_string(k));
  return kStrategies[k];
}

}  // namespace

std::string_view StrategyName(Strategy s) {
  return Row(s).name;
}

std::optional<Strategy> StrategyFromName(std::string_view name) {
  for (const StrategyRow& r : kStrategies) {
    if (r.name == name) return r.strategy;
  }
  return std::nullopt;
}

const ElementType* WorkingType(Strategy s, const QuantizationPlan& plan) {
  return Row(s).working(plan);
}

}  // namespace qconform
