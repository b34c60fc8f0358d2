#include "oracle/semantics/integer/channels_last.h"

#include "oracle/core/conv_shape.h"

namespace qconform {
namespace {

// [N, C, S] of a channels-first shape: S the spatial extent's element count.
struct Planes {
  int64_t n = 1, c = 1, s = 1;
  explicit Planes(const std::vector<int64_t>& shape) {
    if (shape.size() < 3) return;
    n = shape[0], c = shape[1];
    for (size_t d = 2; d < shape.size(); ++d) s *= shape[d];
  }
  int64_t ToLast(int64_t i) const {
    const int64_t batch = i / (c * s), channel = i / s % c, at = i % s;
    return (batch * s + at) * c + channel;
  }
  int64_t ToFirst(int64_t i) const {
    const int64_t channel = i % c, at = i / c % s, batch = i / (c * s);
    return (batch * c + channel) * s + at;
  }
};

Codes Moved(const Codes& from, const Planes& p, bool to_last, int bits) {
  Codes to(bits, from.size());
  for (size_t i = 0; i < from.size(); ++i) {
    const auto j = static_cast<size_t>(p.ToLast(static_cast<int64_t>(i)));
    if (to_last) {
      to.set(j, from[i]);
    } else {
      to.set(i, from[j]);
    }
  }
  return to;
}

int BitsOf(int32_t data_type) {
  const ElementType* t = FindElementType(data_type);
  return t == nullptr ? 32 : t->bits;
}

}  // namespace

bool ReadsChannelsLast(const Case& c, const OpSchema& schema) {
  return schema.attribute("channels_last") != nullptr && ChannelsLastOf(c);
}

int64_t ChannelsLastIndex(const std::vector<int64_t>& channels_first_shape, int64_t i) {
  return Planes(channels_first_shape).ToLast(i);
}

int64_t ChannelsFirstIndex(const std::vector<int64_t>& channels_first_shape, int64_t i) {
  return Planes(channels_first_shape).ToFirst(i);
}

Case ChannelsFirstCase(const Case& c, std::string_view operand) {
  Case first = c;
  first.attributes.erase("channels_last");
  const std::vector<InputSpec> inputs = OperatorOf(c).inputs_of(c.inputs.size());
  for (size_t k = 0; k < inputs.size() && k < first.inputs.size(); ++k) {
    if (inputs[k].name != operand || !first.inputs[k] || first.inputs[k]->shape.size() < 3) {
      continue;
    }
    Tensor& x = *first.inputs[k];
    x.shape = ChannelsFirstShape(x.shape);
    x.codes = Moved(x.codes, Planes(x.shape), false, BitsOf(x.data_type));
  }
  return first;
}

void MoveToChannelsLast(OutputEvaluation& y, std::shared_ptr<const Case> evaluated) {
  const Planes p(y.shape);
  const int bits = BitsOf(y.data_type);
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    StrategyOutput moved;
    moved.strategy = y.alternatives[j].strategy;
    moved.admitted = y.alternatives[j].admitted;
    moved.codes = Moved(y.alternative_codes(j), p, true, bits);
    y.alternatives[j] = std::move(moved);
  }
  y.exact = Moved(y.exact, p, true, bits);
  if (y.has_range()) {
    y.range_lo = Moved(y.range_lo, p, true, bits);
    y.range_hi = Moved(y.range_hi, p, true, bits);
  }
  if (!y.implementation_defined.empty()) {
    std::vector<uint8_t> free(y.implementation_defined.size());
    for (size_t i = 0; i < free.size(); ++i) {
      free[static_cast<size_t>(p.ToLast(static_cast<int64_t>(i)))] = y.implementation_defined[i];
    }
    y.implementation_defined = std::move(free);
  }
  // Element i of the channels-last y is element p.ToFirst(i) of the evaluated one.
  const auto wrap = [&](auto& f) {
    if (!f) return;
    f = [inner = f, p, evaluated](int64_t i, auto... rest) { return inner(p.ToFirst(i), rest...); };
  };
  wrap(y.describe_inputs);
  wrap(y.describe_range);
  wrap(y.diagnose);
  y.shape = ChannelsLastShape(y.shape);
}

}  // namespace qconform
