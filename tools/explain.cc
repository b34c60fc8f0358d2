// `qconform explain CASE_DIR [--index I] [--observed DIR] [--admit NAME]`: the exact computation of
// one output element, step by step, for every strategy the version admits, with the backend's
// value beside each result when its outputs are given. Without --index: the first inadmissible
// element, with the strategies a run admitted by name (--admit) admitted here too.
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <optional>

#include "onnx_io/case_io.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/common/scale_index.h"
#include "oracle/semantics/integer/matmul_validation.h"
#include "oracle/semantics/integer/qlinear_matmul.h"
#include "oracle/semantics/linear/dequantize.h"
#include "oracle/semantics/linear/quantize.h"
#include "oracle/semantics/oracle.h"
#include "oracle/semantics/qlinear_group/qlinear_group.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/explain_conv.h"
#include "tools/explain_float_output.h"
#include "tools/explain_format.h"
#include "tools/explain_graph.h"
#include "tools/explain_qgemm.h"
#include "tools/run_options.h"
#include "verdict/comparator.h"

namespace qconform::tools {
namespace {

void ExplainDequantize(const Case& c, const OracleResult& result, int64_t index,
                       const Observed& observed) {
  const QuantizationPlan& plan = std::get<QuantizationPlan>(result.plan);
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  const Tensor* zp = c.input(2);
  const ScaleIndex scale_index(plan.granularity, x.shape, plan.axis, plan.block_size);
  const int64_t k = scale_index(index);
  std::printf("%s, %s", result.schema->label().c_str(),
              std::string(GranularityName(plan.granularity)).c_str());
  if (plan.granularity != Granularity::kPerTensor) std::printf(" along axis %d", plan.axis);
  if (plan.granularity == Granularity::kBlocked)
    std::printf(", block_size %lld", static_cast<long long>(plan.block_size));
  std::printf("\nelement %lld at %s uses x_scale element %lld at %s\n\n",
              static_cast<long long>(index), ShapeString(Coordinates(x.shape, index)).c_str(),
              static_cast<long long>(k), ShapeString(Coordinates(scale.shape, k)).c_str());
  const std::optional<uint32_t> zc = zp ? std::optional<uint32_t>(zp->codes[k]) : std::nullopt;
  std::printf("  x            %s\n", Show(*plan.x_type, x.codes[index]).c_str());
  std::printf("  x_zero_point %s\n", zc ? Show(*plan.x_type, *zc).c_str() : "absent (0)");
  std::printf("  x_scale      %s\n", Show(*plan.scale_type, scale.codes[k]).c_str());
  std::printf("  output type  %s\n\n", std::string(plan.output_type->name).c_str());
  for (Strategy s : result.schema->strategies) {
    const ElementType* working = WorkingType(s, plan);
    const DequantizeSteps st = DequantizeElement(*plan.x_type, x.codes[index], zc, *plan.scale_type,
                                                 scale.codes[k], working, *plan.output_type);
    std::printf("  [%s]\n", std::string(StrategyName(s)).c_str());
    std::printf("    x - x_zero_point        = %s\n", st.difference.ToString().c_str());
    if (working != nullptr) {
      std::printf("    rounded to %-12s = %s\n", std::string(working->name).c_str(),
                  st.difference_rounded.ToString().c_str());
      std::printf("    x_scale in %-12s = %s\n", std::string(working->name).c_str(),
                  st.scale_rounded.ToString().c_str());
      std::printf("    product in %-12s = %s\n", std::string(working->name).c_str(),
                  st.product.ToString().c_str());
    } else {
      std::printf("    (x - x_zero_point) * x_scale = %s  (exact)\n",
                  st.product.ToString().c_str());
    }
    std::printf("    rounded once to %s  -> %s\n", std::string(plan.output_type->name).c_str(),
                Show(*plan.output_type, st.code).c_str());
    PrintBackend(*plan.output_type, observed, st.code);
    std::printf("\n");
  }
}

void ExplainQuantize(const Case& c, const OracleResult& result, int64_t index,
                     const Observed& observed) {
  const QuantizationPlan& plan = std::get<QuantizationPlan>(result.plan);
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  const Tensor* zp = c.input(2);
  const int64_t k = ScaleIndex(plan.granularity, x.shape, plan.axis, plan.block_size)(index);
  std::printf("%s, %s; element %lld uses y_scale element %lld\n\n", result.schema->label().c_str(),
              std::string(GranularityName(plan.granularity)).c_str(), static_cast<long long>(index),
              static_cast<long long>(k));
  const std::optional<uint32_t> zc = zp ? std::optional<uint32_t>(zp->codes[k]) : std::nullopt;
  std::printf("  x            %s\n", Show(*plan.x_type, x.codes[index]).c_str());
  std::printf("  y_scale      %s\n", Show(*plan.scale_type, scale.codes[k]).c_str());
  std::printf("  y_zero_point %s\n", zc ? Show(*plan.output_type, *zc).c_str() : "absent (0)");
  std::printf("  y type       %s%s\n\n", std::string(plan.output_type->name).c_str(),
              plan.output_type->is_float() && plan.saturation != Saturation::kSaturate
                  ? " (saturate=0)"
                  : "");
  for (Strategy s : result.schema->strategies) {
    const ElementType* working = WorkingType(s, plan);
    const QuantizeSteps st =
        QuantizeElement(*plan.x_type, x.codes[index], *plan.scale_type, scale.codes[k], zc, working,
                        *plan.output_type, plan.saturation);
    std::printf("  [%s]\n", std::string(StrategyName(s)).c_str());
    if (working != nullptr) {
      std::printf("    x, y_scale in %-9s = %s, %s\n", std::string(working->name).c_str(),
                  st.x_rounded.ToString().c_str(), st.scale_rounded.ToString().c_str());
    }
    std::printf("    x / y_scale            = %s%s\n", st.quotient.ToString().c_str(),
                working ? "" : "  (exact)");
    std::printf("    round half to even, + %s, saturate -> %s\n", st.zero_point.ToString().c_str(),
                st.code ? Show(*plan.output_type, *st.code).c_str()
                        : "implementation-defined (NaN into a type without NaN)");
    if (st.code) PrintBackend(*plan.output_type, observed, *st.code);
    std::printf("\n");
  }
}

// DynamicQuantizeLinear's steps are not shown (its findings and outputs are).
void ExplainFindingsOnly(const Case&, const OracleResult& result, int64_t index,
                         const Observed& observed) {
  const OutputEvaluation& y = result.outputs.at(0);
  const ElementType& t = *FindElementType(y.data_type);
  std::printf("(no step-by-step view for this operator; its findings follow)\n");
  std::printf("  exact        -> %s\n", Show(t, y.exact[static_cast<size_t>(index)]).c_str());
  if (observed) std::printf("  backend      -> %s\n", Show(t, *observed).c_str());
}

// QLinearMatMul: the row and column, acc, the exact multiplier and value, and every
// requantization's result (docs/semantics.md#d20, #d21), named and marked admitted or not.
void ExplainQLinearMatMul(const Case& c, const OracleResult& result, int64_t index,
                          const Observed& observed) {
  const MatMulPlan& plan = std::get<MatMulPlan>(result.plan);
  const QLinearMatMulSteps st = QLinearMatMulElement(c, *result.schema, plan, index);
  const ElementType& y = *plan.y_type;
  std::printf("%s; element %lld is batch %lld, row %lld of a, column %lld of b\n\n",
              result.schema->label().c_str(), static_cast<long long>(index),
              static_cast<long long>(st.batch), static_cast<long long>(st.row),
              static_cast<long long>(st.column));
  std::printf("  acc = sum (a - a_zero_point) * (b - b_zero_point) = %s  (exact, K = %lld)\n",
              st.acc.ToString().c_str(), static_cast<long long>(plan.geometry.k));
  std::printf("  a_scale %s, b_scale %s, y_scale %s, y_zero_point %s\n",
              st.a_scale.ToString().c_str(), st.b_scale.ToString().c_str(),
              st.y_scale.ToString().c_str(), st.zero_point.ToString().c_str());
  const auto approx = [](const Exact& v) {
    return v.is_finite() ? v.value().convert_to<double>() : 0.0;
  };
  std::printf("  M = a_scale * b_scale / y_scale = %s  (exact; %.17g)\n",
              st.multiplier.ToString().c_str(), approx(st.multiplier));
  std::printf("  acc * M = %s  (exact; %.17g)\n\n", st.value.ToString().c_str(), approx(st.value));
  std::printf("  [exact]  round half to even, + y_zero_point, saturate -> %s\n",
              st.exact ? Show(y, *st.exact).c_str() : "implementation-defined (d22, d26)");
  if (st.exact) PrintBackend(y, observed, *st.exact);
  const OutputEvaluation& out = result.outputs.at(0);
  for (size_t k = 0; k < st.strategies.size(); ++k) {
    const auto& [name, code] = st.strategies[k];
    std::printf("  [%s]%s -> %s\n", name.c_str(),
                out.alternatives[k].admitted ? " (admitted)" : " (named, not admitted)",
                code ? Show(y, *code).c_str() : "any code");
    if (code) PrintBackend(y, observed, *code);
  }
}

// The explainer of each kind of operator (the registry's OperatorKind).
void ExplainKind(OperatorKind kind, const Case& c, const OracleResult& result, int64_t index,
                 const Observed& observed) {
  switch (kind) {
    case OperatorKind::kDequantizeLinear:
      return ExplainDequantize(c, result, index, observed);
    case OperatorKind::kQuantizeLinear:
      return ExplainQuantize(c, result, index, observed);
    case OperatorKind::kDynamicQuantizeLinear:
    case OperatorKind::kMatMulInteger:  // Y is acc itself: the findings and the outputs say it all
      return ExplainFindingsOnly(c, result, index, observed);
    case OperatorKind::kQLinearMatMul:
      return ExplainQLinearMatMul(c, result, index, observed);
    case OperatorKind::kQLinearConv:
    case OperatorKind::kConvInteger:
      return ExplainConv(c, result, index, observed);
    case OperatorKind::kQLinearGroup:  // the page's formula as its graph (d35)
      std::printf("%s, as its page's formula:\n", result.schema->label().c_str());
      return ExplainGraph(QLinearGroupGraph(c, *result.schema), result, index, observed);
    case OperatorKind::kQGemm:
      return ExplainQGemm(c, result, index, observed);
    case OperatorKind::kMatMulNBits:
      return ExplainMatMulNBits(c, result, index, observed);
    case OperatorKind::kMatMulIntegerToFloat:
      return ExplainMatMulToFloat(c, result, index, observed);
    case OperatorKind::kGatherBlockQuantized:
      return ExplainGatherBlockQuantized(c, result, index, observed);
  }
}

}  // namespace

// The backend's first output, from DIR/output_0.pb; nullopt when there is none.
std::optional<Tensor> ReadObserved(const std::string& dir) {
  const std::string file = dir + "/output_0.pb";
  if (!std::filesystem::exists(file)) return std::nullopt;
  return ReadTensorFile(file);
}

int RunExplain(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {"--index", "--observed", "--admit"});
  CompareOptions options;
  options.admit = AdmittedStrategies(args);  // as the run that found the element admitted
  if (args.positional().size() != 1) {
    throw UsageError("explain takes one CASE_DIR (see --help)");
  }
  const std::string case_dir = args.positional()[0];
  const CaseDirectory dir = ReadCaseDirectory(case_dir);
  const Case& c = dir.data_sets.front().c;
  const OracleResult result = RunOracle(c);
  if (const Finding* rule = result.rejection()) {
    std::printf("rejected %s: %s\n", std::string(rule->rule->id).c_str(), rule->message.c_str());
    return 3;
  }
  // What the backend returned: --observed DIR, or a reproducer's own observed/.
  const std::string observed_dir = args.value(
      "--observed",
      std::filesystem::is_directory(case_dir + "/observed") ? case_dir + "/observed" : "");
  std::optional<Tensor> observed;
  if (!observed_dir.empty()) {
    observed = ReadObserved(observed_dir);
    if (!observed) throw UsageError("--observed " + observed_dir + ": no output_0.pb");
  }
  const OutputEvaluation& y = result.outputs.at(0);
  const int64_t n = static_cast<int64_t>(y.exact.size());
  int64_t index = 0;
  if (args.has("--index")) {
    index = args.integer("--index", 0);
  } else if (!observed) {
    throw UsageError(
        "explain needs --index I, or the backend's outputs (--observed DIR, or a "
        "reproducer's observed/) to find the first inadmissible element in");
  } else {
    const OutputComparison cmp = CompareOutput(
        y, ObservedTensor{observed->data_type, observed->shape, observed->codes}, options, c.id);
    if (!cmp.structural_error.empty()) {
      std::printf("case %s: the backend's output is not comparable: %s\n", c.id.c_str(),
                  cmp.structural_error.c_str());
      return 1;
    }
    if (cmp.mismatches.empty()) {
      std::printf("case %s: every element of the backend's output is admissible\n", c.id.c_str());
      return 0;
    }
    index = cmp.mismatches.front().index;
    std::printf("the first inadmissible element of %lld: index %lld\n",
                static_cast<long long>(cmp.mismatched), static_cast<long long>(index));
  }
  if (index < 0 || index >= n) {
    throw UsageError("--index " + std::to_string(index) + " is outside [0, " + std::to_string(n) +
                     ")");
  }
  Observed code;
  if (observed) {
    if (static_cast<int64_t>(observed->codes.size()) != n) {
      throw UsageError("the observed output has " + std::to_string(observed->codes.size()) +
                       " elements, the case " + std::to_string(n));
    }
    code = observed->codes[static_cast<size_t>(index)];
  }
  std::printf("case %s: ", c.id.c_str());
  if (c.is_graph()) {
    ExplainGraph(c, result, index, code);
  } else {
    ExplainKind(result.op->kind, c, result, index, code);
  }
  for (const Finding& f : result.findings) {
    std::printf("note: implementation-defined %s: %s\n", std::string(f.rule->id).c_str(),
                f.message.c_str());
  }
  return 0;
}

}  // namespace qconform::tools
