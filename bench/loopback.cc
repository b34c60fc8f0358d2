#include "bench/loopback.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bench/measure.h"

namespace qconform::bench {
namespace {

std::string Ratio(double a, double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", a / b);
  return a > 0 && b > 0 ? buf : "-";
}

std::string Shown(double rate) {
  return rate > 0 ? Rate(rate, "cases") : "failed";
}

// Serves `command` on a loopback port, one process per connection, until the object goes.
class SocatServer {
 public:
  explicit SocatServer(const std::string& command)
      : port_(20000 + getpid() % 20000),
        pid_file_("/tmp/qconform-bench-socat-" + std::to_string(getpid())) {
    const std::string start = "setsid socat TCP-LISTEN:" + std::to_string(port_) +
                              ",bind=127.0.0.1,reuseaddr,fork 'SYSTEM:" + command +
                              "' >/dev/null 2>&1 & echo $! > " + pid_file_ + "; sleep 0.5";
    if (std::system(start.c_str()) != 0) std::fprintf(stderr, "bench: socat did not start\n");
  }
  ~SocatServer() {
    std::ifstream in(pid_file_);
    long pid = 0;
    if (in >> pid && pid > 0) {
      const std::string stop = "kill -- -" + std::to_string(pid) + " 2>/dev/null";
      if (std::system(stop.c_str()) != 0) std::fprintf(stderr, "bench: socat was gone\n");
    }
    std::filesystem::remove(pid_file_);
  }
  std::string backend() const {
    return "'exec:socat - TCP:127.0.0.1:" + std::to_string(port_) + "'";
  }

 private:
  int port_;
  std::string pid_file_;
};

}  // namespace

std::vector<std::string> LoopbackTable() {
  std::vector<std::string> lines = {
      "| plugin, golden catalogue, -j 1 | local pipe, protocol 3 | local pipe, protocol 2 | "
      "loopback TCP (socat), protocol 3 | TCP / local |",
      "|---|---|---|---|---|"};
  if (std::system("command -v socat >/dev/null") != 0) {
    lines.push_back("| (socat is missing: run tools/setup.sh) | | | | |");
    return lines;
  }
  for (const char* name : {"example", "xnnpack", "onednn"}) {
    const std::string lib =
        std::string(QCONFORM_PLUGIN_DIR) + "/libqconform_" + name + "_plugin.so";
    if (!std::filesystem::exists(lib)) continue;
    const double local = EndToEndCasesPerSecond(std::string("plugin:") + name, 1);
    const double v2 =
        EndToEndCasesPerSecond("'exec:" QCONFORM_PLUGIN_HOST " --protocol 2 " + lib + "'", 1);
    double tcp = 0;
    {
      const SocatServer server(QCONFORM_PLUGIN_HOST " " + lib);
      tcp = EndToEndCasesPerSecond(server.backend(), 1);
    }
    lines.push_back("| `plugin:" + std::string(name) + "` | " + Shown(local) + " | " + Shown(v2) +
                    " | " + Shown(tcp) + " | " + Ratio(tcp, local) + " |");
  }
  return lines;
}

}  // namespace qconform::bench
