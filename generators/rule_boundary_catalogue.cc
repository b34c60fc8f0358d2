// Must-reject cases at the edges of the granularity rules, where a careless check accepts them:
//   - block sizes that ONNX's reference accepts (S * block_size >= D) but the specification
//     does not (S == ceil(D / block_size), docs/semantics.md#d6);
//   - an axis just outside [-r, r-1] that a kernel wrapping modulo r would compute with;
// and the implementation-defined per-tensor scale with an out-of-range axis for QuantizeLinear.
// Each is written for DequantizeLinear and QuantizeLinear across the versions that have it.
// Then one case for each rule no other part of the catalogue breaks (suites/io/
// rule_coverage_test.cc requires a golden case for every rule a case file can carry).
#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/registry/schema.h"

namespace qconform {
namespace {

using D = DataType;

class RuleBoundaries : public CatalogueBuilder {
 public:
  void Reject(const OpSchema& s, const std::string& what, std::vector<std::optional<Tensor>> inputs,
              std::map<std::string, int64_t> attributes, const std::string& rule,
              const std::string& decision) {
    const std::string id = CasePrefix(s) + "-reject-" + what;
    Add(MakeCase(std::string(s.op_type), s.since_version, std::move(inputs), attributes,
                 std::string(s.domain), id),
        "negative:" + rule, decision, rule);
  }

  void Rows(const OpSchema& s) {
    const bool quantize = s.kind() == OperatorKind::kQuantizeLinear;
    const std::string prefix(s.op().rule_prefix);
    // x of shape (4, 2) for blocks, (3, 2) for the axis: quantized x for DequantizeLinear, float
    // x for QuantizeLinear.
    const auto x = [&](std::vector<int64_t> shape) {
      std::vector<double> values(static_cast<size_t>(shape[0] * shape[1]));
      for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 7) - 3;
      return MakeTensor(quantize ? D::kFloat : D::kInt8, std::move(shape), values);
    };
    const auto scales = [](std::vector<int64_t> shape) {
      std::vector<double> values(static_cast<size_t>(shape[0] * (shape.size() > 1 ? shape[1] : 1)),
                                 0.5);
      return MakeTensor(D::kFloat, std::move(shape), values);
    };
    if (s.allows(Granularity::kBlocked)) {
      // D = 4, S = 3, block_size 2: 3 * 2 >= 4, but ceil(4 / 2) = 2 != 3.
      Reject(s, "block-size-reference-check", {x({4, 2}), scales({3, 2})},
             {{"axis", 0}, {"block_size", 2}}, prefix + ".blocked.block_size_range",
             "docs/semantics.md#d6: S == ceil(D / block_size); ONNX's reference checks S * B >= D");
      // D = 5, S = 4, block_size 3: 4 * 3 >= 5, but ceil(5 / 3) = 2 != 4.
      Reject(s, "block-size-too-few-blocks", {x({5, 2}), scales({4, 2})},
             {{"axis", 0}, {"block_size", 3}}, prefix + ".blocked.block_size_range",
             "docs/semantics.md#d6: S == ceil(D / block_size)");
    }
    if (s.allows(Granularity::kPerAxis) && s.attribute("axis") != nullptr &&
        !s.axis_presence_selects_granularity) {
      // rank 2: axis 2 and -4 wrap (modulo 2) onto axis 0, whose length the scale has.
      for (int64_t axis : {2, -4}) {
        Reject(s,
               "axis-" + std::string(axis < 0 ? "minus" : "") +
                   std::to_string(axis < 0 ? -axis : axis),
               {x({3, 2}), scales({3})}, {{"axis", axis}}, prefix + ".axis.range",
               "docs/semantics.md#d5: axis in [-r, r-1]; a kernel wrapping it modulo r computes");
      }
      if (quantize) {
        const std::string id = "ql" + std::to_string(s.since_version) + "-impl-per-tensor-axis";
        Add(MakeCase("QuantizeLinear", s.since_version, {x({3, 2}), MakeScalar(D::kFloat, 0.5)},
                     {{"axis", 5}}, "", id),
            "type:float,implementation-defined:ql.per_tensor.axis_range",
            "docs/semantics.md#d5: with a per-tensor scale the axis is ignored; reject or compute");
      }
    }
  }

  // An attribute of the wrong kind: the schemas say INT.
  static Case WithFloatAttribute(Case c, const std::string& name) {
    Attribute a;
    a.kind = Attribute::Kind::kFloat;
    a.f = 1;
    c.attributes[name] = a;
    return c;
  }

  void Coverage() {
    const Tensor x = MakeTensor(D::kFloat, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
    const Tensor q = MakeTensor(D::kInt8, {2, 4}, {1, 2, 3, 4, -5, -6, -7, -8});
    const Tensor s = MakeScalar(D::kFloat, 0.5);
    const auto add = [&](const std::string& id, Case c, const std::string& rule,
                         const std::string& why) {
      c.id = id;
      Add(std::move(c), "negative:" + rule, why, rule);
    };
    add("dq13-reject-float-axis",
        WithFloatAttribute(MakeCase("DequantizeLinear", 13, {q, s}), "axis"), "dq.attr.type",
        "\"axis - INT\"");
    add("ql21-reject-float-block-size",
        WithFloatAttribute(MakeCase("QuantizeLinear", 21, {x, s}), "block_size"), "ql.attr.type",
        "\"block_size - INT\"");
    add("ql21-reject-negative-block-size",
        MakeCase("QuantizeLinear", 21, {x, MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4})},
                 {{"axis", 1}, {"block_size", -2}}),
        "ql.blocked.block_size_negative", "\"The block size is a positive integer.\"");
    add("ql21-reject-blocked-scale-rank",
        MakeCase("QuantizeLinear", 21, {x, MakeTensor(D::kFloat, {2}, {1, 2})},
                 {{"axis", 1}, {"block_size", 2}}),
        "ql.blocked.rank", "docs/semantics.md#d6: a blocked y_scale has x's rank");
    add("dynql11-reject-two-inputs", MakeCase("DynamicQuantizeLinear", 11, {x, s}),
        "dynql.inputs.count", "\"Inputs: x (T1)\": exactly one");
  }
};

}  // namespace

std::vector<GoldenCase> RuleBoundaryCatalogue() {
  RuleBoundaries b;
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() != OperatorKind::kDynamicQuantizeLinear) b.Rows(s);
  }
  b.Coverage();
  return b.cases;
}

}  // namespace qconform
