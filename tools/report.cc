#include "tools/report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "generators/case_io.h"
#include "oracle/oracle.h"
#include "tools/oracle_case.h"

namespace qconform::tools {
namespace fs = std::filesystem;
namespace {

const std::vector<std::string> kGranularities = {"per-tensor", "per-axis", "blocked",
                                                 "must-reject"};

std::string Json(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out + "\"";
}

std::string Xml(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        out += ch < 0x20 && ch != '\n' && ch != '\t' ? ' ' : static_cast<char>(ch);
    }
  }
  return out;
}

std::string Join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string Truncate(const std::string& s, size_t n) {
  return s.size() <= n ? s : s.substr(0, n - 3) + "...";
}

// A cell of the matrix: counts of one (operator, version, x type, granularity).
struct Cell {
  int pass = 0, fail = 0, skip = 0;
  int total() const { return pass + fail + skip; }
  std::string colour() const { return fail ? "red" : skip ? "amber" : "green"; }
  std::string text() const {
    std::string t = std::to_string(pass) + "/" + std::to_string(total());
    if (fail) t += " " + std::to_string(fail) + " failing";
    if (skip) t += " " + std::to_string(skip) + " unsupported";
    return t;
  }
};

struct RowKey {
  std::string op;
  int64_t version;
  std::string x_type;
  auto operator<=>(const RowKey&) const = default;
};

std::map<RowKey, std::map<std::string, Cell>> Matrix(const RunSummary& s) {
  std::map<RowKey, std::map<std::string, Cell>> m;
  for (const CaseResult& r : s.results) {
    Cell& c = m[{r.features.op, r.features.version, r.features.x_type}][r.features.granularity];
    (r.outcome == Outcome::kPass ? c.pass : r.outcome == Outcome::kSkip ? c.skip : c.fail) += 1;
  }
  return m;
}

// Per operator version: how many cases each set of strategies explains.
std::map<std::string, std::map<std::string, int>> Fingerprints(const RunSummary& s) {
  std::map<std::string, std::map<std::string, int>> f;
  for (const CaseResult& r : s.results) {
    if (r.kind != "conformant") continue;
    f[r.features.op + "-" + std::to_string(r.features.version)][Join(r.strategies, "+")] += 1;
  }
  return f;
}

std::map<std::string, int> CountBy(const RunSummary& s, bool by_gate) {
  std::map<std::string, int> n;
  for (size_t i = 0; i < s.results.size(); ++i) {
    n[by_gate ? std::string(GateName(s.gates[i])) : s.results[i].kind] += 1;
  }
  return n;
}

bool IsFailure(const CaseResult& r) {
  return r.outcome == Outcome::kFail;
}

void WriteRepro(const fs::path& dir, const Case& c, const CaseResult& r) {
  const std::vector<std::string> names = OperatorIoNames(c.op_type).outputs;
  try {
    WriteOracleCase(dir.string(), c);
  } catch (const OracleError&) {
    // The oracle cannot judge it (an unknown operator): the case alone, outputs undeclared.
    std::vector<OutputSpec> specs;
    for (const std::string& n : names) specs.push_back({n, 0, {}});
    WriteCaseDirectory(dir.string(), c, specs, {});
  }
  for (size_t k = 0; k < r.observed.outputs.size() && k < names.size(); ++k) {
    fs::create_directories(dir / "observed");
    WriteTensorFile((dir / "observed" / ("output_" + std::to_string(k) + ".pb")).string(),
                    r.observed.outputs[k], names[k]);
  }
  std::ofstream readme(dir / "README.txt");
  readme << "qconform reproducer for " << r.id << "\n\n"
         << "verdict:  " << r.kind << "\n"
         << "expected: " << r.expected << "\n"
         << "detail:   " << r.detail << "\n";
  for (const std::string& m : r.mismatches) readme << "          " << m << "\n";
  readme
      << "\nmodel.onnx and test_data_set_0/input_K.pb are the case; test_data_set_0/output_K.pb\n"
         "(when present) is the oracle's exact result; observed/ is what the backend returned.\n"
         "Admissible alternatives, element by element:  qconform explain "
      << dir.filename().string()
      << "\nThe case is written as the backend received it (an adapter may have moved inputs\n"
         "its binding cannot carry into the model as initializers). With ONNX Runtime alone:\n"
         "  NODE_PATH=build/npm/node_modules node adapters/onnxruntime/runner.js --once "
      << dir.filename().string() << " OUT_DIR\n";
}

}  // namespace

std::string SummaryLines(const RunSummary& s) {
  std::ostringstream out;
  int pass = 0, fail = 0, skip = 0;
  for (const CaseResult& r : s.results) {
    (r.outcome == Outcome::kPass ? pass : r.outcome == Outcome::kSkip ? skip : fail) += 1;
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
  for (const auto& [kind, n] : CountBy(s, false)) out << "  " << kind << ": " << n << "\n";
  out << "baseline " << (s.baseline_path.empty() ? "(none)" : s.baseline_path) << ": ";
  const std::map<std::string, int> gates = CountBy(s, true);
  std::vector<std::string> parts;
  for (const auto& [g, n] : gates) parts.push_back(std::to_string(n) + " " + g);
  if (!s.stale_entries.empty()) parts.push_back(std::to_string(s.stale_entries.size()) + " stale");
  out << Join(parts, ", ") << " -> " << (s.gate_ok() ? "MATCHES" : "DIFFERS") << "\n";
  return out.str();
}

std::string JsonRecord(const CaseResult& r, Gate g) {
  std::ostringstream o;
  std::vector<std::string> strategies;
  for (const std::string& st : r.strategies) strategies.push_back(Json(st));
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.6f", r.seconds);
  o << "{\"id\": " << Json(r.id) << ", \"operator\": " << Json(r.features.op)
    << ", \"version\": " << r.features.version << ", \"x_type\": " << Json(r.features.x_type)
    << ", \"granularity\": " << Json(r.features.granularity)
    << ", \"expected\": " << Json(r.expected)
    << ", \"outcome\": " << Json(std::string(OutcomeName(r.outcome)))
    << ", \"kind\": " << Json(r.kind) << ", \"gate\": " << Json(std::string(GateName(g)))
    << ", \"strategies\": [" << Join(strategies, ", ") << "], \"seconds\": " << seconds
    << ", \"detail\": " << Json(r.detail) << "}";
  return o.str();
}

void WriteReport(const std::string& dir_name, const RunSummary& s,
                 const std::vector<CatalogueCase>& cases) {
  const fs::path dir(dir_name);
  fs::create_directories(dir);
  fs::remove_all(dir / "repro");
  const auto matrix = Matrix(s);
  const auto fingerprints = Fingerprints(s);

  // Reproducers first: the report links to them.
  for (size_t i = 0; i < s.results.size(); ++i) {
    const CaseResult& r = s.results[i];
    if (IsFailure(r)) WriteRepro(dir / "repro" / r.id, r.as_run ? *r.as_run : cases[i].c, r);
  }

  // ---- results.json
  {
    std::ofstream j(dir / "results.json");
    j << "{\n  \"backend\": {\"name\": " << Json(s.backend.name)
      << ", \"version\": " << Json(s.backend.version)
      << ", \"capabilities\": " << Json(s.backend.capabilities) << "},\n"
      << "  \"baseline\": " << Json(s.baseline_path) << ",\n"
      << "  \"matches_baseline\": " << (s.gate_ok() ? "true" : "false") << ",\n"
      << "  \"seconds\": " << s.seconds << ",\n  \"cases\": [\n";
    for (size_t i = 0; i < s.results.size(); ++i) {
      j << "    " << JsonRecord(s.results[i], s.gates[i])
        << (i + 1 < s.results.size() ? ",\n" : "\n");
    }
    j << "  ],\n  \"stale_baseline_entries\": [";
    for (size_t i = 0; i < s.stale_entries.size(); ++i) {
      j << (i ? ", " : "") << Json(s.stale_entries[i]);
    }
    j << "]\n}\n";
  }

  // ---- junit.xml: a testsuite per operator version; the gate decides failure.
  {
    std::map<std::string, std::vector<size_t>> suites;
    for (size_t i = 0; i < s.results.size(); ++i) {
      const CaseFeatures& f = s.results[i].features;
      suites[f.op + "-" + std::to_string(f.version)].push_back(i);
    }
    std::ofstream x(dir / "junit.xml");
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"qconform "
      << Xml(s.backend.name) << "\">\n";
    for (const auto& [suite, indices] : suites) {
      int failures = 0, skipped = 0;
      for (size_t i : indices) {
        failures += !GateOk(s.gates[i]);
        skipped += s.gates[i] == Gate::kSkip || s.gates[i] == Gate::kExpectedFailure;
      }
      x << "  <testsuite name=\"" << Xml(s.backend.name + "." + suite) << "\" tests=\""
        << indices.size() << "\" failures=\"" << failures << "\" skipped=\"" << skipped << "\">\n";
      for (size_t i : indices) {
        const CaseResult& r = s.results[i];
        x << "    <testcase classname=\"" << Xml(s.backend.name + "." + suite) << "\" name=\""
          << Xml(r.id) << "\" time=\"" << r.seconds << "\">";
        const Gate g = s.gates[i];
        if (!GateOk(g)) {
          x << "<failure type=\"" << GateName(g) << "\" message=\"" << Xml(r.kind + ": " + r.detail)
            << "\">" << Xml(Join(r.mismatches, "\n")) << "</failure>";
        } else if (g != Gate::kPass) {
          x << "<skipped message=\""
            << Xml(std::string(GateName(g)) + " " + r.kind + ": " + r.detail) << "\"/>";
        }
        x << "</testcase>\n";
      }
      x << "  </testsuite>\n";
    }
    x << "</testsuites>\n";
  }

  // ---- report.md and report.html, from the same sections.
  std::ostringstream md, html;
  const std::string title = "qconform report: " + s.backend.name + " " + s.backend.version;
  md << "# " << title << "\n\n"
     << s.backend.capabilities << "\n\n```\n"
     << SummaryLines(s) << "```\n\n";
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << Xml(title)
       << "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:80em}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.3em "
          ".6em;"
          "text-align:left}.green{background:#c8f0c8}.amber{background:#ffe4a8}.red{background:#"
          "f5b5b5}"
          "code,pre{background:#f4f4f4}</style></head><body>\n<h1>"
       << Xml(title) << "</h1>\n<p>" << Xml(s.backend.capabilities) << "</p>\n<pre>"
       << Xml(SummaryLines(s)) << "</pre>\n";

  md << "## Matrix\n\nCases conformant / total per operator version, input type and granularity. "
        "Green: all conformant; amber: some unsupported by the backend; red: some failing.\n\n"
     << "| operator | version | x type | " << Join(kGranularities, " | ") << " |\n|---|---|---|";
  for (size_t k = 0; k < kGranularities.size(); ++k) md << "---|";
  md << "\n";
  html << "<h2>Matrix</h2>\n<table><tr><th>operator</th><th>version</th><th>x type</th>";
  for (const std::string& g : kGranularities) html << "<th>" << g << "</th>";
  html << "</tr>\n";
  for (const auto& [key, cells] : matrix) {
    md << "| " << key.op << " | " << key.version << " | " << key.x_type << " |";
    html << "<tr><td>" << Xml(key.op) << "</td><td>" << key.version << "</td><td>"
         << Xml(key.x_type) << "</td>";
    for (const std::string& g : kGranularities) {
      auto it = cells.find(g);
      if (it == cells.end()) {
        md << " |";
        html << "<td></td>";
        continue;
      }
      const Cell& c = it->second;
      const char* mark = c.colour() == "green" ? "🟢" : c.colour() == "amber" ? "🟠" : "🔴";
      md << " " << mark << " " << c.text() << " |";
      html << "<td class=\"" << c.colour() << "\">" << c.text() << "</td>";
    }
    md << "\n";
    html << "</tr>\n";
  }
  html << "</table>\n";

  md << "\n## Strategy fingerprint\n\nFor conformant computed cases: which admissible strategies "
        "explain every element (exact: the exactly rounded result; f32: computed in float32 then "
        "rounded; out: computed in the output type). A case where all agree lists them all.\n\n"
        "| operator version | strategies | cases |\n|---|---|---|\n";
  html << "<h2>Strategy fingerprint</h2>\n<table><tr><th>operator version</th><th>strategies</th>"
          "<th>cases</th></tr>\n";
  for (const auto& [op, counts] : fingerprints) {
    for (const auto& [strategies, n] : counts) {
      md << "| " << op << " | " << strategies << " | " << n << " |\n";
      html << "<tr><td>" << Xml(op) << "</td><td>" << Xml(strategies) << "</td><td>" << n
           << "</td></tr>\n";
    }
  }
  html << "</table>\n";

  struct Section {
    const char* title;
    const char* blurb;
    std::function<bool(const CaseResult&)> select;
  };
  const std::vector<Section> sections = {
      {"Must-reject cases the backend accepted",
       "The specification forbids these; a conforming backend refuses them.",
       [](const CaseResult& r) { return r.kind == "accepted-invalid"; }},
      {"Crashes, timeouts and protocol errors", "The backend failed to give any answer.",
       [](const CaseResult& r) {
         return r.kind == "crash" || r.kind == "timeout" || r.kind == "protocol-error";
       }},
      {"All failures", "Each with its verdict, its baseline status and a reproducer.",
       [](const CaseResult& r) { return IsFailure(r); }},
      {"Unsupported", "Cases the backend (or its binding) cannot run; not counted as failures.",
       [](const CaseResult& r) { return r.outcome == Outcome::kSkip; }},
  };
  for (const Section& sec : sections) {
    std::vector<size_t> picked;
    for (size_t i = 0; i < s.results.size(); ++i) {
      if (sec.select(s.results[i])) picked.push_back(i);
    }
    md << "\n## " << sec.title << " (" << picked.size() << ")\n\n" << sec.blurb << "\n\n";
    html << "<h2>" << sec.title << " (" << picked.size() << ")</h2>\n<p>" << sec.blurb
         << "</p>\n<ul>\n";
    for (size_t i : picked) {
      const CaseResult& r = s.results[i];
      const std::string line =
          r.kind + " (" + std::string(GateName(s.gates[i])) + "): " + Truncate(r.detail, 300);
      const bool repro = IsFailure(r);
      md << "- `" << r.id << "` " << line << (repro ? " [reproducer](repro/" + r.id + "/)" : "")
         << "\n";
      html << "<li><code>" << Xml(r.id) << "</code> " << Xml(line)
           << (repro ? " <a href=\"repro/" + r.id + "/README.txt\">reproducer</a>" : "")
           << "</li>\n";
    }
    html << "</ul>\n";
  }
  if (!s.stale_entries.empty()) {
    md << "\n## Stale baseline entries\n\n";
    for (const std::string& id : s.stale_entries) md << "- `" << id << "`\n";
  }
  html << "</body></html>\n";
  std::ofstream(dir / "report.md") << md.str();
  std::ofstream(dir / "report.html") << html.str();
}

}  // namespace qconform::tools
