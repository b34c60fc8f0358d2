// The report of `qconform audit`: one row per quantization node or QDQ group of the model, the
// wrong ones first, worst first (most elements outside the admitted range, then the largest
// deviation in codes), each with its named cause and its reproducer.
//   audit.md, audit.html   for people: one document (report/document.h) rendered twice, the
//                          answer at the top, then the table coloured by outcome
//   audit.json   for machines (its JSON Schema: report/audit.schema.json)
// The run's own report (report.md, results.json, junit.xml, repro/) is written beside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "verdict/judge.h"

namespace qconform::report {

struct AuditRow {
  std::string id, name, op, graph;
  std::string verdict;  // a Kind's name, or "not-judged"
  bool failed = false;
  int64_t elements = 0, outside = 0;  // elements outside the admitted range
  int64_t worst = 0;                  // the largest deviation, in codes (ulps for float outputs)
  std::string cause;                  // the named deviation, the nearest strategy, or the words
  std::string ran;                    // what the backend ran the case as, where it says
  std::string repro;                  // the reproducer's directory, relative to the report
};

// A judged item's row (`repro` "" when none was written).
AuditRow AuditRowOf(const CaseResult& r, const std::string& name, const std::string& op,
                    const std::string& graph, const std::string& repro);
// An item that could not be judged, and why.
AuditRow NotJudgedRow(const std::string& id, const std::string& name, const std::string& op,
                      const std::string& graph, const std::string& why);

struct AuditHeader {
  std::string model, backend, backend_version, reference, inputs;
  size_t nodes = 0;  // the model's nodes, subgraphs included
  double seconds = 0, reference_seconds = 0, oracle_seconds = 0;
};

// The rows, wrong first and worst first, then the rest in model order.
std::vector<AuditRow> Ranked(std::vector<AuditRow> rows);
// The lines printed at the end of an audit: counts, then the wrong items.
std::string AuditSummary(const AuditHeader& h, const std::vector<AuditRow>& ranked);
// Writes audit.md, audit.html and audit.json into `dir`.
void WriteAuditReport(const std::string& dir, const AuditHeader& h,
                      const std::vector<AuditRow>& ranked);

// An audit.json read back (audit_read.cc); JsonError naming the file and the field.
struct AuditRead {
  AuditHeader header;
  std::vector<AuditRow> rows;
};
AuditRead ReadAuditJson(const std::string& path);

}  // namespace qconform::report
