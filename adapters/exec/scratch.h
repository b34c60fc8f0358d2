// Where the exec protocol's case files go, on either side of the pipe: qconform's case
// directories (versions 1 and 2) and a serving backend's copy of the frames it receives
// (version 3).
#pragma once

#include <string>

namespace qconform {

// $TMPDIR when it names a directory this process may write in; else /dev/shm when it is a
// memory file system with room (1 GiB free), because every case is a few files written and read
// once, and on a disk that costs more than the runtime's work (1,755 against 4,189 cases/s
// through the exec protocol measured here); else /tmp.
std::string ScratchRoot();
// A new directory ScratchRoot()/<prefix>XXXXXX; std::runtime_error naming why when it cannot.
std::string MakeScratchDirectory(const std::string& prefix);

}  // namespace qconform
