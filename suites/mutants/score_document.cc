#include "suites/mutants/score_document.h"

#include <sstream>

namespace qconform::mutants {
namespace {

// The first few killers, and how many more: enough to find them, short enough to read.
std::string Killers(const std::vector<std::string>& ids) {
  constexpr size_t kShown = 4;
  std::string out;
  for (size_t i = 0; i < ids.size() && i < kShown; ++i)
    out += (i ? ", " : "") + std::string("`") + ids[i] + "`";
  if (ids.size() > kShown) out += ", and " + std::to_string(ids.size() - kShown) + " more";
  return out;
}

// A table cell's text: a '|' would end the cell.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string ScoreDocument(const std::vector<ScoreRow>& rows, size_t golden_cases, int min_kills) {
  size_t killed = 0;
  for (const ScoreRow& r : rows)
    killed += static_cast<int>(r.killed_by.size()) >= min_kills ? 1 : 0;
  std::ostringstream o;
  o << "# Mutation score\n\n"
    << "Written by `build/suites/mutation_gate --golden golden --write docs/mutation-score.md`\n"
    << "(`ctest -L mutation` runs the same gate and fails when this file is not what it gives).\n\n"
    << "A conformance suite is as good as the defects it catches. `suites/mutants/` holds a\n"
    << "backend of its own (a plain, exact DequantizeLinear, QuantizeLinear and\n"
    << "DynamicQuantizeLinear, sharing no code with the oracle) with a catalogue of plausible\n"
    << "kernel defects, one switched on at a time (`QCONFORM_MUTANT=<defect>`). Without a defect "
       "it\n"
    << "passes every golden case; with each defect, the golden catalogue alone (no generated\n"
    << "cases) must fail at least " << min_kills << " cases.\n\n"
    << "**Score: " << killed << " of " << rows.size() << " defects killed, each by at least "
    << min_kills << " of the " << golden_cases << " golden ONNX cases.** (The TensorRT profile's\n"
    << "cases are left out: a plugin does not see the model metadata that selects the profile.)\n\n"
    << "Try one: `QCONFORM_MUTANT=ql-reciprocal build/tools/qconform run --backend\n"
    << "plugin:build/suites/libqconform_mutants.so --count 0`.\n\n"
    << "| defect | operator | what it does | shipped by | golden cases that kill it |\n"
    << "|---|---|---|---|---|\n";
  for (const ScoreRow& r : rows) {
    o << "| `" << r.row->name << "` | " << r.row->op << " | " << Cell(r.row->description) << " | "
      << Cell(r.row->shipped_by) << " | " << r.killed_by.size() << ": " << Killers(r.killed_by)
      << " |\n";
  }
  o << "\n## Strength per cell\n\n"
    << "A defect that declares the cells it can change (operator version, x type, output type,\n"
    << "granularity; `suites/mutants/defect_cells.cc`) must be killed in each of them that holds\n"
    << "golden cases, not only somewhere (docs/semantics.md#d39); the gate fails otherwise. A\n"
    << "declaration asks one case per cell, or three (`needed`) for the families found resting\n"
    << "on a single case.\n\n"
    << "| defect | cell | golden cases in the cell | killed by | needed |\n|---|---|---|---|---|\n";
  for (const ScoreRow& r : rows) {
    for (const CellStrength& c : r.cells) {
      o << "| `" << r.row->name << "` | " << Cell(c.cell) << " | " << c.cases << " | " << c.kills
        << " | " << c.required << " |\n";
    }
  }
  o << "\n## Left out: what the oracle admits\n\n"
    << "A plausible bug that computes an admissible result is not a defect.\n\n"
    << "| behaviour | what it does | why it is admissible |\n|---|---|---|\n";
  for (const DroppedDefect& d : DroppedDefects()) {
    o << "| `" << d.name << "` | " << Cell(d.description) << " | " << Cell(d.why) << " |\n";
  }
  return o.str();
}

}  // namespace qconform::mutants
