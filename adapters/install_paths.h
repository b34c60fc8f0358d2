// Where qconform's files are at run time. An installed qconform (cmake --install) finds
// everything relative to its own prefix (<prefix>/bin, <prefix>/lib/qconform,
// <prefix>/share/qconform); a build-tree qconform uses the source and build trees it was
// configured with. Environment variables override either.
#pragma once

#include <string>

namespace qconform {

// <prefix>/share/qconform when this program runs from an installed prefix, else "".
std::string InstalledDataDir();
// The directory of the running program (/proc/self/exe).
std::string ProgramDir();

// The golden catalogue ($QCONFORM_GOLDEN_DIR, installed share/qconform/golden, or the source
// tree's golden/).
std::string GoldenDir();
// The directory of the checked-in baselines ($QCONFORM_BASELINE_DIR, installed
// share/qconform/expectations, or the source tree's suites/expectations).
std::string BaselineDir();
// A source-tree file (adapters/onnxruntime/runner.js, ...), or its installed copy under
// share/qconform.
std::string DataFile(const std::string& relative);

}  // namespace qconform
