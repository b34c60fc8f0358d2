// Two requantization defects as kernel authors write them, separated in every cell of the
// operators that requantize into 8-bit codes on a page of their own (the com.microsoft QLinear
// operators and QGemm; docs/semantics.md#d35, #d39), three cases per cell:
//   - double-reciprocal: the value times the double 1 / y_scale. Its error is below 2^-52 of the
//     quotient, so it moves exact ties only, and only where 1 / y_scale is inexact: each case
//     holds ties v = (o / 2) y_scale (o odd) at y_scale = m 2^-12, m odd, the first three m from
//     a start drawn from the cell's id for which the double product rounds some ties off them
//     (found by search, confirmed by the oracle: the codes are outside what it admits);
//   - int32-overflow: the quotient converted to int32 first, which gives INT32_MIN from 2^31 on:
//     scale ratios of about 2^24, 2^27 and 2^30 (long significands) over every code, so that
//     the positive results pass 2^31 (Sigmoid's and Softmax's at output scales below 2^-35).
// Every operator in one form, each element one code requantized: QLinearAdd with B at its zero
// point, QLinearMul with B one step above it at scale 1, QLinearLeakyRelu (alpha 1/4; its ties on
// the positive side), the pools over 1 x 1 windows, QLinearConcat of one input, QLinearWhere
// choosing X, QGemm with a [n, 1] A and B one step above its zero point (each of its 16 integer
// cells).
// `{prefix}1-sep-{double-reciprocal,int32-overflow}-{k}-{cell}`.
#include <cmath>
#include <functional>
#include <stdexcept>

#include "generators/boundaries.h"
#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/qlinear_group_codes.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/index_tensor.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;
using Inputs = std::vector<std::optional<Tensor>>;
using Attributes = std::map<std::string, Attribute>;
using namespace qlinear_codes;

// One cell: the operand types (QGemm's A and B; x for the others), y's, b per column.
struct Cell {
  D a, b, y;
  bool per_column = false;
};
// x's codes requantized: v = x_scale (x - x_zp), then / y_scale + y_zp.
struct Requantized {
  Tensor x;  // [n]
  double x_scale;
  int64_t x_zp;
  double y_scale;
  int64_t y_zp;
};

Tensor Zp(D t, int64_t v) {
  return MakeScalar(t, static_cast<double>(v));
}
Tensor Shaped(Tensor x, std::vector<int64_t> shape) {
  x.shape = std::move(shape);
  return x;
}
Tensor Filled(D t, int64_t n, int64_t v) {
  return MakeTensor(t, {n}, std::vector<double>(static_cast<size_t>(n), static_cast<double>(v)));
}

struct Form {
  const char* op_type;
  const char* prefix;
  bool ties;  // whether its values have exact ties (not Sigmoid's, Softmax's)
  Inputs (*inputs)(const Cell&, const Requantized&);
  Attributes attributes;
};

Inputs Unary(const Cell& c, const Requantized& r) {
  return {r.x, F(r.x_scale), Zp(c.a, r.x_zp), F(r.y_scale), Zp(c.a, r.y_zp)};
}
Inputs Binary(const Cell& c, const Requantized& r, int64_t step, double b_scale) {
  const auto n = static_cast<int64_t>(r.x.codes.size());
  const int64_t b_zp = qlinear_codes::Zp(c.a, 5);
  return {r.x,        F(r.x_scale),  Zp(c.a, r.x_zp), Filled(c.a, n, b_zp + step),
          F(b_scale), Zp(c.a, b_zp), F(r.y_scale),    Zp(c.a, r.y_zp)};
}

const Form kForms[] = {
    {"QLinearAdd",
     "qladd",
     true,
     [](const Cell& c, const Requantized& r) { return Binary(c, r, 0, 0.75); },
     {}},
    {"QLinearMul",
     "qlmul",
     true,
     [](const Cell& c, const Requantized& r) { return Binary(c, r, 1, 1); },
     {}},
    {"QLinearLeakyRelu", "qllrelu", true, Unary, {{"alpha", Attribute::Float(0.25)}}},
    {"QLinearSigmoid", "qlsig", false, Unary, {}},
    {"QLinearGlobalAveragePool",
     "qlgap",
     true,
     [](const Cell& c, const Requantized& r) {
       Inputs in = Unary(c, r);
       in[0] = Shaped(r.x, {1, static_cast<int64_t>(r.x.codes.size()), 1, 1});
       return in;
     },
     {}},
    {"QLinearSoftmax",
     "qlsoftmax",
     false,
     [](const Cell& c, const Requantized& r) {
       Inputs in = Unary(c, r);
       in[0] = Shaped(r.x, {4, static_cast<int64_t>(r.x.codes.size()) / 4});
       return in;
     },
     {{"opset", Attribute::Int(13)}}},
    {"QLinearAveragePool",
     "qlavgpool",
     true,
     [](const Cell& c, const Requantized& r) {
       Inputs in = Unary(c, r);
       in[0] = Shaped(r.x, {1, 1, 1, static_cast<int64_t>(r.x.codes.size())});
       return in;
     },
     {{"kernel_shape", Attribute::Ints({1, 1})}}},
    {"QLinearConcat",
     "qlconcat",
     true,
     [](const Cell& c, const Requantized& r) -> Inputs {
       return {F(r.y_scale), Zp(c.a, r.y_zp), r.x, F(r.x_scale), Zp(c.a, r.x_zp)};
     },
     {{"axis", Attribute::Int(0)}}},
    {"QLinearWhere",
     "qlwhere",
     true,
     [](const Cell& c, const Requantized& r) -> Inputs {
       const auto n = static_cast<int64_t>(r.x.codes.size());
       const Tensor condition =
           MakeIndexTensor(D::kBool, {n}, std::vector<int64_t>(static_cast<size_t>(n), 1));
       return {condition,       r.x,          F(r.x_scale),   Zp(c.a, r.x_zp), r.x, F(1),
               Zp(c.a, r.x_zp), F(r.y_scale), Zp(c.a, r.y_zp)};
     },
     {}},
    {"QGemm",
     "qgemm",
     true,
     [](const Cell& c, const Requantized& r) -> Inputs {
       constexpr int64_t kN = 2;
       const int64_t b_zp = qlinear_codes::Zp(c.b, 5);
       const std::vector<int64_t> params =
           c.per_column ? std::vector<int64_t>{kN} : std::vector<int64_t>{};
       return {Shaped(r.x, {static_cast<int64_t>(r.x.codes.size()), 1}),
               F(r.x_scale),
               Zp(c.a, r.x_zp),
               MakeTensor(c.b, {1, kN}, std::vector<double>(kN, static_cast<double>(b_zp + 1))),
               MakeTensor(D::kFloat, params, std::vector<double>(c.per_column ? kN : 1, 1.0)),
               MakeTensor(c.b, params,
                          std::vector<double>(c.per_column ? kN : 1, static_cast<double>(b_zp))),
               std::nullopt,
               F(r.y_scale),
               Zp(c.y, r.y_zp)};
     },
     {}},
};

std::vector<Cell> CellsOf(const Form& f) {
  if (std::string_view(f.op_type) != "QGemm")
    return {{D::kInt8, D::kInt8, D::kInt8}, {D::kUint8, D::kUint8, D::kUint8}};
  std::vector<Cell> cells;
  for (const bool per_column : {false, true}) {
    for (const D a : {D::kUint8, D::kInt8}) {
      for (const D b : {D::kUint8, D::kInt8}) {
        for (const D y : {D::kUint8, D::kInt8}) cells.push_back({a, b, y, per_column});
      }
    }
  }
  return cells;
}
std::string CellName(const Form& f, const Cell& c) {
  if (std::string_view(f.op_type) != "QGemm") return TypeName(c.a);
  return std::string(c.per_column ? "pc-" : "pt-") + TypeName(c.a) + "-" + TypeName(c.b) + "-" +
         TypeName(c.y);
}
std::string Features(const Form& f, const Cell& c, const std::string& boundary) {
  std::string s = "op:" + std::string(f.op_type) + ",type:" + TypeName(c.a);
  if (std::string_view(f.op_type) == "QGemm") {
    s += ",b:" + TypeName(c.b) + ",granularity:" + (c.per_column ? "per-column" : "per-tensor");
  }
  return s + ",y:" + TypeName(c.y) + ",boundary:" + boundary;
}
class Separations : public CatalogueBuilder {
 public:
  void Put(const Form& f, const Cell& c, const std::string& boundary, int k, const Requantized& r) {
    Case cs = Build(f, c, r,
                    std::string(f.prefix) + "1-sep-" + boundary + "-" + std::to_string(k) + "-" +
                        CellName(f, c));
    Add(std::move(cs), Features(f, c, boundary), "d35,d39");
  }
  static Case Build(const Form& f, const Cell& c, const Requantized& r, const std::string& id) {
    Case cs = MakeCase(f.op_type, 1, f.inputs(c, r), {}, "com.microsoft", id);
    cs.attributes = f.attributes;
    return cs;
  }

  // x's zero point at the bottom of its range (x - x_zp runs over 1..254 at code 1 up), y's
  // odd and low enough that the quotients up to 127.5 stay inside y's range.
  void DoubleReciprocal(const Form& f, const Cell& c) {
    const std::string cell = CellName(f, c);
    Prng p(CaseSeed(std::string(f.prefix) + "-double-reciprocal-" + cell));
    const int64_t x_zp = IntegerMin(ElementTypeOf(c.a)) + 1,
                  y_zp = IntegerMin(ElementTypeOf(c.y)) + 1 + 2 * static_cast<int64_t>(p.Below(50));
    const ElementType& xt = ElementTypeOf(c.a);
    int found = 0;
    for (int64_t m = 3 + 2 * static_cast<int64_t>(p.Below(1000)), tries = 0;
         found < 3 && tries < 4000; m += 2, ++tries) {
      const double y_scale = std::ldexp(static_cast<double>(m), -12);
      const double reciprocal = 1.0 / y_scale;
      std::vector<int64_t> codes, moved;
      for (int64_t o = 1; o <= 253 && o / 2 + y_zp < IntegerMin(ElementTypeOf(c.y)) + 255; o += 2) {
        const double v = static_cast<double>(o) * (y_scale / 2);  // exact: m has <= 13 bits
        const double by_reciprocal = std::nearbyint(v * reciprocal);
        const auto exact = static_cast<double>(o / 2 + (o / 2) % 2);  // o / 2 + 1/2 to even
        if (by_reciprocal == exact) continue;
        codes.push_back(o + x_zp);
        moved.push_back(static_cast<int64_t>(by_reciprocal) + y_zp);
      }
      if (codes.empty()) continue;
      const Requantized r{
          MakeTensorFromCodes(c.a, {static_cast<int64_t>(codes.size())}, IntegerCodes(xt, codes)),
          y_scale / 2, x_zp, y_scale, y_zp};
      if (!Outside(Build(f, c, r, "search"), c.y, moved)) continue;
      Put(f, c, "double-reciprocal", ++found, r);
    }
    if (found < 3)
      throw std::logic_error(std::string(f.op_type) + " " + cell +
                             ": fewer than three output scales separate a double reciprocal");
  }

  // Every code at ratios of about 2^24, 2^27 and 2^30; Sigmoid and Softmax (values at most 1)
  // at output scales of about 2^-36, 2^-39 and 2^-42 (a softmax row's largest value is about
  // 2^-4 here).
  void Int32Overflow(const Form& f, const Cell& c) {
    const std::string cell = CellName(f, c);
    const bool bounded = !f.ties;
    const int64_t x_zp = qlinear_codes::Zp(c.a, -3), y_zp = qlinear_codes::Zp(c.y, 7);
    const double significands[] = {1.6180339887, 1.4142135623, 1.7320508075};
    for (int k = 0; k < 3; ++k) {
      const double x_scale =
          bounded ? 1.0 / 16 : static_cast<float>(significands[k] * std::ldexp(1, k - 4));
      const double y_scale = static_cast<double>(static_cast<float>(
          (bounded ? 1.0 : x_scale) /
          (significands[(k + 1) % 3] * std::ldexp(1, (bounded ? 36 : 24) + 3 * k))));
      Put(f, c, "int32-overflow", k + 1, {AllCodes(c.a), x_scale, x_zp, y_scale, y_zp});
    }
  }

 private:
  // Whether the oracle admits none of the codes `moved` at their elements (all of them outside
  // its range), for the case's first output (QGemm's [n, N]: each row's first element).
  static bool Outside(const Case& c, D y, const std::vector<int64_t>& moved) {
    const OracleResult r = RunOracle(c);
    if (r.must_reject() || r.outputs.empty()) return false;
    const OutputEvaluation& out = r.outputs[0];
    const ElementType& type = ElementTypeOf(y);
    const size_t stride = out.exact.size() / moved.size();
    for (size_t i = 0; i < moved.size(); ++i) {
      const int64_t code = std::clamp<int64_t>(moved[i], IntegerMin(ElementTypeOf(y)),
                                               IntegerMin(ElementTypeOf(y)) + 255);
      if (InRange(type, out.range(i * stride), IntegerCodes(type, {code}).at(0))) return false;
    }
    return true;
  }
};

}  // namespace

std::vector<GoldenCase> RequantizeSeparationCatalogue(CatalogueParts parts) {
  Separations b;
  if (parts != CatalogueParts::kAll) return b.cases;
  for (const Form& f : kForms) {
    for (const Cell& c : CellsOf(f)) {
      if (f.ties) b.DoubleReciprocal(f, c);
      b.Int32Overflow(f, c);
    }
  }
  return b.cases;
}

}  // namespace qconform
