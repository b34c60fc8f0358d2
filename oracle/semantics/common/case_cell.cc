#include "oracle/semantics/common/case_cell.h"

#include <initializer_list>
#include <type_traits>
#include <utility>

namespace qconform {
namespace {

std::string_view LayoutName(ParameterLayout layout, std::string_view per_row,
                            std::string_view per_column) {
  switch (layout) {
    case ParameterLayout::kPerTensor:
      return "";
    case ParameterLayout::kPerRow:
      return per_row;
    case ParameterLayout::kPerColumn:
      return per_column;
  }
  return "";
}

// The operands whose parameters are not per tensor, each with its layout; "per-tensor" if none.
std::string LayoutsOf(std::initializer_list<std::pair<std::string_view, std::string_view>> parts) {
  std::string out;
  for (const auto& [operand, layout] : parts) {
    if (layout.empty()) continue;
    out += (out.empty() ? "" : ", ") + std::string(operand) + " " + std::string(layout);
  }
  return out.empty() ? "per-tensor" : out;
}

std::string Name(const ElementType* t) {
  return t == nullptr ? "" : std::string(t->name);
}

}  // namespace

CaseCell CellOf(const DynamicQuantizePlan& plan) {
  return {"", Name(plan.x_type), Name(plan.y_type), "per-tensor", ""};
}

CaseCell CellOf(const KindPlan& plan) {
  return std::visit(
      [](const auto& p) -> CaseCell {
        if constexpr (std::is_same_v<std::decay_t<decltype(p)>, std::monostate>) {
          return {};
        } else {
          return CellOf(p);
        }
      },
      plan);
}

CaseCell CellOf(const QuantizationPlan& plan) {
  return {"", Name(plan.x_type), Name(plan.output_type),
          std::string(GranularityName(plan.granularity)), Name(plan.scale_type)};
}

// a's parameters per row of a (one per M), b's per column of b (one per N).
CaseCell CellOf(const MatMulPlan& plan) {
  return {"", Name(plan.a_type) + " x " + Name(plan.b_type), Name(plan.y_type),
          LayoutsOf({{"a", LayoutName(plan.a.layout, "per-row", "per-column")},
                     {"b", LayoutName(plan.b.layout, "per-row", "per-column")}}),
          ""};
}

// w's parameters per output channel (the validation calls that layout per column).
CaseCell CellOf(const QGemmPlan& plan) {
  return {"", Name(plan.a_type) + " x " + Name(plan.b_type), Name(plan.y_type),
          LayoutsOf({{"b", LayoutName(plan.b.layout, "per-column", "per-column")}}), ""};
}

// A's type times the weights' bits ("float x uint4"), blocked, by the zero points' form; level 4
// apart (it admits another function).
CaseCell CellOf(const MatMulNBitsPlan& plan) {
  using ZP = MatMulNBitsPlan::ZeroPoints;
  const char* zero_points = plan.zero_points == ZP::kPacked  ? "packed"
                            : plan.zero_points == ZP::kFloat ? "unpacked"
                                                             : "default";
  return {"", Name(plan.t) + " x uint" + std::to_string(plan.bits), Name(plan.t),
          std::string("blocked, zero points ") + zero_points +
              (plan.accuracy_level == 4 ? ", accuracy_level 4" : ""),
          ""};
}

// A's type (DynamicQuantizeMatMul's float A, quantized inside, reads "float") times B's; Y's
// type; a's parameters per column of A, b's per column of B.
CaseCell CellOf(const MatMulToFloatPlan& plan) {
  return {"", (plan.dynamic ? std::string("float") : Name(plan.a_type)) + " x " + Name(plan.b_type),
          Name(plan.t),
          LayoutsOf({{"a", plan.a_per_column || plan.a_zero_point_per_column ? "per-column" : ""},
                     {"b", plan.b_per_column ? "per-column" : ""}}),
          ""};
}

// data's type ("uint8" of bits < 8 reads "uint8 bits 2") and the output's; blocked, by
// whether zero points are given.
CaseCell CellOf(const GatherBlockQuantizedPlan& plan) {
  return {"",
          Name(plan.data_type) +
              (plan.per_byte > 1 ? " bits " + std::to_string(plan.bits) : std::string()),
          Name(plan.t),
          std::string("blocked, zero points ") + (plan.zero_point_input < 0 ? "default" : "given"),
          ""};
}

CaseCell CellOf(const ConvPlan& plan) {
  return {"", Name(plan.x_type) + " x " + Name(plan.w_type), Name(plan.y_type),
          LayoutsOf({{"w", LayoutName(plan.w.layout, "per-channel", "per-channel")}}), ""};
}

}  // namespace qconform
