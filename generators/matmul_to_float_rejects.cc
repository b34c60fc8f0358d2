// com.microsoft MatMulIntegerToFloat's and DynamicQuantizeMatMul's must-reject cases, one per
// rule of their own and per generated rule (inputs.count, attr.undefined, type.T*), each breaking
// that rule alone, and their implementation-defined cases (a zero scale; an infinite A).
#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"

namespace qconform {

std::vector<GoldenCase> MatMulToFloatRejectCases() {
  using D = DataType;
  using Inputs = std::vector<std::optional<Tensor>>;
  CatalogueBuilder b;
  // A [2, 3] uint8, B [3, 4] int8, scales per tensor, zero points per tensor, bias [4].
  const auto mitf = [&] {
    return Inputs{Filled(D::kUint8, {2, 3}, 7), Filled(D::kInt8, {3, 4}, -3),
                  Filled(D::kFloat, {}, 0.5),   Filled(D::kFloat, {}, 0.25),
                  Filled(D::kUint8, {}, 1),     Filled(D::kInt8, {}, 2),
                  Filled(D::kFloat, {4}, 1)};
  };
  const auto dqmm = [&] {
    return Inputs{Filled(D::kFloat, {2, 3}, 1.5), Filled(D::kInt8, {3, 4}, -3),
                  Filled(D::kFloat, {}, 0.25), Filled(D::kInt8, {}, 2), Filled(D::kFloat, {4}, 1)};
  };
  const auto add = [&](bool dynamic, const std::string& name, Inputs in, const std::string& rule,
                       const std::string& why, const std::string& kind = "negative:") {
    while (!in.empty() && !in.back()) in.pop_back();
    Case c = MakeCase(dynamic ? "DynamicQuantizeMatMul" : "MatMulIntegerToFloat", 1, std::move(in),
                      {}, "com.microsoft", (dynamic ? "dqmm1-reject-" : "mitf1-reject-") + name);
    if (name == "attribute") c.attributes["alpha"] = Attribute::Float(1);
    b.Add(std::move(c), kind + rule, why, kind == "negative:" ? rule : "");
  };
  for (const bool dynamic : {false, true}) {
    const std::string p = dynamic ? "dqmm" : "mitf";
    const Inputs base = dynamic ? dqmm() : mitf();
    const size_t b_scale = dynamic ? 2 : 3, b_zp = dynamic ? 3 : 5, bias = dynamic ? 4 : 6;
    add(dynamic, "a-scalar", WithInput(base, 0, Filled(dynamic ? D::kFloat : D::kUint8, {}, 1)),
        p + ".shape.scalar", "A is a matrix");
    add(dynamic, "inner", WithInput(base, 1, Filled(D::kInt8, {4, 4}, 1)), p + ".shape.inner",
        "A's K (3) against B's 4");
    add(dynamic, "batch",
        WithInput(WithInput(base, 0, Filled(dynamic ? D::kFloat : D::kUint8, {2, 2, 3}, 1)), 1,
                  Filled(D::kInt8, {3, 3, 4}, 1)),
        p + ".shape.batch", "batch 2 against 3");
    add(dynamic, "b-scale-shape", WithInput(base, b_scale, Filled(D::kFloat, {3}, 0.5)),
        p + ".param.b", "b_scale is a scalar or [N]");
    add(dynamic, "b-zero-point-shape", WithInput(base, b_zp, Filled(D::kInt8, {3}, 0)),
        p + ".param.b", "b_zero_point is a scalar or [N]");
    add(dynamic, "bias-shape", WithInput(base, bias, Filled(D::kFloat, {3}, 1)), p + ".shape.bias",
        "bias is [N]");
    add(dynamic, "no-b-scale", Inputs(base.begin(), base.begin() + (dynamic ? 2 : 3)),
        p + ".inputs.count", "b_scale is required");
    add(dynamic, "attribute", base, p + ".attr.undefined", "the operator has no attributes");
    add(dynamic, "b-float", WithInput(base, 1, Filled(D::kFloat, {3, 4}, 1)), p + ".type.T2",
        "B is int8 or uint8");
    add(dynamic, "scale-zero", WithInput(base, b_scale, Filled(D::kFloat, {}, 0)),
        p + ".scale.unusual", "d26", "implementation-defined:");
  }
  const Inputs base = mitf();
  add(false, "a-scale-shape", WithInput(base, 2, Filled(D::kFloat, {2}, 0.5)), "mitf.param.a",
      "a_scale is a scalar or [K]");
  add(false, "a-float", WithInput(base, 0, Filled(D::kFloat, {2, 3}, 1)), "mitf.type.T1",
      "A is int8 or uint8");
  add(false, "scale-int32", WithInput(base, 3, Filled(D::kInt32, {}, 1)), "mitf.type.T3",
      "the scales are float or float16");
  add(true, "a-uint8", WithInput(dqmm(), 0, Filled(D::kUint8, {2, 3}, 1)), "dqmm.type.T1",
      "A is float");
  add(true, "a-infinite",
      WithInput(dqmm(), 0, MakeTensor(D::kFloat, {2, 3}, {1, 2, INFINITY, 0, -1, 3})),
      "dqmm.a.degenerate", "d13", "implementation-defined:");
  return std::move(b.cases);
}

}  // namespace qconform
