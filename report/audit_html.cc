// audit.html: the audit's answer at the top (how many items are wrong, on what, in what time), a
// bar per wrong item (the share of its elements outside the admitted range), then every item.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "report/audit_report.h"
#include "report/text.h"

namespace qconform::report {

void WriteAuditHtml(const std::string& dir, const AuditHeader& h,
                    const std::vector<AuditRow>& ranked) {
  size_t wrong = 0, not_judged = 0;
  for (const AuditRow& r : ranked) wrong += r.failed, not_judged += r.verdict == "not-judged";
  std::ofstream out(std::filesystem::path(dir) / "audit.html");
  out << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>qconform audit</title><style>"
         "body{font:14px system-ui,sans-serif;margin:24px;color:#222}"
         "h1{font-size:22px;margin:0 0 4px}.lead{font-size:17px;margin:8px 0 16px}"
         ".bad{color:#b00020}.ok{color:#1b6e20}table{border-collapse:collapse;width:100%}"
         "td,th{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}"
         "th{background:#f3f3f3}tr.failed td{background:#fff4f4}.bar{background:#eee;width:160px;"
         "height:12px;display:inline-block}.bar span{background:#c62828;height:12px;display:block}"
         ".muted{color:#666;font-size:12px}.n{white-space:nowrap}</style></head><body>";
  out << "<h1>qconform audit: " << Xml(std::filesystem::path(h.model).filename().string())
      << "</h1><div class=\"muted\">" << Xml(h.model) << "</div>";
  char lead[256];
  std::snprintf(lead, sizeof lead, "%zu of %zu quantization nodes and groups wrong", wrong,
                ranked.size());
  out << "<p class=\"lead\"><b class=\"" << (wrong ? "bad" : "ok") << "\">" << lead << "</b> on "
      << Xml(h.backend + " " + h.backend_version) << "; " << not_judged << " not judged. "
      << "<span class=\"muted\">Tensors: " << Xml(h.inputs) << ", run on " << Xml(h.reference);
  std::snprintf(lead, sizeof lead, "; %.1f s (reference run %.1f s, oracle %.1f s).", h.seconds,
                h.reference_seconds, h.oracle_seconds);
  out << lead << "</span></p>";
  out << "<table><tr><th>node</th><th>op</th><th>verdict</th><th>outside the admitted range</th>"
         "<th>worst</th><th>cause</th><th>ran as</th></tr>";
  for (const AuditRow& r : ranked) {
    const double share =
        r.elements > 0 ? 100.0 * static_cast<double>(r.outside) / static_cast<double>(r.elements)
                       : 0;
    char bar[160];
    std::snprintf(bar, sizeof bar,
                  "<span class=\"bar\"><span style=\"width:%.1f%%\"></span></span> %lld of %lld",
                  share, static_cast<long long>(r.outside), static_cast<long long>(r.elements));
    out << "<tr" << (r.failed ? " class=\"failed\"" : "") << "><td>"
        << (r.repro.empty() ? Xml(r.name)
                            : "<a href=\"" + Xml(r.repro) + "\">" + Xml(r.name) + "</a>")
        << "</td><td>" << Xml(r.op) << "</td><td class=\"n\">" << Xml(r.verdict)
        << "</td><td class=\"n\">" << (r.verdict == "not-judged" ? "" : bar) << "</td><td>"
        << r.worst << "</td><td>" << Xml(Truncate(r.cause, 160)) << "</td><td>" << Xml(r.ran)
        << "</td></tr>";
  }
  out << "</table></body></html>\n";
}

}  // namespace qconform::report
