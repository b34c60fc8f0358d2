#include "oracle/semantics/graph/graph_value.h"

#include <cmath>
#include <stdexcept>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/core/index_tensor.h"
#include "oracle/core/quotient.h"

namespace qconform {

bool GraphValue::exact_points() const {
  if (compact()) return unrounded.empty();
  for (size_t i = 0; i < exact.size(); ++i) {
    if (is_free(i) || !(lo[i] == exact[i]) || !(hi[i] == exact[i])) return false;
  }
  return true;
}

void GraphValue::AddRule(size_t i, const std::string& rule) {
  Materialize();
  if (rules.size() < exact.size()) rules.resize(exact.size());
  rules[i] += (rules[i].empty() ? "" : "; ") + rule;
}

void GraphValue::Materialize() {
  if (!compact()) return;
  lo.reserve(points.size());
  for (double p : points) lo.push_back(Exact::FromDouble(p));
  hi = lo;
  if (unrounded.empty()) {
    exact = lo;
  } else {
    exact.reserve(points.size());
    for (double u : unrounded) exact.push_back(Exact::FromDouble(u));
  }
  std::vector<double>().swap(points);
  std::vector<double>().swap(unrounded);
  codes.reset();
}

GraphValue CompactValue(int32_t data_type, std::vector<int64_t> shape, const Codes& codes) {
  const ElementType& type = *FindElementType(data_type);
  GraphValue v;
  v.data_type = data_type;
  v.shape = std::move(shape);
  v.points.resize(codes.size());
  if (type.bits <= 16 && codes.size() > (size_t{1} << type.bits)) {  // a table of every code
    std::vector<double> table(size_t{1} << type.bits);
    for (size_t c = 0; c < table.size(); ++c)
      table[c] = DecodeDouble(type, static_cast<uint32_t>(c));
    for (size_t i = 0; i < codes.size(); ++i) v.points[i] = table[codes[i]];
    return v;
  }
  for (size_t i = 0; i < codes.size(); ++i) v.points[i] = DecodeDouble(type, codes[i]);
  return v;
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
  GraphValue v = CompactValue(t.data_type, t.shape, t.codes);
  v.Materialize();
  return v;
}

GraphValue CompactValueOf(const Tensor& t) {
  if (FindElementType(t.data_type) == nullptr) return ValueOf(t);  // an index, or an error
  GraphValue v = CompactValue(t.data_type, t.shape, t.codes);
  if (!v.points.empty()) v.codes = std::make_shared<const Codes>(t.codes);
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
  // An int64 or bool value (a shape or an index) fed to a node: its integers, for the node's
  // own rules to judge.
  if (v.is_index()) {
    std::vector<int64_t> values(v.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const Exact e = v.at(i);
      if (!e.is_finite() || boost::multiprecision::denominator(e.value()) != 1) {
        throw std::invalid_argument("an int64 or bool value holds a non-integer element");
      }
      values[i] = boost::multiprecision::numerator(e.value()).convert_to<int64_t>();
    }
    return MakeIndexTensor(static_cast<DataType>(v.data_type), v.shape, values);
  }
  if (FindElementType(v.data_type) == nullptr) {
    throw std::invalid_argument("a value of data type " + std::to_string(v.data_type) +
                                ", which no operator the oracle evaluates takes");
  }
  const ElementType& t = v.type();
  Codes codes(t.bits, v.size());
  if (v.compact() && v.unrounded.empty() && v.codes) {
    return Tensor{v.data_type, v.shape, *v.codes, false};
  }
  if (v.compact() && v.unrounded.empty()) {
    for (size_t i = 0; i < v.size(); ++i) {
      const std::optional<uint32_t> code = EncodeDouble(t, v.points[i], Saturation::kNone);
      if (!code || !(DecodeDouble(t, *code) == v.points[i] ||
                     (std::isnan(v.points[i]) && std::isnan(DecodeDouble(t, *code))))) {
        throw std::logic_error("ExactTensor: " + std::to_string(v.points[i]) + " is no " +
                               std::string(t.name) + " value");
      }
      codes.set(i, *code);
    }
    return Tensor{v.data_type, v.shape, std::move(codes), false};
  }
  for (size_t i = 0; i < v.size(); ++i) {
    const Exact e = v.at(i);
    std::optional<uint32_t> code = SmallDyadicCode(t, e);
    if (!code) code = Encode(t, e, Saturation::kNone);
    if (!code || !(Decode(t, *code) == e)) {
      throw std::logic_error("ExactTensor: " + e.ToString() + " is no " + std::string(t.name) +
                             " value");
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
