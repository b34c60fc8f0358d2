#include "suites/fuzz/fuzz_boundary_moves.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "generators/boundaries.h"
#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"
#include "oracle/core/fast_codec.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/integer/conv_accumulate.h"
#include "oracle/semantics/integer/matmul_validation.h"
#include "oracle/semantics/linear/dynamic_quantize.h"
#include "suites/fuzz/fuzz_role_moves.h"

namespace qconform {
namespace {

// k + 1/2 for k in [-256, 255]: the ties of every 8-bit range with its zero points.
Rational HalfIntegerTie(Choices& ch) {
  return Rational(static_cast<int64_t>(ch.Below(512)) - 256) + Rational(1, 2);
}

// x's elements onto or next to the ties of x / y_scale (rounding rules, reciprocal multipliers,
// where the zero point is added) and, for a float y, where its saturation begins.
// QuantizeLinear's scale is one of y_scale's elements; DynamicQuantizeLinear's is the one it
// computes from x.
void QuotientTies(Choices& ch, Case& c) {
  if (c.inputs.empty() || !c.inputs[0]) return;
  const bool dynamic =
      FindOperator(c.domain, c.op_type)->kind == OperatorKind::kDynamicQuantizeLinear;
  Tensor& x = *c.inputs[0];
  const ElementType* xt = FindElementType(x.data_type);
  if (xt == nullptr || !xt->is_float() || x.codes.empty()) return;
  Exact s;
  if (dynamic) {
    if (x.data_type != static_cast<int32_t>(DataType::kFloat)) return;
    s = Decode(*xt, DynamicQuantizeParametersOf(x.codes).y_scale);
  } else {
    if (c.inputs.size() < 2 || !c.inputs[1] || c.inputs[1]->codes.empty()) return;
    const Tensor& scale = *c.inputs[1];
    const ElementType* st = FindElementType(scale.data_type);
    if (st == nullptr) return;
    s = Decode(*st, scale.codes[ch.Below(scale.codes.size())]);
  }
  if (!s.is_finite() || s.is_zero()) return;
  const Rational factor = Rational(s.is_negative() ? -1 : 1) / abs(s.value());
  const ElementType* yt = FindElementType(DeclaredOutputType(c));
  const std::vector<Rational> saturation =
      yt != nullptr && yt->is_float() ? SaturationBoundaries(*yt) : std::vector<Rational>{};
  for (uint64_t n = ch.Below(8); n > 0; --n) {
    Rational target;
    if (!saturation.empty() && ch.Below(2) == 1) {
      target = saturation[ch.Below(saturation.size())];
      if (ch.Below(2) == 1) target = -target;
    } else {
      target = HalfIntegerTie(ch);
    }
    // The code (the one just below the tie first: a near tie, where quotients computed in a
    // narrower type part from the exact one), then the element.
    const std::vector<uint32_t> codes = NearTieCodes(*xt, factor, {target});
    if (codes.empty()) continue;
    const uint32_t code = codes[ch.Below(codes.size())];
    x.codes.set(ch.Below(x.codes.size()), code);
  }
}

// Input k, or nullptr when the operator has none there (-1) or the case leaves it out.
Tensor* InputAt(Case& c, int k) {
  if (k < 0 || static_cast<size_t>(k) >= c.inputs.size() || !c.inputs[static_cast<size_t>(k)])
    return nullptr;
  return &*c.inputs[static_cast<size_t>(k)];
}

std::optional<MatMulPlan> MatMulPlanOf(const Case& c) {
  const OpSchema* s = ResolveSchema(c.domain, c.op_type, c.opset);
  return s == nullptr ? std::nullopt : ValidateMatMul(c, *s).plan;
}

// A per-tensor parameter holding the parameter's first code (0 for a zero point when `zero`).
void PerTensor(Case& c, int input, bool zero) {
  if (InputAt(c, input) == nullptr) return;
  Tensor& t = *InputAt(c, input);
  const uint32_t first = zero || t.codes.empty() ? 0 : t.codes[0];
  const ElementType* type = FindElementType(t.data_type);
  t.shape = {};
  t.codes = Codes(type == nullptr ? 8 : type->bits, 1);
  t.codes.set(0, first);
}

// a [1, K] and b [K, 1] of one extreme code each (max, max - 1, min, min + 1: odd and even
// products, both signs) with a few raw codes among them, the parameters per tensor, the zero
// points 0 or kept: an accumulator past 2^24, where float32 sums lose the low bits.
void WideInnerDimension(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  const std::optional<MatMulPlan> p = MatMulPlanOf(c);
  if (!p || !p->a_type->is_integer() || !p->b_type->is_integer()) return;
  const int64_t k = 1100 + static_cast<int64_t>(ch.Below(1000));
  const bool zero_points = ch.Below(2) == 0;
  for (const auto& [operand, shape] :
       {std::pair{p->a, std::vector<int64_t>{1, k}}, std::pair{p->b, std::vector<int64_t>{k, 1}}}) {
    Tensor& t = *InputAt(c, operand.value);
    const ElementType& type = *FindElementType(t.data_type);
    const int64_t lo = IntegerMin(type), hi = IntegerMax(type);
    const std::vector<uint32_t> extremes = IntegerCodes(type, {hi, hi - 1, lo, lo + 1});
    const uint32_t code = extremes[ch.Below(extremes.size())];
    t.shape = shape;
    t.codes = Codes(type.bits, static_cast<size_t>(k));
    for (int64_t i = 0; i < k; ++i) t.codes.set(static_cast<size_t>(i), code);
    for (uint64_t n = ch.Below(4); n > 0; --n) {
      t.codes.set(ch.Below(static_cast<uint64_t>(k)), static_cast<uint32_t>(ch.Below(256)));
    }
    PerTensor(c, operand.scale, false);
    PerTensor(c, operand.zero_point, zero_points);
  }
}

// A code of float8 type `t` from an 8-bit integer code: the same bits, NaN and infinity moved
// down to the largest finite value of their sign.
uint32_t FiniteFloat8(const ElementType& t, uint32_t code) {
  while (!std::isfinite(DecodeDouble(t, code))) code = (code - 1) & 0xFF;
  return code;
}

void Retype(Tensor* t, const ElementType& type) {
  if (t == nullptr) return;
  t->data_type = static_cast<int32_t>(type.id);
  for (size_t i = 0; i < t->codes.size(); ++i) t->codes.set(i, FiniteFloat8(type, t->codes[i]));
}

constexpr int64_t kMaxFloat8InnerDimension = 96;

// Version 21's float8 half (docs/semantics.md#d27): a and b with their zero points, and y through
// y_zero_point, each retyped to a float8 type unless the choice says otherwise; the integer
// codes' bits become float8 codes, so that the zero points are non-zero values and the
// accumulators reach far past float8's range.
void Float8Operands(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  const OpSchema* s = ResolveSchema(c.domain, c.op_type, c.opset);
  const std::optional<MatMulPlan> p = MatMulPlanOf(c);
  // Not after a wide K: float8 operands go through exact values, element by element, which a
  // fuzzer's executions per second cannot pay for at K = 2,000 (and K decides nothing for them).
  if (s == nullptr || !p || p->geometry.k > kMaxFloat8InnerDimension) return;
  const auto floats = [](const std::vector<DataType>& types) {
    std::vector<const ElementType*> out;
    for (DataType d : types) {
      const ElementType& t = ElementTypeOf(d);
      if (t.is_float() && t.bits == 8) out.push_back(&t);
    }
    return out;
  };
  const std::vector<const ElementType*> operand_types = floats(s->x_types);
  const std::vector<const ElementType*> y_types = floats(s->output_types);
  for (const OperandInputs& operand : {p->a, p->b}) {
    if (operand_types.empty() || ch.Below(3) == 2) continue;
    const ElementType& type = *operand_types[ch.Below(operand_types.size())];
    Tensor* value = InputAt(c, operand.value);
    if (!FindElementType(value->data_type)->is_integer()) continue;
    Retype(value, type);
    Retype(InputAt(c, operand.zero_point), type);
  }
  if (!y_types.empty() && p->y.zero_point >= 0 && p->y_type->is_integer() && ch.Below(3) != 2)
    Retype(InputAt(c, p->y.zero_point), *y_types[ch.Below(y_types.size())]);
}

// QLinearConv: one element's acc moved onto or next to a tie of acc * M through B[m] (a bias of
// zeros added when there is none), M first made a power of two 2^-j (an exact tie, where
// round-half-even and the zero point's place show) unless the choice says otherwise, and
// y_zero_point set to any code.
void BiasOntoTie(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  const OpSchema* s = ResolveSchema(c.domain, c.op_type, c.opset);
  if (s == nullptr) return;
  std::optional<ConvPlan> p = ValidateConv(c, *s).plan;
  if (!p || p->y.scale < 0 || p->y.zero_point < 0) return;
  const std::vector<InputSpec>& inputs = s->op().inputs;
  size_t bias = 0;
  while (bias < inputs.size() && inputs[bias].role != Role::kBias) ++bias;
  if (p->bias < 0) {
    if (c.inputs.size() != bias) return;
    const int64_t m = p->geometry.m;
    c.inputs.push_back(Tensor{
        static_cast<int32_t>(DataType::kInt32), {m}, Codes(32, static_cast<size_t>(m)), false});
  }
  const std::vector<int64_t> accs = AccumulateConv(c, *p, false);
  if (accs.empty()) return;
  const size_t e = ch.Below(accs.size());
  const int64_t m = ConvElementAt(p->geometry, static_cast<int64_t>(e)).m;
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  Tensor& x_scale = *c.inputs[static_cast<size_t>(p->x.scale)];
  Tensor& y_scale = *c.inputs[static_cast<size_t>(p->y.scale)];
  const double ws = DecodeDouble(f, c.inputs[static_cast<size_t>(p->w.scale)]
                                        ->codes[static_cast<size_t>(WeightParameterIndex(*p, m))]);
  if (ch.Below(2) == 0) {
    // x_scale down to a power of two, so that x_scale * w_scale is a float32, and y_scale that
    // times 2^j: M = 2^-j exactly.
    int exponent = 0;
    std::frexp(DecodeDouble(f, x_scale.codes[0]), &exponent);
    const double xs = std::ldexp(1.0, exponent - 1);
    const double ys = xs * ws * std::ldexp(1.0, 1 + static_cast<int>(ch.Below(8)));
    const auto x_code = EncodeDouble(f, xs, Saturation::kNone);
    const auto y_code = EncodeDouble(f, ys, Saturation::kNone);
    if (x_code && y_code && DecodeDouble(f, *x_code) == xs && DecodeDouble(f, *y_code) == ys) {
      x_scale.codes.set(0, *x_code);
      y_scale.codes.set(0, *y_code);
    }
  }
  const double xs = DecodeDouble(f, x_scale.codes[0]);
  const Exact ys = Decode(f, y_scale.codes[0]);
  if (!std::isfinite(xs * ws) || xs * ws == 0 || !ys.is_finite() || ys.is_zero()) return;
  const Rational multiplier =
      Exact::FromDouble(xs).value() * Exact::FromDouble(ws).value() / ys.value();
  const std::vector<BigInt> targets = NearTieIntegers(multiplier, {HalfIntegerTie(ch)});
  Tensor& b = *c.inputs[bias];
  const int64_t old_bias = static_cast<int32_t>(b.codes[static_cast<size_t>(m)]);
  const BigInt wanted =
      targets[(1 + ch.Below(targets.size())) % targets.size()] - (accs[e] - old_bias);
  if (wanted < std::numeric_limits<int32_t>::min() || wanted > std::numeric_limits<int32_t>::max())
    return;
  b.codes.set(static_cast<size_t>(m), static_cast<uint32_t>(static_cast<int32_t>(wanted)));
  Tensor& y_zero_point = *c.inputs[static_cast<size_t>(p->y.zero_point)];
  y_zero_point.codes.set(0, static_cast<uint32_t>(ch.Below(uint64_t{p->y_type->code_mask()} + 1)));
}

struct BoundaryMove {
  OperatorKind kind;
  void (*move)(Choices&, Case&);
};
// Each kind's own moves first, then the ones written from the roles (fuzz_role_moves.h), so that
// the choices a kind's older moves read are where they were. Every kind has a row
// (boundary_moves_test.cc: EveryKindHasAMove).
constexpr BoundaryMove kMoves[] = {
    {OperatorKind::kDequantizeLinear, ExtremeOperands},
    {OperatorKind::kDequantizeLinear, ScaleExtremes},
    {OperatorKind::kQuantizeLinear, QuotientTies},
    {OperatorKind::kQuantizeLinear, SaturatingOutputScale},
    {OperatorKind::kDynamicQuantizeLinear, QuotientTies},
    {OperatorKind::kMatMulInteger, WideInnerDimension},
    {OperatorKind::kMatMulInteger, ExtremeOperands},
    {OperatorKind::kQLinearMatMul, WideInnerDimension},
    {OperatorKind::kQLinearMatMul, Float8Operands},
    {OperatorKind::kQLinearMatMul, ExtremeOperands},
    {OperatorKind::kQLinearMatMul, SaturatingOutputScale},
    {OperatorKind::kQLinearConv, BiasOntoTie},
    {OperatorKind::kQLinearConv, ExtremeOperands},
    {OperatorKind::kQLinearConv, SaturatingOutputScale},
    {OperatorKind::kConvInteger, ExtremeOperands},
    {OperatorKind::kQLinearGroup, ExtremeOperands},
    {OperatorKind::kQLinearGroup, ScaleExtremes},
    {OperatorKind::kQLinearGroup, SaturatingOutputScale},
    {OperatorKind::kQGemm, ExtremeOperands},
    {OperatorKind::kQGemm, SaturatingOutputScale},
    {OperatorKind::kMatMulNBits, ExtremeOperands},
    {OperatorKind::kMatMulNBits, ScaleExtremes},
    {OperatorKind::kMatMulIntegerToFloat, ExtremeOperands},
    {OperatorKind::kMatMulIntegerToFloat, ScaleExtremes},
    {OperatorKind::kGatherBlockQuantized, IndexEdges},
    {OperatorKind::kGatherBlockQuantized, ExtremeOperands},
    {OperatorKind::kGatherBlockQuantized, ScaleExtremes},
};

}  // namespace

void BoundaryMoves(Choices& ch, Case& c) {
  const Operator* op = FindOperator(c.domain, c.op_type);
  if (op == nullptr) return;
  for (const BoundaryMove& m : kMoves) {
    if (m.kind == op->kind) m.move(ch, c);
  }
}

int BoundaryMoveCount(OperatorKind kind) {
  int n = 0;
  for (const BoundaryMove& m : kMoves) n += m.kind == kind;
  return n;
}

}  // namespace qconform
