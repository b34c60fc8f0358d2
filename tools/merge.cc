// `qconform merge DIR... --report OUT [--expectations FILE]`: the shards of one run (`qconform run
// --shard K/N`, each perhaps on its own machine) as one run: one report, one results.json and
// junit.xml, one gate verdict against the baseline, with stale baseline entries judged across every
// shard. Each shard's journal (observed.jsonl) is judged again through the one judge, as --resume
// does, so the merged report is the unsharded run's (timings aside); the backend itself is not
// needed. Shards of different runs (other options, catalogue, backend or version) are refused.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "onnx_io/tensor_proto.h"  // CaseIoError
#include "report/journal.h"
#include "report/json_value.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/run_options.h"

namespace qconform::tools {
namespace fs = std::filesystem;
namespace {

// The backend of a merge: every case is already answered in a journal. It adapts cases as the
// real backend would (reproducers are written from the adapted case) without starting it.
class JournalledBackend : public Backend {
 public:
  JournalledBackend(const std::string& spec, BackendInfo info) : info_(std::move(info)) {
    try {
      adapter_ = MakeBackend(spec, {});
    } catch (const std::exception&) {  // not installed here: reproducers keep the case as is
    }
  }
  std::string name() const override { return info_.name; }
  std::string version() const override { return info_.version; }
  std::string capabilities() const override { return info_.capabilities; }
  std::string kernels_alone() const override { return info_.kernels_alone; }
  Case Adapt(const Case& c) const override { return adapter_ ? adapter_->Adapt(c) : c; }
  BackendResult Run(const Case& c) override {
    return {BackendError{ErrorKind::kProtocolError, "merge: " + c.id + " is in no journal"}, {}};
  }

 private:
  BackendInfo info_;
  std::unique_ptr<Backend> adapter_;
};

// One shard's directory, read.
struct ShardRun {
  std::string dir;
  Resumed run;
  Shard shard;
  std::vector<std::string> base;  // the run's arguments without --shard and --report
  std::string capabilities;
  std::map<std::string, RecordedResult> journal;
};

ShardRun ReadShard(const std::string& dir) {
  ShardRun s{dir, ReadRunJson(dir), {}, {}, "", {}};
  const std::vector<std::string>& argv = s.run.argv;
  std::string shard;
  for (size_t i = 0; i < argv.size(); ++i) {
    const bool takes_value = argv[i] == "--shard" || argv[i] == "--report";
    if (argv[i] == "--shard" && i + 1 < argv.size()) shard = argv[i + 1];
    if (argv[i].rfind("--shard=", 0) == 0) shard = argv[i].substr(8);
    if (takes_value) {
      ++i;
    } else if (argv[i].rfind("--shard=", 0) != 0 && argv[i].rfind("--report=", 0) != 0) {
      s.base.push_back(argv[i]);
    }
  }
  const std::optional<Shard> parsed = ParseShard(shard);
  if (!parsed) throw UsageError("merge: " + dir + " is not a shard (its run had no --shard K/N)");
  s.shard = *parsed;
  std::ifstream in(fs::path(dir) / "results.json");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const JsonValue v = ParseJson(text.str());
    const JsonValue& complete = v.at("complete");
    if (complete.type != JsonValue::Type::kBool) throw JsonError("'complete' is not a boolean");
    if (!complete.boolean) {
      throw UsageError("merge: shard " + shard + " in " + dir +
                       " is incomplete: finish it with qconform run --resume " + dir);
    }
    s.capabilities = v.at("backend").at("capabilities").as_string();
  } catch (const JsonError& e) {
    throw qconform::CaseIoError((fs::path(dir) / "results.json").string() + ": " + e.what());
  }
  s.journal = ReadJournal((fs::path(dir) / "observed.jsonl").string());
  return s;
}

// The run's path options (--expectations FILE, --golden DIR) that are relative, resolved against
// the directory the shard's run was started in, where that path is there; else left as they are
// (relative to here: shards copied from other machines).
std::vector<std::string> ResolvedPaths(std::vector<std::string> argv, const std::string& cwd) {
  if (cwd.empty()) return argv;
  for (size_t i = 0; i < argv.size(); ++i) {
    for (const std::string option : {"--expectations", "--golden"}) {
      std::string* value = nullptr;
      std::string prefix;
      if (argv[i] == option && i + 1 < argv.size()) {
        value = &argv[i + 1];
      } else if (argv[i].rfind(option + "=", 0) == 0) {
        value = &argv[i];
        prefix = option + "=";
      }
      if (value == nullptr) continue;
      const fs::path path = value->substr(prefix.size());
      if (path.is_relative() && fs::exists(fs::path(cwd) / path)) {
        *value = prefix + (fs::path(cwd) / path).lexically_normal().string();
      }
    }
  }
  return argv;
}

// argv without its --expectations (both spellings), then `--expectations file`.
std::vector<std::string> WithExpectations(const std::vector<std::string>& argv,
                                          const std::string& file) {
  std::vector<std::string> out;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--expectations") {
      ++i;
      continue;
    }
    if (argv[i].rfind("--expectations=", 0) == 0) continue;
    out.push_back(argv[i]);
  }
  out.insert(out.end(), {"--expectations", file});
  return out;
}

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& a : v) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

int RunMerge(const std::vector<std::string>& given) {
  const Args args(given, {}, {"--report", "--expectations"});
  const std::vector<std::string>& dirs = args.positional();
  if (dirs.empty() || !args.has("--report")) {
    throw UsageError("merge takes the shards' report directories and --report OUT");
  }
  std::vector<ShardRun> shards;
  for (const std::string& dir : dirs) shards.push_back(ReadShard(dir));
  const ShardRun& first = shards.front();
  std::map<int, std::string> seen;
  for (const ShardRun& s : shards) {
    if (s.base != first.base) {
      throw UsageError("merge: " + s.dir + " is a shard of another run: `" + Joined(s.base) +
                       "`, not `" + Joined(first.base) + "`");
    }
    if (s.run.backend_name != first.run.backend_name ||
        s.run.backend_version != first.run.backend_version) {
      throw UsageError("merge: " + s.dir + " ran against " + s.run.backend_name + " " +
                       s.run.backend_version + ", " + first.dir + " against " +
                       first.run.backend_name + " " + first.run.backend_version);
    }
    if (s.shard.count != first.shard.count) {
      throw UsageError("merge: " + s.dir + " is a shard of " + std::to_string(s.shard.count) +
                       ", " + first.dir + " of " + std::to_string(first.shard.count));
    }
    const auto [it, fresh] = seen.emplace(s.shard.index, s.dir);
    if (!fresh) {
      throw UsageError("merge: shard " + std::to_string(s.shard.index) + " twice (" + it->second +
                       " and " + s.dir + ")");
    }
  }
  std::string missing;
  for (int k = 1; k <= first.shard.count; ++k) {
    if (!seen.count(k)) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
  }
  if (!missing.empty()) {
    throw UsageError("merge: shard(s) " + missing + " of " + std::to_string(first.shard.count) +
                     " missing");
  }

  // The unsharded run: the shards' arguments without --shard, into OUT, their relative paths
  // resolved where the shards ran; merge's own --expectations in place of theirs.
  std::vector<std::string> argv = ResolvedPaths(first.base, first.run.cwd);
  if (args.has("--expectations")) {
    const std::string file = args.value("--expectations");
    RequireExpectationsFile(file);
    argv = WithExpectations(argv, file);
  }
  const std::string report = args.value("--report");
  argv.insert(argv.end(), {"--report", report});
  const Args run_args(argv, kRunFlags, kRunOptions);
  RunOptions options = ParseRunOptions(run_args);
  options.jobs = 1;
  const std::vector<CatalogueCase> cases = SelectCases(run_args);
  std::set<std::string> selected;
  for (const CatalogueCase& c : cases) selected.insert(c.c.id);
  for (const ShardRun& s : shards) {
    const std::string journal = (fs::path(s.dir) / "observed.jsonl").string();
    for (const auto& [id, recorded] : s.journal) {
      if (!selected.count(id) || !s.shard.Contains(id)) {
        throw qconform::CaseIoError(journal + ": case " + id + " is not among shard " +
                                    std::to_string(s.shard.index) +
                                    "'s cases (did the catalogue change?)");
      }
      options.recorded[id] = recorded;
    }
  }
  for (const CatalogueCase& c : cases) {
    if (!options.recorded.count(c.c.id)) {
      throw qconform::CaseIoError("merge: case " + c.c.id +
                                  " of the catalogue is in no shard's journal" +
                                  " (did the catalogue change?)");
    }
  }
  const BackendInfo info{first.run.backend_name, first.run.backend_version, first.capabilities,
                         first.run.kernels_alone};
  const Expectations baseline = LoadBaseline(run_args, info);
  fs::create_directories(report);
  WriteRunJson(report, argv, info);
  {
    std::ofstream journal(fs::path(report) / "observed.jsonl", std::ios::trunc);
    for (const CatalogueCase& c : cases) {
      const RecordedResult& r = options.recorded.at(c.c.id);
      journal << JournalLine(c.c.id, r.observed, r.seconds) << "\n";
    }
  }
  std::printf("qconform merge: %zu shards of %zu cases against %s %s\n", shards.size(),
              cases.size(), info.name.c_str(), info.version.c_str());
  std::ofstream stream(fs::path(report) / "results.jsonl");
  OpenedBackend opened{std::make_unique<JournalledBackend>(options.backend, info), info};
  const RunSummary s = RunWithProgress(cases, options, std::move(opened), baseline,
                                       BaselineScope(run_args), &stream);
  ReportRun(run_args, cases, s, report);
  return s.gate_ok() ? 0 : 1;
}

}  // namespace qconform::tools
