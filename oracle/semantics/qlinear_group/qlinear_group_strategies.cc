#include "oracle/semantics/qlinear_group/qlinear_group_strategies.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "oracle/core/broadcast.h"
#include "oracle/core/conv_shape.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/common/oracle_result.h"
#include "oracle/semantics/graph/graph_oracle.h"
#include "oracle/semantics/qlinear_group/qlinear_group.h"

namespace qconform {
namespace {

// Whether some window of the case's pool reaches padding (where it cannot be told: true).
bool Padded(const Case& c) {
  const Operator& op = OperatorOf(c);
  const Tensor* x = op.input(c, op.input_name(Role::kQuantized));
  if (x == nullptr) return true;
  const ConvGeometryResult g = CasePoolGeometry(c, x->shape);
  if (!g.geometry) return true;
  const auto nonzero = [](int64_t p) { return p != 0; };
  return std::any_of(g.geometry->pads_begin.begin(), g.geometry->pads_begin.end(), nonzero) ||
         std::any_of(g.geometry->pads_end.begin(), g.geometry->pads_end.end(), nonzero);
}

// The strategies that are the group under another value of an attribute: padding counted is
// the windows' mean with count_include_pad 1. `changes`: whether the value can change the
// case's result at all (where it cannot, the group is not evaluated again).
struct AttributeStrategy {
  Strategy strategy;
  std::string_view attribute;
  int64_t value;
  bool (*changes)(const Case&);
};
constexpr AttributeStrategy kAttributeStrategies[] = {
    {Strategy::kPaddingCounted, "count_include_pad", 1, Padded}};

const AttributeStrategy* AttributeStrategyOf(Strategy s) {
  for (const AttributeStrategy& a : kAttributeStrategies) {
    if (a.strategy == s) return &a;
  }
  return nullptr;
}

// The fixed-point multipliers (QLinearAdd): each operand's scale ratio fl32(scale / y_scale),
// rounded half to even to `bits` bits below the larger ratio's binary exponent e (M = ratio *
// 2^shift, shift = bits - 1 - e), the sum of M (x - zero point) shifted right by `shift`,
// rounding half up. XNNPACK's add (xnn_init_qs8_add_minmax params: 20 bits and a sign) and ONNX
// Runtime's MLAS QLinearAdd on NEON (MlasCalcQLinearAddParameters: 21 and a sign).
struct MultiplierStrategy {
  Strategy strategy;
  int bits;
};
constexpr MultiplierStrategy kMultiplierStrategies[] = {{Strategy::kFixedPoint21, 21},
                                                        {Strategy::kFixedPoint22, 22}};

const MultiplierStrategy* MultiplierStrategyOf(Strategy s) {
  for (const MultiplierStrategy& m : kMultiplierStrategies) {
    if (m.strategy == s) return &m;
  }
  return nullptr;
}

// Records element i's code where it differs from the exact one.
void Record(StrategyOutput& out, const OutputEvaluation& y, size_t i, uint32_t code) {
  if (code == y.exact[i]) return;
  out.same_as_exact = false, out.sparse = true;
  out.sparse_index.push_back(static_cast<int64_t>(i));
  out.sparse_code.push_back(code);
}

// The group's exact codes with the attribute set (the exact result itself where the case sets
// it already).
void ByAttribute(const AttributeStrategy& a, const Case& c, const OpSchema& schema,
                 const EvaluateOptions& options, const OutputEvaluation& y, StrategyOutput& out) {
  const std::string name(a.attribute);
  if (const Attribute* given = c.attribute(name); given != nullptr && given->i == a.value) return;
  if (!a.changes(c)) return;
  Case other = c;
  other.attributes[name] = Attribute::Int(a.value);
  EvaluateOptions real = options;  // d42: exact codes of the real value, as the group's own
  real.real_value_exact = true;
  const OracleResult r = RunGraphOracle(QLinearGroupGraph(other, schema), real);
  if (r.outputs.size() != 1 || r.outputs[0].exact.size() != y.exact.size()) {
    throw OracleError("case " + c.id + ": " + schema.label() + " with " + name + " " +
                      std::to_string(a.value) + " gives another output");
  }
  for (size_t i = 0; i < y.exact.size(); ++i) {
    if (!y.is_free(i)) Record(out, y, i, r.outputs[0].exact[i]);
  }
}

// The output roundings, each from the value before the division (`values`: the elements that
// need one, by index, in double), all in one pass.
void ByRounding(const std::vector<std::pair<Strategy, StrategyOutput*>>& strategies,
                const OpSchema& schema, const IndexedValues& values, double scale,
                double zero_point, const OutputEvaluation& y) {
  const ElementType& t = *FindElementType(y.data_type);
  std::vector<Strategy> named;
  for (const auto& s : strategies) named.push_back(s.first);
  const NamedRoundings roundings(named, schema, scale, zero_point, t);
  const RoundingShortcut shortcut = RoundingShortcutOf(named, scale, zero_point, t);
  std::vector<uint32_t> codes(named.size());
  IndexedValues sorted;  // Record keeps each strategy's elements in ascending order
  const bool ascending = std::is_sorted(values.begin(), values.end());
  if (!ascending) sorted = values, std::sort(sorted.begin(), sorted.end());
  for (const auto& [index, x] : ascending ? values : sorted) {
    const auto i = static_cast<size_t>(index);
    if (i >= y.exact.size() || std::isnan(x) || shortcut.Agrees(x / scale)) continue;
    roundings.CodesOf(x, codes.data());
    for (size_t j = 0; j < codes.size(); ++j) {
      if (codes[j] != NamedRoundings::kSame) Record(*strategies[j].second, y, i, codes[j]);
    }
  }
}

// The fixed-point sum of the group's operands (the body's DequantizeLinear inputs, zero points
// defaulted), computed from their codes: no float step in between, as such a kernel has none.
void ByMultiplier(const MultiplierStrategy& m, const Case& c, const OpSchema& schema,
                  double y_scale, double zero_point, const OutputEvaluation& y,
                  StrategyOutput& out) {
  const Case g = QLinearGroupGraph(c, schema);
  const auto input = [&](const std::string& name) -> const Tensor& {
    for (size_t j = 0; j < g.input_names.size(); ++j) {
      if (g.input_names[j] == name && g.inputs[j]) return *g.inputs[j];
    }
    throw std::logic_error(schema.label() + "'s graph has no input " + name);
  };
  const auto value = [](const Tensor& t, size_t i) {
    return DecodeDouble(*FindElementType(t.data_type), t.codes[i]);
  };
  struct Term {
    const Tensor* x;
    float ratio;
    double zero_point;
  };
  std::vector<Term> terms;
  float largest = 0;
  for (const Node& n : g.graph) {
    if (n.op_type != "DequantizeLinear") continue;
    const float ratio =
        static_cast<float>(value(input(n.inputs.at(1)), 0)) / static_cast<float>(y_scale);
    terms.push_back({&input(n.inputs.at(0)), ratio, value(input(n.inputs.at(2)), 0)});
    largest = std::max(largest, std::fabs(ratio));
  }
  if (terms.size() != 2 || !std::isnormal(largest)) return;
  const int shift = m.bits - 1 - std::ilogb(largest);
  const std::optional<std::vector<int64_t>> shape =
      BroadcastShape(terms[0].x->shape, terms[1].x->shape);
  if (!shape) return;
  // The sum in units of 2^-shift output scales: integers below 2^32, exact in double.
  std::vector<double> sums(y.exact.size());
  IndexedValues indexed;
  for (size_t i = 0; i < y.exact.size(); ++i) {
    for (const Term& t : terms) {
      const size_t at = t.x->shape == *shape ? i : BroadcastIndex(t.x->shape, *shape, i);
      sums[i] += std::nearbyint(std::ldexp(t.ratio, shift)) * (value(*t.x, at) - t.zero_point);
    }
    if (!y.is_free(i)) indexed.emplace_back(static_cast<int64_t>(i), sums[i]);
  }
  ByRounding({{Strategy::kTiesUp, &out}}, schema, indexed, std::ldexp(1.0, shift), zero_point, y);
}

}  // namespace

NamedRoundings::NamedRoundings(std::vector<Strategy> strategies, const OpSchema& schema,
                               double scale, double zero_point, const ElementType& t)
    : strategies_(std::move(strategies)),
      scale_(scale),
      zero_point_(zero_point),
      lo_(static_cast<double>(IntegerMin(t))),
      hi_(static_cast<double>(IntegerMax(t))),
      floor_reciprocal_(static_cast<double>(std::floor(1.0f / static_cast<float>(scale)))),
      reciprocal_(1.0f / static_cast<float>(scale)),
      mask_(t.bits >= 32 ? 0xFFFFFFFFu : (uint32_t{1} << t.bits) - 1) {
  for (Strategy strategy : strategies_) {
    switch (strategy) {
      case Strategy::kZeroPointFirst:
      case Strategy::kTiesAway:
      case Strategy::kTiesUp:
      case Strategy::kFloorReciprocal:
      case Strategy::kMinimumOnOverflow:
      case Strategy::kReciprocal:
        break;
      default:
        throw std::logic_error(schema.label() + " names " + std::string(StrategyName(strategy)) +
                               ", which its rounding does not compute");
    }
  }
}

void NamedRoundings::CodesOf(double x, uint32_t* out) const {
  const auto floor = [](double y) {
    const double r = RoundHalfEvenDouble(y);
    return r > y ? r - 1 : r;
  };
  const double q = x / scale_, r = RoundHalfEvenDouble(q) + zero_point_;
  for (size_t j = 0; j < strategies_.size(); ++j) {
    double v = 0;
    switch (strategies_[j]) {
      case Strategy::kZeroPointFirst:
        v = RoundHalfEvenDouble(q + zero_point_);
        break;
      case Strategy::kTiesAway:
        v = (q < 0 ? -floor(-q + 0.5) : floor(q + 0.5)) + zero_point_;
        break;
      case Strategy::kTiesUp:
        v = floor(q + 0.5) + zero_point_;
        break;
      case Strategy::kFloorReciprocal:
        v = RoundHalfEvenDouble(x * floor_reciprocal_) + zero_point_;
        break;
      case Strategy::kMinimumOnOverflow:
        v = r > hi_ ? lo_ : r;
        break;
      default:  // kReciprocal
        v = RoundHalfEvenDouble(static_cast<double>(static_cast<float>(x) * reciprocal_)) +
            zero_point_;
        break;
    }
    out[j] = std::isnan(v)
                 ? kSame
                 : static_cast<uint32_t>(static_cast<int64_t>(std::clamp(v, lo_, hi_))) & mask_;
  }
}

RoundingShortcut RoundingShortcutOf(const std::vector<Strategy>& strategies, double scale,
                                    double zero_point, const ElementType& t) {
  RoundingShortcut s;
  // Floor reciprocal multiplies by floor(1 / scale), the same number as the division where
  // 1 / scale is an integer (scale 1/256, say).
  const double reciprocal = 1 / scale;
  const bool floor_is_reciprocal =
      static_cast<double>(std::floor(1.0f / static_cast<float>(scale))) == reciprocal;
  s.applies = (floor_is_reciprocal ||
               std::none_of(strategies.begin(), strategies.end(),
                            [](Strategy k) { return k == Strategy::kFloorReciprocal; })) &&
              std::isfinite(scale) && scale != 0;
  s.scale = scale, s.zero_point = zero_point;
  s.lo = static_cast<double>(IntegerMin(t)), s.hi = static_cast<double>(IntegerMax(t));
  s.slack = 0x1p-148 * std::fabs(static_cast<double>(1.0f / static_cast<float>(scale)));
  return s;
}

void AppendNamedStrategies(const Case& c, const OpSchema& schema, const EvaluateOptions& options,
                           const IndexedValues& values, double scale, double zero_point,
                           OutputEvaluation& y, const std::vector<KnownStrategy>& known) {
  std::vector<StrategyOutput> outs;
  std::vector<std::pair<Strategy, StrategyOutput*>> roundings;
  outs.reserve(schema.named_strategies.size());
  for (Strategy strategy : schema.named_strategies) {
    StrategyOutput& out = outs.emplace_back(SameAsExact(std::string(StrategyName(strategy))));
    out.admitted = false;
    const auto given = std::find_if(known.begin(), known.end(),
                                    [&](const KnownStrategy& k) { return k.strategy == strategy; });
    if (given != known.end()) {
      std::vector<std::pair<int64_t, uint32_t>> differing = given->differing;
      std::sort(differing.begin(), differing.end());
      for (const auto& [i, code] : differing) {
        if (!y.is_free(static_cast<size_t>(i))) Record(out, y, static_cast<size_t>(i), code);
      }
    } else if (const AttributeStrategy* a = AttributeStrategyOf(strategy)) {
      ByAttribute(*a, c, schema, options, y, out);
    } else if (const MultiplierStrategy* m = MultiplierStrategyOf(strategy)) {
      ByMultiplier(*m, c, schema, scale, zero_point, y, out);
    } else {
      roundings.emplace_back(strategy, &out);
    }
  }
  if (!roundings.empty()) ByRounding(roundings, schema, values, scale, zero_point, y);
  for (StrategyOutput& out : outs) y.alternatives.push_back(std::move(out));
}

void AppendNamedStrategies(const Case& c, const OpSchema& schema, const EvaluateOptions& options,
                           const GraphValue& v, double scale, double zero_point,
                           OutputEvaluation& y) {
  IndexedValues values;  // the value before the division, once
  values.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const bool skip = (i < y.exact.size() && y.is_free(i)) || !v.exact[i].is_finite();
    if (!skip) values.emplace_back(static_cast<int64_t>(i), ApproximateDouble(v.exact[i]));
  }
  AppendNamedStrategies(c, schema, options, values, scale, zero_point, y);
}

}  // namespace qconform
