// `qconform audit --merge DIR... --report OUT`: the shards of one audit (--shard K/N, each with
// its own report directory) as one report: their items ranked together, each reproducer linked
// where its shard wrote it. Shards of different models or backends, or overlapping shards, are
// usage errors naming them.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "report/audit_report.h"
#include "tools/args.h"
#include "tools/commands.h"

namespace qconform::tools {
namespace fs = std::filesystem;

int MergeAudits(const Args& args) {
  if (args.positional().empty()) throw UsageError("--merge takes the shards' report directories");
  const std::string out = args.value("--report", "qconform-audit");
  std::vector<report::AuditRow> rows;
  std::set<std::string> ids;
  report::AuditHeader header;
  for (size_t k = 0; k < args.positional().size(); ++k) {
    const std::string& dir = args.positional()[k];
    report::AuditRead shard = report::ReadAuditJson((fs::path(dir) / "audit.json").string());
    if (k == 0) {
      header = shard.header;
      header.seconds = header.reference_seconds = header.oracle_seconds = 0;
    } else if (shard.header.model != header.model || shard.header.backend != header.backend ||
               shard.header.backend_version != header.backend_version) {
      throw UsageError(dir + ": an audit of " + shard.header.model + " on " + shard.header.backend +
                       " " + shard.header.backend_version + ", not of " + header.model + " on " +
                       header.backend + " " + header.backend_version);
    }
    header.seconds = std::max(header.seconds, shard.header.seconds);
    header.reference_seconds = std::max(header.reference_seconds, shard.header.reference_seconds);
    header.oracle_seconds += shard.header.oracle_seconds;
    for (report::AuditRow& r : shard.rows) {
      if (!ids.insert(r.id).second) {
        throw UsageError(dir + ": item " + r.id + " is in an earlier shard too (shards overlap)");
      }
      if (!r.repro.empty()) {
        r.repro = fs::relative(fs::absolute(fs::path(dir) / r.repro), fs::absolute(out)).string();
      }
      rows.push_back(std::move(r));
    }
  }
  std::sort(rows.begin(), rows.end(),
            [](const report::AuditRow& a, const report::AuditRow& b) { return a.id < b.id; });
  const std::vector<report::AuditRow> ranked = report::Ranked(std::move(rows));
  fs::create_directories(out);
  report::WriteAuditReport(out, header, ranked);
  std::printf("%s", report::AuditSummary(header, ranked).c_str());
  std::printf("merged %zu shards: %s/audit.md\n", args.positional().size(), out.c_str());
  return std::any_of(ranked.begin(), ranked.end(), [](const auto& r) { return r.failed; }) ? 1 : 0;
}

}  // namespace qconform::tools
