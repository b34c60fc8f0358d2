#include "oracle/semantics/integer/requantize_output.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "oracle/semantics/common/strategy_writer.h"

namespace qconform {
namespace {

using StrategyFn = std::optional<int64_t> (*)(const RequantizeOperands&);

// The integer requantization of each strategy (int16-pair-saturation and int32-wrap change the
// accumulator first, then requantize as ONNX Runtime and exactly).
StrategyFn FunctionOf(Strategy s) {
  switch (s) {
    case Strategy::kF32:
    case Strategy::kInt16PairSaturation:
      return RequantizeF32Code;
    case Strategy::kOnnxReference:
      return RequantizeOnnxReferenceCode;
    case Strategy::kQ31DoubleRound:
      return RequantizeQ31DoubleRoundCode;
    case Strategy::kQ31SingleRound:
      return RequantizeQ31SingleRoundCode;
    case Strategy::kMantissaTiesUp:
      return RequantizeMantissaTiesUpCode;
    case Strategy::kZeroPointFirst:
      return RequantizeZeroPointFirstCode;
    case Strategy::kReciprocal:
      return RequantizeReciprocalCode;
    case Strategy::kExact:
    case Strategy::kInt32Wrap:
      return RequantizeExactCode;
    case Strategy::kOut:
    case Strategy::kPrecision:
    case Strategy::kExactQuotient:
    case Strategy::kTiesAway:
    case Strategy::kTiesUp:
    case Strategy::kFloorReciprocal:
    case Strategy::kMinimumOnOverflow:
    case Strategy::kPaddingCounted:
    case Strategy::kFixedPoint21:
    case Strategy::kFixedPoint22:
    case Strategy::kCount:
      break;
  }
  throw std::logic_error("no requantization for strategy " + std::string(StrategyName(s)));
}

constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// Where every strategy gives round(v) + zero point: v = acc * M far enough from a half-integer
// that no strategy's error reaches it (f32's, reciprocal's and mantissa-ties-up's float32 steps:
// < |v| 2^-21; Q31's multiplier < |v| 2^-30 and double rounding's first step
// 2^-(right shift) / 2; onnx-reference's float64 steps). Ordinary float32 scales only.
struct Shortcut {
  bool usable = false;
  double multiplier = 0, slack = 0;
};
Shortcut MakeShortcut(const RequantizeOperands& o) {
  const auto normal = [](float f) { return std::isnormal(f) && f > 0; };
  Shortcut s;
  if (o.scale_type != DataType::kFloat || !normal(o.a_scale) || !normal(o.b_scale) ||
      !normal(o.y_scale)) {
    return s;
  }
  s.multiplier = static_cast<double>(o.alpha) * o.a_scale * o.b_scale / o.y_scale;
  if (!(s.multiplier > 0x1p-30 && s.multiplier < 0x1p20)) return s;
  // The float32 strategies' own steps normal and finite: alpha * a_scale (QGemm's, one more
  // rounding: at most six in any strategy, < 2^-21 together), that times b_scale (f32,
  // reciprocal), 1 / y_scale and acc * a_scale * b_scale = v * y_scale < 2^31 * 2^96
  // (reciprocal).
  const float folded = o.alpha * o.a_scale;
  if (!normal(folded) || !normal(folded * o.b_scale) || !(o.y_scale < 0x1p96f)) return s;
  int exponent;
  std::frexp(s.multiplier, &exponent);
  s.slack = exponent < 0 ? std::ldexp(1.0, exponent) : 0;  // 2^-right, the first rounding's reach
  s.usable = true;
  return s;
}

// round(v) when every strategy agrees on it (see Shortcut), else nullopt.
std::optional<int64_t> Agreed(const Shortcut& s, int64_t acc) {
  if (!s.usable) return std::nullopt;
  const double v = static_cast<double>(acc) * s.multiplier;
  if (!(std::fabs(v) < 0x1p31)) return std::nullopt;
  const double r = std::nearbyint(v);
  const double distance = 0.5 - std::fabs(v - r);  // from the nearest half-integer
  if (distance <= std::fabs(v) * 0x1p-20 + s.slack + 0x1p-40) return std::nullopt;
  return static_cast<int64_t>(r);
}

// Element e left to the implementation (d22, d26): any code is admissible.
void MarkFree(OutputEvaluation& y, int64_t e, std::vector<uint32_t>& codes) {
  y.implementation_defined.resize(y.exact.size());
  y.implementation_defined[static_cast<size_t>(e)] = 1;
  std::fill(codes.begin(), codes.end(), 0u);
}

}  // namespace

std::vector<Strategy> AlternativeStrategies(const OpSchema& schema) {
  std::vector<Strategy> order;
  for (Strategy s : schema.strategies) {
    if (s != Strategy::kExact) order.push_back(s);
  }
  for (Strategy s : schema.named_strategies) order.push_back(s);
  return order;
}

void AddAlternatives(const OpSchema& schema, const std::vector<Strategy>& order,
                     OutputEvaluation& y) {
  for (Strategy s : order) {
    y.alternatives.push_back(SameAsExact(std::string(StrategyName(s))));
    y.alternatives.back().admitted =
        std::find(schema.strategies.begin(), schema.strategies.end(), s) != schema.strategies.end();
  }
}

void RequantizeAccumulators(const Accumulators& in, const EvaluateOptions& options,
                            OutputEvaluation& y) {
  // Locals, not the struct's references: the writer's stores cannot alias them.
  const bool pairs = !in.pair_acc.empty();
  const int64_t* const acc = in.acc.data();
  const int64_t* const pair_acc = in.pair_acc.data();
  const size_t count = in.acc.size();
  const ElementType& y_type = in.y_type;
  const uint32_t mask = y_type.bits == 32 ? 0xFFFFFFFFu : (1u << y_type.bits) - 1;
  StrategyWriter writer(y, y_type.bits);
  std::vector<uint32_t> codes(1 + in.order.size());
  Shortcut shortcut;
  RequantizeOperands parameters;
  int64_t run_end = 0;
  for (size_t e = 0; e < count; ++e) {
    const auto element = static_cast<int64_t>(e);
    const int64_t sum = acc[e];
    if (sum < kInt32Min || sum > kInt32Max) {  // d22: any code
      MarkFree(y, element, codes);
      writer.Put(element, codes.data());
      continue;
    }
    // The element's parameters (and the shortcut) change only at the end of a run.
    if (element >= run_end) {
      parameters = in.parameters(element);
      shortcut = options.fast_path ? MakeShortcut(parameters) : Shortcut{};
      run_end = in.next_change(element);
    }
    RequantizeOperands o = parameters;
    o.acc = sum;
    // Where every strategy agrees (far from a tie), round(v) is the exact result too.
    const std::optional<int64_t> agreed = Agreed(shortcut, sum);
    const std::optional<int64_t> exact = agreed ? std::clamp(*agreed + o.zero_point, o.lo, o.hi)
                                         : options.fast_path ? RequantizeExactCode(o)
                                                             : RequantizeExactCodeReference(o);
    if (!exact) {  // d26: NaN, any code
      MarkFree(y, element, codes);
      writer.Put(element, codes.data());
      continue;
    }
    codes[0] = static_cast<uint32_t>(*exact) & mask;
    if (agreed && (!pairs || pair_acc[e] == sum)) {
      std::fill(codes.begin() + 1, codes.end(), codes[0]);
      writer.Put(element, codes.data());
      continue;
    }
    for (size_t k = 0; k < in.order.size(); ++k) {
      const Strategy s = in.order[k];
      RequantizeOperands so = o;
      if (s == Strategy::kInt16PairSaturation && pairs) so.acc = pair_acc[e];
      if (s == Strategy::kInt32Wrap) so.acc = WrapInt32(sum);
      const std::optional<int64_t> v = agreed && so.acc == sum ? exact : FunctionOf(s)(so);
      codes[1 + k] = v ? static_cast<uint32_t>(*v) & mask : codes[0];
    }
    writer.Put(element, codes.data());
  }
}

OutputEvaluation Int32Accumulators(const std::vector<int64_t>& acc, const OpSchema& schema,
                                   std::vector<int64_t> shape) {
  OutputEvaluation y =
      MakeOutput(schema.op().outputs.front(), static_cast<int32_t>(DataType::kInt32),
                 std::move(shape), Codes(32, acc.size()));
  AddAlternatives(schema, AlternativeStrategies(schema), y);
  StrategyWriter writer(y, 32);
  std::vector<uint32_t> codes(1 + y.alternatives.size());
  for (size_t e = 0; e < acc.size(); ++e) {
    codes[0] =
        static_cast<uint32_t>(static_cast<int32_t>(std::clamp(acc[e], kInt32Min, kInt32Max)));
    for (size_t k = 1; k < codes.size(); ++k) codes[k] = static_cast<uint32_t>(WrapInt32(acc[e]));
    writer.Put(static_cast<int64_t>(e), codes.data());
  }
  return y;
}

}  // namespace qconform
