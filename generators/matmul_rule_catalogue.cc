// The matmul family's version-21 half (docs/semantics.md#d27: float16/bfloat16 scales, float8
// operands and outputs, each implementation-defined to refuse), unusual scales (#d26), and one
// must-reject case per rule of QLinearMatMul and MatMulInteger (suites/io/rule_coverage_test.cc
// requires them).
#include <cmath>

#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;

class Version21 : public CatalogueBuilder {
 public:
  Tensor Codes(Prng& p, D t, std::vector<int64_t> shape, uint32_t lo = 0, uint32_t span = 256) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<uint32_t> c(static_cast<size_t>(n));
    for (uint32_t& x : c) x = lo + static_cast<uint32_t>(p.Below(span));
    return MakeTensorFromCodes(t, std::move(shape), c);
  }

  // float16 and bfloat16 scales (one type TS for all three), integer operands; half of them with
  // a power-of-two multiplier, so that acc * M has ties.
  void HalfScales() {
    for (D ts : {D::kFloat16, D::kBfloat16}) {
      for (const auto& [at, bt] :
           std::vector<std::pair<D, D>>{{D::kUint8, D::kInt8}, {D::kInt8, D::kInt8}}) {
        for (int tie = 0; tie < 2; ++tie) {
          const std::string id = "qlmm21-half-" + TypeName(ts) + "-" + TypeName(at) + "-" +
                                 TypeName(bt) + (tie ? "-ties" : "");
          Prng p(CaseSeed(id));
          const double as = 0.046875, bs = 0.0390625;  // exact in both half types
          const double ys = tie ? as * bs * 64 : 0.30078125;
          Add(MakeCase("QLinearMatMul", 21,
                       {Codes(p, at, {3, 4}), MakeScalar(ts, as), Codes(p, at, {}),
                        Codes(p, bt, {4, 2}), MakeTensor(ts, {2}, {bs, bs * 2}), Codes(p, bt, {2}),
                        MakeScalar(ts, ys), MakeScalar(at, at == D::kUint8 ? 129 : 3)},
                       {}, "", id),
              "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",scale:" + TypeName(ts) +
                  ",implementation-defined:qlmm.scale.half",
              "d27");
        }
      }
    }
  }

  // float8 operands and outputs, their zero points non-zero values; y_scale small enough that
  // some elements overflow y's range (which saturates, as QuantizeLinear-21 with saturate=1).
  void Float8() {
    for (D t : {D::kFloat8E4M3FN, D::kFloat8E4M3FNUZ, D::kFloat8E5M2, D::kFloat8E5M2FNUZ}) {
      for (int layout = 0; layout < 2; ++layout) {
        const std::string id = "qlmm21-float8-" + TypeName(t) + (layout ? "-per-row" : "");
        Prng p(CaseSeed(id));
        // Finite codes of moderate magnitude: exponent fields away from the top (no NaN, no inf).
        const auto values = [&](std::vector<int64_t> shape) {
          return Codes(p, t, std::move(shape), 0x20, 0x30);
        };
        const std::vector<int64_t> a_param =
            layout ? std::vector<int64_t>{3} : std::vector<int64_t>{};
        Add(MakeCase("QLinearMatMul", 21,
                     {values({3, 4}),
                      MakeTensor(D::kFloat, a_param.empty() ? std::vector<int64_t>{} : a_param,
                                 layout ? std::vector<double>{0.5, 2, 8} : std::vector<double>{2}),
                      values(a_param), values({4, 2}), MakeScalar(D::kFloat, 1.5), values({}),
                      MakeScalar(D::kFloat, 0.0078125), values({})},
                     {}, "", id),
            "type:" + TypeName(t) + ",b:" + TypeName(t) + ",y:" + TypeName(t) +
                ",implementation-defined:qlmm.float8",
            "d27");
      }
    }
  }

  // docs/semantics.md#d26: zero, negative, subnormal and infinite scales compute by the formula.
  void UnusualScales() {
    const std::vector<std::pair<std::string, std::vector<double>>> scales = {
        {"zero-y-scale", {0.5, 0.25, 0}},
        {"negative-a-scale", {-0.5, 0.25, 1}},
        {"subnormal-b-scale", {0.5, 0x1p-140, 0x1p-141}},
        {"infinite-a-scale", {INFINITY, 0.25, 1}}};
    for (const auto& [name, s] : scales) {
      const std::string id = "qlmm10-scale-" + name;
      Prng p(CaseSeed(id));
      Add(MakeCase(
              "QLinearMatMul", 10,
              {Codes(p, D::kUint8, {2, 3}), MakeScalar(D::kFloat, s[0]), MakeScalar(D::kUint8, 128),
               Codes(p, D::kInt8, {3, 2}), MakeScalar(D::kFloat, s[1]), MakeScalar(D::kInt8, 0),
               MakeScalar(D::kFloat, s[2]), MakeScalar(D::kUint8, 100)},
              {}, "", id),
          "type:uint8,b:int8,y:uint8,implementation-defined:qlmm.scale.unusual", "d26");
    }
  }

  void Reject(const std::string& id, Case c, const std::string& rule, const std::string& why) {
    c.id = id;
    Add(std::move(c), "negative:" + rule, why, rule);
  }

  void Rules() {
    const auto u8 = [](std::vector<int64_t> s) {
      int64_t n = 1;
      for (int64_t d : s) n *= d;
      return MakeTensor(D::kUint8, std::move(s), std::vector<double>(static_cast<size_t>(n), 7));
    };
    const auto f = [](double v) { return MakeScalar(D::kFloat, v); };
    const auto q = [&](int64_t opset, std::vector<std::optional<Tensor>> in) {
      return MakeCase("QLinearMatMul", opset, std::move(in));
    };
    const auto base = [&] {
      return std::vector<std::optional<Tensor>>{u8({2, 3}),
                                                f(0.5),
                                                MakeScalar(D::kUint8, 1),
                                                u8({3, 2}),
                                                f(0.25),
                                                MakeScalar(D::kUint8, 2),
                                                f(1),
                                                MakeScalar(D::kUint8, 3)};
    };
    auto in = base();
    in[0] = MakeTensor(D::kInt32, {2, 3}, std::vector<double>(6, 1));
    Reject("qlmm10-reject-int32-a", q(10, in), "qlmm.type.a", "T1 in (int8, uint8)");
    in = base(), in[3] = MakeTensor(D::kInt16, {3, 2}, std::vector<double>(6, 1));
    Reject("qlmm10-reject-int16-b", q(10, in), "qlmm.type.b", "T2 in (int8, uint8)");
    in = base(), in[7] = MakeScalar(D::kInt32, 0);
    Reject("qlmm10-reject-int32-y", q(10, in), "qlmm.type.y_zero_point", "T3 in (int8, uint8)");
    in = base(), in[5] = MakeScalar(D::kInt8, 0);
    Reject("qlmm10-reject-zero-point-type", q(10, in), "qlmm.type.zero_point", "b_zero_point: T2");
    in = base(), in[1] = MakeScalar(D::kFloat16, 0.5);
    Reject("qlmm10-reject-float16-scale", q(10, in), "qlmm.type.scale",
           "10: a_scale tensor(float)");
    in = base(), in[6] = MakeScalar(D::kBfloat16, 1);
    Reject("qlmm21-reject-mixed-scales", q(21, in), "qlmm.type.scale",
           "21: the three scales are TS");
    in = base(), in[0] = MakeScalar(D::kUint8, 7);
    Reject("qlmm10-reject-scalar-a", q(10, in), "qlmm.shape.scalar",
           "numpy.matmul takes no scalar");
    in = base(), in[3] = u8({2, 2});
    Reject("qlmm10-reject-inner", q(10, in), "qlmm.shape.inner", "a's K 3, b's K 2");
    in = base(), in[0] = u8({2, 2, 3}), in[3] = u8({3, 3, 2});
    Reject("qlmm10-reject-batch", q(10, in), "qlmm.shape.batch", "batch 2 and 3 do not broadcast");
    in = base(), in[1] = MakeTensor(D::kFloat, {3}, {1, 1, 1}), in[2] = u8({3});
    Reject("qlmm10-reject-a-scale-k", q(10, in), "qlmm.param.a", "per row of a is M values, not K");
    in = base(), in[4] = MakeTensor(D::kFloat, {3}, {1, 1, 1}), in[5] = u8({3});
    Reject("qlmm10-reject-b-scale-k", q(10, in), "qlmm.param.b",
           "the page's 'K element vector': N values");
    in = base(), in[6] = MakeTensor(D::kFloat, {2}, {1, 1}), in[7] = u8({2});
    Reject("qlmm10-reject-y-per-column", q(10, in), "qlmm.param.y",
           "y's parameters are per tensor");
    in = base(), in[2] = u8({2});
    Reject("qlmm10-reject-zero-point-shape", q(10, in), "qlmm.shape.zero_point",
           "same shape as the scale");
    in = base(), in.pop_back();
    Reject("qlmm10-reject-seven-inputs", q(10, in), "qlmm.inputs.count",
           "eight inputs, all required");
    Case c = q(10, base());
    c.attributes["transA"] = Attribute::Int(1);
    Reject("qlmm10-reject-attribute", c, "qlmm.attr.undefined", "QLinearMatMul has no attributes");

    const auto m = [&](std::vector<std::optional<Tensor>> in) {
      return MakeCase("MatMulInteger", 10, std::move(in));
    };
    Reject("mmi10-reject-int32-a",
           m({MakeTensor(D::kInt32, {2, 3}, std::vector<double>(6, 1)), u8({3, 2})}), "mmi.type.A",
           "T1 in (int8, uint8)");
    Reject("mmi10-reject-int16-b",
           m({u8({2, 3}), MakeTensor(D::kInt16, {3, 2}, std::vector<double>(6, 1))}), "mmi.type.B",
           "T2 in (int8, uint8)");
    Reject("mmi10-reject-zero-point-type", m({u8({2, 3}), u8({3, 2}), MakeScalar(D::kInt8, 1)}),
           "mmi.type.zero_point", "a_zero_point: T1");
    Reject("mmi10-reject-scalar-b", m({u8({2, 3}), MakeScalar(D::kUint8, 1)}), "mmi.shape.scalar",
           "no scalar");
    Reject("mmi10-reject-inner", m({u8({2, 3}), u8({2, 2})}), "mmi.shape.inner", "K 3 and 2");
    Reject("mmi10-reject-batch", m({u8({2, 2, 3}), u8({4, 3, 2})}), "mmi.shape.batch",
           "batch 2 and 4");
    Reject("mmi10-reject-a-zero-point-k", m({u8({2, 3}), u8({3, 2}), u8({3})}), "mmi.param.a",
           "per row is M values");
    Reject("mmi10-reject-b-zero-point-rows", m({u8({2, 3}), u8({3, 2}), std::nullopt, u8({3, 1})}),
           "mmi.param.b", "per column is [N] or [..., 1, N]");
    Reject("mmi10-reject-five-inputs", m({u8({2, 3}), u8({3, 2}), u8({}), u8({}), u8({})}),
           "mmi.inputs.count", "at most four inputs");
    Case mc = m({u8({2, 3}), u8({3, 2})});
    mc.attributes["axis"] = Attribute::Int(0);
    Reject("mmi10-reject-attribute", mc, "mmi.attr.undefined", "MatMulInteger has no attributes");
  }
};

}  // namespace

std::vector<GoldenCase> MatMulVersion21Catalogue() {
  Version21 b;
  b.HalfScales();
  b.Float8();
  b.UnusualScales();
  return b.cases;
}

std::vector<GoldenCase> MatMulRuleCatalogue() {
  Version21 b;
  b.Rules();
  return b.cases;
}

}  // namespace qconform
