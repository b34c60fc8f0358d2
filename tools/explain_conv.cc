#include "tools/explain_conv.h"

#include <cstdio>
#include <string>

#include "oracle/core/codec.h"
#include "oracle/semantics/integer/channels_last.h"
#include "oracle/semantics/integer/conv_accumulate.h"
#include "oracle/semantics/integer/qlinear_conv.h"
#include "tools/explain_format.h"

namespace qconform::tools {
namespace {

std::string Coordinates(const ConvGeometry& g, const ConvDims& v) {
  std::string s;
  for (int d = kConvDims - g.spatial_rank; d < kConvDims; ++d)
    s += (s.empty() ? "" : ", ") + std::to_string(v[d]);
  return "(" + s + ")";
}

// The taps, one line each (at most 64, then a count).
void PrintField(const Case& c, const ConvPlan& plan, const ConvElement& at) {
  const ConvGeometry& g = plan.geometry;
  const Tensor& x = *c.input(static_cast<size_t>(plan.x.value));
  const Tensor& w = *c.input(static_cast<size_t>(plan.w.value));
  const std::vector<ConvTap> taps = ReceptiveField(g, at);
  std::printf("  receptive field: %zu taps (channels %lld to %lld of x, kernel %s)\n", taps.size(),
              static_cast<long long>(taps.front().channel),
              static_cast<long long>(taps.back().channel), Coordinates(g, g.kernel).c_str());
  int64_t padding = 0;
  for (size_t k = 0; k < taps.size(); ++k) {
    const ConvTap& t = taps[k];
    padding += t.padding;
    if (k >= 64) continue;
    const size_t wi = static_cast<size_t>(at.m * g.window()) + k;
    std::string xs = "padding (x_zero_point)";
    if (!t.padding) {
      const int64_t xi = ((at.n * g.c + t.channel) * g.in[0] + t.input[0]) * g.in[1] * g.in[2] +
                         t.input[1] * g.in[2] + t.input[2];
      xs = "x";
      xs += Coordinates(g, t.input);
      xs += " = ";
      xs += Show(*plan.x_type, x.codes[static_cast<size_t>(xi)]);
    }
    std::printf("    c %lld k %s: %s, w = %s\n", static_cast<long long>(t.channel),
                Coordinates(g, t.kernel).c_str(), xs.c_str(),
                Show(*plan.w_type, w.codes[wi]).c_str());
  }
  if (taps.size() > 64) std::printf("    ... %zu more taps\n", taps.size() - 64);
  std::printf("  %lld of them read padding, which holds x_zero_point and adds nothing (d25)\n",
              static_cast<long long>(padding));
}

}  // namespace

void ExplainConv(const Case& c, const OracleResult& result, int64_t index,
                 const std::optional<uint32_t>& observed) {
  const ConvPlan& plan = std::get<ConvPlan>(result.plan);
  if (ReadsChannelsLast(c, *result.schema)) {  // the channels-first case the oracle computed
    const int64_t first = ChannelsFirstIndex(plan.geometry.output_shape, index);
    std::printf(
        "channels_last 1: x and y are N x D1 ... x C; read as N x C x D1 ..., element %lld "
        "of y is element %lld there\n",
        static_cast<long long>(index), static_cast<long long>(first));
    return ExplainConv(ChannelsFirstCase(c, "x"), result, first, observed);
  }
  const ConvElement at = ConvElementAt(plan.geometry, index);
  std::printf("%s; element %lld is %s\n\n", result.schema->label().c_str(),
              static_cast<long long>(index), DescribeConvElement(plan.geometry, index).c_str());
  PrintField(c, plan, at);
  const OutputEvaluation& out = result.outputs.at(0);
  const ElementType& y = *plan.y_type;
  if (result.schema->kind() == OperatorKind::kConvInteger) {
    const int64_t acc = AccumulateConv(c, plan, true)[static_cast<size_t>(index)];
    std::printf("\n  y = acc = sum (x - x_zero_point) * (w - w_zero_point[m]) = %lld  (exact)\n",
                static_cast<long long>(acc));
    std::printf("  [exact] saturated to int32 -> %s\n",
                Show(y, out.exact[static_cast<size_t>(index)]).c_str());
    if (observed) PrintBackend(y, observed, out.exact[static_cast<size_t>(index)]);
    for (size_t k = 0; k < out.alternatives.size(); ++k) {
      const uint32_t code = out.alternative(k, static_cast<size_t>(index));
      std::printf("  [%s]%s -> %s\n", out.alternatives[k].strategy.c_str(),
                  out.alternatives[k].admitted ? " (admitted)" : " (named, not admitted)",
                  Show(y, code).c_str());
      PrintBackend(y, observed, code);
    }
    return;
  }
  const QLinearConvSteps st = QLinearConvElement(c, *result.schema, plan, index);
  const auto approx = [](const Exact& v) {
    return v.is_finite() ? v.value().convert_to<double>() : 0.0;
  };
  std::printf(
      "\n  acc = B[m] + sum (x - x_zero_point) * (w - w_zero_point[m]) = %lld  (B[m] = %lld)\n",
      static_cast<long long>(st.acc), static_cast<long long>(st.bias));
  std::printf("  x_scale %s, w_scale %s, y_scale %s, y_zero_point %lld\n",
              st.x_scale.ToString().c_str(), st.w_scale.ToString().c_str(),
              st.y_scale.ToString().c_str(), static_cast<long long>(st.zero_point));
  std::printf("  M = x_scale * w_scale / y_scale = %s  (exact; %.17g)\n",
              st.multiplier.ToString().c_str(), approx(st.multiplier));
  std::printf("  acc * M = %s  (exact; %.17g)\n\n", st.value.ToString().c_str(), approx(st.value));
  std::printf("  [exact]  round half to even, + y_zero_point, saturate -> %s\n",
              st.exact ? Show(y, *st.exact).c_str() : "implementation-defined (d22, d26)");
  if (st.exact) PrintBackend(y, observed, *st.exact);
  for (const QLinearConvSteps::Alternative& a : st.strategies) {
    std::printf("  [%s]%s -> %s\n", a.strategy.c_str(),
                a.admitted ? " (admitted)" : " (named, not admitted)", Show(y, a.code).c_str());
    PrintBackend(y, observed, a.code);
  }
}

}  // namespace qconform::tools
