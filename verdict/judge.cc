#include "verdict/judge.h"

#include <algorithm>
#include <iterator>

#include "verdict/dot_product_test.h"
#include "verdict/narrowing.h"

namespace qconform {
namespace {

struct Comparison {
  Kind kind = Kind::kConformant;
  std::string detail;
  std::vector<OutputComparison> outputs;
};

// The known deviation behind an output's wrong elements (those reported): the ones that explain
// every element, joined with "or" when the elements cannot tell them apart; else the one that
// explains the most (the first named among equals); "" when none explains any.
std::string DeviationOf(const OutputComparison& o) {
  std::vector<std::pair<std::string, size_t>> counts;  // in the order first named
  for (const Mismatch& m : o.mismatches) {
    for (const std::string& d : m.deviations) {
      auto it =
          std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == d; });
      if (it == counts.end()) it = counts.insert(counts.end(), {d, 0});
      ++it->second;
    }
  }
  std::string every, most;
  size_t most_count = 0;
  for (const auto& [name, count] : counts) {
    if (count == o.mismatches.size()) every += (every.empty() ? "" : " or ") + name;
    if (count > most_count) most = name, most_count = count;
  }
  return every.empty() ? most : every;
}

// Every expected output against the observed ones.
Comparison CompareOutputs(const Case& c, const std::vector<OutputEvaluation>& expected,
                          const std::vector<Tensor>& observed, const CompareOptions& options) {
  Comparison j;
  for (size_t k = 0; k < expected.size(); ++k) {
    if (k >= observed.size()) {
      j.kind = Kind::kWrongOutputs;
      j.detail = "output " + expected[k].name + " is missing";
      break;
    }
    const Tensor& t = observed[k];
    OutputComparison cmp =
        CompareOutput(expected[k], {t.data_type, t.shape, t.codes}, options, c.id);
    if (!cmp.conforms() && j.kind == Kind::kConformant) {
      j.kind = Kind::kWrongOutputs;
      const std::string deviation = DeviationOf(cmp);
      j.detail = !cmp.structural_error.empty()
                     ? cmp.structural_error
                     : std::to_string(cmp.mismatched) + " of " + std::to_string(cmp.elements) +
                           " elements not admissible" +
                           (deviation.empty() ? "" : " (" + deviation + ")") +
                           "; first: " + cmp.mismatches.front().message;
    }
    j.outputs.push_back(std::move(cmp));
  }
  return j;
}

// The strategies that explain every element of every conforming output.
std::vector<std::string> Fingerprint(const std::vector<OutputComparison>& outputs) {
  std::vector<std::string> result;
  bool first = true;
  for (const OutputComparison& o : outputs) {
    if (!o.conforms()) continue;
    std::vector<std::string> s;
    if (o.admissible == 0) {
      s = {"exact"};
      for (const auto& [name, count] : o.strategy_matches) {
        if (count == o.elements && name != "exact") s.push_back(name);
      }
    } else {
      s = o.consistent_strategies();
    }
    std::sort(s.begin(), s.end());
    if (first) {
      result = s;
      first = false;
    } else {
      std::vector<std::string> both;
      std::set_intersection(result.begin(), result.end(), s.begin(), s.end(),
                            std::back_inserter(both));
      result = both;
    }
  }
  return result;
}

// "exact", or which outputs needed another strategy: "y: 5 of 18 elements admissible via f32".
std::string DescribeAdmissible(const std::vector<OutputComparison>& outputs) {
  // Elements only a strategy admitted by name explains (--admit): never plain conformant.
  std::string admitted;
  for (const OutputComparison& o : outputs) {
    for (const auto& [name, count] : o.admitted_by_name) {
      admitted += (admitted.empty() ? "" : ", ") + name + " (" + o.name + ": " +
                  std::to_string(count) + " of " + std::to_string(o.elements) + " elements)";
    }
  }
  if (!admitted.empty()) return "conformant with admitted strategy " + admitted;
  std::string s;
  for (const OutputComparison& o : outputs) {
    if (o.admissible == 0) continue;
    std::string names;
    for (const std::string& n : o.consistent_strategies()) names += (names.empty() ? "" : "/") + n;
    s += (s.empty() ? "" : "; ") + o.name + ": " + std::to_string(o.admissible) + " of " +
         std::to_string(o.elements) + " elements admissible via " +
         (names.empty() ? "a mix of strategies" : names);
  }
  return s.empty() ? "exact" : s;
}

// Crash, timeout and protocol errors are the backend's failures whatever the case; unsupported
// is the harness's limit. Refusals are judged against the oracle.
constexpr std::pair<ErrorKind, Kind> kErrorKinds[] = {
    {ErrorKind::kUnsupported, Kind::kUnsupported},
    {ErrorKind::kCrash, Kind::kCrash},
    {ErrorKind::kTimeout, Kind::kTimeout},
    {ErrorKind::kProtocolError, Kind::kProtocolError},
};

}  // namespace

CaseFeatures FeaturesOf(const Case& c, const OracleResult* oracle) {
  CaseFeatures f;
  f.op = c.domain.empty() ? c.op_type : c.domain + "." + c.op_type;
  f.version = c.opset;
  const Tensor* x = c.input(0);
  f.x_type = x ? DataTypeName(x->data_type) : "absent";
  const QuantizationPlan* plan = oracle == nullptr ? nullptr : oracle->plan_as<QuantizationPlan>();
  if (plan != nullptr && plan->output_type != nullptr) {
    f.y_type = std::string(plan->output_type->name);
  } else if (oracle != nullptr && !oracle->outputs.empty()) {
    f.y_type = DataTypeName(oracle->outputs[0].data_type);
  } else if (oracle != nullptr && oracle->op != nullptr) {
    // A must-reject case has no plan: the type its output would be declared with.
    try {
      if (const int32_t t = DeclaredOutputType(c)) f.y_type = DataTypeName(t);
    } catch (const std::exception&) {
    }
  }
  if (oracle != nullptr && oracle->cell.known()) {
    // The kind's plan says where the case stands: both operand types, each operand's layout.
    if (!oracle->cell.op.empty()) f.op = oracle->cell.op;  // a graph case's pattern
    f.x_type = oracle->cell.operands;
    f.y_type = oracle->cell.output;
    f.granularity = oracle->cell.granularity;
  } else if (oracle != nullptr && oracle->must_reject()) {
    f.granularity = "must-reject";
  } else if (plan != nullptr) {
    f.granularity = std::string(GranularityName(plan->granularity));
  } else {
    f.granularity = "per-tensor";  // DynamicQuantizeLinear, or a case the oracle cannot judge
  }
  return f;
}

std::string ExpectedSummary(const OracleResult& oracle) {
  if (const Finding* f = oracle.rejection()) return "reject:" + std::string(f->rule->id);
  if (!oracle.findings.empty()) {
    return "implementation-defined:" + std::string(oracle.findings[0].rule->id);
  }
  return "outputs";
}

namespace {

CaseResult Judged(const Case& c, const OracleResult& oracle, const BackendResult& observed,
                  const CompareOptions& options) {
  CaseResult r;
  r.id = c.id;
  r.observed = observed;
  r.features = FeaturesOf(c, &oracle);
  r.expected = ExpectedSummary(oracle);
  std::string refusal;
  if (observed.error) {
    const BackendError& e = *observed.error;
    for (const auto& [error, kind] : kErrorKinds) {
      if (error != e.kind) continue;
      r.kind = kind;
      r.detail = e.message;
      return r;
    }
    refusal = std::string(ErrorKindName(e.kind)) + ": " + e.message;
  }
  if (const Finding* rule = oracle.rejection()) {
    r.kind = observed.error ? Kind::kRejectedAsRequired : Kind::kAcceptedInvalid;
    r.detail = std::string(rule->rule->id) + ": " + rule->message;
    if (observed.error) r.detail += " [backend: " + refusal + "]";
    return r;
  }
  if (observed.error) {
    r.kind = oracle.rejection_admissible() ? Kind::kRejectedAdmissibly : Kind::kRejectedValid;
    r.detail = r.kind == Kind::kRejectedAdmissibly
                   ? std::string(oracle.findings[0].rule->id) + " [backend: " + refusal + "]"
                   : refusal;
    return r;
  }
  // Outputs the adapter had to carry in a wider type: narrowed back exactly, or wrong.
  const Narrowed narrowed = NarrowWidened(observed);
  if (!observed.widened.empty()) {
    std::vector<std::string> names;
    for (const OutputEvaluation& o : oracle.outputs) names.push_back(o.name);
    r.widened = DescribeWidening(observed.widened, names);
  }
  if (narrowed.unrepresentable > 0) {
    r.kind = Kind::kWrongOutputs;
    r.detail = std::to_string(narrowed.unrepresentable) +
               " element(s) not values of the output type (carried widened: " + r.widened +
               "); first: " + narrowed.problems.front();
    r.mismatches = narrowed.problems;
    return r;
  }
  Comparison j = CompareOutputs(c, oracle.outputs, narrowed.outputs, options);
  // Whole results the specification also admits (docs/semantics.md#d13): the first that fits.
  for (const OracleOutcome& other : oracle.other_outcomes) {
    if (j.kind == Kind::kConformant) break;
    // Judged on the outputs as narrowed back, as the primary result is (a widened float8
    // output compared as float would never match).
    Comparison alt = CompareOutputs(c, other.outputs, narrowed.outputs, options);
    if (alt.kind == Kind::kConformant) {
      j = std::move(alt);
      j.detail = "matches the admissible outcome '" + other.name + "'";
    }
  }
  // d41: every element admissible, the tensor as a whole still has to look like rounding.
  for (size_t k = 0; j.kind == Kind::kConformant && k < oracle.outputs.size(); ++k) {
    const OutputEvaluation& o = oracle.outputs[k];
    if (!o.dot_product || k >= narrowed.outputs.size()) continue;
    const std::optional<std::string> failure = DotProductFailure(
        *o.dot_product, *FindElementType(o.data_type), narrowed.outputs[k].codes, nullptr);
    if (failure) j.kind = Kind::kAggregateError, j.detail = o.name + ": " + *failure;
  }
  r.kind = j.kind;
  r.detail =
      j.kind == Kind::kConformant && j.detail.empty() ? DescribeAdmissible(j.outputs) : j.detail;
  for (const OutputComparison& o : j.outputs) {
    if (r.nearest.empty() && !o.mismatches.empty()) r.nearest = o.mismatches.front().nearest;
    if (r.deviation.empty()) r.deviation = DeviationOf(o);
    for (const Mismatch& m : o.mismatches) r.mismatches.push_back(m.message);
    if (o.mismatched > static_cast<int64_t>(o.mismatches.size())) {
      r.mismatches.push_back(
          "... " + std::to_string(o.mismatched - static_cast<int64_t>(o.mismatches.size())) +
          " more mismatches in " + o.name);
    }
  }
  r.strategies = Fingerprint(j.outputs);
  r.outputs = std::move(j.outputs);
  return r;
}

// A wrong result says what the backend ran where it said: a rewritten graph's kernels are the
// first thing to look at when the graph's own nodes would have been right.
CaseResult WithRan(CaseResult r, const BackendResult& observed) {
  r.ran = observed.ran;
  if (!r.ran.empty() && r.outcome() == Outcome::kFail) r.detail += " [ran as " + r.ran + "]";
  return r;
}

}  // namespace

CaseResult JudgeCase(const Case& c, const OracleResult& oracle, const BackendResult& observed,
                     const CompareOptions& options) {
  CaseResult r = WithRan(Judged(c, oracle, observed, options), observed);
  // Kept for the reproducer; a refused valid case (thousands on a first run) has none.
  if (r.outcome() == Outcome::kFail && r.kind != Kind::kRejectedValid) {
    r.oracle = std::make_shared<const OracleResult>(oracle);
  }
  return r;
}

CaseResult JudgeCase(const Case& c, const BackendResult& observed, const CompareOptions& options) {
  try {
    const OracleResult oracle = RunOracle(c);
    return JudgeCase(c, oracle, observed, options);
  } catch (const std::exception& e) {
    CaseResult r;
    r.id = c.id;
    r.observed = observed;
    r.features = FeaturesOf(c, nullptr);
    r.kind = Kind::kCaseError;
    r.detail = e.what();
    return r;
  }
}

}  // namespace qconform
