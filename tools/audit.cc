// `qconform audit MODEL.onnx --backend B`: a user's own model, judged node by node and group by
// group on the tensors that really flow through it (docs/audit.md). The model is read once; a
// reference run (ONNX Runtime's kernels alone by default) returns every tensor a quantization
// node or QDQ group reads; each becomes a case in REPORT/cases/ and goes through the run
// machinery (progress, -j, timeouts, crash isolation, --shard); REPORT/audit.md lists the wrong
// ones first, beside the run's own report and reproducers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>

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
    "--backend", "--inputs",  "--random", "--dim",   "--reference",         "--report",  "-j",
    "--jobs",    "--timeout", "--shard",  "--admit", "--reference-timeout", "--batch-mb"};

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

// Item `item` as a case, or its "not judged" row in `rows` (nullopt).
std::optional<Case> AuditCase(const ModelFile& model, const runner::AuditItem& item,
                              const std::function<const Tensor*(const std::string&)>& value,
                              const std::string& reference_failure,
                              std::vector<report::AuditRow>& rows) {
  std::string why = item.not_judged;
  std::optional<Case> c;
  if (why.empty()) {
    try {
      c = runner::BuildAuditCase(model, item, value, why);
    } catch (const std::exception& e) {
      why = e.what();
    }
  }
  if (c) return c;
  if (!reference_failure.empty() && why.rfind("the reference run", 0) == 0) {
    why = reference_failure;
  }
  rows.push_back(report::NotJudgedRow(item.id, item.name, item.op, item.graph, why));
  return std::nullopt;
}

// The bytes of a case's tensors: its inputs, and a node's outputs as declared (what the
// backend returns and the oracle computes; a graph's are known once it is evaluated, and are
// not counted).
size_t CaseBytes(const Case& c) {
  size_t bytes = 0;
  for (const std::optional<Tensor>& t : c.inputs) {
    if (t) bytes += t->codes.size() * static_cast<size_t>(t->codes.width());
  }
  if (c.is_graph()) return bytes;
  for (const OutputSpec& o : DeclaredOutputs(c)) {
    const ElementType* type = FindElementType(o.data_type);
    size_t n = 1;
    for (int64_t d : o.shape) n *= static_cast<size_t>(std::max<int64_t>(d, 0));
    bytes += n * static_cast<size_t>(type != nullptr ? type->bytes_per_element() : 4);
  }
  return bytes;
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

  // The items become cases, are run and are reduced to their rows in batches: a batch closes
  // once its cases' tensors, inputs and declared outputs, reach --batch-mb. The weights a batch
  // reads live in the parsed model and in that batch's cases alone, and the backend's outputs
  // only until their rows are written.
  const size_t budget = static_cast<size_t>(args.integer("--batch-mb", 256)) << 20;
  if (budget == 0) throw UsageError("--batch-mb: at least 1");
  std::optional<OpenedBackend> opened = OpenBackend(options.backend, options.backend_options);
  const BackendInfo info = opened->info;
  InstallInterruptionHandlers();
  std::ofstream stream(fs::path(report) / "results.jsonl");
  fs::remove_all(fs::path(report) / "repro");
  RerunCommand rerun;
  rerun.program = ProgramAsTyped();
  rerun.backend = options.backend;
  RunSummary all;  // every batch's results, without the backend's tensors
  std::vector<report::AuditRow> rows;
  double oracle_seconds = 0;
  size_t next = 0, batches = 0;
  while (next < items.size() && all.interrupted_by == 0) {
    std::vector<CatalogueCase> cases;
    std::vector<const runner::AuditItem*> of_case;
    size_t bytes = 0;
    for (; next < items.size() && (cases.empty() || bytes < budget); ++next) {
      const runner::AuditItem& item = items[next];
      std::optional<Case> c = AuditCase(model, item, value, reference_failure, rows);
      if (!c) continue;
      bytes += CaseBytes(*c);
      of_case.push_back(&item);
      cases.push_back({std::move(*c), (fs::path(report) / "cases" / item.id).string()});
    }
    if (cases.empty()) continue;
    if (++batches > 1 || next < items.size()) {
      std::printf("qconform audit: batch %zu, %zu cases, %.0f MB of tensors\n", batches,
                  cases.size(), static_cast<double>(bytes) / (1 << 20));
      std::fflush(stdout);
    }
    if (!opened) opened = OpenBackend(options.backend, options.backend_options);
    RunSummary s = RunWithProgress(
        cases, options, std::move(*opened), Expectations{},
        [](const std::string&) { return false; }, &stream);
    opened.reset();
    // The case directories after the run: a graph case's declared outputs are then the ones
    // its evaluation remembered (graph_output_specs.h), not a second evaluation.
    for (const CatalogueCase& c : cases)
      WriteCaseDirectory(c.source, c.c, DeclaredOutputs(c.c), {});
    for (size_t k = 0; k < s.results.size(); ++k) {
      CaseResult& r = s.results[k];
      const runner::AuditItem& item = *of_case.at(s.ran[k]);
      const fs::path repro = fs::path("repro") / r.id;
      if (report::WritesRepro(r.kind, rerun.repro_refusals)) {
        report::WriteRepro((fs::path(report) / repro).string(),
                           r.as_run ? *r.as_run : cases[s.ran[k]].c, r, rerun);
      }
      oracle_seconds += r.oracle_seconds;
      rows.push_back(
          report::AuditRowOf(r, item.name, item.op, item.graph,
                             fs::exists(fs::path(report) / repro) ? repro.string() : ""));
      r.observed.outputs.clear();  // what the documents read stays; the tensors go
      r.as_run.reset();
      r.oracle.reset();
      all.results.push_back(std::move(r));
      all.gates.push_back(s.gates[k]);
      all.ran.push_back(all.planned + s.ran[k]);
    }
    all.backend = s.backend;
    if (all.started.empty()) all.started = s.started;
    all.seconds += s.seconds;
    all.planned += s.planned;
    all.interrupted_by = s.interrupted_by;
  }
  for (; next < items.size(); ++next) ++all.planned;  // never built: an interrupted audit
  if (all.backend.name.empty()) all.backend = info;
  WriteRunDocuments(report, all, rerun);

  report::AuditHeader header;
  header.model = model.path();
  header.backend = info.name;
  header.backend_version = info.version;
  header.reference = reference;
  header.inputs = described;
  header.nodes = model.nodes().size();
  header.reference_seconds = reference_seconds;
  header.oracle_seconds = oracle_seconds;
  header.seconds = Since(start);
  const std::vector<report::AuditRow> ranked = report::Ranked(std::move(rows));
  report::WriteAuditReport(report, header, ranked);
  std::printf("%s", report::AuditSummary(header, ranked).c_str());
  std::printf("report: %s/audit.md\n", report.c_str());
  if (!all.complete()) return 128 + all.interrupted_by;
  for (const report::AuditRow& r : ranked) {
    if (r.failed) return 1;
  }
  return 0;
}

}  // namespace qconform::tools
