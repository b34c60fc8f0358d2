// The convolution family's must-reject cases, one per rule of QLinearConv and ConvInteger (the
// geometry's, d25; the parameters', d23; the types'), and the implementation-defined unusual
// scales (d26). suites/io/rule_coverage_test.cc requires a case for each rule.
#include <cmath>

#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"

namespace qconform {
namespace {

using D = DataType;
using Inputs = std::vector<std::optional<Tensor>>;

Tensor U8(std::vector<int64_t> s, double v = 7) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return MakeTensor(D::kUint8, std::move(s), std::vector<double>(static_cast<size_t>(n), v));
}

class ConvRules : public CatalogueBuilder {
 public:
  void Reject(const std::string& id, Case c, const std::string& rule, const std::string& why) {
    c.id = id;
    Add(std::move(c), "negative:" + rule, why, rule);
  }

  // A valid QLinearConv: x [1, 2, 4, 4], w [2, 2, 3, 3], per tensor, with pads 1.
  static Inputs Base() {
    const auto f = [](double v) { return MakeScalar(D::kFloat, v); };
    return {U8({1, 2, 4, 4}),         f(0.5), MakeScalar(D::kUint8, 1), U8({2, 2, 3, 3}), f(0.25),
            MakeScalar(D::kUint8, 2), f(4),   MakeScalar(D::kUint8, 3)};
  }
  static Case Q(Inputs in, std::map<std::string, Attribute> attributes = {}) {
    Case c = MakeCase("QLinearConv", 10, std::move(in));
    c.attributes = std::move(attributes);
    return c;
  }
  static Case I(Inputs in, std::map<std::string, Attribute> attributes = {}) {
    Case c = MakeCase("ConvInteger", 10, std::move(in));
    c.attributes = std::move(attributes);
    return c;
  }

  void QLinearConv() {
    Inputs in = Base();
    in[0] = MakeTensor(D::kInt32, {1, 2, 4, 4}, std::vector<double>(32, 1));
    Reject("qlc10-reject-int32-x", Q(in), "qlc.type.x", "T1 in (int8, uint8)");
    in = Base(), in[3] = MakeTensor(D::kInt16, {2, 2, 3, 3}, std::vector<double>(36, 1));
    Reject("qlc10-reject-int16-w", Q(in), "qlc.type.w", "T2 in (int8, uint8)");
    in = Base(), in[7] = MakeScalar(D::kInt32, 0);
    Reject("qlc10-reject-int32-y", Q(in), "qlc.type.y_zero_point", "T3 in (int8, uint8)");
    in = Base(), in[5] = MakeScalar(D::kInt8, 0);
    Reject("qlc10-reject-zero-point-type", Q(in), "qlc.type.zero_point", "w_zero_point: T2");
    in = Base(), in[4] = MakeScalar(D::kFloat16, 0.25);
    Reject("qlc10-reject-float16-scale", Q(in), "qlc.type.scale", "w_scale: tensor(float)");
    in = Base(), in.push_back(MakeTensor(D::kInt8, {2}, {1, 2}));
    Reject("qlc10-reject-int8-bias", Q(in), "qlc.type.B", "T4 in (int32)");
    in = Base(), in[1] = MakeTensor(D::kFloat, {2}, {0.5, 0.5}), in[2] = U8({2});
    Reject("qlc10-reject-x-per-channel", Q(in), "qlc.param.x", "x's parameters are scalars");
    in = Base(), in[4] = MakeTensor(D::kFloat, {2}, {0.5, 0.5}), in[5] = U8({2});
    in[3] = U8({3, 2, 3, 3});
    Reject("qlc10-reject-w-scale-size", Q(in), "qlc.param.w", "1-D of size M (3), not 2");
    in = Base(), in[6] = MakeTensor(D::kFloat, {2}, {4, 4}), in[7] = U8({2});
    Reject("qlc10-reject-y-per-channel", Q(in), "qlc.param.y", "y's parameters are scalars");
    in = Base(), in[5] = U8({2});
    Reject("qlc10-reject-zero-point-shape", Q(in), "qlc.shape.zero_point",
           "w_zero_point [2], w_scale a scalar");
    in = Base(), in.push_back(MakeTensor(D::kInt32, {3}, {1, 2, 3}));
    Reject("qlc10-reject-bias-size", Q(in), "qlc.shape.bias", "B has size M = 2");
    in = Base(), in.pop_back();
    Reject("qlc10-reject-seven-inputs", Q(in), "qlc.inputs.count", "eight inputs required");
    Reject("qlc10-reject-attribute", Q(Base(), {{"axis", Attribute::Int(1)}}), "qlc.attr.undefined",
           "QLinearConv has Conv's attributes only");
    Reject("qlc10-reject-group-as-ints", Q(Base(), {{"group", Attribute::Ints({1})}}),
           "qlc.attr.type", "group is an INT");
    Geometry(
        "qlc10",
        [](Inputs in, std::map<std::string, Attribute> a) {
          return Q(std::move(in), std::move(a));
        },
        Base(), 0, 3, "qlc");
  }

  void ConvInteger() {
    const Inputs base = {U8({1, 2, 4, 4}), U8({2, 2, 3, 3}), MakeScalar(D::kUint8, 1),
                         MakeScalar(D::kUint8, 2)};
    Inputs in = base;
    in[0] = MakeTensor(D::kInt32, {1, 2, 4, 4}, std::vector<double>(32, 1));
    Reject("ci10-reject-int32-x", I(in), "ci.type.x", "T1 in (int8, uint8)");
    in = base, in[1] = MakeTensor(D::kInt16, {2, 2, 3, 3}, std::vector<double>(36, 1));
    Reject("ci10-reject-int16-w", I(in), "ci.type.w", "T2 in (int8, uint8)");
    in = base, in[2] = MakeScalar(D::kInt8, 1);
    Reject("ci10-reject-zero-point-type", I(in), "ci.type.zero_point", "x_zero_point: T1");
    in = base, in[2] = U8({2});
    Reject("ci10-reject-x-zero-point-per-channel", I(in), "ci.param.x", "x_zero_point is a scalar");
    in = base, in[3] = U8({3});
    Reject("ci10-reject-w-zero-point-size", I(in), "ci.param.w", "1-D of size M = 2");
    in = base, in.push_back(U8({}));
    Reject("ci10-reject-five-inputs", I(in), "ci.inputs.count", "at most four inputs");
    Reject("ci10-reject-attribute", I(base, {{"alpha", Attribute::Int(1)}}), "ci.attr.undefined",
           "ConvInteger has Conv's attributes only");
    Reject("ci10-reject-pads-as-int", I(base, {{"pads", Attribute::Int(1)}}), "ci.attr.type",
           "pads are INTS");
    Geometry(
        "ci10",
        [](Inputs in, std::map<std::string, Attribute> a) {
          return I(std::move(in), std::move(a));
        },
        base, 0, 1, "ci");
  }

  // The geometry's rules, alike for both (x at input `xi`, w at `wi`).
  template <typename Make>
  void Geometry(const std::string& p, Make make, const Inputs& base, size_t xi, size_t wi,
                const std::string& r) {
    Inputs in = base;
    in[xi] = U8({2, 4});
    Reject(p + "-reject-rank-2-x", make(in, {}), r + ".shape.rank", "x is [N, C, D1, ...]");
    in = base, in[wi] = U8({2, 2, 3});
    Reject(p + "-reject-w-rank", make(in, {}), r + ".shape.rank", "w has x's rank");
    Reject(p + "-reject-channels", make(base, {{"group", Attribute::Int(2)}}),
           r + ".shape.channels", "C = 2 but w.shape[1] * group = 4");
    in = base, in[wi] = U8({3, 1, 3, 3});
    Reject(p + "-reject-group-m", make(in, {{"group", Attribute::Int(2)}}), r + ".shape.group",
           "M = 3 is not a multiple of group 2");
    Reject(p + "-reject-group-zero", make(base, {{"group", Attribute::Int(0)}}), r + ".attr.group",
           "group >= 1");
    Reject(p + "-reject-kernel-shape", make(base, {{"kernel_shape", Attribute::Ints({2, 2})}}),
           r + ".attr.kernel_shape", "w's kernel is 3x3");
    Reject(p + "-reject-pads-count", make(base, {{"pads", Attribute::Ints({1, 1})}}),
           r + ".attr.pads", "two pads per spatial axis");
    Reject(p + "-reject-pads-negative", make(base, {{"pads", Attribute::Ints({0, -1, 0, 0})}}),
           r + ".attr.pads", "pads are non-negative");
    Reject(p + "-reject-strides-zero", make(base, {{"strides", Attribute::Ints({1, 0})}}),
           r + ".attr.strides", "strides are positive");
    Reject(p + "-reject-dilations-count", make(base, {{"dilations", Attribute::Ints({1, 1, 1})}}),
           r + ".attr.dilations", "one dilation per spatial axis");
    Reject(p + "-reject-auto-pad-value", make(base, {{"auto_pad", Attribute::String("SAME")}}),
           r + ".attr.auto_pad", "NOTSET, SAME_UPPER, SAME_LOWER or VALID");
    Reject(p + "-reject-auto-pad-with-pads",
           make(base, {{"auto_pad", Attribute::String("SAME_UPPER")},
                       {"pads", Attribute::Ints({1, 1, 1, 1})}}),
           r + ".attr.auto_pad_pads", "explicit pads go with NOTSET");
    in = base, in[xi] = U8({1, 2, 2, 4});
    Reject(p + "-reject-kernel-larger-than-input", make(in, {}), r + ".shape.output",
           "a 3x3 kernel over a 2x4 input without pads");
    in = base, in[xi] = U8({1, 2, 4, 4});
    Reject(p + "-reject-dilated-kernel-larger", make(in, {{"dilations", Attribute::Ints({2, 2})}}),
           r + ".shape.output", "dilation 2 spans 5 over 4");
  }

  // docs/semantics.md#d26: zero, negative, subnormal and infinite scales compute by the formula.
  void UnusualScales() {
    const std::vector<std::pair<std::string, std::vector<double>>> scales = {
        {"zero-y-scale", {0.5, 0.25, 0}},
        {"negative-w-scale", {0.5, -0.25, 1}},
        {"subnormal-x-scale", {0x1p-140, 0.5, 0x1p-141}},
        {"infinite-x-scale", {INFINITY, 0.25, 1}}};
    for (const auto& [name, s] : scales) {
      Inputs in = Base();
      in[1] = MakeScalar(D::kFloat, s[0]), in[4] = MakeScalar(D::kFloat, s[1]);
      in[6] = MakeScalar(D::kFloat, s[2]);
      in[0] = MakeTensorFromCodes(D::kUint8, {1, 2, 4, 4}, Ramp(32));
      Add(Q(in, {{"pads", Attribute::Ints({1, 1, 1, 1})}}),
          "type:uint8,w:uint8,y:uint8,implementation-defined:qlc.scale.unusual", "d26");
      cases.back().c.id = "qlc10-scale-" + name;
    }
  }

  static std::vector<uint32_t> Ramp(size_t n) {
    std::vector<uint32_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint32_t>(i * 37 % 256);
    return v;
  }
};

}  // namespace

std::vector<GoldenCase> ConvRuleCatalogue() {
  ConvRules b;
  b.QLinearConv();
  b.ConvInteger();
  b.UnusualScales();
  return b.cases;
}

}  // namespace qconform
