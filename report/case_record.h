// One case's result as the reports and `qconform diff` see it: the same fields whether it comes
// from a run in memory or from a results.json read back, so that both group and present cases
// the same way (report/cause.h).
#pragma once

#include <string>
#include <vector>

#include "report/json_value.h"
#include "verdict/gate.h"
#include "verdict/judge.h"

namespace qconform::report {

struct CaseRecord {
  std::string id;
  std::string op;       // "DequantizeLinear", "com.microsoft.DequantizeLinear"
  int64_t version = 0;  // the model's opset
  std::string x_type, y_type, granularity, expected, detail;
  Kind kind = Kind::kCaseError;
  std::string gate;                     // GateName
  std::vector<std::string> strategies;  // of a conformant computed case
  std::string first_mismatch;           // a wrong-outputs case's first wrong element
  std::string nearest;                  // the strategy nearest the backend's value there
  std::string deviation;                // the known deviation behind it ("" when none is named)
  std::string widened;                  // outputs carried widened ("y: int4 carried as int8")
  std::string ran;                      // what the backend ran, where it says
  std::string attribution;              // a rewriting backend's failure: the rewrite's or not

  Outcome outcome() const { return OutcomeOf(kind); }
  // The operator version that judged it (the newest since_version <= the opset), 0 when the
  // operator did not exist at that opset (a not-in-opset negative case).
  int64_t schema_version() const;
  // "DequantizeLinear-21"; "DequantizeLinear (not in opset 9)".
  std::string operator_version() const;
};

CaseRecord RecordOf(const CaseResult& r, Gate g);

struct OutcomeCounts {
  size_t pass = 0, fail = 0, skip = 0;
};
OutcomeCounts CountOutcomes(const std::vector<CaseRecord>& records);
// A record of results.json's "cases"; JsonError when a field is missing or mistyped.
CaseRecord RecordFromJson(const JsonValue& v);

}  // namespace qconform::report
