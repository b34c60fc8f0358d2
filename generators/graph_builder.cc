#include "generators/graph_builder.h"

#include <cmath>
#include <stdexcept>

#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

bool CodeFits(double quotient, double zero_point, DataType type) {
  const ElementType& t = ElementTypeOf(type);
  const double code = std::nearbyint(quotient) + zero_point;
  const double span = std::ldexp(1.0, t.integer.is_signed ? t.bits - 1 : t.bits);
  return t.integer.is_signed ? code >= -span && code < span : code >= 0 && code < span;
}

}  // namespace

GraphCaseBuilder::GraphCaseBuilder(std::string id, int64_t opset) {
  c_.id = std::move(id);
  c_.op_type = kGraphOpType;
  c_.opset = opset;
}

std::string GraphCaseBuilder::Input(const std::string& name, Tensor t) {
  t.is_initializer = false;
  c_.input_names.push_back(name);
  c_.inputs.emplace_back(std::move(t));
  return name;
}

std::string GraphCaseBuilder::Constant(const std::string& name, Tensor t) {
  t.is_initializer = true;
  c_.input_names.push_back(name);
  c_.inputs.emplace_back(std::move(t));
  return name;
}

std::string GraphCaseBuilder::Dequantize(const std::string& x, Tensor t, float scale,
                                         double zero_point, bool constant) {
  const auto type = static_cast<DataType>(t.data_type);
  constant ? Constant(x, std::move(t)) : Input(x, std::move(t));
  Constant(x + "_scale", MakeScalar(DataType::kFloat, scale));
  Constant(x + "_zero_point", MakeScalar(type, zero_point));
  return Op("DequantizeLinear", {x, x + "_scale", x + "_zero_point"}, {x + "_real"});
}

std::string GraphCaseBuilder::Op(const std::string& op, std::vector<std::string> inputs,
                                 std::vector<std::string> outputs,
                                 std::map<std::string, Attribute> attributes, std::string name) {
  if (name.empty()) {
    name = op == "DequantizeLinear" ? "dq_" + inputs.at(0)
                                    : op + "_" + std::to_string(c_.graph.size());
  }
  c_.graph.push_back(Node{op, "", name, std::move(attributes), std::move(inputs), outputs});
  return outputs.at(0);
}

void GraphCaseBuilder::Quantize(const std::string& real, const std::string& y, float scale,
                                double zero_point, DataType type, std::string name) {
  Constant(y + "_scale", MakeScalar(DataType::kFloat, scale));
  Constant(y + "_zero_point", MakeScalar(type, zero_point));
  Op("QuantizeLinear", {real, y + "_scale", y + "_zero_point"}, {y}, {}, std::move(name));
  Output(y);
}

void GraphCaseBuilder::Output(const std::string& name) {
  c_.output_names.push_back(name);
}

std::vector<FloatElement> FloatOutput(const Case& float_case) {
  const OracleResult r = RunOracle(float_case);
  if (r.outputs.empty() || r.must_reject()) {
    throw std::logic_error(float_case.id + ": the float group has no output");
  }
  const OutputEvaluation& y = r.outputs[0];
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  const auto value = [&](uint32_t code) { return Decode(f, code).value().convert_to<double>(); };
  std::vector<FloatElement> out;
  for (size_t i = 0; i < y.exact.size(); ++i) {
    const CodeRange range = y.range(i);
    out.push_back({value(y.exact[i]), value(range.lo), value(range.hi),
                   range.lo == range.hi && range.lo == y.exact[i]});
  }
  return out;
}

std::optional<float> TieScale(const std::vector<FloatElement>& elements, double zero_point,
                              DataType type) {
  std::optional<float> best;
  size_t best_count = 0;
  for (const FloatElement& e : elements) {
    if (!e.exact || e.value == 0) continue;
    int exponent = 0;
    // The lowest set bit of |value|: its significand times 2^(exponent - 53), odd at the end.
    const double m = std::frexp(std::fabs(e.value), &exponent);
    auto significand = static_cast<uint64_t>(std::ldexp(m, 53));
    int low = exponent - 53;
    while ((significand & 1u) == 0) significand >>= 1, ++low;
    const auto scale = static_cast<float>(std::ldexp(1.0, low + 1));
    size_t count = 0;
    for (const FloatElement& other : elements) {
      const double q = other.value / scale;
      count += other.exact && q - std::floor(q) == 0.5 && CodeFits(q, zero_point, type) ? 1 : 0;
    }
    if (count > best_count) best = scale, best_count = count;
  }
  return best;
}

std::optional<float> StraddleScale(const std::vector<FloatElement>& elements, double zero_point,
                                   DataType type) {
  for (const FloatElement& e : elements) {
    if (e.exact || e.value == 0) continue;
    const double mid = (e.lo + e.hi) / 2;
    for (int k = 3; k < 120; ++k) {
      const auto scale = static_cast<float>(std::fabs(mid) / (k + 0.5));
      const double tie = (k + 0.5) * static_cast<double>(scale) * (mid < 0 ? -1 : 1);
      if (tie > e.lo && tie < e.hi && CodeFits(tie / scale, zero_point, type)) return scale;
    }
  }
  return std::nullopt;
}

}  // namespace qconform
