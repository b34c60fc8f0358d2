// The operator registry: every schema row belongs to a registered operator, the one output-type
// rule gives what each operator's schema says, and the tables keyed by kind and strategy agree.
#include "oracle/registry/operator.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "oracle/core/case_builder.h"
#include "oracle/registry/schema.h"
#include "oracle/registry/strategy.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

TEST(Registry, EverySchemaRowHasItsOperator) {
  std::set<const Operator*> used;
  for (const OpSchema& s : AllSchemas()) {
    const Operator* op = FindOperator(s.domain, s.op_type);
    ASSERT_NE(op, nullptr) << s.label();
    EXPECT_EQ(&s.op(), op);
    used.insert(op);
  }
  EXPECT_EQ(used.size(), AllOperators().size()) << "an operator with no schema row";
  EXPECT_EQ(FindOperator("ai.onnx", "QuantizeLinear"), FindOperator("", "QuantizeLinear"));
  EXPECT_EQ(FindOperator("", "Relu"), nullptr);
}

TEST(Registry, InputAndRuleNamesComeFromTheRow) {
  const Operator& dq = *FindOperator("", "DequantizeLinear");
  const Operator& ql = *FindOperator("", "QuantizeLinear");
  const Operator& ms = *FindOperator("com.microsoft", "DequantizeLinear");
  EXPECT_EQ(dq.scale_name(), "x_scale");
  EXPECT_EQ(ql.zero_point_name(), "y_zero_point");
  EXPECT_EQ(ms.rule_prefix, "dq");
  EXPECT_EQ(ms.id_prefix, "msdq");
  EXPECT_EQ(FindOperator("", "DynamicQuantizeLinear")->scale_name(), "");
}

Case Node(const char* op, std::vector<std::optional<Tensor>> inputs,
          std::map<std::string, int64_t> attributes = {}) {
  return MakeCase(op, 21, std::move(inputs), attributes);
}

TEST(Registry, OneOutputTypeRulePerOperator) {
  const Tensor x8 = MakeTensor(D::kInt8, {2}, {1, 2});
  const Tensor xf = MakeTensor(D::kFloat, {2}, {1, 2});
  const Tensor f16 = MakeScalar(D::kFloat16, 1);
  // DequantizeLinear: output_dtype when set, else x_scale's type.
  EXPECT_EQ(DeclaredOutputType(Node("DequantizeLinear", {x8, f16})), int32_t(D::kFloat16));
  EXPECT_EQ(DeclaredOutputType(Node("DequantizeLinear", {x8, f16}, {{"output_dtype", 16}})),
            int32_t(D::kBfloat16));
  // QuantizeLinear: y_zero_point's type, else output_dtype, else uint8.
  EXPECT_EQ(DeclaredOutputType(Node("QuantizeLinear", {xf, f16})), int32_t(D::kUint8));
  EXPECT_EQ(DeclaredOutputType(Node("QuantizeLinear", {xf, f16}, {{"output_dtype", 22}})),
            int32_t(D::kInt4));
  EXPECT_EQ(DeclaredOutputType(
                Node("QuantizeLinear", {xf, f16, MakeScalar(D::kInt8, 0)}, {{"output_dtype", 3}})),
            int32_t(D::kInt8));
  // DynamicQuantizeLinear: uint8 y of x's shape, float y_scale, uint8 y_zero_point.
  const Case dyn = MakeCase("DynamicQuantizeLinear", 11, {xf}, {});
  const std::vector<OutputSpec> out = OperatorOf(dyn).declared_outputs(dyn);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].shape, std::vector<int64_t>{2});
  EXPECT_EQ(out[1].data_type, int32_t(D::kFloat));
  EXPECT_THROW(OperatorOf(MakeCase("Relu", 14, {xf}, {})), std::invalid_argument);
}

// A new OperatorKind must be listed, have a registry row and schema rows, and reach the oracle.
// (Each layer's dispatch is a switch without a default: a missing case is a -Wswitch error.)
TEST(Registry, EveryKindHasARowAndAnEntryInEveryLayer) {
  // Enumerators are numbered from 0; OperatorKindName names each (its switch has every case).
  size_t named = 0;
  while (OperatorKindName(static_cast<OperatorKind>(named)) != "?") ++named;
  EXPECT_EQ(named, std::size(kAllOperatorKinds)) << "a kind missing from kAllOperatorKinds";
  for (OperatorKind kind : kAllOperatorKinds) {
    const std::string name(OperatorKindName(kind));
    EXPECT_TRUE(std::any_of(AllOperators().begin(), AllOperators().end(),
                            [&](const Operator& o) { return o.kind == kind; }))
        << name << " has no registry row";
    const std::vector<const OpSchema*> schemas = SchemasOf(kind);
    ASSERT_FALSE(schemas.empty()) << name << " has no schema row";
    for (const OpSchema* s : schemas) {
      // A node without inputs reaches the kind's validation (which names the missing inputs).
      const std::map<std::string, int64_t> no_attributes;
      const OracleResult r = RunOracle(MakeCase(std::string(s->op_type), s->since_version, {},
                                                no_attributes, std::string(s->domain)));
      EXPECT_TRUE(r.must_reject()) << s->label();
      EXPECT_EQ(r.schema, s) << s->label();
    }
  }
}

TEST(Registry, SchemaRowsNameTheirOperatorRows) {
  for (const OpSchema& s : AllSchemas()) {
    EXPECT_EQ(s.op().op_type, s.op_type) << s.label();
    EXPECT_EQ(s.op().kind, s.kind()) << s.label();
    EXPECT_EQ(FindOperator(s.domain, s.op_type), &s.op()) << s.label();
  }
}

// Every strategy, to the table's size (kCount): each has a distinct name that reads back as it;
// past the table is an error, never a read beyond it.
TEST(Registry, StrategyNamesRoundTrip) {
  std::set<std::string_view> names;
  for (size_t k = 0; k < static_cast<size_t>(Strategy::kCount); ++k) {
    const auto s = static_cast<Strategy>(k);
    EXPECT_FALSE(StrategyName(s).empty()) << k;
    EXPECT_EQ(StrategyFromName(StrategyName(s)), s) << StrategyName(s);
    EXPECT_TRUE(names.insert(StrategyName(s)).second) << StrategyName(s) << " named twice";
  }
  EXPECT_THROW(StrategyName(Strategy::kCount), std::logic_error);
  EXPECT_FALSE(StrategyFromName("f64"));
}

TEST(Registry, OperatorNamesAreMatchedCaseInsensitively) {
  EXPECT_EQ(SchemasNamed("quantizelinear"), SchemasNamed("QuantizeLinear"));
  EXPECT_EQ(SchemasNamed("DequantizeLinear"), SchemasOf(OperatorKind::kDequantizeLinear));
  EXPECT_TRUE(SchemasNamed("Quantize").empty());
  EXPECT_EQ(SchemasNamed("all").size(), AllSchemas().size());
}

}  // namespace
}  // namespace qconform
