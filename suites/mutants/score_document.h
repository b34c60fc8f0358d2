// docs/mutation-score.md as the mutation gate writes it: the score, the table of defects with
// the golden cases that kill each, and the defects left out because the oracle admits them.
#pragma once

#include <string>
#include <vector>

#include "suites/mutants/defect_cells.h"
#include "suites/mutants/defects.h"

namespace qconform::mutants {

struct ScoreRow {
  const DefectRow* row;
  std::vector<std::string> killed_by;  // golden case ids
  std::vector<CellStrength> cells;     // its declared cells (d39), empty when it declares none
};

std::string ScoreDocument(const std::vector<ScoreRow>& rows, size_t golden_cases, int min_kills);

}  // namespace qconform::mutants
