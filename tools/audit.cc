// `qconform audit MODEL.onnx --backend B`: a user's own model, judged node by node and group by
// group on the tensors that really flow through it (docs/audit.md). The model is read once; a
// reference run (ONNX Runtime's kernels alone by default) returns every tensor a quantization
// node or QDQ group reads; each becomes a case in REPORT/cases/ and goes through the run
// machinery (progress, -j, timeouts, crash isolation, --shard); REPORT/audit.md lists the wrong
// ones first, beside the run's own report and reproducers.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "adapters/interruption.h"
#include "onnx_io/case_writer.h"
#include "onnx_io/model_builder.h"
#include "onnx_io/model_file.h"
#include "report/audit_report.h"
#include "report/report.h"
#include "runner/audit_plan.h"
#include "runner/audit_reference.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/run_options.h"

namespace qconform::tools {
namespace fs = std::filesystem;
namespace {

const std::set<std::string> kAuditFlags = {"--strict", "--strict-zero", "--merge"};
const std::set<std::string> kAuditOptions = {
    "--backend", "--inputs", "--random",  "--dim",   "--reference", "--report",
    "-j",        "--jobs",   "--timeout", "--shard", "--admit",     "--reference-timeout"};

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::map<std::string, int64_t> DimOptions(const Args& args) {
  std::map<std::string, int64_t> dims;
  for (const std::string& d : args.values("--dim")) {
    const size_t eq = d.find('=');
    int64_t v = 0;
    try {
      v = eq == std::string::npos ? 0 : std::stoll(d.substr(eq + 1));
    } catch (const std::exception&) {
    }
    if (eq == std::string::npos || eq == 0 || v < 1) {
      throw UsageError("--dim " + d + ": write NAME=VALUE, VALUE at least 1 (e.g. --dim batch=1)");
    }
    dims[d.substr(0, eq)] = v;
  }
  return dims;
}

// The model's inputs: --inputs DIR, else --random SEED (1 when neither is given).
runner::NamedTensors Inputs(const Args& args, const ModelFile& model, std::string& described) {
  if (args.has("--inputs")) {
    if (args.has("--random")) throw UsageError("--inputs and --random exclude each other");
    described = "the inputs in " + args.value("--inputs");
    return runner::ReadAuditInputs(model, args.value("--inputs"));
  }
  const int64_t seed = args.integer("--random", 1);
  std::vector<std::string> resolved;
  runner::NamedTensors inputs =
      runner::RandomAuditInputs(model, static_cast<uint64_t>(seed), DimOptions(args), resolved);
  described = "random inputs (--random " + std::to_string(seed) + ")";
  for (const std::string& r : resolved) described += "; " + r;
  return inputs;
}

}  // namespace

int RunAudit(const std::vector<std::string>& given) {
  const auto start = std::chrono::steady_clock::now();
  const Args args(given, kAuditFlags, kAuditOptions);
  if (args.flag("--merge")) return MergeAudits(args);
  if (args.positional().size() != 1) throw UsageError("audit takes one MODEL.onnx (see --help)");
  RunOptions options = ParseRunOptions(args);
  const Shard shard = ShardOption(args);
  const std::string report = args.value("--report", "qconform-audit");
  const std::string reference = args.value("--reference", "onnxruntime");

  const ModelFile model(args.positional()[0]);
  std::vector<runner::AuditItem> items = runner::PlanAudit(model);
  std::erase_if(items, [&](const runner::AuditItem& i) { return !shard.Contains(i.id); });
  std::string described;
  const runner::NamedTensors inputs = Inputs(args, model, described);
  std::printf("qconform audit: %s: %zu nodes, %zu quantization nodes and QDQ groups\n",
              model.path().c_str(), model.nodes().size(), items.size());
  std::fflush(stdout);

  // The reference run: every tensor the cases read, in one run of the model.
  fs::create_directories(report);
  const auto reference_start = std::chrono::steady_clock::now();
  runner::NamedTensors captured;
  std::string reference_failure;
  try {
    captured = runner::CaptureValues(model, inputs, runner::CapturedNames(model, items), reference,
                                     (fs::path(report) / "reference").string(),
                                     static_cast<double>(args.integer("--reference-timeout", 600)));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  } catch (const std::runtime_error& e) {
    reference_failure = e.what();
    std::fprintf(stderr, "qconform audit: %s\n", e.what());
  }
  const double reference_seconds = Since(reference_start);
  const auto value = [&](const std::string& name) -> const Tensor* {
    if (const auto it = inputs.find(name); it != inputs.end()) return &it->second;
    if (const auto it = captured.find(name); it != captured.end()) return &it->second;
    return nullptr;
  };

  // Each item as a case, written as a reproducible case directory.
  std::vector<CatalogueCase> cases;
  std::map<std::string, const runner::AuditItem*> by_id;
  std::vector<report::AuditRow> rows;
  for (const runner::AuditItem& item : items) {
    std::string why = item.not_judged;
    std::optional<Case> c;
    if (why.empty()) {
      try {
        c = runner::BuildAuditCase(model, item, value, why);
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    if (!c) {
      if (!reference_failure.empty() && why.rfind("the reference run", 0) == 0) {
        why = reference_failure;
      }
      rows.push_back(report::NotJudgedRow(item.id, item.name, item.op, item.graph, why));
      continue;
    }
    const std::string dir = (fs::path(report) / "cases" / item.id).string();
    WriteCaseDirectory(dir, *c, DeclaredOutputs(*c), {});
    by_id[item.id] = &item;
    cases.push_back({std::move(*c), dir});
  }

  // The cases hold their own copies: the captured tensors go before the run starts.
  runner::NamedTensors().swap(captured);
  OpenedBackend opened = OpenBackend(options.backend, options.backend_options);
  const BackendInfo info = opened.info;
  InstallInterruptionHandlers();
  std::ofstream stream(fs::path(report) / "results.jsonl");
  const RunSummary s = RunWithProgress(
      cases, options, std::move(opened), Expectations{}, [](const std::string&) { return false; },
      &stream);
  RerunCommand rerun;
  rerun.program = ProgramAsTyped();
  rerun.backend = options.backend;
  WriteReport(report, s, cases, rerun);

  report::AuditHeader header;
  header.model = model.path();
  header.backend = info.name;
  header.backend_version = info.version;
  header.reference = reference;
  header.inputs = described;
  header.nodes = model.nodes().size();
  header.reference_seconds = reference_seconds;
  for (size_t k = 0; k < s.results.size(); ++k) {
    const CaseResult& r = s.results[k];
    header.oracle_seconds += r.oracle_seconds;
    const runner::AuditItem& item = *by_id.at(r.id);
    const fs::path repro = fs::path("repro") / r.id;
    rows.push_back(report::AuditRowOf(r, item.name, item.op, item.graph,
                                      fs::exists(fs::path(report) / repro) ? repro.string() : ""));
  }
  header.seconds = Since(start);
  const std::vector<report::AuditRow> ranked = report::Ranked(std::move(rows));
  report::WriteAuditReport(report, header, ranked);
  std::printf("%s", report::AuditSummary(header, ranked).c_str());
  std::printf("report: %s/audit.md\n", report.c_str());
  if (!s.complete()) return 128 + s.interrupted_by;
  for (const report::AuditRow& r : ranked) {
    if (r.failed) return 1;
  }
  return 0;
}

}  // namespace qconform::tools
