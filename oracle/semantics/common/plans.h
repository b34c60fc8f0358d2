// What each kind's validation settles about a valid case, the one plan a kind's evaluation reads
// and the oracle returns (OracleResult::plan, oracle/semantics/common/oracle_result.h), so that
// nothing above the oracle re-derives it from the case's tensors: operand types, parameter
// layouts, geometry, attributes. The linear operators' plan and the QLinear groups' is the
// registry's QuantizationPlan (oracle/registry/plan.h); DynamicQuantizeLinear's is its x type.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "oracle/core/conv_shape.h"
#include "oracle/core/element_type.h"
#include "oracle/core/matmul_shape.h"
#include "oracle/registry/plan.h"
#include "oracle/semantics/common/operand_checker.h"

namespace qconform {

// DynamicQuantizeLinear: x's type; y is uint8, its parameters computed per tensor.
struct DynamicQuantizePlan {
  const ElementType* x_type = nullptr;
  const ElementType* y_type = nullptr;
};

struct MatMulPlan {
  MatMulGeometry geometry;
  OperandInputs a, b, y;  // y: its scale and zero point only
  const ElementType* a_type = nullptr;
  const ElementType* b_type = nullptr;
  const ElementType* y_type = nullptr;      // QLinearMatMul: y_zero_point's; MatMulInteger: int32
  const ElementType* scale_type = nullptr;  // QLinearMatMul only
  // float8 operands or output: the computation goes through exact values (docs/semantics.md#d27).
  bool through_values = false;
};

struct ConvPlan {
  ConvGeometry geometry;
  OperandInputs x, w, y;  // by input position; w's layout kPerColumn when per output channel
  int bias = -1;          // B's position, -1 when absent
  const ElementType* x_type = nullptr;
  const ElementType* w_type = nullptr;
  const ElementType* y_type = nullptr;  // QLinearConv: y_zero_point's; ConvInteger: int32
  bool w_per_channel() const { return w.layout != ParameterLayout::kPerTensor; }
};

struct QGemmPlan {
  int64_t m = 0, n = 0, k = 0;
  bool trans_a = false, trans_b = false;
  OperandInputs a, b, y;  // b's layout kPerColumn when its parameters are [N]
  int c = -1;             // C's position, -1 when absent
  const ElementType* a_type = nullptr;
  const ElementType* b_type = nullptr;
  const ElementType* y_type = nullptr;  // y_zero_point's type, or float
  float alpha = 1;
  bool float_output() const { return y_type != nullptr && y_type->id == DataType::kFloat; }
  bool b_per_column() const { return b.layout != ParameterLayout::kPerTensor; }
};

struct MatMulNBitsPlan {
  int64_t m = 0;  // A's rows (every dimension but the last)
  int64_t k = 0, n = 0, bits = 4, block_size = 0, k_blocks = 0, blob_size = 0;
  int64_t accuracy_level = 0;
  std::vector<int64_t> y_shape;
  const ElementType* t = nullptr;  // A's type: scales, bias and Y share it
  // The least precise evaluation accuracy_level admits (d40): A's type at levels 0 and 4,
  // float32, float16, bfloat16 at 1, 2, 3. `converts`: one of the types the level admits
  // (EvaluationTypesOf) does not hold every value of A's type, so A, the scales and the bias
  // are rounded into it first (the exact path alone computes those).
  const ElementType* e = nullptr;
  bool converts = false;
  enum class ZeroPoints { kDefault, kPacked, kFloat } zero_points = ZeroPoints::kDefault;
  int zero_point_input = -1, g_idx = -1, bias = -1;  // positions, -1 when absent
};

struct MatMulToFloatPlan {
  MatMulGeometry geometry;
  OperandInputs a, b;  // a.scale -1 for DynamicQuantizeMatMul (its scale is computed)
  int bias = -1;
  bool dynamic = false;       // A is float, quantized by DynamicQuantizeLinear's procedure
  bool a_per_column = false;  // a_scale is [K] (per column of A): Y sums over K
  bool a_zero_point_per_column = false;  // a_zero_point is [K]
  bool b_per_column = false;             // b_scale or b_zero_point is [N]
  const ElementType* a_type = nullptr;   // uint8 for DynamicQuantizeMatMul
  const ElementType* b_type = nullptr;
  const ElementType* t = nullptr;  // the scales', the bias' and Y's type
};

struct GatherBlockQuantizedPlan {
  const ElementType* data_type = nullptr;  // T1: int4, uint4 or uint8
  const ElementType* t = nullptr;          // T2: the scales' and the output's type
  int64_t bits = 4, block_size = 128, gather_axis = 0, quantize_axis = 1;
  int64_t per_byte = 1;  // codes per byte of uint8 data (8 / bits); 1 otherwise
  // data's shape in codes (uint8 of bits < 8: the last dimension times per_byte), the scales'
  // and the output's.
  std::vector<int64_t> logical_shape, scale_shape, y_shape;
  std::vector<int64_t> indices;  // indices' values, negative ones wrapped into [0, s)
  int zero_point_input = -1;     // -1 when absent
};

// One plan per kind of operator (OperatorKind); monostate for a case that is must-reject, a graph
// case or one the oracle did not validate.
using KindPlan =
    std::variant<std::monostate, QuantizationPlan, DynamicQuantizePlan, MatMulPlan, ConvPlan,
                 QGemmPlan, MatMulNBitsPlan, MatMulToFloatPlan, GatherBlockQuantizedPlan>;

}  // namespace qconform
