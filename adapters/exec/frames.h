// A case directory as inline frames (exec protocol version 3) and back: the one place where the
// directory layout of adapters/PROTOCOL.md turns into bytes on the pipe.
#pragma once

#include <string>
#include <vector>

#include "adapters/exec/protocol.h"

namespace qconform {

// Every regular file under `dir`, named by its path relative to it, in name order.
std::vector<Frame> DirectoryFrames(const std::string& dir);
// Writes each frame under `dir` (its parent directories created). Names must be safe
// (IsSafeFrameName): a frame that is not raises CaseIoError.
void WriteFrames(const std::string& dir, const std::vector<Frame>& frames);

}  // namespace qconform
