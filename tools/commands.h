// The subcommands of the qconform program, as a table: each has a name, a one-line summary, its
// --help text and an entry point taking the arguments after its name.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace qconform::runner {}
namespace qconform::report {}

namespace qconform::tools {

// The command line is the top layer: it calls the run and report layers by their plain names.
using namespace runner;
using namespace report;

struct Command {
  std::string_view name;
  std::string_view summary;
  std::string_view help;
  int (*run)(const std::vector<std::string>& args);
};

std::span<const Command> AllCommands();

// Entry points, one file each.
int RunSelfcheck(const std::vector<std::string>& args);
int RunEval(const std::vector<std::string>& args);
int RunCheck(const std::vector<std::string>& args);
int RunExplain(const std::vector<std::string>& args);
int RunGolden(const std::vector<std::string>& args);
int RunRun(const std::vector<std::string>& args);
int RunBaseline(const std::vector<std::string>& args);
int RunGenerate(const std::vector<std::string>& args);
int RunVersion(const std::vector<std::string>& args);
int RunTypes(const std::vector<std::string>& args);
int RunDiffCommand(const std::vector<std::string>& args);
int RunMerge(const std::vector<std::string>& args);
int RunAudit(const std::vector<std::string>& args);
// qconform audit --merge DIR... (audit_merge.cc).
class Args;
int MergeAudits(const Args& args);

}  // namespace qconform::tools
