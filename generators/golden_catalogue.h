// The golden catalogue: a deterministic list of small cases that qconform checks in as ONNX
// backend test data (golden/). It covers every DequantizeLinear version x input type x
// granularity x zero point, the scale and output types, each type's edge codes, the
// double-rounding traps, the specification pages' examples, and one negative case per must-reject
// rule. Values come from a PRNG seeded by the case id, so the catalogue is the same on every
// machine.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace qconform {

struct GoldenCase {
  Case c;                // c.id names the case directory
  std::string features;  // comma-separated key:value tags, e.g. "type:int4,granularity:blocked"
  std::string
      decision;  // what the case exercises: a decision number or a specification page's example
  std::string intended_rule;  // for negative cases: the rule the oracle must name; else ""
  // A second node fed by c's output (a Quantize -> Dequantize model); its x is absent.
  std::optional<Case> then = {};
};

// One builder per part (dequantize_golden_catalogue.cc, quantize_golden_catalogue.cc with
// DynamicQuantizeLinear, tensorrt_golden_catalogue.cc).
std::vector<GoldenCase> DequantizeGoldenCatalogue();
std::vector<GoldenCase> QuantizeGoldenCatalogue();
std::vector<GoldenCase> TensorRtGoldenCatalogue();
// The boundary-built cases (quantize_boundary_catalogue.cc, dequantize_boundary_catalogue.cc,
// dynamic_boundary_catalogue.cc, rule_boundary_catalogue.cc): one case per cell and boundary
// class, built from ties, saturation edges and special values by code (generators/boundaries.h).
std::vector<GoldenCase> QuantizeBoundaryCatalogue();
std::vector<GoldenCase> DequantizeBoundaryCatalogue();
std::vector<GoldenCase> DynamicBoundaryCatalogue();
std::vector<GoldenCase> RuleBoundaryCatalogue();
// Every code of DequantizeLinear's x and QuantizeLinear's y in every cell
// (code_sweep_catalogue.cc).
std::vector<GoldenCase> CodeSweepCatalogue();
// Layouts and accumulations in every cell of the matmul and convolution families
// (compute_cell_catalogue.cc).
std::vector<GoldenCase> ComputeCellCatalogue();
// QLinearMatMul's requantization strategies separated in every integer cell
// (separating_cell_catalogue.cc).
std::vector<GoldenCase> SeparatingCellCatalogue();
// QuantizeLinear 19/21 inputs whose quotient rounded in a 16-bit x's type crosses a tie
// (quotient_catalogue.cc).
std::vector<GoldenCase> QuotientCatalogue();
// The matmul family (matmul_boundary_catalogue.cc; its version-21 half and rule cases in
// matmul_rule_catalogue.cc).
std::vector<GoldenCase> MatMulBoundaryCatalogue();
std::vector<GoldenCase> MatMulVersion21Catalogue();
std::vector<GoldenCase> MatMulRuleCatalogue();
// The convolution family (conv_boundary_catalogue.cc; its rule cases in conv_rule_catalogue.cc).
std::vector<GoldenCase> ConvBoundaryCatalogue();
std::vector<GoldenCase> ConvRuleCatalogue();
// com.microsoft QLinearConv 1: QLinearConv-10's cases with x channels-last, and its rules there
// (ms_qlinear_conv_catalogue.cc).
std::vector<GoldenCase> MicrosoftQLinearConvCatalogue();
// Graph cases: one QDQ group per float operator the graph oracle computes
// (graph_golden_catalogue.cc).
std::vector<GoldenCase> GraphBoundaryCatalogue();
// Graph cases of the other float operators (graph_operator_catalogue.cc).
std::vector<GoldenCase> GraphOperatorCatalogue();
// The QDQ groups a runtime's optimizer rewrites, each where a rewrite of d32 computes another
// function (qdq_rewrite_catalogue.cc).
std::vector<GoldenCase> QdqRewriteCatalogue();
// Kernel authors' mistakes in the cells whose other cases miss them, three cases per cell
// (kernel_kinds_catalogue.cc).
std::vector<GoldenCase> KernelKindsCatalogue();
// Which cases a catalogue builds: all of them, or only the ones that break a rule (what the rule
// coverage test needs, without the boundary cells' searches).
enum class CatalogueParts { kAll, kRules };
// The com.microsoft QLinear operators (qlinear_group_catalogue.cc): boundaries and rules.
std::vector<GoldenCase> QLinearGroupCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// QLinearAdd's fixed-point multiplier cases (generators/qlinear_add_multiplier_catalogue.cc).
std::vector<GoldenCase> QLinearAddMultiplierCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// QLinearConcat's (generators/qlinear_concat_catalogue.cc).
std::vector<GoldenCase> QLinearConcatCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// d42's real-value codes, found by search (generators/qlinear_real_value_catalogue.cc).
std::vector<GoldenCase> QLinearRealValueCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// Two requantization defects separated in every cell of the com.microsoft QLinear operators and
// QGemm (generators/requantize_separation_catalogue.cc).
std::vector<GoldenCase> RequantizeSeparationCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// QLinearWhere's (generators/qlinear_where_catalogue.cc).
std::vector<GoldenCase> QLinearWhereCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// QLinearAveragePool's (generators/qlinear_pool_catalogue.cc).
std::vector<GoldenCase> QLinearPoolCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// Every com.microsoft QLinear operator's: the ones above, in the golden catalogue's order.
std::vector<GoldenCase> QLinearOperatorCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// com.microsoft QGemm's (generators/qgemm_catalogue.cc).
std::vector<GoldenCase> QGemmGoldenCatalogue(CatalogueParts parts = CatalogueParts::kAll);
// com.microsoft MatMulNBits' (generators/matmul_nbits_catalogue.cc) and its must-reject cases
// (matmul_nbits_rejects.cc).
std::vector<GoldenCase> MatMulNBitsGoldenCatalogue(CatalogueParts parts = CatalogueParts::kAll);
std::vector<GoldenCase> MatMulNBitsRejectCases();
// com.microsoft MatMulIntegerToFloat's and DynamicQuantizeMatMul's
// (generators/matmul_to_float_catalogue.cc) and their must-reject cases
// (matmul_to_float_rejects.cc).
std::vector<GoldenCase> MatMulToFloatGoldenCatalogue(CatalogueParts parts = CatalogueParts::kAll);
std::vector<GoldenCase> MatMulToFloatRejectCases();
// com.microsoft GatherBlockQuantized's (generators/gather_block_quantized_catalogue.cc), its
// must-reject cases first (gather_block_quantized_rejects.cc).
std::vector<GoldenCase> GatherBlockQuantizedCatalogue(CatalogueParts parts = CatalogueParts::kAll);
std::vector<GoldenCase> GatherBlockQuantizedRejectCases();
// All of them, the boundary-built ones after the first three: what golden/ holds.
std::vector<GoldenCase> GoldenCatalogue();

}  // namespace qconform
