// Every rule of the catalogue (oracle/registry/rules.cc) has a golden case judged by it (a
// must-reject or implementation-defined case in golden/manifest.tsv) and a test: a case built
// here (or in DequantizeLinear's rule table) that breaks it and nothing before it. A new rule
// without both fails here, naming it. A rule a case file cannot carry is listed with the reason,
// and the reason is checked.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "generators/golden_catalogue.h"
#include "onnx_io/manifest.h"
#include "onnx_io/tensor_proto.h"
#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"
#include "suites/oracle/dequantize_rule_cases.h"

namespace qconform {
namespace {

using D = DataType;

Tensor Const(Tensor t) {
  t.is_initializer = true;
  return t;
}

Case WithAttribute(Case c, const std::string& name, Attribute a) {
  c.attributes[name] = std::move(a);
  return c;
}

Case Profiled(Case c) {
  c.profile = "tensorrt";
  return c;
}

// A case breaking each rule the DequantizeLinear table does not cover.
std::map<std::string, std::function<Case()>> Witnesses() {
  const Tensor x = MakeTensor(D::kFloat, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Tensor s = MakeScalar(D::kFloat, 0.5), s2 = MakeTensor(D::kFloat, {2}, {1, 2});
  const Tensor s22 = MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4});
  const Tensor negative{static_cast<int32_t>(D::kFloat), {2, -1}, Codes(32, 0), false};
  Attribute float_attribute;
  float_attribute.kind = Attribute::Kind::kFloat;
  const auto ql = [](int64_t v, std::vector<std::optional<Tensor>> in,
                     std::map<std::string, int64_t> a = {}) {
    return MakeCase("QuantizeLinear", v, std::move(in), a);
  };
  const auto dyn = [](std::vector<std::optional<Tensor>> in,
                      std::map<std::string, int64_t> a = {}) {
    return MakeCase("DynamicQuantizeLinear", 11, std::move(in), a);
  };
  const Tensor one = Const(MakeScalar(D::kFloat, 1)), i8 = Const(MakeScalar(D::kInt8, 0));
  // clang-format off
  return {
    {"ql.inputs.count", [=] { return ql(21, {x}); }},
    {"ql.attr.undefined", [=] { return ql(13, {x, s}, {{"saturate", 1}}); }},
    {"ql.attr.type", [=] { return WithAttribute(ql(21, {x, s}), "axis", float_attribute); }},
    {"ql.type.x", [=] { return ql(21, {MakeScalar(D::kInt8, 1), s}); }},
    {"ql.type.y_scale", [=] { return ql(13, {x, MakeScalar(D::kFloat16, 1)}); }},
    {"ql.type.y_zero_point", [=] { return ql(19, {x, s, MakeScalar(D::kInt16, 1)}); }},
    {"ql.output_dtype.type", [=] { return ql(21, {x, s}, {{"output_dtype", 1}}); }},
    {"ql.output_dtype.zero_point", [=] { return ql(21, {x, s, MakeScalar(D::kUint8, 0)}, {{"output_dtype", 3}}); }},
    {"ql.precision.type", [=] { return ql(23, {x, s}, {{"precision", 3}}); }},
    {"ql.shape.zero_point", [=] { return ql(21, {x, s, MakeTensor(D::kUint8, {1, 1}, {0})}); }},
    {"ql.scale.rank", [=] { return ql(10, {x, s2}); }},
    {"ql.axis.range", [=] { return ql(13, {x, s2}, {{"axis", 2}}); }},
    {"ql.per_tensor.axis_range", [=] { return ql(13, {x, s}, {{"axis", 5}}); }},
    {"ql.per_axis.length", [=] { return ql(13, {x, s2}, {{"axis", 1}}); }},
    {"ql.ms.axis_absent_not_scalar", [=] { return MakeCase("QuantizeLinear", 1, {x, s2}, {}, "com.microsoft"); }},
    {"ql.ms.axis_present_not_1d", [=] { return MakeCase("QuantizeLinear", 1, {x, s}, {{"axis", 1}}, "com.microsoft"); }},
    {"ql.blocked.block_size_negative", [=] { return ql(21, {x, s22}, {{"block_size", -1}}); }},
    {"ql.blocked.rank", [=] { return ql(21, {x, s2}, {{"block_size", 2}}); }},
    {"ql.blocked.dims", [=] { return ql(21, {x, MakeTensor(D::kFloat, {1, 2}, {1, 2})}, {{"block_size", 2}}); }},
    {"ql.blocked.block_size_range", [=] { return ql(21, {x, s22}, {{"block_size", 1}}); }},
    {"ql.shape.negative_dim", [=] { return ql(21, {negative, s}); }},
    {"ql.zero_point.float_nonzero", [=] { return ql(21, {x, s, MakeScalar(D::kFloat8E4M3FN, 1)}); }},
    {"ql.nan.integer", [=] { return ql(21, {MakeTensor(D::kFloat, {1}, {NAN}), s, MakeScalar(D::kUint8, 0)}); }},
    {"dynql.inputs.count", [=] { return dyn({x, s}); }},
    {"dynql.attr.undefined", [=] { return dyn({x}, {{"axis", 0}}); }},
    {"dynql.type.x", [=] { return dyn({MakeTensor(D::kFloat16, {2}, {1, 2})}); }},
    {"dynql.shape.negative_dim", [=] { return dyn({negative}); }},
    {"dynql.zero_scale", [=] { return dyn({MakeTensor(D::kFloat, {2}, {0, 0})}); }},
    {"dynql.nonfinite", [=] { return dyn({MakeTensor(D::kFloat, {2}, {1, INFINITY})}); }},
    {"dynql.empty", [=] { return dyn({MakeTensor(D::kFloat, {0}, {})}); }},
    {"trt.op", [=] { return Profiled(dyn({x})); }},
    {"trt.scale.constant", [=] { return Profiled(ql(21, {x, s, i8})); }},
    {"trt.scale.positive", [=] { return Profiled(ql(21, {x, Const(MakeScalar(D::kFloat, -1)), i8})); }},
    {"trt.scale.type", [=] { return Profiled(ql(24, {x, Const(MakeScalar(D::kFloat8E8M0, 1)), i8})); }},
    {"trt.zero_point.nonzero", [=] { return Profiled(ql(21, {x, one, Const(MakeScalar(D::kInt8, 3))})); }},
    {"trt.type.quantized", [=] { return Profiled(ql(21, {x, one, Const(MakeScalar(D::kUint8, 0))})); }},
    {"trt.type.float", [=] { return Profiled(ql(23, {MakeTensor(D::kInt32, {2}, {1, 2}), one, i8})); }},
    {"trt.scale.rank", [=] {
       return Profiled(ql(21, {MakeTensor(D::kFloat, {1, 2, 2}, {1, 2, 3, 4}),
                               Const(MakeTensor(D::kFloat, {1, 1, 2}, {1, 2})),
                               Const(MakeTensor(D::kInt8, {1, 1, 2}, {0, 0}))},
                          {{"axis", 1}, {"block_size", 2}}));
     }},
    {"trt.per_axis.constant", [=] { return Profiled(ql(21, {x, Const(MakeTensor(D::kFloat, {4}, {1, 2, 3, 4})), std::nullopt}, {{"axis", 1}, {"output_dtype", 3}})); }},
    {"trt.blocked.type", [=] {
       return Profiled(ql(21, {x, Const(s22), Const(MakeTensor(D::kInt8, {2, 2}, {0, 0, 0, 0}))},
                          {{"axis", 1}, {"block_size", 2}}));
     }},
    {"trt.blocked.partial", [=] {
       return Profiled(ql(21, {MakeTensor(D::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6}), Const(s22),
                               Const(MakeTensorFromCodes(D::kInt4, {2, 2}, {0, 0, 0, 0}))},
                          {{"axis", 1}, {"block_size", 2}}));
     }},
    {"trt.x.scalar", [=] { return Profiled(ql(21, {MakeScalar(D::kFloat, 1), one, i8})); }},
    {"trt.subbyte.odd", [=] {
       return Profiled(ql(21, {MakeTensor(D::kFloat, {3}, {1, 2, 3}), one, Const(MakeScalar(D::kInt4, 0))}));
     }},
  };
  // clang-format on
}

// The compute families' witnesses: its rule catalogue's cases (generators/matmul_rule_catalogue.cc,
// each naming the rule it breaks) and two negative dimensions, which no case file can carry.
std::map<std::string, std::function<Case()>> MatMulWitnesses() {
  std::map<std::string, std::function<Case()>> out;
  for (const GoldenCase& g : MatMulRuleCatalogue()) out[g.intended_rule] = [c = g.c] { return c; };
  for (const GoldenCase& g : MatMulVersion21Catalogue()) {
    const size_t at = g.features.find("implementation-defined:");
    if (at != std::string::npos) out[g.features.substr(at + 23)] = [c = g.c] { return c; };
  }
  // The convolution family's rule catalogue (generators/conv_rule_catalogue.cc) and the
  // com.microsoft QLinear operators' cases (generators/qlinear_group_catalogue.cc) likewise.
  std::vector<GoldenCase> with_rules = ConvRuleCatalogue();
  for (GoldenCase& g : QLinearOperatorCatalogue(CatalogueParts::kRules)) {
    with_rules.push_back(std::move(g));
  }
  for (GoldenCase& g : QGemmGoldenCatalogue(CatalogueParts::kRules))
    with_rules.push_back(std::move(g));
  for (GoldenCase& g : MatMulNBitsRejectCases()) with_rules.push_back(std::move(g));
  for (GoldenCase& g : MatMulToFloatRejectCases()) with_rules.push_back(std::move(g));
  for (GoldenCase& g : GatherBlockQuantizedCatalogue(CatalogueParts::kRules))
    with_rules.push_back(std::move(g));
  for (const GoldenCase& g : with_rules) {
    if (g.intended_rule.empty() && g.features.find("implementation-defined:") == std::string::npos)
      continue;
    const size_t at = g.features.find("implementation-defined:");
    const std::string rule = at != std::string::npos ? g.features.substr(at + 23) : g.intended_rule;
    out[rule] = [c = g.c] { return c; };
  }
  const Tensor negative{static_cast<int32_t>(D::kUint8), {2, -1}, Codes(8, 0), false};
  const Tensor u8 = MakeTensor(D::kUint8, {2, 2}, {1, 2, 3, 4});
  out["mmi.shape.negative_dim"] = [=] { return MakeCase("MatMulInteger", 10, {negative, u8}); };
  const Tensor x = MakeTensor(D::kUint8, {1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor negative_w{static_cast<int32_t>(D::kUint8), {1, 1, -1, 1}, Codes(8, 0), false};
  out["ci.shape.negative_dim"] = [=] { return MakeCase("ConvInteger", 10, {x, negative_w}); };
  out["qlc.shape.negative_dim"] = [=] {
    const Tensor s = MakeScalar(D::kFloat, 1), z = MakeScalar(D::kUint8, 0);
    return MakeCase("QLinearConv", 10, {x, s, z, negative_w, s, z, s, z});
  };
  // The com.microsoft QLinear operators: a negative dimension in the first operand.
  for (const Operator& op : AllOperators()) {
    if (op.kind != OperatorKind::kQLinearGroup) continue;
    out[std::string(op.rule_prefix) + ".shape.negative_dim"] = [&op, negative] {
      std::vector<std::optional<Tensor>> in(op.inputs.size());
      for (size_t k = 0; k < op.inputs.size(); ++k) {
        in[k] =
            op.inputs[k].role == Role::kScale ? MakeScalar(D::kFloat, 1) : MakeScalar(D::kUint8, 0);
      }
      in[0] = negative;
      return MakeCase(std::string(op.op_type), 1, in, {}, std::string(op.domain));
    };
  }
  out["qgemm.shape.negative_dim"] = [=] {
    const Tensor s = MakeScalar(D::kFloat, 1), z = MakeScalar(D::kUint8, 0);
    return MakeCase("QGemm", 1, {negative, s, z, u8, s, z}, {}, "com.microsoft");
  };
  out["mnb.shape.negative_dim"] = [=] {
    Case c = MakeCase(
        "MatMulNBits", 1,
        {Tensor{static_cast<int32_t>(D::kFloat), {-1, 16}, Codes(32, 0), false},
         MakeTensor(D::kUint8, {1, 1, 8}, std::vector<double>(8, 0)), MakeScalar(D::kFloat, 1)},
        {{"K", 16}, {"N", 1}, {"block_size", 16}}, "com.microsoft");
    return c;
  };
  for (const char* op : {"MatMulIntegerToFloat", "DynamicQuantizeMatMul"}) {
    const std::string prefix = op[0] == 'M' ? "mitf" : "dqmm";
    out[prefix + ".shape.negative_dim"] = [=] {
      const Tensor a{static_cast<int32_t>(op[0] == 'M' ? D::kUint8 : D::kFloat),
                     {-1, 2},
                     Codes(op[0] == 'M' ? 8 : 32, 0),
                     false};
      const Tensor s = MakeScalar(D::kFloat, 1);
      std::vector<std::optional<Tensor>> in = {a, u8, s};
      if (op[0] == 'M') in.push_back(s);
      return MakeCase(op, 1, in, {}, "com.microsoft");
    };
  }
  out["gbq.shape.negative_dim"] = [=] {
    return MakeCase("GatherBlockQuantized", 1,
                    {Tensor{static_cast<int32_t>(D::kUint4), {-1, 16}, Codes(4, 0), false},
                     MakeTensor(D::kInt32, {1}, {0}), MakeTensor(D::kFloat, {1, 1}, {1})},
                    {{"block_size", 16}}, "com.microsoft");
  };
  out["qlmm.shape.negative_dim"] = [=] {
    const Tensor s = MakeScalar(D::kFloat, 1), z = MakeScalar(D::kUint8, 0);
    return MakeCase("QLinearMatMul", 10, {negative, s, z, u8, s, z, s, z});
  };
  return out;
}

// Rules no case file can carry, and why: the reason is checked below.
const std::map<std::string, std::string>& NotStorable() {
  static const std::map<std::string, std::string> kRules = [] {
    std::map<std::string, std::string> rules = {
        {"trt.volume",
         "2^31 elements are beyond the reader's bound (MaxTensorElements) and memory"},
    };
    for (const Rule& r : AllRules()) {  // every operator's <prefix>.shape.negative_dim
      if (r.id.ends_with(".shape.negative_dim")) {
        rules[std::string(r.id)] = "a TensorProto dimension below 0 is refused by the reader";
      }
    }
    return rules;
  }();
  return kRules;
}

// Every rule id that breaks in a case of the DequantizeLinear rule table or of Witnesses().
std::set<std::string> TestedRules() {
  std::set<std::string> out;
  for (const auto& [rule, make] : Witnesses()) out.insert(rule);
  for (const auto& [rule, make] : MatMulWitnesses()) out.insert(rule);
  for (const auto& table : {testing::AllRuleCases(), testing::ImplementationDefinedCases()}) {
    for (const testing::RuleCase& rc : table) out.insert(rc.rule);
  }
  return out;
}

// The rules the checked-in catalogue's cases are judged by (golden/manifest.tsv's expected
// verdicts: reject:<rule> or implementation-defined:<rule>).
std::set<std::string> GoldenRules() {
  Manifest manifest;
  MergeManifest(manifest, QCONFORM_GOLDEN_DIR);
  std::set<std::string> out;
  for (const auto& [id, entry] : manifest) {
    const size_t colon = entry.expected.find(':');
    if (colon != std::string::npos) out.insert(entry.expected.substr(colon + 1));
  }
  return out;
}

TEST(RuleCoverage, EveryRuleHasAGoldenCaseAndATest) {
  const std::set<std::string> golden = GoldenRules(), tested = TestedRules();
  for (const Rule& rule : AllRules()) {
    const std::string id(rule.id);
    EXPECT_TRUE(golden.count(id) || NotStorable().count(id))
        << id
        << ": no golden case is judged by it (add one to generators/rule_boundary_catalogue.cc)";
    EXPECT_TRUE(tested.count(id) || id == "trt.volume")
        << id << ": no test breaks it (add a witness to suites/io/rule_coverage_test.cc)";
  }
}

// Every version of every operator has golden cases (the conformance suites' ctest entries come
// from the manifest, so a version without cases would have no entry at all).
TEST(RuleCoverage, EveryOperatorVersionHasGoldenCases) {
  Manifest manifest;
  MergeManifest(manifest, QCONFORM_GOLDEN_DIR);
  for (const OpSchema& s : AllSchemas()) {
    const bool found = std::any_of(manifest.begin(), manifest.end(), [&](const auto& entry) {
      const ManifestEntry& e = entry.second;
      return e.op == s.op_type && CanonicalDomain(e.domain) == CanonicalDomain(s.domain) &&
             e.version == s.since_version;
    });
    EXPECT_TRUE(found) << s.label() << " has no golden case";
  }
}

TEST(RuleCoverage, EachWitnessBreaksItsRuleFirst) {
  std::map<std::string, std::function<Case()>> all = Witnesses();
  all.merge(MatMulWitnesses());
  for (const auto& [rule, make] : all) {
    const OracleResult r = RunOracle(make());
    ASSERT_FALSE(r.findings.empty()) << rule << ": the witness breaks nothing";
    const Finding* first = r.rejection() ? r.rejection() : &r.findings.front();
    EXPECT_EQ(first->rule->id, rule) << first->message;
  }
}

TEST(RuleCoverage, WhatCannotBeStoredIsRefusedWhenRead) {
  onnx::TensorProto negative;
  negative.set_data_type(1);
  negative.add_dims(2);
  negative.add_dims(-1);
  EXPECT_THROW(TensorFromProto(negative, "negative"), CaseIoError);
  onnx::TensorProto huge;
  huge.set_data_type(1);
  huge.add_dims(int64_t{1} << 31);
  ASSERT_LT(MaxTensorElements(), int64_t{1} << 31);
  EXPECT_THROW(TensorFromProto(huge, "huge"), CaseIoError);
  for (const auto& [rule, why] : NotStorable()) EXPECT_NE(RuleById(rule).id, "") << why;
}

}  // namespace
}  // namespace qconform
