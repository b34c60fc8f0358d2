// QLinearWhere's golden cases (docs/semantics.md#d35), for each T (int8, uint8): each element is
// X's or Y's, requantized to Z's scale and zero point, so the cells are a requantization's with
// the condition choosing the operand:
//   - ties: every code of X (ratio 1/2) and of Y (ratio 1/4) against Z, odd zero points, the
//     condition alternating in runs of 1, 2 and 3;
//   - same-parameters: X with Z's own scale and zero point (its codes pass unchanged) beside a
//     requantized Y;
//   - saturate: ratios of 2^16 and 2^-10;
//   - broadcast: a condition of shape (2, 1) against X and Y of shape (256): (2, 256); a scalar
//     condition and a scalar Y;
//   - reciprocal: X's scale and Z's found by search whose float32 reciprocal rounds some
//     results the other way;
// and one case per rule (must-reject and implementation-defined).
#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/qlinear_group_codes.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"

namespace qconform {
namespace {

using D = DataType;
using Inputs = std::vector<std::optional<Tensor>>;
using namespace qlinear_codes;

Tensor Condition(std::vector<int64_t> shape, bool (*pick)(size_t)) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> flags;
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) flags.push_back(pick(i) ? 1 : 0);
  return MakeIndexTensor(D::kBool, std::move(shape), flags);
}

class QLinearWheres : public CatalogueBuilder {
 public:
  static Inputs In(D t, const Tensor& condition, const Operand& x, const Operand& y, double z_scale,
                   int64_t z_zp) {
    const auto zp = [t](int64_t v) { return MakeScalar(t, static_cast<double>(v)); };
    return {condition,        x.x,        F(x.scale), zp(x.zero_point), y.x, F(y.scale),
            zp(y.zero_point), F(z_scale), zp(z_zp)};
  }
  static Case Make(Inputs in, const std::string& id,
                   std::map<std::string, Attribute> attributes = {}) {
    Case c = MakeCase("QLinearWhere", 1, std::move(in), {}, "com.microsoft", id);
    c.attributes = std::move(attributes);
    return c;
  }
  void Computed(D t, const std::string& boundary, Inputs in) {
    Add(Make(std::move(in), "qlwhere1-" + boundary + "-" + TypeName(t)),
        "op:QLinearWhere,type:" + TypeName(t) + ",y:" + TypeName(t) + ",boundary:" + boundary,
        "d35");
  }

  // Runs of 1, 2 and 3: each operand's ties land on both sides of the choice.
  static bool Runs(size_t i) { return (i % 6 == 0) || (i % 6 == 2) || (i % 6 == 3); }
  static Inputs Ties(D t) {
    return In(t, Condition({256}, Runs), {AllCodes(t), 0.5, Zp(t, -3)},
              {Shuffled(t), 0.25, Zp(t, 5)}, 1, Zp(t, 7));
  }

  void Cells(D t) {
    Computed(t, "ties", Ties(t));
    Computed(t, "same-parameters",
             In(t, Condition({256}, Runs), {AllCodes(t), 1, Zp(t, 7)},
                {Shuffled(t), 0.5, Zp(t, -3)}, 1, Zp(t, 7)));
    Computed(t, "saturate",
             In(t, Condition({256}, Runs), {AllCodes(t), 256, Zp(t, -3)},
                {Shuffled(t), 1.0 / 1024, Zp(t, 5)}, 1.0 / 256, Zp(t, 7)));
    Computed(t, "broadcast-condition",
             In(t, Condition({2, 1}, [](size_t i) { return i == 0; }),
                {AllCodes(t), 0.5, Zp(t, -3)}, {Shuffled(t), 0.25, Zp(t, 5)}, 1, Zp(t, 7)));
    Computed(
        t, "broadcast-scalar",
        In(t, Condition({}, [](size_t) { return false; }), {AllCodes(t), 0.5, Zp(t, -3)},
           {AroundZeroPoint(t, {}, Zp(t, 5), [](size_t) -> int64_t { return 3; }), 0.25, Zp(t, 5)},
           1, Zp(t, 7)));
    const int64_t zp = Zp(t, -3), z_zp = Zp(t, 7);
    const auto where = [&](const Tensor& x, double x_scale, double scale) {
      const auto n = static_cast<int64_t>(x.codes.size());
      return In(t, Condition({n}, [](size_t) { return true; }), {x, x_scale, zp}, {x, 1, zp}, scale,
                z_zp);
    };
    const RequantizeReciprocal r =
        SearchRequantizeReciprocal(t, zp, z_zp, [&](const Tensor& x, float x_scale, float scale) {
          return Make(where(x, x_scale, scale), "search");
        });
    Computed(t, "reciprocal", where(r.x, r.x_scale, r.scale));
  }

  // One case per rule of the operator.
  void Rules() {
    const D t = D::kUint8;
    const Inputs base = Ties(t);
    const auto reject = [&](const std::string& what, Inputs in, const std::string& rule,
                            std::map<std::string, Attribute> attributes = {}) {
      Add(Make(std::move(in), "qlwhere1-reject-" + what, std::move(attributes)),
          "negative:qlwhere." + rule, "d35", "qlwhere." + rule);
    };
    const auto impl = [&](const std::string& what, Inputs in, const std::string& rule) {
      Add(Make(std::move(in), "qlwhere1-impl-" + what),
          "op:QLinearWhere,type:uint8,implementation-defined:qlwhere." + rule, "d35");
    };
    Inputs in = base;
    in.pop_back();  // z_zero_point absent: "z_zero_point : T", required
    reject("missing-zero-point", in, "inputs.count");
    reject("axis-attribute", base, "attr.undefined", {{"axis", Attribute::Int(0)}});
    in = base, in[0] = MakeTensor(D::kUint8, {256}, std::vector<double>(256, 1));
    reject("uint8-condition", in, "type.B");
    in = base, in[1] = MakeTensor(D::kInt16, {2}, {1, 2});
    reject("int16-operand", in, "type.T");
    in = base, in[6] = MakeScalar(D::kInt8, 5);
    reject("zero-point-type-differs", in, "type.T");
    in = base, in[2] = MakeScalar(D::kFloat16, 0.5);
    reject("float16-scale", in, "type.scale");
    in = base, in[5] = MakeTensor(D::kFloat, {2}, {0.25, 0.25});
    reject("two-element-scale", in, "param.scalar");
    in = base, in[4] = MakeTensor(t, {3}, {1, 2, 3});
    reject("shapes-do-not-broadcast", in, "shape.broadcast");
    in = base, in[7] = MakeTensor(D::kFloat, {1}, {1});
    impl("one-element-scale", in, "param.one_element");
    in = base, in[2] = F(-0.5);
    impl("negative-scale", in, "scale.unusual");
  }
};

}  // namespace

std::vector<GoldenCase> QLinearWhereCatalogue(CatalogueParts parts) {
  QLinearWheres b;
  if (parts == CatalogueParts::kAll) {
    for (D t : {D::kInt8, D::kUint8}) b.Cells(t);
  }
  b.Rules();
  return b.cases;
}

}  // namespace qconform
