// The conformance suite as GoogleTest tests: one test per golden case, in a test suite per
// operator version (DequantizeLinear_v21.dq21_int4_blocked_axis1_zp), run against one backend.
//
//   conformance_test --backend=onnxruntime [--golden=DIR] [--expectations=FILE] [--timeout=S]
//                    [--strict] [gtest flags]
//
// $QCONFORM_BACKEND chooses the backend when --backend is not given (default: oracle). A case
// passes when the oracle finds the backend's result admissible, and also when it fails exactly
// as the backend's expectations baseline says (printed as XFAIL); unsupported cases are skipped.
// A new failure, a changed failure kind and an unexpected pass fail the test. GoogleTest's
// sharding (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX) splits the suite across CI machines.
//
// A --gtest_filter that names its suites (ctest's entries: --gtest_filter=QuantizeLinear_v21.*)
// loads only the golden cases the manifest puts in them: the other cases would be registered
// and never run. Catalogue.ManifestSuitesAreTheCases (run with Baseline.*, which loads all)
// checks that the manifest puts every case in the suite it is registered in.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "generators/batch.h"
#include "generators/profile_cases.h"
#include "generators/valid_cases.h"
#include "onnx_io/manifest.h"
#include "runner/conformance_run.h"

namespace qconform::runner {
namespace {

struct Settings {
  std::string backend = "oracle";
  std::string golden = QCONFORM_GOLDEN_DIR;
  std::string expectations;  // default: the backend's checked-in baseline
  bool expectations_given = false;
  BackendOptions backend_options;
  CompareOptions compare;
};

Settings& settings() {
  static Settings s;
  return s;
}

// One backend process for the whole binary: the long-lived adapter is the point.
struct Shared {
  std::unique_ptr<Backend> backend;
  BackendInfo info;
  Expectations baseline;
  std::string baseline_path;
  std::string error;  // why the backend could not start
};

Shared& shared() {
  static Shared s = [] {
    Shared out;
    try {
      out.backend = MakeBackend(settings().backend, settings().backend_options);
      if (std::optional<std::string> e = out.backend->Open()) throw std::runtime_error(*e);
      out.info = {out.backend->name(), out.backend->version(), out.backend->capabilities(),
                  out.backend->kernels_alone()};
      if (settings().expectations_given) {
        out.baseline_path = settings().expectations;
        out.baseline = LoadExpectations(out.baseline_path);
      } else {  // the checked-in baseline, with this host's overlay (runner/host_class.h)
        out.baseline = LoadBaselineFor(out.info);
        out.baseline_path = out.baseline.path;
      }
      std::cout << "[ BACKEND  ] " << out.info.name << " " << out.info.version << "; baseline "
                << (out.baseline_path.empty() ? "(none)" : out.baseline_path) << "\n";
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    return out;
  }();
  return s;
}

class ConformanceTest : public ::testing::Test {
 public:
  explicit ConformanceTest(const Case* c) : case_(c) {}

  void TestBody() override {
    Shared& s = shared();
    ASSERT_TRUE(s.error.empty()) << "backend " << settings().backend << ": " << s.error;
    const CaseResult r = JudgeCase(*case_, s.backend->Run(*case_), settings().compare);
    const Expectation* expected = s.baseline.find(r.id);
    const std::string kind(KindName(r.kind));
    const Gate gate = Classify(r, expected);
    RecordProperty("kind", kind);
    RecordProperty("gate", std::string(GateName(gate)));
    switch (gate) {
      case Gate::kPass:
        return;
      case Gate::kSkip:
        GTEST_SKIP() << "unsupported by " << s.info.name << ": " << r.detail;
      case Gate::kExpectedFailure:
        std::cout << "[  XFAIL   ] " << r.id << " " << kind << ": " << expected->reason << "\n";
        return;
      case Gate::kUnexpectedPass:
        ADD_FAILURE() << r.id << " passes (" << kind << ") but " << s.baseline_path << " expects "
                      << KindName(expected->kind) << " (" << expected->reason
                      << "): update the baseline with qconform baseline --save";
        return;
      case Gate::kNewFailure:
      case Gate::kChangedFailure: {
        std::string lines;
        for (const std::string& m : r.mismatches) lines += "\n  " + m;
        ADD_FAILURE() << r.id << ": " << GateName(gate) << ": " << kind << ": " << r.detail
                      << (expected
                              ? "\n  the baseline expects " + std::string(KindName(expected->kind))
                              : "")
                      << lines;
        return;
      }
    }
  }

 private:
  const Case* case_;
};

// Baseline entries must name cases that exist: a stale entry hides nothing but misleads.
class BaselineTest : public ::testing::Test {
 public:
  explicit BaselineTest(const std::vector<CatalogueCase>* cases) : cases_(cases) {}
  void TestBody() override {
    Shared& s = shared();
    ASSERT_TRUE(s.error.empty()) << s.error;
    for (const Expectation& e : s.baseline.entries) {
      const bool found = std::any_of(cases_->begin(), cases_->end(),
                                     [&](const CatalogueCase& c) { return c.c.id == e.id; });
      EXPECT_TRUE(found) << s.baseline_path << " lists " << e.id
                         << ", which is not in the catalogue";
    }
  }

 private:
  const std::vector<CatalogueCase>* cases_;
};

std::string Identifier(std::string s) {
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

// The test suite of a case: its domain, operator and version. Opsets before the operator existed
// share one group, named for the opset just before its first version (golden's dq9 cases; the
// manifest's version column says the same).
std::string SuiteOf(const Case& c) {
  const std::string domain = c.domain.empty() ? "" : Identifier(c.domain) + "_";
  int64_t first = 0;
  for (const OpSchema* s : SchemasNamed(c.op_type)) {
    if (CanonicalDomain(s->domain) == CanonicalDomain(c.domain)) {
      first = first == 0 ? s->since_version : std::min<int64_t>(first, s->since_version);
    }
  }
  const int64_t version = first > 0 && c.opset < first ? first - 1 : c.opset;
  return domain + c.op_type + "_v" + std::to_string(version);
}

// The suite the manifest puts a case in.
std::string ManifestSuite(const ManifestEntry& e) {
  const std::string domain = e.domain.empty() ? "" : Identifier(e.domain) + "_";
  return domain + e.op + "_v" + std::to_string(e.version);
}

// The suites --gtest_filter selects when each of its positive patterns names one ("A.*:B.*");
// nullopt when a pattern could match any suite (or there is none: every test runs).
std::optional<std::set<std::string>> FilteredSuites() {
  const std::string filter = GTEST_FLAG_GET(filter);
  const std::string positive = filter.substr(0, filter.find('-'));
  if (positive.empty()) return std::nullopt;
  std::set<std::string> suites;
  size_t begin = 0;
  while (begin <= positive.size()) {
    const size_t end = std::min(positive.find(':', begin), positive.size());
    const std::string pattern = positive.substr(begin, end - begin);
    const size_t dot = pattern.find('.');
    if (dot == std::string::npos) return std::nullopt;
    const std::string suite = pattern.substr(0, dot);
    if (suite.empty() || suite.find_first_of("*?") != std::string::npos) return std::nullopt;
    suites.insert(suite);
    begin = end + 1;
  }
  return suites;
}

// Every golden case the manifest lists is registered in the suite the manifest gives it (what
// loading by suite relies on).
class ManifestSuitesTest : public ::testing::Test {
 public:
  explicit ManifestSuitesTest(const std::vector<CatalogueCase>* cases) : cases_(cases) {}
  void TestBody() override {
    Manifest manifest;
    MergeManifest(manifest, settings().golden);
    if (manifest.empty()) {  // a catalogue of one's own without one: nothing is left unloaded
      GTEST_SKIP() << settings().golden << " has no manifest.tsv: every run loads all its cases";
    }
    size_t listed = 0;
    for (const CatalogueCase& c : *cases_) {
      if (c.source.empty()) continue;  // generated
      const auto row = manifest.find(std::filesystem::path(c.source).filename().string());
      if (row == manifest.end()) continue;  // loaded whatever the filter
      ++listed;
      EXPECT_EQ(ManifestSuite(row->second), SuiteOf(c.c))
          << c.source << ": the manifest's operator, domain or version puts the case in another "
          << "suite, so a filtered run would not load it";
    }
    EXPECT_GT(listed, 0u) << "no golden case is in " << settings().golden << "/manifest.tsv";
  }

 private:
  const std::vector<CatalogueCase>* cases_;
};

void ParseFlags(int argc, char** argv) {
  if (const char* env = std::getenv("QCONFORM_BACKEND"); env && *env) settings().backend = env;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const std::string& name) -> std::optional<std::string> {
      if (a.rfind(name + "=", 0) == 0) return a.substr(name.size() + 1);
      return std::nullopt;
    };
    if (auto v = value("--backend")) {
      settings().backend = *v;
    } else if (auto v = value("--golden")) {
      settings().golden = *v;
    } else if (auto v = value("--expectations")) {
      settings().expectations = *v;
      settings().expectations_given = true;
    } else if (auto v = value("--timeout")) {
      settings().backend_options.timeout_seconds = std::stod(*v);
    } else if (a == "--strict") {
      settings().compare.strict = true;
    } else {
      std::cerr << "conformance_test: unknown argument " << a << "\n";
      std::exit(2);
    }
  }
}

}  // namespace
}  // namespace qconform::runner

int main(int argc, char** argv) {
  using namespace qconform;
  using namespace qconform::runner;
  ::testing::InitGoogleTest(&argc, argv);
  ParseFlags(argc, argv);
  static std::vector<CatalogueCase> cases;
  const std::optional<std::set<std::string>> suites = FilteredSuites();
  // Baseline.* and Catalogue.* read the whole catalogue.
  const bool load_all = !suites || suites->count("Baseline") || suites->count("Catalogue");
  try {
    Manifest manifest;
    if (!load_all) MergeManifest(manifest, settings().golden);
    cases = LoadCatalogueWhere(settings().golden, [&](const std::string& id) {
      if (load_all) return true;
      const auto row = manifest.find(id);
      return row == manifest.end() || suites->count(ManifestSuite(row->second)) > 0;
    });
  } catch (const std::exception& e) {
    std::cerr << "conformance_test: " << e.what() << "\n";
    return 2;
  }
  // The same seeded batch of generated cases as `qconform run`.
  BatchOptions batch;
  batch.seed = kDefaultGeneratedSeed;
  batch.count = kDefaultGeneratedCount;
  for (GeneratedCase& g : GeneratedBatches(batch)) cases.push_back({std::move(g.c), ""});
  for (const CatalogueCase& c : cases) {
    const std::string suite = SuiteOf(c.c);
    const qconform::Case* pointer = &c.c;
    ::testing::RegisterTest(
        suite.c_str(), Identifier(c.c.id).c_str(), nullptr, nullptr, __FILE__, __LINE__,
        [pointer]() -> ::testing::Test* { return new ConformanceTest(pointer); });
  }
  ::testing::RegisterTest("Baseline", "EntriesNameCatalogueCases", nullptr, nullptr, __FILE__,
                          __LINE__, []() -> ::testing::Test* { return new BaselineTest(&cases); });
  ::testing::RegisterTest("Catalogue", "ManifestSuitesAreTheCases", nullptr, nullptr, __FILE__,
                          __LINE__,
                          []() -> ::testing::Test* { return new ManifestSuitesTest(&cases); });
  return RUN_ALL_TESTS();
}
