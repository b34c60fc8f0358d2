// A case's cell: the coordinates a report, the conformance matrix and the defect gate group
// cases by (operator version aside): the operand types, the output type and the granularity or
// layout of the parameters. Each operator kind's validated plan gives it, so that nothing above
// the oracle re-derives it from the case's tensors.
#pragma once

#include <string>

#include "oracle/semantics/common/plans.h"

namespace qconform {

struct CaseCell {
  // A graph case's pattern ("QDQ Add", oracle/semantics/graph/graph_oracle.h); "" for one node,
  // whose operator names itself.
  std::string op;
  // The quantized operands' element types in input order, joined by " x ": "int8",
  // "uint8 x int8" (QLinearMatMul's a and b, QLinearConv's x and w).
  std::string operands;
  std::string output;  // the (first) output's element type: "float", "int4"
  // "per-tensor", "per-axis", "blocked"; for the compute families the parameters that are not
  // per tensor: "a per-row", "b per-column", "a per-row, b per-column", "w per-channel".
  std::string granularity;
  // The scale's element type where one tensor's parameters are judged ("float8e8m0"); "" for the
  // compute families. A cell is not split by it: scopes over cells filter by it
  // (suites/mutants/defect_cells.h).
  std::string scale;
  bool known() const { return !operands.empty(); }
};

CaseCell CellOf(const QuantizationPlan& plan);
CaseCell CellOf(const DynamicQuantizePlan& plan);
CaseCell CellOf(const MatMulPlan& plan);
CaseCell CellOf(const ConvPlan& plan);
CaseCell CellOf(const QGemmPlan& plan);
CaseCell CellOf(const MatMulNBitsPlan& plan);
CaseCell CellOf(const MatMulToFloatPlan& plan);
CaseCell CellOf(const GatherBlockQuantizedPlan& plan);
// Any kind's plan; unknown (empty) for none.
CaseCell CellOf(const KindPlan& plan);

}  // namespace qconform
