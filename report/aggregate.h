// What the reports present, computed once from a run: the matrix (operator x version x input
// type x granularity), the strategy fingerprint, counts by kind and by gate, the summary lines.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runner/conformance_run.h"

namespace qconform::tools {

// The matrix's columns.
extern const std::vector<std::string> kGranularities;

// A cell of the matrix: counts of one (operator, version, x type, granularity).
struct Cell {
  int pass = 0, fail = 0, skip = 0;
  int total() const { return pass + fail + skip; }
  std::string colour() const { return fail ? "red" : skip ? "amber" : "green"; }
  std::string text() const;
};

struct RowKey {
  std::string op;
  int64_t version;
  std::string x_type;
  auto operator<=>(const RowKey&) const = default;
};
using MatrixCells = std::map<RowKey, std::map<std::string, Cell>>;
MatrixCells Matrix(const RunSummary& s);

// Per operator version: how many conformant cases each set of strategies explains.
std::map<std::string, std::map<std::string, int>> Fingerprints(const RunSummary& s);

// Counts by kind name, or by gate name.
std::map<std::string, int> CountByKind(const RunSummary& s);
std::map<std::string, int> CountByGate(const RunSummary& s);

// Counts by outcome kind and by gate, for the closing lines.
std::string SummaryLines(const RunSummary& s);

}  // namespace qconform::tools
