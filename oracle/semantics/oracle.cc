#include "oracle/semantics/oracle.h"

#include <algorithm>
#include <memory>

#include "oracle/semantics/graph_output_specs.h"
#include "oracle/semantics/linear/dequantize.h"
#include "oracle/semantics/profiles/profile.h"

#include "oracle/semantics/float_output/gather_block_quantized.h"
#include "oracle/semantics/float_output/matmul_nbits.h"
#include "oracle/semantics/float_output/matmul_to_float.h"
#include "oracle/semantics/graph/graph_oracle.h"
#include "oracle/semantics/integer/channels_last.h"
#include "oracle/semantics/integer/conv_integer.h"
#include "oracle/semantics/integer/matmul_integer.h"
#include "oracle/semantics/integer/qgemm.h"
#include "oracle/semantics/integer/qlinear_conv.h"
#include "oracle/semantics/integer/qlinear_matmul.h"
#include "oracle/semantics/linear/dynamic_quantize.h"
#include "oracle/semantics/linear/quantize.h"
#include "oracle/semantics/qlinear_group/qlinear_group.h"

namespace qconform {
namespace {

OracleResult RunDequantize(const Case& c, const OpSchema& schema, const EvaluateOptions& options) {
  OracleResult r;
  LinearValidation v = ValidateDequantize(c, schema);
  r.findings = std::move(v.findings);
  if (!v.plan) return r;
  r.outputs.push_back(EvaluateDequantize(c, schema, *v.plan, options));
  r.plan = *v.plan;
  r.cell = CellOf(r.plan);
  return r;
}

OracleResult RunQuantize(const Case& c, const OpSchema& schema, const EvaluateOptions& options) {
  OracleResult r;
  LinearValidation v = ValidateQuantize(c, schema);
  r.findings = std::move(v.findings);
  if (!v.plan) return r;
  r.plan = *v.plan;
  r.cell = CellOf(r.plan);
  r.outputs.push_back(EvaluateQuantize(c, schema, *v.plan, options));
  const bool float_zero_point =
      std::any_of(r.findings.begin(), r.findings.end(),
                  [](const Finding& f) { return f.rule->id == "ql.zero_point.float_nonzero"; });
  if (float_zero_point) {
    // A float8 y_zero_point is "usually not used": ignoring it is admissible as a whole outcome
    // (docs/semantics.md#d11, revised), besides adding it and refusing the case.
    Case ignored = c;
    Tensor& zero_point = *ignored.inputs[2];
    for (size_t i = 0; i < zero_point.codes.size(); ++i) zero_point.codes.set(i, 0);
    OracleOutcome outcome{"zero point ignored",
                          {EvaluateQuantize(ignored, schema, *v.plan, options)}};
    outcome.outputs[0].describe_inputs = nullptr;  // they would point into `ignored`
    outcome.outputs[0].diagnose = nullptr;
    r.other_outcomes.push_back(std::move(outcome));
  }
  const OutputEvaluation& y = r.outputs.front();
  for (size_t i = 0; i < y.implementation_defined.size(); ++i) {
    if (!y.is_free(i)) continue;
    r.findings.push_back({&RuleById("ql.nan.integer"),
                          schema.label() + ": y[" + std::to_string(i) + "] (" +
                              y.describe_inputs(static_cast<int64_t>(i)) + ") is NaN into " +
                              DataTypeName(y.data_type) + ", which has no NaN"});
    break;
  }
  return r;
}

OracleResult RunDynamic(const Case& c, const OpSchema& schema, const EvaluateOptions& options) {
  DynamicQuantizeResult d = RunDynamicQuantize(c, schema, options);
  OracleResult r;
  r.findings = std::move(d.findings);
  r.outputs = std::move(d.outputs);
  r.other_outcomes = std::move(d.other_outcomes);
  // One cell: x's type to uint8, the parameters computed per tensor.
  const ElementType* x =
      c.inputs.empty() || !c.inputs[0] ? nullptr : FindElementType(c.inputs[0]->data_type);
  if (x != nullptr && !r.outputs.empty()) {
    r.plan = DynamicQuantizePlan{x, FindElementType(r.outputs[0].data_type)};
    r.cell = CellOf(r.plan);
  }
  return r;
}

// The compute families: one validation per family, then the operator's evaluation of its plan
// (QLinearMatMul's or MatMulInteger's, QLinearConv's or ConvInteger's); the com.microsoft QLinear
// operators: the page's validation, then the row's graph (d35).
template <auto Validate, auto Evaluate>
OracleResult RunValidated(const Case& c, const OpSchema& schema, const EvaluateOptions& options) {
  OracleResult r;
  auto v = Validate(c, schema);
  r.findings = std::move(v.findings);
  if (!v.plan) return r;
  r.outputs.push_back(Evaluate(c, schema, *v.plan, options));
  r.plan = *v.plan;
  r.cell = CellOf(r.plan);
  return r;
}

// com.microsoft QLinearConv with channels_last 1: the channels-first case's oracle, y moved back
// (oracle/semantics/integer/channels_last.h); its cell's layout says channels-last.
template <auto Validate, auto Evaluate>
OracleResult RunChannelsLast(const Case& c, const OpSchema& schema,
                             const EvaluateOptions& options) {
  const auto first = std::make_shared<const Case>(ChannelsFirstCase(c, "x"));
  OracleResult r = RunValidated<Validate, Evaluate>(*first, schema, options);
  for (Finding& f : r.findings) f.message += " (channels_last 1: x read as N x C x D1 ...)";
  for (OutputEvaluation& y : r.outputs) MoveToChannelsLast(y, first);
  if (r.cell.known()) r.cell.granularity += ", channels-last";
  return r;
}

// The oracle's entry point per kind of operator (the registry's OperatorKind).
OracleResult RunKind(const Case& c, const OpSchema& schema, const EvaluateOptions& options) {
  switch (schema.kind()) {
    case OperatorKind::kDequantizeLinear:
      return RunDequantize(c, schema, options);
    case OperatorKind::kQuantizeLinear:
      return RunQuantize(c, schema, options);
    case OperatorKind::kDynamicQuantizeLinear:
      return RunDynamic(c, schema, options);
    case OperatorKind::kQLinearMatMul:
      return RunValidated<ValidateMatMul, EvaluateQLinearMatMul>(c, schema, options);
    case OperatorKind::kMatMulInteger:
      return RunValidated<ValidateMatMul, EvaluateMatMulInteger>(c, schema, options);
    case OperatorKind::kQLinearConv:
      if (ReadsChannelsLast(c, schema)) {
        return RunChannelsLast<ValidateConv, EvaluateQLinearConv>(c, schema, options);
      }
      return RunValidated<ValidateConv, EvaluateQLinearConv>(c, schema, options);
    case OperatorKind::kConvInteger:
      return RunValidated<ValidateConv, EvaluateConvInteger>(c, schema, options);
    case OperatorKind::kQLinearGroup:
      return RunValidated<ValidateQLinearGroup, EvaluateQLinearGroup>(c, schema, options);
    case OperatorKind::kQGemm:
      return RunValidated<ValidateQGemm, EvaluateQGemm>(c, schema, options);
    case OperatorKind::kMatMulNBits:
      return RunValidated<ValidateMatMulNBits, EvaluateMatMulNBits>(c, schema, options);
    case OperatorKind::kMatMulIntegerToFloat:
      return RunValidated<ValidateMatMulToFloat, EvaluateMatMulToFloat>(c, schema, options);
    case OperatorKind::kGatherBlockQuantized:
      return RunValidated<ValidateGatherBlockQuantized, EvaluateGatherBlockQuantized>(c, schema,
                                                                                      options);
  }
  throw OracleError("case " + c.id + ": no oracle for " + schema.label());
}

void CheckCodesFitShapes(const Case& c) {
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const Tensor* t = c.input(k);
    if (t == nullptr || FindElementType(t->data_type) == nullptr) continue;
    if (std::any_of(t->shape.begin(), t->shape.end(), [](int64_t d) { return d < 0; })) continue;
    if (static_cast<int64_t>(t->codes.size()) != t->element_count()) {
      throw OracleError("case " + c.id + ": input " + std::to_string(k) + " holds " +
                        std::to_string(t->codes.size()) + " codes but its shape " +
                        ShapeString(t->shape) + " has " + std::to_string(t->element_count()) +
                        " elements");
    }
  }
}

}  // namespace

OracleResult RunOracle(const Case& c, const EvaluateOptions& given) {
  EvaluateOptions options = given;
  if (options.node_oracle == nullptr) options.node_oracle = RunOracle;
  if (!c.profile.empty()) {
    const Profile* profile = FindProfile(c.profile);
    if (profile == nullptr) {
      throw OracleError("case " + c.id + ": unknown profile '" + c.profile +
                        "' (known: " + ProfileNames() + ")");
    }
    auto plain = std::make_shared<Case>(profile->read_as(c));
    plain->profile.clear();
    OracleResult r = RunOracle(*plain, options);
    r.read_as = std::move(plain);  // the outputs' describe_inputs read its tensors
    for (Finding& f : profile->check(c)) r.findings.push_back(std::move(f));
    if (r.must_reject()) r.KeepOnlyTheRejection();
    return r;
  }
  if (c.is_graph()) {
    if (c.opset > NewestKnownOpset("")) {
      throw OracleError("case " + c.id + ": opset " + std::to_string(c.opset) +
                        " is newer than the newest the oracle knows");
    }
    OracleResult r = RunGraphOracle(c, options);
    RememberGraphOutputSpecs(c, r);
    return r;
  }
  const std::string label = OperatorLabel(c.domain, c.op_type, c.opset);
  const Operator* op = FindOperator(c.domain, c.op_type);
  if (op == nullptr || NewestKnownVersion(c.domain, c.op_type) == 0) {
    throw OracleError("case " + c.id + ": the oracle does not know " + label);
  }
  if (c.opset > NewestKnownOpset(c.domain)) {
    throw OracleError("case " + c.id + ": opset " + std::to_string(c.opset) +
                      " is newer than the newest the oracle knows (" +
                      std::to_string(NewestKnownOpset(c.domain)) + ")");
  }
  CheckCodesFitShapes(c);
  const OpSchema* schema = ResolveSchema(c.domain, c.op_type, c.opset);
  if (schema == nullptr) {
    OracleResult r;
    r.op = op;
    r.findings.push_back({&RuleById("op.not_in_opset"),
                          c.op_type + " does not exist at opset " + std::to_string(c.opset)});
    return r;
  }
  OracleResult r = RunKind(c, *schema, options);
  r.op = op;
  r.schema = schema;
  return r;
}

}  // namespace qconform
