// The qconform command: one program, one subcommand per job. Exit status: 0 success, 1 a check
// failed, 2 usage or input error, 3 the oracle rejects the case (eval).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "onnx_io/tensor_proto.h"
#include "tools/commands.h"

namespace {

using qconform::tools::Command;

void PrintUsage(FILE* out) {
  std::fprintf(
      out,
      "qconform: conformance suite and exact oracle for the ONNX quantization operators\n\n"
      "usage: qconform <command> [options]\n\ncommands:\n");
  for (const Command& c : qconform::tools::AllCommands()) {
    std::fprintf(out, "  %-10s %s\n", std::string(c.name).c_str(), std::string(c.summary).c_str());
  }
  std::fprintf(out,
               "\n'qconform <command> --help' describes one command. Every command takes\n"
               "--max-elements N: the largest tensor a case file may declare (default 2^30\n"
               "elements); a larger one is refused, exit 2, before anything is allocated.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    PrintUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string_view name = std::strcmp(argv[1], "--version") == 0 ? "version" : argv[1];
  for (const Command& c : qconform::tools::AllCommands()) {
    if (c.name != name) continue;
    std::vector<std::string> args(argv + 2, argv + argc);
    // --max-elements N, for every command: the largest tensor a case file may declare.
    for (size_t k = 0; k + 1 < args.size(); ++k) {
      if (args[k] != "--max-elements") continue;
      char* end = nullptr;
      const long long n = std::strtoll(args[k + 1].c_str(), &end, 10);
      if (*end != '\0' || n < 1) {
        std::fprintf(stderr, "qconform: --max-elements takes a positive integer\n");
        return 2;
      }
      qconform::SetMaxTensorElements(n);
      args.erase(args.begin() + static_cast<long>(k), args.begin() + static_cast<long>(k) + 2);
      break;
    }
    for (const std::string& a : args) {
      if (a == "--help" || a == "-h") {
        std::fputs(std::string(c.help).c_str(), stdout);
        return 0;
      }
    }
    try {
      return c.run(args);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "qconform %s: error: %s\n", argv[1], e.what());
      return 2;
    }
  }
  std::fprintf(stderr, "qconform: unknown command '%s'\n\n", argv[1]);
  PrintUsage(stderr);
  return 2;
}
