#include "oracle/semantics/graph_value.h"

#include <stdexcept>

#include "oracle/core/codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/core/index_tensor.h"
#include "oracle/core/quotient.h"

namespace qconform {

bool GraphValue::exact_points() const {
  for (size_t i = 0; i < exact.size(); ++i) {
    if (is_free(i) || !(lo[i] == exact[i]) || !(hi[i] == exact[i])) return false;
  }
  return true;
}

void GraphValue::AddRule(size_t i, const std::string& rule) {
  if (rules.size() < exact.size()) rules.resize(exact.size());
  rules[i] += (rules[i].empty() ? "" : "; ") + rule;
}

GraphValue ValueOf(const Tensor& t) {
  const ElementType* type = FindElementType(t.data_type);
  if (type == nullptr && IsIndexType(t.data_type)) {
    if (static_cast<int64_t>(t.codes.size()) != t.element_count()) {
      throw std::invalid_argument("a graph input of " + DataTypeName(t.data_type) +
                                  " whose values the oracle cannot carry (beyond int32's range, "
                                  "or a bool neither 0 nor 1)");
    }
    GraphValue v;
    v.data_type = t.data_type;
    v.shape = t.shape;
    for (size_t i = 0; i < t.codes.size(); ++i) v.exact.push_back(Exact::Integer(IndexValue(t, i)));
    v.lo = v.hi = v.exact;
    return v;
  }
  if (type == nullptr) {
    throw std::invalid_argument("a graph input of element type " + DataTypeName(t.data_type) +
                                ", which the oracle does not know");
  }
  GraphValue v;
  v.data_type = t.data_type;
  v.shape = t.shape;
  for (size_t i = 0; i < t.codes.size(); ++i) v.exact.push_back(Decode(*type, t.codes[i]));
  v.lo = v.exact;
  v.hi = v.exact;
  return v;
}

bool GraphValue::is_index() const {
  return IsIndexType(data_type);
}

namespace {

// The code of v in t when v is a 64-bit dyadic (in integers), else nullopt.
std::optional<uint32_t> SmallDyadicCode(const ElementType& t, const Exact& v) {
  const std::optional<Dyadic> d = SmallDyadic(v);
  if (!d) return std::nullopt;
  if (!t.is_integer()) return EncodeDyadic(t, *d);
  if (d->e < 0 || d->e > 40 || d->m >= (uint64_t{1} << 40)) return std::nullopt;
  const auto magnitude = static_cast<int64_t>(d->m << d->e);
  const int64_t value = d->negative ? -magnitude : magnitude;
  if (value < IntegerMin(t) || value > IntegerMax(t)) return std::nullopt;
  return static_cast<uint32_t>(static_cast<uint64_t>(value) & ((uint64_t{1} << t.bits) - 1));
}

}  // namespace

Tensor ExactTensor(const GraphValue& v) {
  const ElementType& t = v.type();
  Codes codes(t.bits, v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    std::optional<uint32_t> code = SmallDyadicCode(t, v.exact[i]);
    if (!code) code = Encode(t, v.exact[i], Saturation::kNone);
    if (!code || !(Decode(t, *code) == v.exact[i])) {
      throw std::logic_error("ExactTensor: " + v.exact[i].ToString() + " is no " +
                             std::string(t.name) + " value");
    }
    codes.set(i, *code);
  }
  return Tensor{v.data_type, v.shape, std::move(codes), false};
}

Exact RoundToType(const ElementType& t, const Exact& v) {
  if (v.is_nan()) return v;
  if (!t.is_integer() && v.is_dyadic() && IsValueOf(t, v)) return v;  // already a value of t
  const std::optional<Dyadic> d = SmallDyadic(v);
  if (d && !t.is_integer()) return Decode(t, EncodeDyadic(t, *d));
  return Decode(t, *Encode(t, v, Saturation::kNone));
}

}  // namespace qconform
