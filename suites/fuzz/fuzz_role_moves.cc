#include "suites/fuzz/fuzz_role_moves.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators/boundaries.h"
#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/float_output/gather_block_quantized.h"

namespace qconform {
namespace {

const std::vector<InputSpec>* InputsOf(const Case& c) {
  const Operator* op = FindOperator(c.domain, c.op_type);
  return op == nullptr ? nullptr : &op->inputs;
}

// Input k when the case has it with a known element type of the kind asked for.
Tensor* Present(Case& c, size_t k, bool want_float) {
  if (k >= c.inputs.size() || !c.inputs[k] || c.inputs[k]->codes.empty()) return nullptr;
  const ElementType* t = FindElementType(c.inputs[k]->data_type);
  if (t == nullptr || (want_float ? !t->is_float() : !t->is_integer())) return nullptr;
  return &*c.inputs[k];
}

// The position of the zero point (or scale) of operand `name`, or nullopt.
std::optional<size_t> ParameterOf(const std::vector<InputSpec>& inputs, Role role,
                                  const std::string& name) {
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].role == role && inputs[k].of == name) return k;
  }
  return std::nullopt;
}

bool NamesAnInput(const std::vector<InputSpec>& inputs, const std::string& name) {
  for (const InputSpec& in : inputs) {
    if (in.name == name) return true;
  }
  return false;
}

// f(its spec, the tensor) for every input of `role` the case holds with a float (or integer)
// element type, in the operator's order.
template <class F>
void ForEachInputOf(Case& c, Role role, bool want_float, F&& f) {
  const std::vector<InputSpec>* inputs = InputsOf(c);
  if (inputs == nullptr) return;
  for (size_t k = 0; k < inputs->size(); ++k) {
    Tensor* t = (*inputs)[k].role == role ? Present(c, k, want_float) : nullptr;
    if (t != nullptr) f((*inputs)[k], *t);
  }
}

void Fill(Tensor& t, uint32_t code) {
  for (size_t i = 0; i < t.codes.size(); ++i) t.codes.set(i, code);
}

void ScaleEdges(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  ForEachInputOf(c, Role::kScale, true, [&](const InputSpec&, Tensor& t) {
    if (ch.Below(3) == 0) return;
    const ElementType& type = *FindElementType(t.data_type);
    // A type without subnormals (float8e8m0) has no subnormal boundaries; its largest value is
    // the first saturation boundary.
    const std::vector<Rational> subnormal = SubnormalBoundaries(type);
    const std::vector<Rational> saturation = SaturationBoundaries(type);
    std::vector<Rational> values;
    if (!subnormal.empty()) values.push_back(subnormal.back());
    if (!saturation.empty()) values.push_back(abs(saturation.front()));
    if (!subnormal.empty()) values.push_back(subnormal.front());
    std::vector<uint32_t> codes = ExactCodes(type, values);
    for (uint32_t s : SeparatingScaleCodes(type)) codes.push_back(s);
    if (codes.empty()) return;
    const uint32_t code = codes[ch.Below(codes.size())];
    if (ch.Below(2) == 0) {
      t.codes.set(ch.Below(t.codes.size()), code);
    } else {
      Fill(t, code);
    }
  });
}

}  // namespace

void ExtremeOperands(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  ForEachInputOf(c, Role::kQuantized, false, [&](const InputSpec& in, Tensor& t) {
    if (ch.Below(4) == 0) return;
    const ElementType& type = *FindElementType(t.data_type);
    const int64_t lo = IntegerMin(type), hi = IntegerMax(type);
    const std::vector<uint32_t> extremes = IntegerCodes(type, {hi, lo, hi - 1, lo + 1});
    const size_t first = ch.Below(extremes.size());
    if (ch.Below(2) == 0) {
      Fill(t, extremes[first]);
    } else {  // extremes[(first + i * stride) % 4]: runs of one sign, or alternating signs
      const size_t stride = ch.Below(extremes.size());
      for (size_t i = 0; i < t.codes.size(); ++i) {
        t.codes.set(i, extremes[(first + i * stride) % extremes.size()]);
      }
    }
    const std::optional<size_t> z = ParameterOf(*InputsOf(c), Role::kZeroPoint, in.name);
    Tensor* zero_point = z ? Present(c, *z, false) : nullptr;
    if (zero_point == nullptr || zero_point->data_type != t.data_type) return;
    const uint32_t opposite = extremes[first ^ 1];  // max <-> min, max - 1 <-> min + 1
    const uint32_t options[] = {IntegerCodes(type, {0}).at(0), opposite, extremes[first]};
    const uint64_t pick = ch.Below(4);
    if (pick > 0) Fill(*zero_point, options[pick - 1]);
  });
}

void ScaleExtremes(Choices& ch, Case& c) {
  ScaleEdges(ch, c);
}

void SaturatingOutputScale(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  ForEachInputOf(c, Role::kScale, true, [&](const InputSpec& in, Tensor& t) {
    if (NamesAnInput(*InputsOf(c), in.of)) return;  // an input's scale, not an output's
    const ElementType& type = *FindElementType(t.data_type);
    const Rational divisor(int64_t{1} << (24 + ch.Below(8)));
    for (size_t i = 0; i < t.codes.size(); ++i) {
      const Exact s = Decode(type, t.codes[i]);
      if (!s.is_finite() || s.is_zero()) continue;
      // Kept above the smallest normal, where the quotient is still exact.
      const std::vector<uint32_t> code = ExactCodes(type, {s.value() / divisor});
      const std::vector<Rational> subnormal = SubnormalBoundaries(type);
      if (!code.empty() && (subnormal.empty() || abs(s.value()) / divisor >= subnormal.back()))
        t.codes.set(i, code[0]);
    }
  });
}

void IndexEdges(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  const OpSchema* s = ResolveSchema(c.domain, c.op_type, c.opset);
  if (s == nullptr || s->operator_kind != OperatorKind::kGatherBlockQuantized) return;
  const std::optional<GatherBlockQuantizedPlan> p = ValidateGatherBlockQuantized(c, *s).plan;
  if (!p) return;
  const int64_t size = p->logical_shape.at(static_cast<size_t>(p->gather_axis));
  const int64_t edges[] = {0, size - 1, -1, -size};
  ForEachInputOf(c, Role::kIndex, false, [&](const InputSpec&, Tensor& t) {
    for (uint64_t n = 1 + ch.Below(4); n > 0; --n) {
      const int64_t v = edges[ch.Below(4)];
      t.codes.set(ch.Below(t.codes.size()), static_cast<uint32_t>(static_cast<int32_t>(v)));
    }
  });
}

}  // namespace qconform
