// The com.microsoft QLinear operators' golden cases (docs/semantics.md#d35), built from the
// boundaries for each operator and each T (int8, uint8):
//   - ties: every code of the first operand at dyadic scale ratios with odd zero points, so that
//     half the results are exact ties (rounding the zero point in, or ties away, is a wrong code);
//   - saturate: scale ratios of 2^16 and more, results past both ends of T (the type's minimum
//     for a large positive result is a wrong code);
//   - reciprocal: an output scale found by search whose float32 reciprocal rounds some results
//     the other way from both the exact quotient and the float32 one;
//   - the binary operators' broadcasting (a vector and a scalar operand), absent zero points
//     (0 by default) and ties with an even output zero point (ties up told from ties away and
//     from the zero point added first), QLinearLeakyRelu's default alpha (0.01), QLinearSigmoid's
//     256 codes at the scales a quantizer picks;
// and one case per rule of each operator (must-reject and implementation-defined).
#include <cmath>

#include "generators/boundaries.h"
#include "generators/catalogue_builder.h"
#include "generators/qlinear_group_codes.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;
using Inputs = std::vector<std::optional<Tensor>>;
using namespace qlinear_codes;

struct GroupOp {
  std::string op_type, prefix;
  bool binary;
};
const GroupOp kAdd{"QLinearAdd", "qladd", true}, kMul{"QLinearMul", "qlmul", true},
    kLeakyRelu{"QLinearLeakyRelu", "qllrelu", false}, kSigmoid{"QLinearSigmoid", "qlsig", false},
    kGlobalPool{"QLinearGlobalAveragePool", "qlgap", false},
    kSoftmax{"QLinearSoftmax", "qlsoftmax", false};

class QLinearGroups : public CatalogueBuilder {
 public:
  static Case Make(const GroupOp& op, Inputs in, std::map<std::string, Attribute> attributes,
                   const std::string& id) {
    Case c = MakeCase(op.op_type, 1, std::move(in), {}, "com.microsoft", id);
    c.attributes = std::move(attributes);
    return c;
  }
  void Computed(const GroupOp& op, D t, const std::string& boundary, Inputs in,
                std::map<std::string, Attribute> attributes = {}) {
    const std::string id = op.prefix + "1-" + boundary + "-" + TypeName(t);
    Add(Make(op, std::move(in), std::move(attributes), id),
        "op:" + op.op_type + ",type:" + TypeName(t) + ",y:" + TypeName(t) + ",boundary:" + boundary,
        "d35");
  }

  // The inputs of op with the first operand `a` (every code of T) and the scales given; the
  // second operand of a binary one `b`.
  static Inputs Binary(const Tensor& a, double a_scale, int64_t a_zp, const Tensor& b,
                       double b_scale, int64_t b_zp, const Tensor& c_scale, int64_t c_zp, D t) {
    return {a,
            F(a_scale),
            MakeScalar(t, static_cast<double>(a_zp)),
            b,
            F(b_scale),
            MakeScalar(t, static_cast<double>(b_zp)),
            c_scale,
            MakeScalar(t, static_cast<double>(c_zp))};
  }
  static Inputs Unary(const Tensor& x, double x_scale, int64_t x_zp, const Tensor& y_scale,
                      int64_t y_zp, D t) {
    return {x, F(x_scale), MakeScalar(t, static_cast<double>(x_zp)), y_scale,
            MakeScalar(t, static_cast<double>(y_zp))};
  }

  // B for the ties: every code against the first operand's, in another order (Add); one step
  // either side of its zero point (Mul: (A - zp) * (+-1) / 2 is a tie for every odd A - zp).
  static Tensor SecondOperand(const GroupOp& op, D t, int64_t zp) {
    if (op.op_type == "QLinearMul") {
      return AroundZeroPoint(t, {256}, zp, [](size_t i) -> int64_t { return i % 2 ? 1 : -1; });
    }
    return Shuffled(t);
  }

  // Every code of T in the first operand's shape: [256], a pool's [1, 64, 2, 2] (the codes in
  // B's order, so that windows' sums vary), Softmax's [4, 64].
  static Tensor FirstOperand(const GroupOp& op, D t) {
    if (op.op_type == "QLinearGlobalAveragePool") {
      Tensor x = SecondOperand(op, t, 0);
      x.shape = {1, 64, 2, 2};
      return x;
    }
    Tensor x = AllCodes(t);
    if (op.op_type == "QLinearSoftmax") x.shape = {4, 64};
    return x;
  }
  Inputs TieInputs(const GroupOp& op, D t, const Tensor& c_scale) const {
    const double a_scale = 0.5, b_scale = op.op_type == "QLinearMul" ? 1 : 0.25;
    if (!op.binary) return Unary(FirstOperand(op, t), a_scale, Zp(t, -3), c_scale, Zp(t, 7), t);
    return Binary(AllCodes(t), a_scale, Zp(t, -3), SecondOperand(op, t, Zp(t, 5)), b_scale,
                  Zp(t, 5), c_scale, Zp(t, 7), t);
  }
  // The attributes each case of op sets: LeakyRelu's alpha 0.25 (dyadic), Softmax's opset 13.
  static std::map<std::string, Attribute> Alpha(const GroupOp& op) {
    if (op.op_type == "QLinearSoftmax") return {{"opset", Attribute::Int(13)}};
    if (op.op_type != "QLinearLeakyRelu") return {};
    return {{"alpha", Attribute::Float(0.25)}};
  }

  // QLinearGlobalAveragePool: means of 4 values on the grid 1/2 (sums of 4 halves, a tie when
  // the sum is 4 mod 8), NCHW and NHWC, and with Y's parameters X's; QLinearSoftmax: every code,
  // along either axis, at a quantizer's scales, and at opset 11 (a matrix); both past the top of T.
  void PoolAndSoftmaxCells(const GroupOp& op, D t) {
    if (op.op_type == "QLinearGlobalAveragePool") {
      Computed(op, t, "ties", TieInputs(op, t, F(1)));
      Inputs in = TieInputs(op, t, F(1));
      in[0]->shape = {1, 2, 2, 64};
      Computed(op, t, "channels-last", in, {{"channels_last", Attribute::Int(1)}});
      in = TieInputs(op, t, F(1.0 / 64));
      in[1] = F(64);
      Computed(op, t, "saturate", in);
      // Y with X's parameters (the only global pool PyTorch has): ties among the means of 4.
      in = TieInputs(op, t, F(0.5));
      in[4] = in[2];
      Computed(op, t, "same-parameters", in);
      in[2] = in[4] = MakeScalar(t, 0);
      Computed(op, t, "same-parameters-zero-points", in);
      return;
    }
    const int64_t y_zp = t == D::kInt8 ? -128 : 0;
    const Inputs in = Unary(FirstOperand(op, t), 1.0 / 16, Zp(t, 0), F(1.0 / 256), y_zp, t);
    Computed(op, t, "codes", in, Alpha(op));
    std::map<std::string, Attribute> axis0 = Alpha(op);
    axis0["axis"] = Attribute::Int(0);
    Computed(op, t, "codes-axis-0", in, axis0);
    // opset 11: the [4, 4, 16] codes coerced to a matrix at axis 1, one softmax over each row
    // of 64 (opset 13 along axis 1 would take columns of 4).
    Inputs cube = in;
    cube[0]->shape = {4, 4, 16};
    Computed(op, t, "codes-opset-11", cube,
             {{"opset", Attribute::Int(11)}, {"axis", Attribute::Int(1)}});
    // opset 11, a rank-1 X: axis 0 (and -1) coerce it to one row of 256, one softmax over all
    // (issue 69: the default axis 1 was read as one-element rows; it is must-reject).
    Inputs line = in;
    line[0]->shape = {256};
    Computed(op, t, "codes-opset-11-rank-1-axis-0", line,
             {{"opset", Attribute::Int(11)}, {"axis", Attribute::Int(0)}});
    Computed(op, t, "codes-opset-11-rank-1-axis-minus-1", line,
             {{"opset", Attribute::Int(11)}, {"axis", Attribute::Int(-1)}});
    Computed(op, t, "saturate",
             Unary(FirstOperand(op, t), 1.0 / 16, Zp(t, 0), F(1.0 / 65536), y_zp, t), Alpha(op));
    // An output scale whose reciprocal (200.5) is no integer: times floor(1 / y_scale) = 200
    // instead of divided by it moves most codes.
    Computed(op, t, "floor-reciprocal",
             Unary(FirstOperand(op, t), 1.0 / 16, Zp(t, 0),
                   F(static_cast<double>(static_cast<float>(1.0 / 200.5))), y_zp, t),
             Alpha(op));
  }

  void Cells(const GroupOp& op, D t) {
    if (op.op_type == "QLinearGlobalAveragePool" || op.op_type == "QLinearSoftmax") {
      return PoolAndSoftmaxCells(op, t);
    }
    if (op.op_type != "QLinearSigmoid") {
      Computed(op, t, "ties", TieInputs(op, t, F(1)), Alpha(op));
      Reciprocal(op, t);
    }
    // Results past both ends: a 2^16 (and more) ratio, zero at the zero points.
    if (op.binary) {
      const Tensor b = AroundZeroPoint(t, {256}, Zp(t, 5),
                                       [](size_t i) -> int64_t { return i % 3 == 0 ? 0 : 1; });
      Computed(op, t, "saturate",
               Binary(AllCodes(t), 256, Zp(t, -3), b, 256, Zp(t, 5), F(1.0 / 256), Zp(t, 7), t));
    } else {
      Computed(op, t, "saturate",
               Unary(AllCodes(t), op.op_type == "QLinearSigmoid" ? 1.0 / 16 : 64, Zp(t, -3),
                     F(op.op_type == "QLinearSigmoid" ? 1.0 / 4096 : 1.0 / 64), Zp(t, 7), t),
               Alpha(op));
    }
    if (op.binary) {
      // Broadcasting at the ties' scales: A [4, 64] with B [64], and with a scalar B.
      Inputs in = TieInputs(op, t, F(1));
      in[0]->shape = {4, 64};
      Tensor row = *in[3];
      row.shape = {64};
      row.codes = Codes(8, 64);
      for (size_t i = 0; i < 64; ++i) row.codes.set(i, in[3]->codes[i]);
      in[3] = row;
      Computed(op, t, "broadcast-vector", in);
      in[3] = MakeTensorFromCodes(t, {}, {in[3]->codes[1]});
      Computed(op, t, "broadcast-scalar", in);
      // Absent zero points read as 0.
      in = TieInputs(op, t, F(1));
      in[2] = std::nullopt, in[5] = std::nullopt, in.pop_back();
      Computed(op, t, "default-zero-points", in);
      // The ties with an even C_zero_point: adding it before rounding changes nothing there, and
      // ties up (floor(v + 1/2)) parts from ties away on the negative ties, so a kernel's
      // rounding is named alone.
      in = TieInputs(op, t, F(1));
      in[7] = MakeScalar(t, static_cast<double>(Zp(t, 8)));
      Computed(op, t, "ties-even-zero-point", in);
    } else if (op.op_type == "QLinearLeakyRelu") {
      // alpha absent: 0.01, which at x_scale 1, y_scale 1/16 moves every negative x by codes.
      Computed(op, t, "default-alpha", Unary(AllCodes(t), 1, Zp(t, -3), F(1.0 / 16), Zp(t, 7), t));
    } else {
      // The scales a quantizer picks for a sigmoid: x over [-8, 8), y over [0, 1].
      const int64_t y_zp = t == D::kInt8 ? -128 : 0;
      Computed(op, t, "codes", Unary(AllCodes(t), 1.0 / 16, Zp(t, 0), F(1.0 / 256), y_zp, t));
      Computed(op, t, "codes-odd-zero-point",
               Unary(AllCodes(t), 0.0625, Zp(t, -3), F(1.0f / 255), y_zp + 1, t));
    }
  }

  // A first operand's scale, an output scale and inputs that separate a float32 reciprocal of
  // the output scale from the admitted results, by search: over long-significand scales (the
  // quotients of short ones stay too far from ties for a reciprocal's error to cross one), the
  // first pair for which a quick double-precision count finds elements (among every code, or
  // every pair of codes of a binary operator) and the oracle confirms one; the case holds
  // those elements, at most 64. A reciprocal kernel fails it. Three such cases per cell, each
  // from another first-operand scale ("reciprocal", "reciprocal-2", "reciprocal-3"), so that no
  // cell rests on one (defect_cells.cc asks three kills there).
  void Reciprocal(const GroupOp& op, D t) {
    Case every = Make(op, TieInputs(op, t, F(1)), Alpha(op), "search");
    const ElementType& type = ElementTypeOf(t);
    const auto centred = [&](size_t k, size_t i) {
      const Tensor& x = *every.inputs[k];
      return static_cast<double>(Decode(type, x.codes[i]).value() -
                                 Decode(type, every.inputs[k + 2]->codes[0]).value());
    };
    if (op.binary) {  // every pair of codes
      std::vector<uint32_t> a(65536), b(65536);
      for (uint32_t k = 0; k < 65536; ++k) a[k] = k % 256, b[k] = k / 256;
      every.inputs[0] = MakeTensorFromCodes(t, {65536}, a);
      every.inputs[3] = MakeTensorFromCodes(t, {65536}, b);
    }
    std::vector<double> a, b;
    for (size_t i = 0; i < every.inputs[0]->codes.size(); ++i) {
      a.push_back(centred(0, i));
      b.push_back(op.binary ? centred(3, i) : 0);
    }
    const double b_scale = op.binary ? (op.op_type == "QLinearMul" ? 1 : 0.25) : 0;
    // The value before the division, exactly as far as double holds it.
    const auto value = [&](size_t i, double a_scale) {
      if (op.op_type == "QLinearAdd") return a_scale * a[i] + b_scale * b[i];
      if (op.op_type == "QLinearMul") return a[i] * b[i] * a_scale * b_scale;
      const double x = a_scale * a[i];
      return x < 0 ? 0.25 * x : x;  // LeakyRelu, alpha 0.25
    };
    const auto fraction = [](double v) { return v - std::floor(v); };
    int made = 0;
    for (int j = 1; j < 40000; ++j) {
      const auto a_scale = static_cast<float>(0.5 * (1 + fraction(j * 0.7548776662466927)));
      double largest = 0;
      for (size_t i = 0; i < a.size(); ++i)
        largest = std::max(largest, std::fabs(value(i, a_scale)));
      const double base = std::exp2(std::ceil(std::log2(largest / 100)));
      for (int k = 1; k < 16; ++k) {
        const auto scale = static_cast<float>(base * (1 + fraction(k * 0.6180339887498949)));
        std::vector<size_t> found;
        for (size_t i = 0; i < a.size() && found.size() < 64; ++i) {
          if (QuickSeparates(value(i, a_scale), scale)) found.push_back(i);
        }
        if (found.empty()) continue;
        Case c = every;
        c.id = "search";
        c.inputs[1] = F(a_scale);
        c.inputs[c.inputs.size() - 2] = F(scale);
        for (size_t operand : {size_t{0}, size_t{3}}) {
          if (operand == 3 && !op.binary) break;
          Tensor& x = *c.inputs[operand];
          x.shape = {static_cast<int64_t>(found.size())};
          x.codes = Codes(8, found.size());
          for (size_t n = 0; n < found.size(); ++n) {
            x.codes.set(n, every.inputs[operand]->codes[found[n]]);
          }
        }
        const double zp =
            static_cast<double>(Decode(ElementTypeOf(t), c.inputs.back()->codes[0]).value());
        if (ReciprocalSeparated(
                c, t, [&](size_t n) { return value(found[n], a_scale); }, scale, zp) >= 1) {
          ++made;
          Computed(op, t, made == 1 ? "reciprocal" : "reciprocal-" + std::to_string(made),
                   std::move(c.inputs), Alpha(op));
          if (made == 3) return;
          break;  // the next case from the next first-operand scale
        }
      }
    }
    throw std::logic_error(op.op_type +
                           ": fewer than three output scales separate a reciprocal "
                           "multiplier");
  }

  // One case per rule of the operator (its must-reject and implementation-defined ones).
  void Rules(const GroupOp& op) {
    const D t = D::kUint8;
    const Inputs base = TieInputs(op, t, F(1));
    const auto reject = [&](const std::string& what, Inputs in, const std::string& rule,
                            std::optional<std::map<std::string, Attribute>> attributes = {}) {
      Add(Make(op, std::move(in), attributes.value_or(Alpha(op)), op.prefix + "1-reject-" + what),
          "negative:" + op.prefix + "." + rule, "d35", op.prefix + "." + rule);
    };
    const auto impl = [&](const std::string& what, Inputs in, const std::string& rule) {
      Add(Make(op, std::move(in), Alpha(op), op.prefix + "1-impl-" + what),
          "op:" + op.op_type + ",type:uint8,implementation-defined:" + op.prefix + "." + rule,
          "d35");
    };
    const size_t output_scale = base.size() - 2;
    reject("missing-scale", {base[0]}, "inputs.count");
    std::map<std::string, Attribute> undefined = Alpha(op);
    const std::string name = op.op_type == "QLinearSoftmax" ? "group" : "axis";
    undefined[name] = Attribute::Int(1);
    reject(name + "-attribute", base, "attr.undefined", undefined);
    if (op.op_type == "QLinearSoftmax") {
      reject("no-opset", base, "attr.required", std::map<std::string, Attribute>{});
      // A rank-1 X at opset 11: the default axis 1 is outside [-1, 0]; and axis 1 at opset 13.
      Inputs line = base;
      line[0] = MakeTensor(t, {4}, {1, 2, 3, 4});
      reject("rank-1-opset-11-default-axis", line, "attr.axis",
             std::map<std::string, Attribute>{{"opset", Attribute::Int(11)}});
      reject("rank-1-opset-13-axis-1", line, "attr.axis",
             std::map<std::string, Attribute>{{"opset", Attribute::Int(13)},
                                              {"axis", Attribute::Int(1)}});
    }
    // An attribute of the wrong kind: alpha an INT, channels_last and axis FLOATs.
    if (op.op_type == "QLinearLeakyRelu") {
      reject("alpha-int", base, "attr.type",
             std::map<std::string, Attribute>{{"alpha", Attribute::Int(1)}});
    } else if (op.op_type == "QLinearGlobalAveragePool") {
      reject("channels-last-float", base, "attr.type",
             std::map<std::string, Attribute>{{"channels_last", Attribute::Float(1)}});
    } else if (op.op_type == "QLinearSoftmax") {
      std::map<std::string, Attribute> wrong = Alpha(op);
      wrong["axis"] = Attribute::Float(1);
      reject("axis-float", base, "attr.type", wrong);
    }
    Inputs in = base;
    in[0] = MakeTensor(D::kInt16, {2}, {1, 2});
    reject("int16-operand", in, "type.T");
    in = base, in[output_scale + 1] = MakeScalar(D::kInt8, 1);
    reject("zero-point-type-differs", in, "type.T");
    in = base, in[1] = MakeScalar(D::kFloat16, 0.5);
    reject("float16-scale", in, "type.scale");
    in = base, in[1] = MakeTensor(D::kFloat, {2}, {0.5, 0.5});
    reject("two-element-scale", in, "param.scalar");
    in = base, in[1] = MakeTensor(D::kFloat, {1}, {0.5});
    impl("one-element-scale", in, "param.one_element");
    in = base, in[output_scale] = F(-1);
    impl("negative-scale", in, "scale.unusual");
    if (op.binary) {
      in = base, in[0] = MakeTensor(t, {2, 3}, {1, 2, 3, 4, 5, 6});
      in[3] = MakeTensor(t, {2}, {1, 2});
      reject("shapes-do-not-broadcast", in, "shape.broadcast");
    }
  }
};

}  // namespace

std::vector<GoldenCase> QLinearGroupCatalogue(CatalogueParts parts) {
  QLinearGroups b;
  for (const GroupOp* op : {&kAdd, &kMul, &kLeakyRelu, &kSigmoid, &kGlobalPool, &kSoftmax}) {
    if (parts == CatalogueParts::kAll) {
      for (D t : {D::kInt8, D::kUint8}) b.Cells(*op, t);
    }
    b.Rules(*op);
  }
  return b.cases;
}

}  // namespace qconform
