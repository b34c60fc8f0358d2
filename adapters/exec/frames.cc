#include "adapters/exec/frames.h"

#include <algorithm>
#include <filesystem>

#include "onnx_io/file_bytes.h"
#include "onnx_io/tensor_proto.h"

namespace qconform {
namespace fs = std::filesystem;

std::vector<Frame> DirectoryFrames(const std::string& dir) {
  std::vector<Frame> frames;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    // The path below `dir`, by its spelling (fs::relative would resolve links, a system call
    // per part of the path, per file).
    const std::string path = e.path().string();
    frames.push_back({path.substr(dir.size() + (dir.back() == '/' ? 0 : 1)), ReadFile(path)});
  }
  std::sort(frames.begin(), frames.end(),
            [](const Frame& a, const Frame& b) { return a.name < b.name; });
  return frames;
}

void WriteFrames(const std::string& dir, const std::vector<Frame>& frames) {
  // Checked again here: a receiver never writes outside its own directory.
  for (const Frame& f : frames) {
    if (!IsSafeFrameName(f.name)) throw CaseIoError("a frame named '" + f.name + "'");
  }
  WriteCaseFiles(dir, frames);
}

}  // namespace qconform
