// `qconform diff OLD NEW`: two runs (results.json files or report directories) compared case by
// case; regressions first, then fixes and changed kinds, grouped by cause. Exit 1 on a
// regression: the gate across runtime versions.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "report/run_diff.h"
#include "tools/args.h"
#include "tools/commands.h"

namespace qconform::tools {

int RunDiffCommand(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {"--out"});
  if (args.positional().size() != 2) throw UsageError("diff takes OLD and NEW (see --help)");
  RunDiff d;
  d.before = ReadResults(args.positional()[0]);
  d.before.label += " (old)";
  d.after = ReadResults(args.positional()[1]);
  d.after.label += " (new)";
  DiffRuns(d);
  std::printf("%s", DiffText(d).c_str());
  if (args.has("--out")) {
    const std::filesystem::path dir = args.value("--out");
    std::filesystem::create_directories(dir);
    const std::pair<const char*, std::unique_ptr<Document>> documents[] = {
        {"diff.md", MakeMarkdownDocument()}, {"diff.html", MakeHtmlDocument()}};
    for (const auto& [name, document] : documents) {
      ComposeDiff(*document, d);
      std::ofstream(dir / name) << document->Text();
    }
    std::printf("wrote %s/diff.md and diff.html\n", dir.string().c_str());
  }
  return d.regressions.empty() ? 0 : 1;
}

}  // namespace qconform::tools
