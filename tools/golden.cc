// `qconform golden --update|--verify [--dir DIR]`: writes the golden catalogue (oracle outputs
// for every valid case, none for must-reject ones) with its manifest, or checks that the
// checked-in copy is byte-identical to a fresh regeneration.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "generators/golden_catalogue.h"
#include "onnx_io/case_io.h"
#include "onnx_io/manifest.h"
#include "onnx_io/oracle_case.h"
#include "oracle/semantics/oracle.h"
#include "tools/args.h"
#include "tools/commands.h"

namespace qconform::tools {
namespace {

namespace fs = std::filesystem;

// Writes every case and manifest.tsv into dir (which must exist); returns the case count. The
// cases are written on every core (each into its own directory, each by the oracle alone), the
// manifest in catalogue order, so the files are the same whatever the thread count; the first
// case in catalogue order that fails is the error.
size_t WriteCatalogue(const fs::path& dir) {
  const std::vector<GoldenCase> catalogue = GoldenCatalogue();
  std::vector<ManifestEntry> manifest(catalogue.size());
  std::vector<std::exception_ptr> errors(catalogue.size());
  std::atomic<size_t> next{0};
  const auto write = [&] {
    for (size_t i; (i = next++) < catalogue.size();) {
      const GoldenCase& g = catalogue[i];
      const Case& c = g.c;
      try {
        const WrittenCase written = g.then ? WriteOracleChain((dir / c.id).string(), c, *g.then)
                                           : WriteOracleCase((dir / c.id).string(), c);
        if (!g.intended_rule.empty() && written.expected != "reject:" + g.intended_rule) {
          throw std::runtime_error("golden case " + c.id + " is meant to break " + g.intended_rule +
                                   " but the oracle says " + written.expected);
        }
        manifest[i] = {c.id,       c.op_type,        c.domain,           c.opset,
                       g.features, written.expected, written.may_reject, written.alternatives,
                       g.decision};
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> workers;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned k = 1; k < cores; ++k) workers.emplace_back(write);
  write();
  for (std::thread& t : workers) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  std::ofstream(dir / "manifest.tsv", std::ios::binary) << FormatManifest(manifest);
  return manifest.size();
}

// Every regular file under dir, relative, except the hand-written documents.
std::map<std::string, fs::path> GeneratedFiles(const fs::path& dir) {
  std::map<std::string, fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), dir).string();
    if (rel.ends_with(".md") || rel.ends_with(".py")) continue;  // hand-written
    files[rel] = e.path();
  }
  return files;
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int RunGolden(const std::vector<std::string>& argv) {
  const Args args(argv, {"--update", "--verify"}, {"--dir"});
  if (args.flag("--update") == args.flag("--verify") || !args.positional().empty()) {
    throw UsageError("golden takes exactly one of --update and --verify (see --help)");
  }
  const fs::path dir = args.value("--dir", "golden");
  if (args.flag("--update")) {
    // Written beside dir first: a catalogue that fails to build leaves dir as it was.
    fs::create_directories(dir);
    const fs::path staged = dir / (".update-" + std::to_string(::getpid()));
    fs::remove_all(staged);
    fs::create_directories(staged);
    size_t n = 0;
    try {
      n = WriteCatalogue(staged);
    } catch (...) {
      fs::remove_all(staged);
      throw;
    }
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.is_directory() && fs::exists(e.path() / "model.onnx")) fs::remove_all(e.path());
    }
    for (const auto& e : fs::directory_iterator(staged)) {
      fs::rename(e.path(), dir / e.path().filename());
    }
    fs::remove_all(staged);
    std::printf("golden: wrote %zu cases and manifest.tsv into %s\n", n, dir.string().c_str());
    return 0;
  }
  if (!fs::is_directory(dir)) throw UsageError(dir.string() + " is not a directory");
  const fs::path fresh =
      fs::temp_directory_path() / ("qconform-golden-" + std::to_string(::getpid()));
  fs::remove_all(fresh);
  fs::create_directories(fresh);
  const size_t n = WriteCatalogue(fresh);
  const auto want = GeneratedFiles(fresh), have = GeneratedFiles(dir);
  int differences = 0;
  auto report = [&](const std::string& what) {
    if (++differences <= 20) std::printf("DRIFT  %s\n", what.c_str());
  };
  for (const auto& [rel, path] : want) {
    auto it = have.find(rel);
    if (it == have.end()) {
      report(rel + ": missing from " + dir.string());
    } else if (Slurp(path) != Slurp(it->second)) {
      report(rel + ": differs from a fresh regeneration");
    }
  }
  for (const auto& [rel, path] : have) {
    if (!want.count(rel)) report(rel + ": not produced by the catalogue (stale)");
  }
  fs::remove_all(fresh);
  std::printf("golden: %zu cases, %zu files compared, %d differences\n", n, want.size(),
              differences);
  if (differences)
    std::printf("run 'qconform golden --update --dir %s' and review the diff\n",
                dir.string().c_str());
  return differences == 0 ? 0 : 1;
}

}  // namespace qconform::tools
