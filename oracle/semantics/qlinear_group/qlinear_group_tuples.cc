#include "oracle/semantics/qlinear_group/qlinear_group_tuples.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "oracle/core/broadcast.h"

namespace qconform {
namespace {

// The body nodes whose output element i reads only element i of each input (scalars broadcast).
constexpr std::string_view kElementwise[] = {"DequantizeLinear", "QuantizeLinear", "Add",  "Mul",
                                             "LeakyRelu",        "Sigmoid",        "Where"};

bool Elementwise(const Operator& op) {
  return !op.body.empty() && op.variadic_group == 0 &&
         std::all_of(op.body.begin(), op.body.end(), [](const BodyNode& b) {
           return std::find(std::begin(kElementwise), std::end(kElementwise), b.op_type) !=
                  std::end(kElementwise);
         });
}

int KeyBits(const Tensor& t) {
  const ElementType* type = FindElementType(t.data_type);
  return type != nullptr ? type->bits : 8 * t.codes.width();  // bool: one byte
}

// u's per-tuple result as the full output of `total` elements: element i is tuple slot(i)'s;
// `at` is the same, owning what it reads, for the messages.
template <class Slot>
OutputEvaluation Scatter(const OutputEvaluation& u, size_t total, Slot slot,
                         std::function<int64_t(int64_t)> at, std::vector<int64_t> shape,
                         std::shared_ptr<const Case> reduced) {
  if (u.alternatives.size() > 32) throw std::logic_error("more than 32 strategies to scatter");
  const int bits = 8 * u.exact.width();
  OutputEvaluation y =
      MakeOutput(u.name, u.data_type, std::move(shape), Codes(bits, total, Codes::kUninitialized));
  if (u.has_range()) {
    y.range_lo = Codes(8 * u.range_lo.width(), total, Codes::kUninitialized);
    y.range_hi = Codes(8 * u.range_hi.width(), total, Codes::kUninitialized);
  }
  // Per tuple, a bit per alternative whose code there is not the exact one.
  std::vector<Codes> codes;
  std::vector<uint32_t> differs(u.exact.size(), 0);
  for (size_t j = 0; j < u.alternatives.size(); ++j) {
    const StrategyOutput& a = u.alternatives[j];
    StrategyOutput s = SameAsExact(a.strategy);
    s.admitted = a.admitted;
    y.alternatives.push_back(std::move(s));
    codes.push_back(a.same_as_exact ? Codes() : u.alternative_codes(j));
    for (size_t t = 0; t < codes[j].size(); ++t) {
      differs[t] |= static_cast<uint32_t>(codes[j][t] != u.exact[t]) << j;
    }
  }
  // Every element's codes in one pass. Where the codes are bytes (the group's T is int8 or
  // uint8), each tuple's exact code, range and differing strategies are packed in one word, so
  // that an element reads one word.
  const bool bytes =
      bits == 8 && (!u.has_range() || (u.range_lo.width() == 1 && u.range_hi.width() == 1));
  std::vector<uint64_t> packed(bytes ? u.exact.size() : 0);
  for (size_t t = 0; t < packed.size(); ++t) {
    const uint64_t lo = u.has_range() ? u.range_lo.data()[t] : 0,
                   hi = u.has_range() ? u.range_hi.data()[t] : 0;
    packed[t] = u.exact.data()[t] | lo << 8 | hi << 16 | uint64_t{differs[t]} << 32;
  }
  uint8_t *exact = y.exact.data(), *range_lo = y.range_lo.data(), *range_hi = y.range_hi.data();
  for (size_t i = 0; i < total; ++i) {
    const uint32_t t = slot(i);
    uint32_t left = 0;
    if (bytes) {
      const uint64_t v = packed[t];
      exact[i] = static_cast<uint8_t>(v);
      if (range_lo != nullptr) {
        range_lo[i] = static_cast<uint8_t>(v >> 8), range_hi[i] = static_cast<uint8_t>(v >> 16);
      }
      left = static_cast<uint32_t>(v >> 32);
    } else {
      y.exact.set(i, u.exact[t]);
      if (u.has_range()) y.range_lo.set(i, u.range_lo[t]), y.range_hi.set(i, u.range_hi[t]);
      left = differs[t];
    }
    for (; left != 0; left &= left - 1) {
      const auto j = static_cast<size_t>(std::countr_zero(left));
      StrategyOutput& s = y.alternatives[j];
      s.same_as_exact = false, s.sparse = true;
      s.sparse_index.push_back(static_cast<int64_t>(i));
      s.sparse_code.push_back(codes[j][t]);
    }
  }
  if (!u.implementation_defined.empty()) {
    y.implementation_defined.resize(total);
    for (size_t i = 0; i < total; ++i) y.implementation_defined[i] = u.is_free(slot(i));
  }
  // The messages read the reduced case: it lives as long as they do.
  if (u.describe_range) {
    y.describe_range = [f = u.describe_range, at, reduced](int64_t i) { return f(at(i)); };
  }
  if (u.describe_inputs) {
    y.describe_inputs = [f = u.describe_inputs, at, reduced](int64_t i) { return f(at(i)); };
  }
  if (u.diagnose) {
    y.diagnose = [f = u.diagnose, at, reduced](int64_t i, uint32_t code) { return f(at(i), code); };
  }
  return y;
}

// The reduced case: c with each operand j holding the distinct tuples' codes `distinct[j]`.
std::shared_ptr<const Case> Reduced(const Case& c, const std::vector<size_t>& operands,
                                    const std::vector<std::vector<uint32_t>>& distinct) {
  auto reduced = std::make_shared<Case>(c);
  for (size_t j = 0; j < operands.size(); ++j) {
    Tensor& t = *reduced->inputs[operands[j]];
    t.shape = {static_cast<int64_t>(distinct[j].size())};
    t.codes = Codes(8 * t.codes.width(), std::span<const uint32_t>(distinct[j]));
  }
  return reduced;
}

// QLinearAdd's and QLinearMul's usual case, two byte operands of the output's shape: a 16-bit
// key a | b << 8 per element, the tuples that occur marked in one pass, taken in the keys' order,
// and scattered in a second pass by key (no per-element map: the messages find an element's
// tuple again from the evaluated case's operands).
std::optional<OutputEvaluation> ByBytePairs(
    const Case& c, const std::vector<size_t>& operands, size_t total, std::vector<int64_t> shape,
    const std::function<OutputEvaluation(const Case&)>& evaluate) {
  const uint8_t *a = c.input(operands[0])->codes.data(), *b = c.input(operands[1])->codes.data();
  std::vector<uint8_t> seen(size_t{1} << 16, 0);
  for (size_t i = 0; i < total; ++i) seen[a[i] | static_cast<size_t>(b[i]) << 8] = 1;
  auto slot_of_key = std::make_shared<std::vector<uint32_t>>(seen.size(), 0);
  std::vector<std::vector<uint32_t>> distinct(2);
  for (uint32_t key = 0; key < seen.size(); ++key) {
    if (!seen[key]) continue;
    (*slot_of_key)[key] = static_cast<uint32_t>(distinct[0].size());
    distinct[0].push_back(key & 0xFFu);
    distinct[1].push_back(key >> 8);
  }
  if (distinct[0].size() == total) return std::nullopt;
  const std::shared_ptr<const Case> reduced = Reduced(c, operands, distinct);
  const std::vector<uint32_t>& slots = *slot_of_key;
  const bool every_key = distinct[0].size() == seen.size();  // then a key is its own slot
  // The messages read the evaluated case's operands (they are called only while it lives,
  // evaluation.h) and the per-key slots.
  const std::function<int64_t(int64_t)> at = [slot_of_key, a, b](int64_t i) {
    const auto e = static_cast<size_t>(i);
    return static_cast<int64_t>((*slot_of_key)[a[e] | static_cast<size_t>(b[e]) << 8]);
  };
  const OutputEvaluation u = evaluate(*reduced);
  const auto key = [&](size_t i) { return a[i] | static_cast<uint32_t>(b[i]) << 8; };
  if (every_key) return Scatter(u, total, key, at, std::move(shape), reduced);
  return Scatter(
      u, total, [&](size_t i) { return slots[key(i)]; }, at, std::move(shape), reduced);
}

}  // namespace

std::optional<OutputEvaluation> EvaluateDistinctTuples(
    const Case& c, const OpSchema& schema,
    const std::function<OutputEvaluation(const Case&)>& evaluate) {
  const Operator& op = schema.op();
  if (!Elementwise(op)) return std::nullopt;
  const std::vector<InputSpec> inputs = op.inputs_of(c.inputs.size());
  std::vector<size_t> operands;
  std::vector<int64_t> shape;
  int bits = 0;
  for (size_t k = 0; k < inputs.size() && k < c.inputs.size(); ++k) {
    const Tensor* t = c.input(k);
    if (t == nullptr) continue;
    if (inputs[k].role == Role::kScale || inputs[k].role == Role::kZeroPoint) {
      if (t->element_count() > 1) return std::nullopt;
      continue;
    }
    if (!operands.empty()) {
      const std::optional<std::vector<int64_t>> s = BroadcastShape(shape, t->shape);
      if (!s) return std::nullopt;
      shape = *s;
    } else {
      shape = t->shape;
    }
    operands.push_back(k);
    bits += KeyBits(*t);
  }
  if (operands.empty() || bits > 32) return std::nullopt;  // keys are 32-bit
  size_t total = 1;
  for (int64_t d : shape) total *= static_cast<size_t>(d);
  struct Operand {
    const Tensor* t;
    bool whole;  // of the output's shape: element i is its own
    int shift;   // within the key
  };
  std::vector<Operand> ops;
  for (int shift = 0; size_t k : operands) {
    const Tensor* t = c.input(k);
    ops.push_back({t, t->shape == shape, shift});
    shift += KeyBits(*t);
  }
  const bool byte_pair = ops.size() == 2 && ops[0].whole && ops[1].whole &&
                         ops[0].t->codes.width() == 1 && ops[1].t->codes.width() == 1;
  if (byte_pair) return ByBytePairs(c, operands, total, std::move(shape), evaluate);
  // Each element's tuple as one key (first the keys, then their slots in first-seen order).
  std::vector<uint32_t> map(total, 0);
  for (const Operand& o : ops) {
    for (size_t i = 0; i < total; ++i) {
      const size_t at = o.whole ? i : BroadcastIndex(o.t->shape, shape, i);
      map[i] |= o.t->codes[at] << o.shift;
    }
  }
  // A table for keys of up to 16 bits, a hash map beyond.
  std::vector<int32_t> table(bits <= 16 ? size_t{1} << bits : 0, -1);
  std::unordered_map<uint32_t, uint32_t> slots;
  std::vector<uint32_t> keys;  // the distinct keys, in first-seen order
  for (size_t i = 0; i < total; ++i) {
    const uint32_t key = map[i], next = static_cast<uint32_t>(keys.size());
    uint32_t slot = next;
    if (!table.empty()) {
      int32_t& entry = table[key];
      if (entry < 0) entry = static_cast<int32_t>(next);
      slot = static_cast<uint32_t>(entry);
    } else {
      slot = slots.try_emplace(key, next).first->second;
    }
    if (slot == next) keys.push_back(key);
    map[i] = slot;
  }
  std::vector<std::vector<uint32_t>> distinct(operands.size());
  for (size_t j = 0; j < ops.size(); ++j) {
    const int width = KeyBits(*ops[j].t);
    const uint32_t mask = width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1;
    for (uint32_t key : keys) distinct[j].push_back(key >> ops[j].shift & mask);
  }
  const size_t unique = distinct[0].size();
  if (unique == total) return std::nullopt;
  const std::shared_ptr<const Case> reduced = Reduced(c, operands, distinct);
  auto shared = std::make_shared<const std::vector<uint32_t>>(std::move(map));
  const std::vector<uint32_t>& slots_of = *shared;
  return Scatter(
      evaluate(*reduced), total, [&](size_t i) { return slots_of[i]; },
      [shared](int64_t i) { return static_cast<int64_t>((*shared)[static_cast<size_t>(i)]); },
      std::move(shape), reduced);
}

}  // namespace qconform
