// `qconform run --backend B`: the main job. The golden catalogue (and generated cases) against a
// backend, judged by the oracle, gated by the backend's baseline, written up as a report.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "adapters/interruption.h"
#include "generators/batch.h"
#include "generators/profile_cases.h"
#include "generators/valid_cases.h"
#include "onnx_io/tensor_proto.h"
#include "report/case_record.h"
#include "report/cause.h"
#include "report/journal.h"
#include "report/json_value.h"
#include "report/report.h"
#include "report/text.h"
#include "runner/conformance_run.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/line_journal.h"
#include "tools/progress.h"
#include "tools/run_options.h"

namespace qconform::tools {
namespace fs = std::filesystem;

std::vector<std::string> AdmittedStrategies(const Args& args) {
  std::set<std::string> named;
  for (const OpSchema& s : AllSchemas()) {
    for (Strategy k : s.named_strategies) named.insert(std::string(StrategyName(k)));
  }
  const std::vector<std::string> admit = args.values("--admit");
  for (const std::string& name : admit) {
    if (named.count(name) != 0) continue;
    std::string list;
    for (const std::string& n : named) list += (list.empty() ? "" : ", ") + n;
    throw UsageError("--admit " + name + ": not a named strategy (they are: " + list + ")");
  }
  return admit;
}

RunOptions ParseRunOptions(const Args& args) {
  RunOptions options;
  options.compare.admit = AdmittedStrategies(args);
  options.backend = args.value("--backend");
  if (options.backend.empty()) throw UsageError("--backend is required (see --help)");
  if (const std::string r = args.value("--repro", "failures"); r != "failures" && r != "all")
    throw UsageError("--repro takes all or failures, not " + r);
  options.compare.strict = args.flag("--strict");
  options.compare.strict_zero = args.flag("--strict-zero");
  options.jobs = static_cast<int>(args.integer("-j", args.integer("--jobs", 1)));
  if (options.jobs < 1 || options.jobs > 256) throw UsageError("-j must be between 1 and 256");
  const int64_t timeout = args.integer("--timeout", 10);
  if (timeout < 1) throw UsageError("--timeout must be at least 1 second");
  options.backend_options.timeout_seconds = static_cast<double>(timeout);
  return options;
}

// --shard K/N (every case when absent).
Shard ShardOption(const Args& args) {
  if (!args.has("--shard")) return {};
  const std::optional<Shard> shard = ParseShard(args.value("--shard"));
  if (!shard) throw UsageError("--shard takes K/N with 1 <= K <= N, not " + args.value("--shard"));
  return *shard;
}

std::vector<CatalogueCase> SelectCases(const Args& args) {
  const std::string golden = args.value("--golden", GoldenDir());
  const Shard shard = ShardOption(args);
  if (!fs::is_directory(golden)) throw UsageError("no golden catalogue at " + golden);
  const std::vector<std::string> filter = args.values("--filter");
  const std::vector<const Operator*> operators = SelectedOperators(args);
  // Plus a seeded batch of generated cases: the same seed, the same cases, the same baseline.
  // A catalogue of the user's own gets generated cases only when --count asks for them.
  const bool own_catalogue = args.has("--golden");
  BatchOptions batch = ParseBatchOptions(args, own_catalogue ? 0 : kDefaultGeneratedCount);
  if (!args.has("--seed")) batch.seed = kDefaultGeneratedSeed;
  // --op selects among the generated cases as it does among the golden ones: the batch is the
  // default one (every kind's share, in the registry's order) whatever --op says and in which
  // order, so a cell's generated cases are the same whatever else is selected, and a baseline
  // of the whole run holds them. Only --version asks for a batch of its own.
  if (!args.has("--version")) batch.schemas.clear();
  std::vector<CatalogueCase> cases;
  for (CatalogueCase& c : LoadCatalogue(golden, filter, batch.profile)) {
    if (OperatorSelected(operators, c.c) && shard.Contains(c.c.id)) cases.push_back(std::move(c));
  }
  if (batch.count > 0) {
    for (GeneratedCase& g : GeneratedBatches(batch)) {
      if (MatchesFilter(g.c.id, filter) && OperatorSelected(operators, g.c) &&
          shard.Contains(g.c.id)) {
        cases.push_back({std::move(g.c), ""});
      }
    }
  }
  if (cases.empty())
    throw UsageError("no case matches the selection (--filter, --op, --shard) under " + golden);
  return cases;
}

void RequireExpectationsFile(const std::string& path) {
  if (!fs::exists(path)) throw UsageError("--expectations " + path + ": no such file");
  if (fs::is_directory(path)) throw UsageError("--expectations " + path + ": a directory");
}

Expectations LoadBaseline(const Args& args, const BackendInfo& info) {
  if (args.has("--expectations")) {
    const std::string path = args.value("--expectations");
    RequireExpectationsFile(path);
    return LoadExpectations(path);
  }
  return LoadBaselineFor(info);  // with this host's overlay (runner/host_class.h)
}

void PrintGateLine(Gate g, const CaseResult& r) {
  std::printf("%-16s %s  %s: %s\n", std::string(GateName(g)).c_str(), r.id.c_str(),
              std::string(KindName(r.kind)).c_str(), r.detail.substr(0, 240).c_str());
}

std::function<bool(const std::string&)> BaselineScope(const Args& args) {
  // The baseline describes the default selection: the golden catalogue and the default
  // generated batch. Another catalogue or batch cannot tell which entries it should have met.
  for (const char* option :
       {"--golden", "--seed", "--count", "--op", "--version", "--profile", "--invalid-percent"}) {
    if (args.has(option)) return [](const std::string&) { return false; };
  }
  // A shard meets only its own entries: the others are no stale ones.
  return [filter = args.values("--filter"), shard = ShardOption(args)](const std::string& id) {
    return MatchesFilter(id, filter) && shard.Contains(id);
  };
}

RunSummary RunWithProgress(const std::vector<CatalogueCase>& cases, const RunOptions& options,
                           OpenedBackend opened, const Expectations& baseline,
                           const std::function<bool(const std::string&)>& in_scope,
                           std::ostream* stream,
                           const std::function<void(const CaseResult&)>& also) {
  Progress progress(cases.size(), opened.info.name);
  std::optional<LineJournal> lines;
  if (stream) lines.emplace(*stream);
  size_t failing = 0;
  return ExecuteRun(cases, options, std::move(opened), baseline, in_scope,
                    [&](const CaseResult& r, Gate g, size_t done) {
                      failing += r.outcome() == Outcome::kFail;
                      if (lines) lines->Write(JsonRecord(r, g));
                      if (also) also(r);
                      progress.Update(done, failing);
                    });
}

// What a run directory keeps so that it can be resumed: the run's own arguments and the backend
// it ran against.
void WriteRunJson(const fs::path& report, const std::vector<std::string>& argv,
                  const BackendInfo& info) {
  std::vector<std::string> args;
  for (const std::string& a : argv) args.push_back(Json(a));
  // The working directory the run's relative paths (--expectations, --golden) are relative to.
  std::error_code error;
  const std::string cwd = fs::current_path(error).string();
  std::ofstream(report / "run.json")
      << "{\"qconform_run\": 1, \"args\": [" << Join(args, ", ") << "], \"cwd\": " << Json(cwd)
      << ", \"backend\": {\"name\": " << Json(info.name) << ", \"version\": " << Json(info.version)
      << ", \"kernels_alone\": " << Json(info.kernels_alone) << "}}\n";
}

Resumed ReadRunJson(const fs::path& report) {
  const fs::path file = report / "run.json";
  std::ifstream in(file);
  if (!in) {
    throw UsageError(report.string() + ": not a run directory of qconform run (no run.json)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const JsonValue v = ParseJson(text.str());
    Resumed r;
    for (const JsonValue& a : v.at("args").as_array()) r.argv.push_back(a.as_string());
    r.backend_name = v.at("backend").at("name").as_string();
    r.backend_version = v.at("backend").at("version").as_string();
    if (v.at("backend").has("kernels_alone")) {
      r.kernels_alone = v.at("backend").at("kernels_alone").as_string();
    }
    if (v.has("cwd")) r.cwd = v.at("cwd").as_string();
    return r;
  } catch (const JsonError& e) {
    throw qconform::CaseIoError(file.string() + ": " + e.what());
  }
}

std::string ProgramAsTyped() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error) return "qconform";
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (!dir.empty() && fs::equivalent(fs::path(dir) / "qconform", exe, error)) return "qconform";
    }
  }
  const fs::path relative = exe.lexically_relative(fs::current_path());
  if (relative.empty() || *relative.begin() == "..") return exe.string();
  return relative.has_parent_path() ? relative.string() : "./" + relative.string();
}

const std::set<std::string> kRunFlags = {"--strict", "--strict-zero"};
const std::set<std::string> kRunOptions = {
    "--backend",         "--filter",       "--profile", "--report", "-j",      "--jobs",
    "--timeout",         "--expectations", "--golden",  "--seed",   "--count", "--version",
    "--invalid-percent", "--op",           "--shard",   "--admit",  "--repro"};

// The news first: what differs from the baseline, what the backend computes wrong before what it
// refuses. Beyond kLinesPerCase of either (a first run without a baseline), one line per cause
// with its count: the report lists every case.
namespace {
constexpr size_t kLinesPerCase = 40;

// Up to kLinesPerCase cases one line each; beyond, one line per cause (operator version, types
// and what went wrong) with its count, the biggest first: the report lists every case.
void PrintByCause(const RunSummary& s, const std::vector<size_t>& cases, const char* what,
                  const char* tag) {
  if (cases.size() <= kLinesPerCase) {
    for (size_t i : cases) PrintGateLine(s.gates[i], s.results[i]);
    return;
  }
  std::vector<std::pair<std::string, size_t>> causes;  // in the order first met
  for (size_t i : cases) {
    const std::string cause = report::CauseOf(report::RecordOf(s.results[i], s.gates[i]));
    auto it =
        std::find_if(causes.begin(), causes.end(), [&](const auto& c) { return c.first == cause; });
    if (it == causes.end()) it = causes.insert(causes.end(), {cause, 0});
    ++it->second;
  }
  std::stable_sort(causes.begin(), causes.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::printf("%zu %s, by cause (each listed in the report):\n", cases.size(), what);
  for (const auto& [cause, count] : causes)
    std::printf("%-16s %5zu  %s\n", tag, count, cause.c_str());
}

void PrintNews(const RunSummary& s) {
  std::vector<size_t> wrong, refused;
  for (size_t i = 0; i < s.results.size(); ++i) {
    if (GateOk(s.gates[i])) continue;
    const bool refusal = report::CategoryOf(s.results[i].kind) == report::Category::kValidRefused;
    (refusal ? refused : wrong).push_back(i);
  }
  PrintByCause(s, wrong, "differences in what the backend computed or answered", "differs");
  PrintByCause(s, refused, "refused valid cases", "refused");
}
}  // namespace

void ReportRun(const Args& args, const std::vector<CatalogueCase>& cases, const RunSummary& s,
               const std::string& report) {
  std::vector<CatalogueCase> ran;
  for (size_t i : s.ran) ran.push_back(cases[i]);
  RerunCommand rerun{ProgramAsTyped(), args.value("--backend"), {}};
  rerun.repro_refusals = args.value("--repro", "failures") == "all";
  for (const std::string& flag : kRunFlags) {
    if (args.flag(flag)) rerun.flags.push_back(flag);
  }
  if (args.has("--profile")) {
    rerun.flags.push_back("--profile");
    rerun.flags.push_back(args.value("--profile"));
  }
  WriteReport(report, s, ran, rerun);

  PrintNews(s);
  for (const std::string& id : s.stale_entries) {
    std::printf("%-16s %s  listed in the baseline, not met by the run\n", "stale", id.c_str());
  }
  std::printf("\n%s", SummaryLines(s).c_str());
  std::printf("report: %s/report.md (and report.html, results.json, junit.xml, repro/)\n",
              report.c_str());
}

int RunRun(const std::vector<std::string>& given) {
  // --resume DIR: the interrupted run's own arguments, and its journal.
  std::vector<std::string> argv = given;
  std::optional<Resumed> resumed;
  if (!given.empty() && given[0].rfind("--resume", 0) == 0) {
    if (given.size() != (given[0] == "--resume" ? 2u : 1u)) {
      throw UsageError("--resume DIR takes no other option: the run's own are in DIR/run.json");
    }
    const Args r(given, {}, {"--resume"});
    resumed = ReadRunJson(r.value("--resume"));
    argv = resumed->argv;
    argv.push_back("--report");
    argv.push_back(r.value("--resume"));
  }
  const Args args(argv, kRunFlags, kRunOptions);
  if (!args.positional().empty()) throw UsageError("unexpected argument " + args.positional()[0]);
  if (args.values("--backend").size() > 1) {
    if (resumed) throw UsageError("--resume continues a run of one backend");
    return RunComparison(args);
  }
  RunOptions options = ParseRunOptions(args);
  const std::vector<CatalogueCase> cases = SelectCases(args);
  OpenedBackend opened = OpenBackend(options.backend, options.backend_options);
  const BackendInfo info = opened.info;
  const Expectations baseline = LoadBaseline(args, info);
  const std::string report = args.value("--report", "qconform-report");
  fs::create_directories(report);
  const fs::path journal = fs::path(report) / "observed.jsonl";
  if (resumed) {
    if (resumed->backend_name != info.name || resumed->backend_version != info.version) {
      throw UsageError("--resume " + report + ": the run was against " + resumed->backend_name +
                       " " + resumed->backend_version + ", the backend is now " + info.name + " " +
                       info.version);
    }
    std::set<std::string> selected;
    for (const CatalogueCase& c : cases) selected.insert(c.c.id);
    options.recorded = ReadJournal(journal.string());
    for (const auto& [id, recorded] : options.recorded) {
      if (!selected.count(id)) {
        throw qconform::CaseIoError(journal.string() + ": case " + id +
                                    " is not among the run's cases (did the catalogue change?)");
      }
    }
  } else {
    WriteRunJson(report, given, info);
    std::ofstream(journal, std::ios::trunc);
  }
  // Streamed as results arrive: a run stopped half way keeps what it obtained.
  std::ofstream stream(fs::path(report) / "results.jsonl");
  std::ofstream observed(journal, std::ios::app);
  LineJournal observed_lines(observed);
  std::printf("qconform run: %zu cases against %s %s (%s)\n", cases.size(), info.name.c_str(),
              info.version.c_str(), info.capabilities.c_str());
  if (resumed) {
    std::printf("resuming %s: %zu cases done, %zu to run\n", report.c_str(),
                options.recorded.size(), cases.size() - options.recorded.size());
  }
  std::fflush(stdout);
  InstallInterruptionHandlers();
  const RunSummary s =
      RunWithProgress(cases, options, std::move(opened), baseline, BaselineScope(args), &stream,
                      [&](const CaseResult& r) {
                        if (options.recorded.count(r.id)) return;
                        observed_lines.Write(JournalLine(r.id, r.observed, r.seconds));
                      });
  ReportRun(args, cases, s, report);
  if (!s.complete()) {
    std::printf("interrupted: `qconform run --resume %s` runs the %zu cases left\n", report.c_str(),
                s.planned - s.results.size());
    return 128 + s.interrupted_by;
  }
  return s.gate_ok() ? 0 : 1;
}

}  // namespace qconform::tools
