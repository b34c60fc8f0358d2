#include "report/json_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/text.h"

namespace qconform::report {

std::string JsonRecord(const CaseResult& r, Gate g) {
  std::ostringstream o;
  std::vector<std::string> strategies;
  for (const std::string& st : r.strategies) strategies.push_back(Json(st));
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.6f", r.seconds);
  o << "{\"id\": " << Json(r.id) << ", \"operator\": " << Json(r.features.op)
    << ", \"version\": " << r.features.version << ", \"x_type\": " << Json(r.features.x_type)
    << ", \"y_type\": " << Json(r.features.y_type)
    << ", \"granularity\": " << Json(r.features.granularity)
    << ", \"expected\": " << Json(r.expected)
    << ", \"outcome\": " << Json(std::string(OutcomeName(r.outcome())))
    << ", \"kind\": " << Json(std::string(KindName(r.kind)))
    << ", \"gate\": " << Json(std::string(GateName(g))) << ", \"strategies\": ["
    << Join(strategies, ", ") << "], \"seconds\": " << seconds << ", \"detail\": " << Json(r.detail)
    << ", \"first_mismatch\": " << Json(r.mismatches.empty() ? "" : r.mismatches.front())
    << ", \"nearest_strategy\": " << Json(r.nearest) << ", \"deviation\": " << Json(r.deviation)
    << ", \"widened\": " << Json(r.widened) << ", \"ran\": " << Json(r.ran)
    << ", \"attribution\": " << Json(r.attribution) << "}";
  return o.str();
}

void WriteResultsJson(const std::string& path, const RunSummary& s) {
  std::ofstream j(path);
  j << "{\n  \"schema_version\": " << kResultsSchemaVersion
    << ",\n  \"started\": " << Json(s.started)
    << ",\n  \"backend\": {\"name\": " << Json(s.backend.name)
    << ", \"version\": " << Json(s.backend.version)
    << ", \"capabilities\": " << Json(s.backend.capabilities) << "},\n"
    << "  \"baseline\": " << Json(std::filesystem::path(s.baseline_path).filename().string())
    << ",\n"
    << "  \"matches_baseline\": " << (s.gate_ok() ? "true" : "false") << ",\n"
    << "  \"complete\": " << (s.complete() ? "true" : "false") << ",\n"
    << "  \"planned_cases\": " << s.planned << ",\n"
    << "  \"seconds\": " << s.seconds << ",\n  \"cases\": [\n";
  for (size_t i = 0; i < s.results.size(); ++i) {
    j << "    " << JsonRecord(s.results[i], s.gates[i])
      << (i + 1 < s.results.size() ? ",\n" : "\n");
  }
  j << "  ],\n  \"stale_baseline_entries\": [";
  for (size_t i = 0; i < s.stale_entries.size(); ++i) {
    j << (i ? ", " : "") << Json(s.stale_entries[i]);
  }
  j << "]\n}\n";
}

}  // namespace qconform::report
