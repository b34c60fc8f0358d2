// Reading an audit back: audit.json's header and rows, for `qconform audit --merge` (the shards
// of one audit made one). Bad input raises JsonError naming the file and the field.
#include <fstream>
#include <sstream>

#include "report/audit_report.h"
#include "report/json_value.h"

namespace qconform::report {

AuditRead ReadAuditJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw JsonError(path + ": cannot be read (not an audit's report directory?)");
  std::stringstream text;
  text << in.rdbuf();
  try {
    const JsonValue doc = ParseJson(text.str());
    if (doc.at("schema_version").as_integer(1, 1) != 1) throw JsonError("schema_version");
    AuditRead out;
    out.header.model = doc.at("model").as_string();
    out.header.backend = doc.at("backend").as_string();
    out.header.backend_version = doc.at("backend_version").as_string();
    out.header.reference = doc.at("reference").as_string();
    out.header.inputs = doc.at("inputs").as_string();
    out.header.seconds = doc.at("seconds").as_number();
    out.header.reference_seconds = doc.at("reference_seconds").as_number();
    out.header.oracle_seconds = doc.at("oracle_seconds").as_number();
    constexpr int64_t kMost = int64_t{1} << 53;
    for (const JsonValue& v : doc.at("items").as_array()) {
      AuditRow r;
      r.id = v.at("id").as_string(), r.name = v.at("name").as_string();
      r.op = v.at("op").as_string(), r.graph = v.at("graph").as_string();
      r.verdict = v.at("verdict").as_string();
      const JsonValue& failed = v.at("failed");
      if (failed.type != JsonValue::Type::kBool) throw JsonError("items: 'failed' is not a bool");
      r.failed = failed.boolean;
      r.elements = v.at("elements").as_integer(0, kMost);
      r.outside = v.at("outside").as_integer(0, kMost);
      r.worst = v.at("worst").as_integer(0, kMost);
      r.cause = v.at("cause").as_string(), r.ran = v.at("ran").as_string();
      r.repro = v.at("repro").as_string();
      out.rows.push_back(std::move(r));
    }
    return out;
  } catch (const JsonError& e) {
    throw JsonError(path + ": " + e.what());
  }
}

}  // namespace qconform::report
