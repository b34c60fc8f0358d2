#include "report/junit_writer.h"

#include <fstream>
#include <map>

#include "report/text.h"

namespace qconform::report {

void WriteJunit(const std::string& path, const RunSummary& s) {
  // Suites by operator, then version as a number (DequantizeLinear-9 before -10).
  std::map<std::pair<std::string, int64_t>, std::vector<size_t>> suites;
  for (size_t i = 0; i < s.results.size(); ++i) {
    const CaseFeatures& f = s.results[i].features;
    suites[{f.op, f.version}].push_back(i);
  }
  std::ofstream x(path);
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"qconform "
    << Xml(s.backend.name) << "\" time=\"" << s.seconds << "\" timestamp=\"" << s.started
    << "\">\n";
  for (const auto& [key, indices] : suites) {
    const std::string suite = key.first + "-" + std::to_string(key.second);
    int failures = 0, skipped = 0;
    double seconds = 0;
    for (size_t i : indices) {
      failures += !GateOk(s.gates[i]);
      skipped += s.gates[i] == Gate::kSkip || s.gates[i] == Gate::kExpectedFailure;
      seconds += s.results[i].seconds;
    }
    x << "  <testsuite name=\"" << Xml(s.backend.name + "." + suite) << "\" tests=\""
      << indices.size() << "\" failures=\"" << failures << "\" skipped=\"" << skipped
      << "\" time=\"" << seconds << "\" timestamp=\"" << s.started << "\">\n";
    for (size_t i : indices) {
      const CaseResult& r = s.results[i];
      x << "    <testcase classname=\"" << Xml(s.backend.name + "." + suite) << "\" name=\""
        << Xml(r.id) << "\" time=\"" << r.seconds << "\">";
      const Gate g = s.gates[i];
      if (!GateOk(g)) {
        x << "<failure type=\"" << GateName(g) << "\" message=\""
          << Xml(std::string(KindName(r.kind)) + ": " + r.detail) << "\">"
          << Xml(Join(r.mismatches, "\n")) << "</failure>";
      } else if (g != Gate::kPass) {
        x << "<skipped message=\""
          << Xml(std::string(GateName(g)) + " " + std::string(KindName(r.kind)) + ": " + r.detail)
          << "\"/>";
      }
      x << "</testcase>\n";
    }
    x << "  </testsuite>\n";
  }
  // Stale baseline entries fail the gate, so they fail here too: the JUnit verdict and the
  // exit status always agree.
  if (!s.stale_entries.empty()) {
    x << "  <testsuite name=\"" << Xml(s.backend.name + ".baseline") << "\" tests=\""
      << s.stale_entries.size() << "\" failures=\"" << s.stale_entries.size() << "\">\n";
    for (const std::string& id : s.stale_entries) {
      x << "    <testcase classname=\"" << Xml(s.backend.name + ".baseline") << "\" name=\""
        << Xml(id) << "\"><failure type=\"stale\" message=\"listed in the baseline ("
        << Xml(s.baseline_path) << ") but not met by the run\"/></testcase>\n";
    }
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
}

}  // namespace qconform::report
