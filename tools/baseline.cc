// `qconform baseline --backend B [--save]`: runs the catalogue, prints how the backend's results
// differ from its checked-in baseline, and with --save rewrites the baseline (keeping the
// written reasons of entries whose kind did not change).
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "runner/conformance_run.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/run_options.h"

namespace qconform::tools {

namespace {

std::string FormatBaseline(const BackendInfo& info, const std::vector<Expectation>& entries) {
  std::string out =
      std::string(kExpectationsHeader) + "\n# the baseline of " + info.name + " " + info.version +
      "\n# <case-id> <kind> <reason>; kinds: wrong-outputs, accepted-invalid,\n"
      "# rejected-valid, crash, timeout, protocol-error, case-error. Regenerate with\n"
      "#   qconform baseline --backend <backend> --save\n"
      "# and edit the reasons: they are what a reader of the report sees.\n";
  for (const Expectation& e : entries) {
    out += e.id + " " + std::string(KindName(e.kind)) + " " + e.reason + "\n";
  }
  return out;
}

}  // namespace

int RunBaseline(const std::vector<std::string>& argv) {
  const Args args(
      argv, {"--save", "--save-overlay", "--strict", "--strict-zero"},
      {"--backend", "--profile", "--expectations", "-j", "--jobs", "--timeout", "--golden",
       "--seed", "--count", "--version", "--invalid-percent", "--op", "--filter", "--admit"});
  if (!args.positional().empty()) throw UsageError("unexpected argument " + args.positional()[0]);
  const RunOptions options = ParseRunOptions(args);
  const std::vector<CatalogueCase> cases = SelectCases(args);
  OpenedBackend opened = OpenBackend(options.backend, options.backend_options);
  const BackendInfo info = opened.info;
  const std::string path = args.value("--expectations", DefaultBaselinePath(info));
  if (path.empty()) {
    throw UsageError("the " + info.name + " backend has no baseline: it must pass every case");
  }
  // This host's overlay (runner/host_class.h) over the checked-in baseline, unless a file is given.
  const std::string overlay_path = args.has("--expectations") ? "" : BaselineOverlayPath(info);
  if (args.flag("--save-overlay") && overlay_path.empty()) {
    throw UsageError(
        "--save-overlay: this host has no class (runner/host_class.h), or "
        "--expectations names the file");
  }
  const bool has_overlay = !overlay_path.empty() && std::ifstream(overlay_path).good();
  const Expectations base = std::ifstream(path).good() ? LoadExpectations(path) : Expectations{};
  const Expectations old = has_overlay ? Overlaid(base, LoadExpectations(overlay_path)) : base;
  const RunSummary s =
      RunWithProgress(cases, options, std::move(opened), old, BaselineScope(args), nullptr);

  // Entries for cases this run did not select (another --op, --filter or catalogue) are kept.
  Expectations now;
  std::set<std::string> ran;
  for (const CaseResult& r : s.results) ran.insert(r.id);
  for (const Expectation& e : old.entries) {
    if (!ran.count(e.id) && !BaselineScope(args)(e.id)) now.entries.push_back(e);
  }
  for (const CaseResult& r : s.results) {
    if (r.outcome() != Outcome::kFail) continue;
    const Expectation* before = old.find(r.id);
    std::string reason = before && before->kind == r.kind ? before->reason : r.detail;
    if (reason.size() > 300) reason = reason.substr(0, 297) + "...";
    for (char& ch : reason) {
      if (ch == '\n') ch = ' ';
    }
    now.entries.push_back({r.id, r.kind, reason});
  }
  int changes = 0;
  const auto name = [](Kind k) { return std::string(KindName(k)); };
  for (const Expectation& e : now.entries) {
    const Expectation* before = old.find(e.id);
    if (!before) {
      std::printf("+ %s %s %s\n", e.id.c_str(), name(e.kind).c_str(),
                  e.reason.substr(0, 160).c_str());
      ++changes;
    } else if (before->kind != e.kind) {
      std::printf("~ %s %s -> %s\n", e.id.c_str(), name(before->kind).c_str(),
                  name(e.kind).c_str());
      ++changes;
    }
  }
  for (const Expectation& e : old.entries) {
    if (!now.find(e.id)) {
      std::printf("- %s %s (now passes, is skipped or is gone)\n", e.id.c_str(),
                  name(e.kind).c_str());
      ++changes;
    }
  }
  std::printf("%d change%s against %s (%zu entries now)\n", changes, changes == 1 ? "" : "s",
              path.c_str(), now.entries.size());
  if (args.flag("--save-overlay") || (args.flag("--save") && has_overlay)) {
    // The overlay holds what differs from the baseline on this host's class; a baseline entry
    // that passes here cannot be taken back by an overlay, and is named.
    std::vector<Expectation> differing;
    for (const Expectation& e : now.entries) {
      const Expectation* b = base.find(e.id);
      if (b == nullptr || b->kind != e.kind) differing.push_back(e);
    }
    for (const Expectation& b : base.entries) {
      if (!now.find(b.id)) {
        std::printf("note: %s is in %s but passes on this host; an overlay cannot take it back\n",
                    b.id.c_str(), path.c_str());
      }
    }
    std::ofstream(overlay_path) << FormatBaseline(info, differing);
    std::printf("saved %s (%zu entries over %s)\n", overlay_path.c_str(), differing.size(),
                path.c_str());
    return 0;
  }
  if (args.flag("--save")) {
    std::ofstream(path) << FormatBaseline(info, now.entries);
    std::printf("saved %s\n", path.c_str());
    return 0;
  }
  return changes == 0 ? 0 : 1;
}

}  // namespace qconform::tools
