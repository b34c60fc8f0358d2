#include "report/case_record.h"

#include "oracle/registry/schema.h"

namespace qconform::report {

int64_t CaseRecord::schema_version() const {
  // A graph case (its pattern, "QDQ Add": oracle/semantics/graph/graph_oracle.h) is of its opset.
  if (op.rfind("QDQ ", 0) == 0) return version;
  const size_t dot = op.rfind('.');
  const std::string domain = dot == std::string::npos ? "" : op.substr(0, dot);
  const std::string op_type = dot == std::string::npos ? op : op.substr(dot + 1);
  const OpSchema* schema = ResolveSchema(domain, op_type, version);
  return schema ? schema->since_version : 0;
}

std::string CaseRecord::operator_version() const {
  const int64_t v = schema_version();
  return v ? op + "-" + std::to_string(v) : op + " (not in opset " + std::to_string(version) + ")";
}

CaseRecord RecordOf(const CaseResult& r, Gate g) {
  CaseRecord c;
  c.id = r.id;
  c.op = r.features.op;
  c.version = r.features.version;
  c.x_type = r.features.x_type;
  c.y_type = r.features.y_type;
  c.granularity = r.features.granularity;
  c.expected = r.expected;
  c.detail = r.detail;
  c.kind = r.kind;
  c.gate = std::string(GateName(g));
  c.strategies = r.strategies;
  if (!r.mismatches.empty()) c.first_mismatch = r.mismatches.front();
  c.nearest = r.nearest;
  c.deviation = r.deviation;
  c.widened = r.widened;
  c.ran = r.ran;
  c.attribution = r.attribution;
  return c;
}

OutcomeCounts CountOutcomes(const std::vector<CaseRecord>& records) {
  OutcomeCounts n;
  for (const CaseRecord& r : records) {
    (r.outcome() == Outcome::kPass ? n.pass : r.outcome() == Outcome::kSkip ? n.skip : n.fail) += 1;
  }
  return n;
}

CaseRecord RecordFromJson(const JsonValue& v) {
  CaseRecord c;
  c.id = v.at("id").as_string();
  c.op = v.at("operator").as_string();
  c.version = v.at("version").as_integer(0, 1 << 30);
  c.x_type = v.at("x_type").as_string();
  c.y_type = v.has("y_type") ? v.at("y_type").as_string() : "";
  c.granularity = v.at("granularity").as_string();
  c.expected = v.at("expected").as_string();
  c.detail = v.at("detail").as_string();
  const std::optional<Kind> kind = KindFromName(v.at("kind").as_string());
  if (!kind) throw JsonError("case " + c.id + ": unknown kind '" + v.at("kind").as_string() + "'");
  c.kind = *kind;
  c.gate = v.at("gate").as_string();
  for (const JsonValue& s : v.at("strategies").as_array()) c.strategies.push_back(s.as_string());
  if (v.has("first_mismatch")) c.first_mismatch = v.at("first_mismatch").as_string();
  if (v.has("nearest_strategy")) c.nearest = v.at("nearest_strategy").as_string();
  if (v.has("deviation")) c.deviation = v.at("deviation").as_string();
  if (v.has("widened")) c.widened = v.at("widened").as_string();
  if (v.has("ran")) c.ran = v.at("ran").as_string();
  if (v.has("attribution")) c.attribution = v.at("attribution").as_string();
  return c;
}

}  // namespace qconform::report
