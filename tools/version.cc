// `qconform version` (and `qconform --version`): what this build is.
#include <cstdio>

#include "onnx_io/versions.h"
#include "oracle/registry/schema.h"
#include "tools/args.h"
#include "tools/commands.h"

namespace qconform::tools {

int RunVersion(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {});
  if (!args.positional().empty()) throw UsageError("unexpected argument " + args.positional()[0]);
  std::printf("qconform %s\n", QCONFORM_VERSION);
  std::string versions;
  for (const OpSchema& s : AllSchemas()) versions += (versions.empty() ? "" : ", ") + s.label();
  std::printf("oracle: %s\n", versions.c_str());
  std::printf("built with %s, %s %s\n", OnnxIoVersions().c_str(),
#if defined(__clang__)
              "clang", __clang_version__
#else
              "GCC", __VERSION__
#endif
  );
  return 0;
}

}  // namespace qconform::tools
