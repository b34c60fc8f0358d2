#include "tools/explain_float_output.h"

#include <cstdio>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/float_output/gather_block_quantized.h"
#include "oracle/semantics/float_output/matmul_nbits.h"
#include "oracle/semantics/float_output/matmul_to_float.h"

namespace qconform::tools {
namespace {

// The admitted codes of element `index` and the backend's, with the named strategies outside.
void PrintAdmitted(const ElementType& y, const OutputEvaluation& out, int64_t index,
                   const Observed& observed) {
  const CodeRange r = out.range(static_cast<size_t>(index));
  std::printf("  [admitted] %s .. %s  (each end rounded to %s)\n", Show(y, r.lo).c_str(),
              Show(y, r.hi).c_str(), std::string(y.name).c_str());
  if (!observed) return;
  const bool inside = InRange(y, r, *observed);
  std::printf("    backend                 -> %s  %s\n", Show(y, *observed).c_str(),
              inside ? "(inside the range)" : "(outside the range)");
  if (!inside && out.diagnose) {
    for (const std::string& d : out.diagnose(index, *observed)) {
      std::printf("    named: %s\n", d.c_str());
    }
  }
}

}  // namespace

void ExplainMatMulNBits(const Case& c, const OracleResult& result, int64_t index,
                        const Observed& observed) {
  const MatMulNBitsPlan& p = std::get<MatMulNBitsPlan>(result.plan);
  const NBitsElement e = MatMulNBitsElement(c, p, index);
  const OutputEvaluation& out = result.outputs.at(0);
  const ElementType& y = *p.t;
  std::printf("%s; element %lld is row %lld of A, column %lld of the weights\n\n",
              result.schema->label().c_str(), static_cast<long long>(index),
              static_cast<long long>(index / p.n), static_cast<long long>(index % p.n));
  std::printf("  K %lld, bits %lld, block_size %lld (%lld blocks), accuracy_level %lld\n",
              static_cast<long long>(p.k), static_cast<long long>(p.bits),
              static_cast<long long>(p.block_size), static_cast<long long>(p.k_blocks),
              static_cast<long long>(p.accuracy_level));
  std::printf("  Y = bias + sum A[k] * (q - zero_point) * scale = %s  (exact)\n",
              e.value.ToString().c_str());
  std::printf("  terms: %lld, the sum of their magnitudes %s, %lld float steps per term\n",
              static_cast<long long>(p.k), BoundString(e.magnitude.value()).c_str(),
              static_cast<long long>(e.steps));
  std::printf("  bound: %s\n", e.rule.c_str());
  std::printf("  interval: about [%.17g, %.17g]\n", ApproximateDouble(e.lo),
              ApproximateDouble(e.hi));
  if (e.int8) {
    std::printf("  accuracy_level 4's block-int8 function: %s, %s\n",
                e.int8_value.ToString().c_str(), e.int8_rule.c_str());
    std::printf("  its interval: about [%.17g, %.17g]\n", ApproximateDouble(e.int8_lo),
                ApproximateDouble(e.int8_hi));
  }
  PrintAdmitted(y, out, index, observed);
}

void ExplainMatMulToFloat(const Case& c, const OracleResult& result, int64_t index,
                          const Observed& observed) {
  const MatMulToFloatPlan& p = std::get<MatMulToFloatPlan>(result.plan);
  const ToFloatOperandA a = OperandA(c, p);
  const OutputEvaluation& out = result.outputs.at(0);
  const MatMulGeometry& g = p.geometry;
  std::printf("%s; element %lld is batch %lld, row %lld, column %lld (K %lld)\n\n",
              result.schema->label().c_str(), static_cast<long long>(index),
              static_cast<long long>(index / (g.m * g.n)),
              static_cast<long long>(index / g.n % g.m), static_cast<long long>(index % g.n),
              static_cast<long long>(g.k));
  if (p.dynamic) {
    std::printf("  A quantized by DynamicQuantizeLinear: y_scale %s, y_zero_point %d\n",
                Exact::FromDouble(a.scales[0]).ToString().c_str(), a.zero_points[0]);
  }
  if (a.degenerate) {
    std::printf("  A's quantization is undefined (docs/semantics.md#d13): any output\n");
    return;
  }
  const ToFloatElement e = MatMulToFloatElement(c, p, a, index);
  if (p.a_per_column) {
    std::printf(
        "  Y = bias + sum a_scale[k] (A - a_zero_point[k]) (B - b_zero_point) b_scale"
        " = %s  (exact)\n",
        e.value.ToString().c_str());
  } else {
    std::printf("  acc = %lld; Y = acc * a_scale * b_scale + bias = %s  (exact)\n",
                static_cast<long long>(e.acc), e.value.ToString().c_str());
  }
  if (e.accumulator_outside_int32) {
    std::printf("  the accumulator leaves int32 (docs/semantics.md#d22): any value\n");
    return;
  }
  std::printf("  products: %zu, the sum of the magnitudes %s\n", e.products,
              BoundString(e.magnitude.value()).c_str());
  std::printf("  bound: %s\n", e.rule.c_str());
  std::printf("  interval: about [%.17g, %.17g]\n", ApproximateDouble(e.lo),
              ApproximateDouble(e.hi));
  PrintAdmitted(*p.t, out, index, observed);
}

void ExplainGatherBlockQuantized(const Case& c, const OracleResult& result, int64_t index,
                                 const Observed& observed) {
  const GatherBlockQuantizedPlan& p = std::get<GatherBlockQuantizedPlan>(result.plan);
  const GatherBlockElement e = GatherBlockQuantizedElement(c, p, index);
  const ElementType& y = *p.t;
  const std::vector<int64_t> coordinates = GatherBlockSources(c, p).at(e.source.flat);
  std::string at;
  for (int64_t v : coordinates) at += (at.empty() ? "" : ", ") + std::to_string(v);
  std::printf("%s; element %lld is data[%s] (gather_axis %lld, quantize_axis %lld)\n\n",
              result.schema->label().c_str(), static_cast<long long>(index), at.c_str(),
              static_cast<long long>(p.gather_axis), static_cast<long long>(p.quantize_axis));
  std::printf(
      "  %s code %s, bits %lld; block %lld of quantize_axis (block_size %lld)\n",
      std::string(p.data_type->name).c_str(),
      Decode(*p.data_type, e.source.code).ToString().c_str(), static_cast<long long>(p.bits),
      static_cast<long long>(coordinates[static_cast<size_t>(p.quantize_axis)] / p.block_size),
      static_cast<long long>(p.block_size));
  std::printf(
      "  zero point %s%s, scale %s\n", Decode(*p.data_type, e.source.zero_point).ToString().c_str(),
      p.zero_point_input < 0 ? " (the default)" : "", Decode(y, e.source.scale).ToString().c_str());
  std::printf("  (code - zero point) * scale = %s  (exact)\n", e.value.ToString().c_str());
  std::printf("  [exact] rounded once to %s -> %s\n", std::string(y.name).c_str(),
              Show(y, e.output).c_str());
  if (observed) {
    std::printf("    backend                 -> %s  %s\n", Show(y, *observed).c_str(),
                *observed == e.output ? "(exact)" : "(not the exact value)");
  }
}

}  // namespace qconform::tools
