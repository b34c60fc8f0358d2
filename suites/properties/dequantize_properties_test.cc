// Properties of the DequantizeLinear oracle over generated cases (RapidCheck, shrinking). The
// number of cases per property comes from RC_PARAMS (ctest sets max_success=2000; a long run
// sets more). A failing property prints the shrunk case and writes it as a case directory under
// $QCONFORM_REPRO_DIR (default build/property-repro/<property>/), a minimal reproducer.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "onnx_io/case_io.h"
#include "oracle/semantics/oracle.h"
#include "suites/properties/rc_choices.h"
#include "verdict/comparator.h"

namespace qconform {

void showValue(const Case& c, std::ostream& os) {
  os << OperatorLabel(c.domain, c.op_type, c.opset) << " (opset " << c.opset << ")";
  for (const auto& [name, a] : c.attributes) {
    os << " " << name << "=";
    if (a.kind == Attribute::Kind::kInt) {
      os << a.i;
    } else {
      os << "<non-int>";
    }
  }
  os << "\n";
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (!c.inputs[k]) {
      os << "  input " << k << ": absent\n";
      continue;
    }
    const Tensor& t = *c.inputs[k];
    os << "  input " << k << ": " << DataTypeName(t.data_type) << ShapeString(t.shape) << " [";
    for (size_t i = 0; i < t.codes.size() && i < 24; ++i) {
      os << (i ? " " : "") << "0x" << std::hex << t.codes[i] << std::dec;
    }
    os << (t.codes.size() > 24 ? " ...]\n" : "]\n");
  }
}

namespace fs = std::filesystem;

void FailWith(const Case& c, const std::string& property, const std::string& what) {
  const char* env = std::getenv("QCONFORM_REPRO_DIR");
  const fs::path dir = fs::path(env && *env ? env : QCONFORM_REPRO_DIR) / property;
  std::string where;
  try {
    fs::remove_all(dir);
    WriteCaseDirectory(dir.string(), c, {{"y", 0, {}}}, {});
    where = " (case written to " + dir.string() + ")";
  } catch (const std::exception& e) {
    where = std::string(" (could not write the case: ") + e.what() + ")";
  }
  RC_FAIL(what + where);
}

namespace {

// Cases are drawn inside gen::exec so that a counterexample is shown as the Case (showValue),
// not as the list of choices behind it.
Case AnyValidCase() {
  return *rc::gen::exec([] {
    RcChoices ch;
    const std::vector<const OpSchema*> schemas = SchemasOf(OperatorKind::kDequantizeLinear);
    return GenerateValidDequantize(ch, *ch.Pick(schemas));
  });
}

// A valid per-axis case of a version that also allows `also` (per-tensor or blocked).
Case PerAxisCase(Granularity also) {
  return *rc::gen::exec([also] {
    RcChoices ch;
    std::vector<const OpSchema*> schemas;
    for (const OpSchema* s : SchemasOf(OperatorKind::kDequantizeLinear)) {
      if (s->allows(Granularity::kPerAxis) && s->allows(also)) schemas.push_back(s);
    }
    GeneratorLimits limits;
    limits.granularity = Granularity::kPerAxis;
    return GenerateValidDequantize(ch, *ch.Pick(schemas), limits);
  });
}

GeneratedCase AnyInvalidCase() {
  return *rc::gen::exec([] {
    RcChoices ch;
    const std::vector<const OpSchema*> schemas = SchemasOf(OperatorKind::kDequantizeLinear);
    return GenerateInvalid(ch, *ch.Pick(schemas));
  });
}

bool SameEvaluation(const OutputEvaluation& a, const OutputEvaluation& b, std::string& why) {
  if (a.data_type != b.data_type || a.shape != b.shape) {
    why = "types or shapes differ";
    return false;
  }
  if (!(a.exact == b.exact)) {
    for (size_t i = 0; i < a.exact.size(); ++i) {
      if (a.exact[i] != b.exact[i]) {
        std::ostringstream s;
        s << "exact results differ at element " << i << ": 0x" << std::hex << a.exact[i] << " vs 0x"
          << b.exact[i];
        why = s.str();
        return false;
      }
    }
  }
  if (a.alternatives.size() != b.alternatives.size()) {
    why = "the admitted strategies differ";
    return false;
  }
  for (size_t k = 0; k < a.alternatives.size(); ++k) {
    if (a.alternatives[k].strategy != b.alternatives[k].strategy ||
        !(a.alternative_codes(k) == b.alternative_codes(k))) {
      why = "strategy " + a.alternatives[k].strategy + " differs";
      return false;
    }
  }
  return true;
}

// The oracle's result for a case the property needs to be valid; anything else fails it, with
// the case written out.
OracleResult Valid(const Case& c, const std::string& property, EvaluateOptions options = {}) {
  OracleResult r = RunOracle(c, options);
  if (r.outputs.size() != 1u) {
    FailWith(c, property,
             "the case is not valid: " + (r.findings.empty() ? std::string("no output")
                                                             : std::string(r.findings[0].rule->id) +
                                                                   ": " + r.findings[0].message));
  }
  return r;
}

RC_GTEST_PROP(DequantizeProperties, ExactAndEveryAlternativeAreAdmissibleAndShapeIsKept, ()) {
  const Case c = AnyValidCase();
  const OracleResult r = Valid(c, "exact-admissible");
  const OutputEvaluation& y = r.outputs[0];
  if (y.shape != c.input(0)->shape) FailWith(c, "shape-kept", "output shape differs from x's");
  std::vector<Codes> candidates = {y.exact};
  for (size_t j = 0; j < y.alternatives.size(); ++j) candidates.push_back(y.alternative_codes(j));
  for (const Codes& codes : candidates) {
    const OutputComparison cmp =
        CompareOutput(y, ObservedTensor{y.data_type, y.shape, codes}, {}, c.id);
    if (!cmp.conforms()) FailWith(c, "exact-admissible", "an oracle result is not admissible");
  }
}

// The same case with x_scale and x_zero_point replaced.
Case WithScale(const Case& c, Tensor scale, std::optional<Tensor> zero_point) {
  Case out = c;
  out.inputs[1] = std::move(scale);
  if (out.inputs.size() > 2) out.inputs[2] = std::move(zero_point);
  return out;
}

Tensor Filled(const Tensor& like, std::vector<int64_t> shape, uint32_t code) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  Tensor t{like.data_type, shape,
           Codes(ElementTypeOf(static_cast<DataType>(like.data_type)).bits, static_cast<size_t>(n)),
           false};
  for (size_t i = 0; i < t.codes.size(); ++i) t.codes.set(i, code);
  return t;
}

RC_GTEST_PROP(DequantizeProperties, PerAxisWithEqualScalesEqualsPerTensor, ()) {
  const Case c = PerAxisCase(Granularity::kPerTensor);
  const Tensor& scale = *c.input(1);
  // (RC_PRE captures its operands without short-circuiting: decide first.)
  const bool per_axis_case =
      scale.shape.size() == 1u && scale.shape[0] > 1 && c.attribute("block_size") == nullptr;
  RC_PRE(per_axis_case);
  const Tensor* zp = c.input(2);
  const uint32_t s0 = scale.codes[0], z0 = zp ? zp->codes[0] : 0;
  const Case per_axis =
      WithScale(c, Filled(scale, scale.shape, s0),
                zp ? std::optional<Tensor>(Filled(*zp, zp->shape, z0)) : std::nullopt);
  Case per_tensor = WithScale(c, Filled(scale, {}, s0),
                              zp ? std::optional<Tensor>(Filled(*zp, {}, z0)) : std::nullopt);
  per_tensor.attributes.erase("axis");
  std::string why;
  if (!SameEvaluation(Valid(per_axis, "per-axis-equal-scales").outputs[0],
                      Valid(per_tensor, "per-axis-equal-scales").outputs[0], why)) {
    FailWith(per_axis, "per-axis-equal-scales",
             "per-axis with equal scales differs from per-tensor: " + why);
  }
}

RC_GTEST_PROP(DequantizeProperties, BlockedWithOneBlockPerElementEqualsPerAxis, ()) {
  const Case c = PerAxisCase(Granularity::kBlocked);
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  // (RC_PRE captures its operands without short-circuiting: decide first.)
  const bool per_axis_case =
      scale.shape.size() == 1u && scale.shape[0] > 1 && c.attribute("block_size") == nullptr;
  RC_PRE(per_axis_case);
  const Attribute* axis_attr = c.attribute("axis");
  const auto rank = static_cast<int64_t>(x.shape.size());
  const int64_t axis_value = axis_attr ? axis_attr->i : 1;
  const auto axis = static_cast<size_t>(axis_value < 0 ? axis_value + rank : axis_value);
  // Broadcast the per-axis scale and zero point to x's shape, block_size 1.
  int64_t inner = 1;
  for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  const auto spread = [&](const Tensor& t) {
    Tensor out = Filled(t, x.shape, 0);
    for (size_t i = 0; i < out.codes.size(); ++i) {
      out.codes.set(i,
                    t.codes[static_cast<size_t>(static_cast<int64_t>(i) / inner % x.shape[axis])]);
    }
    return out;
  };
  const Tensor* zp = c.input(2);
  Case blocked =
      WithScale(c, spread(scale), zp ? std::optional<Tensor>(spread(*zp)) : std::nullopt);
  blocked.attributes["block_size"] = Attribute::Int(1);
  std::string why;
  if (!SameEvaluation(Valid(c, "blocked-one-per-element").outputs[0],
                      Valid(blocked, "blocked-one-per-element").outputs[0], why)) {
    FailWith(blocked, "blocked-one-per-element",
             "blocked (block_size 1) differs from per-axis: " + why);
  }
}

RC_GTEST_PROP(DequantizeProperties, LaterVersionsThatAcceptACaseGiveTheSameExactResult, ()) {
  const Case c = AnyValidCase();
  const Codes exact = Valid(c, "later-versions-agree").outputs[0].exact;
  for (const OpSchema* later : SchemasOf(OperatorKind::kDequantizeLinear)) {
    if (later->domain != c.domain || later->since_version <= c.opset) continue;
    Case again = c;
    again.opset = later->since_version;
    const OracleResult r = RunOracle(again);
    if (!r.findings.empty()) continue;  // the case is not valid there
    if (!(r.outputs.at(0).exact == exact)) {
      FailWith(c, "later-versions-agree",
               "the exact result changes from version " + std::to_string(c.opset) + " to " +
                   std::to_string(later->since_version));
    }
  }
}

RC_GTEST_PROP(DequantizeProperties, CaseDirectoriesRoundTrip, ()) {
  Case c = *rc::gen::arbitrary<bool>() ? AnyValidCase() : AnyInvalidCase().c;
  const fs::path dir =
      fs::temp_directory_path() / ("qconform-roundtrip-" + std::to_string(getpid()));
  fs::remove_all(dir);
  c.id = dir.filename().string();
  WriteCaseDirectory(dir.string(), c, {{"y", 0, {}}}, {});
  const CaseDirectory back = ReadCaseDirectory(dir.string());
  fs::remove_all(dir);
  RC_ASSERT(back.data_sets.size() == 1u);
  if (!(back.data_sets[0].c == c)) FailWith(c, "round-trip", "the case read back differs");
}

}  // namespace
}  // namespace qconform
