// Strength per cell (docs/semantics.md#d39): a defect that can change results in a cell
// (operator, version, operand types, output type, granularity or layout) must be killed by
// golden cases in that cell, not only somewhere. A defect declares its cells as data (a scope
// over the oracle's CaseCell, kDeclaredCells in defect_cells.cc); the mutation gate fails when a
// declared cell holding golden cases has fewer that kill it than its declaration asks (1 or 3), and
// writes the defect-by-cell table.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/semantics/oracle.h"
#include "suites/mutants/defects.h"

namespace qconform::mutants {

// A golden case's cell: "QuantizeLinear-10 float -> int8, per-tensor"; a must-reject case's,
// the rule it breaks first: "DequantizeLinear-13 rejects dq.axis.range".
std::string CellName(const OracleResult& oracle);

// The cells `defect` declares it can change, as scopes such as "op:QuantizeLinear
// x:float,float16 y:int8,uint8" (every key must match; a key lists the values it admits; a cell
// is declared when any scope holds it); none when the defect declares none (it is then judged
// by its total kills alone). Keys: op (a graph case's pattern, "QDQ_Add"), version (none for a
// graph), x (the operands: "uint8_x_int8" for two), a and
// b (the first and second operand's type), y, granularity ("a_per-row+b_per-column": a space is
// written '_', ", " is '+'), scale (the scale's type, for the cases of a cell that have it:
// the cell's name does not change), rule (the first rule a must-reject case breaks: a scope
// with it holds only must-reject cases, one without it none); "@integer", "@float8" and "@float"
// stand for their types.
std::vector<std::string_view> DeclaredCells(Defect defect);
bool InScope(std::string_view scope, const OracleResult& oracle);
// How many golden cases of the oracle's cell must kill `defect`: the most any declaration
// holding the cell asks (1 or 3), 0 where none declares it.
int RequiredKills(Defect defect, const OracleResult& oracle);

struct CellStrength {
  std::string cell;
  size_t cases = 0;     // golden cases computed in the cell
  size_t kills = 0;     // of them, those the defect fails
  size_t required = 1;  // how many must (RequiredKills)
};
// Per declared cell holding computed golden cases (ids[i]'s oracle is oracles[i]): how many the
// defect kills. Empty for a defect without a declaration.
std::vector<CellStrength> StrengthPerCell(Defect defect, const std::vector<std::string>& ids,
                                          const std::vector<OracleResult>& oracles,
                                          const std::set<std::string>& killed);

}  // namespace qconform::mutants
