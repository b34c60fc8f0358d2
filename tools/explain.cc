// `qconform explain CASE_DIR --index I`: the exact computation of one output element, step by
// step, for every strategy the version admits.
#include <cstdio>
#include <iterator>

#include "onnx_io/case_io.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/oracle.h"
#include "oracle/semantics/quantize.h"
#include "oracle/semantics/scale_index.h"
#include "tools/args.h"
#include "tools/commands.h"

namespace qconform::tools {
namespace {

std::string Show(const ElementType& t, uint32_t code) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%0*x", (t.bits + 3) / 4, code);
  return std::string(hex) + " = " + Decode(t, code).ToString() + " (" + std::string(t.name) + ")";
}

void ExplainDequantize(const Case& c, const OracleResult& result, int64_t index) {
  const QuantizationPlan& plan = *result.plan;
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
    std::printf("    rounded once to %s  -> %s\n\n", std::string(plan.output_type->name).c_str(),
                Show(*plan.output_type, st.code).c_str());
  }
}

void ExplainQuantize(const Case& c, const OracleResult& result, int64_t index) {
  const QuantizationPlan& plan = *result.plan;
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
              plan.saturation == Saturation::kSaturate ? "" : " (saturate=0)");
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
    std::printf("    round half to even, + %s, saturate -> %s\n\n",
                st.zero_point.ToString().c_str(),
                st.code ? Show(*plan.output_type, *st.code).c_str()
                        : "implementation-defined (NaN into a type without NaN)");
  }
}

// DynamicQuantizeLinear's steps are not shown (its findings and outputs are).
void ExplainFindingsOnly(const Case&, const OracleResult&, int64_t) {
  std::printf("(no step-by-step view for this operator; its findings follow)\n");
}

// The explainer of each kind of operator (the registry's OperatorKind), in kind order.
using Explainer = void (*)(const Case&, const OracleResult&, int64_t);
constexpr Explainer kExplainByKind[] = {ExplainDequantize, ExplainQuantize, ExplainFindingsOnly};
static_assert(std::size(kExplainByKind) == kOperatorKinds);

}  // namespace

int RunExplain(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {"--index"});
  if (args.positional().size() != 1 || !args.has("--index")) {
    throw UsageError("explain takes CASE_DIR and --index I (see --help)");
  }
  const CaseDirectory dir = ReadCaseDirectory(args.positional()[0]);
  const Case& c = dir.data_sets.front().c;
  const OracleResult result = RunOracle(c);
  if (const Finding* rule = result.rejection()) {
    std::printf("rejected %s: %s\n", std::string(rule->rule->id).c_str(), rule->message.c_str());
    return 3;
  }
  const int64_t index = args.integer("--index", 0);
  const int64_t n = static_cast<int64_t>(result.outputs.at(0).exact.size());
  if (index < 0 || index >= n) {
    throw UsageError("--index " + std::to_string(index) + " is outside [0, " + std::to_string(n) +
                     ")");
  }
  std::printf("case %s: ", c.id.c_str());
  kExplainByKind[static_cast<size_t>(result.op->kind)](c, result, index);
  for (const Finding& f : result.findings) {
    std::printf("note: implementation-defined %s: %s\n", std::string(f.rule->id).c_str(),
                f.message.c_str());
  }
  return 0;
}

}  // namespace qconform::tools
