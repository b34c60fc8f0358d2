// QLinearConcat's golden cases (docs/semantics.md#d35), for each T (int8, uint8): each operand
// requantized to Y's scale and zero point, so the cells are those of a requantization:
//   - ties: every code of two operands at dyadic scale ratios (1/2, 1/4) with odd zero points;
//   - same-parameters: an operand with Y's own scale and zero point (its codes pass unchanged,
//     the shortcut ONNX Runtime takes) beside one requantized;
//   - saturate: ratios of 2^16 (past both ends of T) and 2^-10;
//   - axis-last: three operands of rank 2 along axis -1;
//   - reciprocal: an operand scale and Y's scale found by search whose float32 reciprocal
//     rounds some results the other way;
// and one case per rule (must-reject and implementation-defined).
#include <cmath>

#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/qlinear_group_codes.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"

namespace qconform {
namespace {

using D = DataType;
using Inputs = std::vector<std::optional<Tensor>>;
using namespace qlinear_codes;

constexpr std::string_view kOp = "QLinearConcat";

class QLinearConcats : public CatalogueBuilder {
 public:
  static Inputs In(D t, double y_scale, int64_t y_zp, const std::vector<Operand>& operands) {
    Inputs in{F(y_scale), MakeScalar(t, static_cast<double>(y_zp))};
    for (const Operand& o : operands) {
      in.insert(in.end(), {o.x, F(o.scale), MakeScalar(t, static_cast<double>(o.zero_point))});
    }
    return in;
  }
  static Case Make(Inputs in, int64_t axis, const std::string& id,
                   std::map<std::string, Attribute> attributes = {}) {
    Case c = MakeCase(std::string(kOp), 1, std::move(in), {}, "com.microsoft", id);
    c.attributes = std::move(attributes);
    if (axis != kNoAxis) c.attributes["axis"] = Attribute::Int(axis);
    return c;
  }
  void Computed(D t, const std::string& boundary, Inputs in, int64_t axis = 0) {
    Add(Make(std::move(in), axis, "qlconcat1-" + boundary + "-" + TypeName(t)),
        "op:QLinearConcat,type:" + TypeName(t) + ",y:" + TypeName(t) + ",boundary:" + boundary,
        "d35");
  }

  static Inputs Ties(D t) {
    return In(t, 1, Zp(t, 7), {{AllCodes(t), 0.5, Zp(t, -3)}, {Shuffled(t), 0.25, Zp(t, 5)}});
  }

  void Cells(D t) {
    Computed(t, "ties", Ties(t));
    Computed(t, "same-parameters",
             In(t, 1, Zp(t, 7), {{AllCodes(t), 1, Zp(t, 7)}, {Shuffled(t), 0.5, Zp(t, -3)}}));
    Computed(t, "saturate",
             In(t, 1.0 / 256, Zp(t, 7),
                {{AllCodes(t), 256, Zp(t, -3)}, {Shuffled(t), 1.0 / 1024, Zp(t, 5)}}));
    // [4, 64], [4, 16] and [4, 8] along the last axis.
    Tensor a = AllCodes(t);
    a.shape = {4, 64};
    const Tensor shuffled = Shuffled(t);
    std::vector<uint32_t> b_codes, c_codes;
    for (size_t i = 0; i < 64; ++i) b_codes.push_back(shuffled.codes[i]);
    for (size_t i = 64; i < 96; ++i) c_codes.push_back(shuffled.codes[i]);
    const Tensor b16 = MakeTensorFromCodes(t, {4, 16}, b_codes);
    const Tensor c8 = MakeTensorFromCodes(t, {4, 8}, c_codes);
    Computed(
        t, "axis-last",
        In(t, 1, Zp(t, 7), {{a, 0.5, Zp(t, -3)}, {b16, 0.25, Zp(t, 5)}, {c8, 0.125, Zp(t, 1)}}),
        -1);
    Reciprocal(t);
  }

  // The first operand's scale (long significands) and Y's, by search (d39: one kill per cell).
  void Reciprocal(D t) {
    const int64_t zp = Zp(t, -3), y_zp = Zp(t, 7);
    const RequantizeReciprocal r =
        SearchRequantizeReciprocal(t, zp, y_zp, [&](const Tensor& x, float x_scale, float scale) {
          return Make(In(t, scale, y_zp, {{x, x_scale, zp}}), 0, "search");
        });
    Computed(t, "reciprocal", In(t, r.scale, y_zp, {{r.x, r.x_scale, zp}}));
  }

  // One case per rule of the operator.
  void Rules() {
    const D t = D::kUint8;
    const Inputs base = Ties(t);
    const auto reject = [&](const std::string& what, Inputs in, const std::string& rule,
                            int64_t axis = 0, std::map<std::string, Attribute> attributes = {}) {
      Add(Make(std::move(in), axis, "qlconcat1-reject-" + what, std::move(attributes)),
          "negative:qlconcat." + rule, "d35", "qlconcat." + rule);
    };
    const auto impl = [&](const std::string& what, Inputs in, const std::string& rule) {
      Add(Make(std::move(in), 0, "qlconcat1-impl-" + what),
          "op:QLinearConcat,type:uint8,implementation-defined:qlconcat." + rule, "d35");
    };
    Inputs in = base;
    in.pop_back();  // the second operand without its zero point: a partial group
    reject("partial-operand", in, "inputs.count");
    reject("no-axis", base, "attr.required", kNoAxis);
    reject("axis-float", base, "attr.type", kNoAxis, {{"axis", Attribute::Float(0)}});
    reject("group-attribute", base, "attr.undefined", 0, {{"group", Attribute::Int(1)}});
    reject("axis-out-of-range", base, "attr.axis", 1);
    in = base, in[5] = MakeTensor(t, {2, 2}, {1, 2, 3, 4});
    reject("ranks-differ", in, "shape.concat");
    in = base, in[2] = MakeTensor(D::kInt16, {2}, {1, 2});
    reject("int16-operand", in, "type.T");
    in = base, in[5] = MakeTensor(D::kInt8, {2}, {1, 2}), in[7] = MakeScalar(D::kInt8, 5);
    reject("operand-types-differ", in, "type.T");
    in = base, in[3] = MakeScalar(D::kFloat16, 0.5);
    reject("float16-scale", in, "type.scale");
    in = base, in[6] = MakeTensor(D::kFloat, {2}, {0.25, 0.25});
    reject("two-element-scale", in, "param.scalar");
    in = base, in[0] = MakeTensor(D::kFloat, {1}, {1});
    impl("one-element-scale", in, "param.one_element");
    in = base, in[3] = F(-0.5);
    impl("negative-scale", in, "scale.unusual");
  }

  static constexpr int64_t kNoAxis = INT64_MIN;
};

}  // namespace

std::vector<GoldenCase> QLinearConcatCatalogue(CatalogueParts parts) {
  QLinearConcats b;
  if (parts == CatalogueParts::kAll) {
    for (D t : {D::kInt8, D::kUint8}) b.Cells(t);
  }
  b.Rules();
  return b.cases;
}

}  // namespace qconform
