// The golden catalogue's graph cases (docs/semantics.md#d32, #d33): one QDQ group per float
// operator the graph oracle computes (DQ -> op -> Q, and MatMul without Q), the arithmetic ones
// built from the boundaries by search over the exact values:
//   ties       dyadic scales, so that every float step is exact (B = 0) and the quotient lands on
//              k + 1/2, with an odd y zero point: one code admitted, half to even, then the zero
//              point (a kernel that adds it before rounding is wrong);
//   straddle   non-dyadic scales where the float evaluation and the exact value fall on two sides
//              of a tie: both codes admitted;
//   near       the same scales, within 2^-8 of a tie but not straddling, by the float32 chain
//              nor by the chain in exact arithmetic (exact_chain.h): one code admitted.
// The groups ONNX Runtime rewrites at its default level (issue 39's catalogue) build on these.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "generators/catalogue_builder.h"
#include "generators/graph_builder.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/linear/quantize.h"

namespace qconform {
namespace {

using D = DataType;
constexpr int64_t kOpset = 13;

// DQ(a) [op DQ(b)] -> op -> Q(y_scale, y_zero_point): a and b graph inputs, the parameters
// initializers. `binary` false: op takes DQ(a) alone.
Case Group(const std::string& id, const std::string& op, Tensor a, float as, double az, Tensor b,
           float bs, double bz, float ys, double yz, D y_type, bool binary, bool quantize = true) {
  GraphCaseBuilder g(id, kOpset);
  std::vector<std::string> operands = {g.Dequantize("a", std::move(a), as, az)};
  if (binary) operands.push_back(g.Dequantize("b", std::move(b), bs, bz));
  const std::string result = g.Op(op, operands, {quantize ? "y_real" : "y"}, {}, op);
  if (quantize) {
    g.Quantize(result, "y", ys, yz, y_type, "q");
  } else {
    g.Output(result);
  }
  return g.Build();
}

Exact F32(double v) {
  return Exact::FromDouble(static_cast<double>(static_cast<float>(v)));
}
Exact RN32(const Exact& v) {
  const ElementType& f = ElementTypeOf(D::kFloat);
  return Decode(f, *Encode(f, v, Saturation::kNone));
}
// Q's code of a real value (exact quotient, half to even, zero point after).
int64_t Code(const Exact& v, const Exact& ys, double yz, D y) {
  const ElementType& t = ElementTypeOf(y);
  return *ValueOrdinal(t, *QuantizeValue(v / ys, Exact::Integer(static_cast<int64_t>(yz)), t,
                                         Saturation::kSaturate));
}

// One element of an elementwise group, in the three classes: exact ties (B = 0), straddles
// (the float result and the exact value on two sides of a tie) and near ties (within 2^-8 of
// a tie, one code). `value(a, b)` is the exact result, `rounded` its float32 evaluation.
struct Found {
  std::vector<double> a, b;
};
struct Classes {
  Found ties, straddle, near;
};

Classes Search(int a_max, int b_max, float as, float bs, float ys, double yz, D y,
               const std::function<Exact(const Exact&, const Exact&)>& op, size_t want) {
  Classes found;
  const Exact ys_e = F32(ys);
  for (int a = 0; a <= a_max; ++a) {
    for (int b = 1; b <= b_max; ++b) {  // b > 0 keeps Div's divisor away from zero
      const Exact x = RN32(Exact::Integer(a) * F32(as)), z = RN32(Exact::Integer(b) * F32(bs));
      const Exact exact = op(x, z), rounded = RN32(exact);
      const Exact q = exact / ys_e;
      const Rational frac = q.value() - Floor(q.value());
      const bool tie = frac == Rational(1, 2) && rounded == exact;
      const bool straddle = Code(exact, ys_e, yz, y) != Code(rounded, ys_e, yz, y);
      const Rational gap = boost::multiprecision::abs(frac - Rational(1, 2));
      // Near: one code admitted, also by the chain in exact arithmetic (DequantizeLinear
      // unrounded), which a kernel computing more exactly takes (d30, d32).
      const Exact real = op(Exact::Integer(a) * F32(as), Exact::Integer(b) * F32(bs));
      const bool near = !straddle && !tie && gap != 0 && gap < Rational(1, 256) &&
                        Code(real, ys_e, yz, y) == Code(exact, ys_e, yz, y);
      Found* into = tie ? &found.ties : straddle ? &found.straddle : near ? &found.near : nullptr;
      if (found.ties.a.size() >= want && found.straddle.a.size() >= want &&
          found.near.a.size() >= want) {
        return found;
      }
      if (into == nullptr || into->a.size() >= want) continue;
      into->a.push_back(a);
      into->b.push_back(b);
    }
  }
  return found;
}

// A y_scale (a float32) that puts a tie of Q strictly between some pair's exact result and its
// float32 evaluation, found by search: the first pair (a, b) whose result float32 cannot hold,
// and the first k whose tie (k + 1/2) * y_scale falls between the two.
std::optional<float> StraddlingScale(float as, float bs, double yz, D y,
                                     const std::function<Exact(const Exact&, const Exact&)>& op) {
  for (int a = 255; a > 0; --a) {
    for (int b = 1; b <= 255; ++b) {
      const Exact x = RN32(Exact::Integer(a) * F32(as)), z = RN32(Exact::Integer(b) * F32(bs));
      const Exact exact = op(x, z), rounded = RN32(exact);
      if (exact == rounded || !exact.is_finite() || exact.is_zero()) continue;
      const Exact mid = (exact + rounded) * Exact::Finite(Rational(1, 2));
      for (int k = 1; k < 200; ++k) {
        const Exact ys = RN32(mid / Exact::Finite(Rational(2 * k + 1, 2)));
        if (!LessThan(Exact::Integer(0), ys)) continue;
        if (Code(exact, ys, yz, y) != Code(rounded, ys, yz, y)) {
          return static_cast<float>(ys.value().convert_to<double>());
        }
      }
    }
  }
  return std::nullopt;
}

struct Elementwise {
  std::string op, name;
  std::function<Exact(const Exact&, const Exact&)> exact;
};

class GraphCatalogue : public CatalogueBuilder {
 public:
  void Binary(const Elementwise& e) {
    // Ties: dyadic scales (every step exact), an odd y zero point.
    {
      const Classes c = Search(63, 63, 0.5f, 0.25f, 0.5f, 1, D::kUint8, e.exact, 12);
      AddFound("qdq13-" + e.name + "-ties-uint8", e.op, c.ties, 0.5f, 0.25f, 0.5f, 1,
               "boundary:ties");
    }
    // Straddles and near ties: scales with no short binary expansion, y_scale by search.
    const float as = static_cast<float>(0.1), bs = static_cast<float>(0.3);
    const float ys =
        StraddlingScale(as, bs, 3, D::kUint8, e.exact).value_or(static_cast<float>(0.07));
    const Classes c = Search(255, 255, as, bs, ys, 3, D::kUint8, e.exact, 12);
    AddFound("qdq13-" + e.name + "-straddle-uint8", e.op, c.straddle, as, bs, ys, 3,
             "boundary:straddle");
    AddFound("qdq13-" + e.name + "-near-tie-uint8", e.op, c.near, as, bs, ys, 3,
             "boundary:near-tie");
  }

  void AddFound(const std::string& id, const std::string& op, const Found& f, float as, float bs,
                float ys, double yz, const std::string& boundary) {
    if (f.a.empty()) return;  // the search found no such element for this operator
    const auto n = static_cast<int64_t>(f.a.size());
    Add(Group(id, op, MakeTensor(D::kUint8, {n}, f.a), as, 0, MakeTensor(D::kUint8, {n}, f.b), bs,
              0, ys, yz, D::kUint8, true),
        "graph:qdq,op:" + op + ",type:uint8,y:uint8," + boundary, "d30,d31,d32");
  }

  // DQ(a) -> op(attributes, extra initializer inputs) -> Q, a's parameters and y's given.
  void Unary(const std::string& id, const std::string& op, std::map<std::string, Attribute> attrs,
             Tensor a, float as, double az, std::vector<std::pair<std::string, Tensor>> extra,
             float ys, double yz, D y, const std::string& features) {
    Case c = Group(id, op, std::move(a), as, az, {}, 0, 0, ys, yz, y, false);
    Node& node = c.graph[1];
    node.attributes = std::move(attrs);
    for (auto& [name, t] : extra) {
      t.is_initializer = true;
      node.inputs.push_back(name);
      c.input_names.push_back(name);
      c.inputs.emplace_back(std::move(t));
    }
    Add(std::move(c), "graph:qdq,op:" + op + ",type:uint8,y:" + TypeName(y) + "," + features,
        "d30,d32,d33");
  }

  // Clip at float bounds between codes: every clipped value on a tie of y_scale 1 (exact).
  // LeakyRelu: alpha 0.1 rounds each product once. GlobalAveragePool: 9 terms, one division.
  // Data movement (Transpose, Flatten, Concat) with y's parameters equal to x's: Q(DQ(x)) = x,
  // so a moved element anywhere else is a wrong value.
  void Others() {
    const std::vector<double> codes = {0, 100, 107, 108, 109, 127, 128, 129, 168, 169, 170, 255};
    Unary("qdq13-clip-ties-uint8", "Clip", {}, MakeTensor(D::kUint8, {12}, codes), 0.5f, 128,
          {{"clip_min", MakeScalar(D::kFloat, -10)}, {"clip_max", MakeScalar(D::kFloat, 20.5)}},
          1.0f, 3, D::kInt8, "boundary:ties");
    Unary("qdq13-leaky-relu-uint8", "LeakyRelu", {{"alpha", Attribute::Float(0.1)}},
          MakeTensor(D::kUint8, {12}, codes), 0.5f, 128, {}, 0.05f, 0, D::kInt8,
          "boundary:one-rounding");
    std::vector<double> window;
    for (int j = 0; j < 18; ++j) window.push_back(static_cast<double>((j * 29 + 7) % 256));
    Unary("qdq13-global-average-pool-uint8", "GlobalAveragePool", {},
          MakeTensor(D::kUint8, {1, 2, 3, 3}, window), 0.5f, 3, {}, 0.25f, 1, D::kUint8,
          "boundary:division");
    const std::vector<double> six = {0, 1, 127, 128, 254, 255};
    Unary("qdq13-transpose-uint8", "Transpose", {{"perm", Attribute::Ints({1, 0})}},
          MakeTensor(D::kUint8, {2, 3}, six), 0.75f, 7, {}, 0.75f, 7, D::kUint8,
          "boundary:movement");
    std::vector<double> twelve(six);
    twelve.insert(twelve.end(), {3, 5, 9, 17, 33, 65});
    Unary("qdq13-flatten-uint8", "Flatten", {{"axis", Attribute::Int(1)}},
          MakeTensor(D::kUint8, {2, 3, 2}, twelve), 0.75f, 7, {}, 0.75f, 7, D::kUint8,
          "boundary:movement");
    Case concat =
        Group("qdq13-concat-uint8", "Concat", MakeTensor(D::kUint8, {2, 2}, {0, 1, 254, 255}),
              0.75f, 7, MakeTensor(D::kUint8, {2, 3}, six), 0.75f, 7, 0.75f, 7, D::kUint8, true);
    concat.graph[2].attributes["axis"] = Attribute::Int(1);
    Add(std::move(concat), "graph:qdq,op:Concat,type:uint8,y:uint8,boundary:movement", "d32,d33");
  }

  // DQ -> Relu -> Q with a negative y_scale: Q reverses the order; Relu cannot be dropped.
  void Relu() {
    const std::vector<double> a = {0, 1, 2, 3, 100, 126, 127, 128, 129, 200, 254, 255};
    Add(Group("qdq13-relu-negative-scale-uint8", "Relu", MakeTensor(D::kUint8, {12}, a), 0.5f, 128,
              {}, 0, 0, -1.0f, 3, D::kUint8, false),
        "graph:qdq,op:Relu,type:uint8,y:uint8,boundary:negative-scale", "d31,d32");
  }

  // DQ -> MatMul -> Q: nine products on the grid 2^-2 summing to ties (B = 0), and 64 products
  // of non-dyadic scales whose float32 bound straddles a tie; MatMul without Q: a float range.
  void MatMul() {
    const int64_t k = 9;
    std::vector<double> a, b;
    for (int64_t j = 0; j < k; ++j) b.push_back(static_cast<double>(j % 2 == 0 ? 1 : 3));
    // Rows found by search whose exact sum S / 4 over y_scale 1/2 is a tie: S = 4 (mod 8). Every
    // product is a multiple of 1/4 and the sums stay far below 2^24 / 4, so B = 0.
    for (int64_t candidate = 0; a.size() < static_cast<size_t>(4 * k); ++candidate) {
      std::vector<double> row;
      int64_t sum = 0;
      for (int64_t j = 0; j < k; ++j) {
        row.push_back(static_cast<double>((candidate * 7 + j * j * 3 + 1) % 16));
        sum += static_cast<int64_t>(row.back() * b[static_cast<size_t>(j)]);
      }
      if (sum % 8 == 4) a.insert(a.end(), row.begin(), row.end());
    }
    Add(Group("qdq13-matmul-ties-uint8", "MatMul", MakeTensor(D::kUint8, {4, k}, a), 0.5f, 0,
              MakeTensor(D::kUint8, {k, 1}, b), 0.5f, 0, 0.5f, 1, D::kUint8, true),
        "graph:qdq,op:MatMul,type:uint8,y:uint8,boundary:ties", "d30,d31,d32");
    const int64_t wide = 64;
    std::vector<double> wa, wb;
    for (int64_t j = 0; j < 2 * wide; ++j) wa.push_back(static_cast<double>((j * 37 + 11) % 256));
    for (int64_t j = 0; j < wide; ++j) wb.push_back(static_cast<double>((j * 53 + 5) % 256));
    // y_scale by search: row 0's exact sum v over it lands on the tie 20.5 (to float32's
    // rounding of y_scale, far inside the float32 bound of 64 products), so two codes straddle.
    Exact v;
    for (int64_t j = 0; j < wide; ++j) {
      v = v +
          RN32(Exact::Integer(static_cast<int64_t>(wa[static_cast<size_t>(j)]) - 3) * F32(0.1)) *
              RN32(Exact::Integer(static_cast<int64_t>(wb[static_cast<size_t>(j)]) - 7) * F32(0.3));
    }
    const Exact magnitude = LessThan(v, Exact::Integer(0)) ? Exact::Integer(0) - v : v;
    const Exact tie_scale = RN32(magnitude / Exact::Finite(Rational(41, 2)));
    Add(Group("qdq13-matmul-bound-uint8", "MatMul", MakeTensor(D::kUint8, {2, wide}, wa),
              static_cast<float>(0.1), 3, MakeTensor(D::kUint8, {wide, 1}, wb),
              static_cast<float>(0.3), 7,
              static_cast<float>(tie_scale.value().convert_to<double>()), 128, D::kUint8, true),
        "graph:qdq,op:MatMul,type:uint8,y:uint8,boundary:bound", "d30,d31,d32");
    Add(Group("qdq13-matmul-float-output-uint8", "MatMul", MakeTensor(D::kUint8, {2, wide}, wa),
              static_cast<float>(0.1), 3, MakeTensor(D::kUint8, {wide, 1}, wb),
              static_cast<float>(0.3), 7, 0, 0, D::kUint8, true, false),
        "graph:qdq,op:MatMul,type:uint8,y:float,boundary:bound", "d30,d32");
  }
};

}  // namespace

std::vector<GoldenCase> GraphBoundaryCatalogue() {
  GraphCatalogue g;
  g.Binary({"Add", "add", [](const Exact& a, const Exact& b) { return a + b; }});
  g.Binary({"Sub", "sub", [](const Exact& a, const Exact& b) { return a - b; }});
  g.Binary({"Mul", "mul", [](const Exact& a, const Exact& b) { return a * b; }});
  g.Binary({"Div", "div", [](const Exact& a, const Exact& b) { return a / b; }});
  g.Relu();
  g.MatMul();
  g.Others();
  return std::move(g.cases);
}

}  // namespace qconform
