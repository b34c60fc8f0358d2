#include "report/aggregate.h"

#include <cstdio>
#include <cstring>
#include <sstream>

#include "report/text.h"

namespace qconform::report {

std::map<std::string, int> CountByKind(const RunSummary& s) {
  std::map<std::string, int> n;
  for (const CaseResult& r : s.results) n[std::string(KindName(r.kind))] += 1;
  return n;
}

std::map<std::string, int> CountByGate(const RunSummary& s) {
  std::map<std::string, int> n;
  for (Gate g : s.gates) n[std::string(GateName(g))] += 1;
  return n;
}

std::string SummaryLines(const RunSummary& s) {
  std::ostringstream out;
  int pass = 0, fail = 0, skip = 0;
  for (const CaseResult& r : s.results) {
    const Outcome o = r.outcome();
    (o == Outcome::kPass ? pass : o == Outcome::kSkip ? skip : fail) += 1;
  }
  out << s.backend.name << " " << s.backend.version << ": " << s.results.size() << " cases, "
      << pass << " conformant, " << fail << " failing, " << skip << " unsupported";
  if (s.seconds > 0) {
    char rate[64];
    std::snprintf(rate, sizeof rate, " (%.1f s, %.0f cases/s)", s.seconds,
                  static_cast<double>(s.results.size()) / s.seconds);
    out << rate;
  }
  out << "\n";
  if (!s.complete()) {
    out << "INCOMPLETE: interrupted by " << (s.interrupted_by ? strsignal(s.interrupted_by) : "?")
        << " after " << s.results.size() << " of " << s.planned
        << " cases; qconform run --resume <this report's directory> runs the rest\n";
  }
  for (const auto& [kind, n] : CountByKind(s)) out << "  " << kind << ": " << n << "\n";
  out << "baseline " << (s.baseline_path.empty() ? "(none)" : s.baseline_path) << ": ";
  std::vector<std::string> parts;
  for (const auto& [g, n] : CountByGate(s)) parts.push_back(std::to_string(n) + " " + g);
  if (!s.stale_entries.empty()) parts.push_back(std::to_string(s.stale_entries.size()) + " stale");
  out << Join(parts, ", ") << " -> " << (s.gate_ok() ? "MATCHES" : "DIFFERS") << "\n";
  return out.str();
}

}  // namespace qconform::report
