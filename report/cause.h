// Why a case failed or was skipped, as a class the reports group by: one group per distinct
// cause, not one line per case. The same classes order `qconform diff`'s changes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/case_record.h"
#include "report/document.h"

namespace qconform::report {

// What an outcome kind means for the matrix colours and the legend, worst last.
enum class Category {
  kPass,             // conformant, refused as required or admissibly
  kHarnessLimit,     // unsupported: the harness cannot carry it
  kValidRefused,     // rejected-valid: no kernel, or a refusal the specification does not allow
  kInvalidAccepted,  // accepted-invalid: computed a case the specification forbids
  kWrongValues,      // wrong-outputs
  kNoAnswer,         // crash, timeout, protocol error, case error
};
inline constexpr int kCategories = 6;
Category CategoryOf(Kind k);

struct CategoryStyle {
  std::string_view css_class;  // "cat-wrong-values"
  std::string_view colour;     // background, #rrggbb
  std::string_view mark;       // Markdown's mark for it
  std::string_view legend;     // one line for the legend
};
const CategoryStyle& StyleOf(Category c);
// The legend of every category, worst last (the report's and the comparison's matrices).
std::vector<LegendEntry> CategoryLegend();

// "int4 -> float": a case's x type and output type.
std::string Types(const CaseRecord& r);

// The anchor of r's cell in its backend's report (operator version, types and granularity):
// "cell-QuantizeLinear-21-float-int8-per-axis"; "cell-DequantizeLinear-not-in-opset" for the
// must-reject cases of an opset without the operator. The comparison's matrix links to it.
std::string CellAnchor(const CaseRecord& r);

// The cause class of a failing or skipped case ("" for a pass), one per behaviour across the
// operator's versions and x types, e.g.
//   "refused valid DequantizeLinear: oneDNN 2.6 has no per-channel x_zero_point"
//   "wrong values: QuantizeLinear -> int8, y_zero_point added before rounding" (a known deviation)
//   "wrong values: QLinearMatMul -> uint8, nearest strategy q31-double-round"
//   "accepted must-reject: rule dq.shape.zero_point"
std::string CauseOf(const CaseRecord& r);

}  // namespace qconform::report
