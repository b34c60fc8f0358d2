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
    frames.push_back({fs::relative(e.path(), dir).string(), ReadFile(e.path().string())});
  }
  std::sort(frames.begin(), frames.end(),
            [](const Frame& a, const Frame& b) { return a.name < b.name; });
  return frames;
}

void WriteFrames(const std::string& dir, const std::vector<Frame>& frames) {
  for (const Frame& f : frames) {
    // Checked again here: a receiver never writes outside its own directory.
    if (!IsSafeFrameName(f.name)) throw CaseIoError("a frame named '" + f.name + "'");
    const fs::path path = fs::path(dir) / f.name;
    fs::create_directories(path.parent_path());
    WriteFile(path.string(), f.bytes);
  }
}

}  // namespace qconform
