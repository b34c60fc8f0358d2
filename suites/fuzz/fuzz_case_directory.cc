// libFuzzer: the case-directory reader (model.onnx with one node, a chain of two, an expanded
// function body; test_data_set_0/input_K.pb). Built a second time as fuzz_oracle_case
// (QCONFORM_FUZZ_ORACLE), it also runs the oracle on whatever it read. The input is
// model.onnx, then each input_K.pb, separated by kSeparator (fuzz.sh makes seeds that way from
// golden/). A read case is judged, rejected by rule, or (an operator the registry does not
// know) an OracleError; a bad file is a CaseIoError.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "onnx_io/case_io.h"
#include "oracle/semantics/oracle.h"

namespace {
namespace fs = std::filesystem;

constexpr std::string_view kSeparator = "\n--qconform-fuzz-file--\n";

const fs::path& Scratch() {
  static const fs::path dir = [] {
    const fs::path base = fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path();
    fs::path d = base / ("qconform-fuzz-case-" + std::to_string(getpid()));
    fs::create_directories(d / "test_data_set_0");
    return d;
  }();
  return dir;
}

void Write(const fs::path& file, std::string_view bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qconform::SetMaxTensorElements(1 << 12);  // golden cases have at most 256 elements
  const fs::path& dir = Scratch();
  for (const auto& e : fs::directory_iterator(dir / "test_data_set_0")) fs::remove(e.path());
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  for (int part = 0; part < 5; ++part) {
    const size_t cut = rest.find(kSeparator);
    const std::string_view bytes = rest.substr(0, cut);
    Write(part == 0 ? dir / "model.onnx"
                    : dir / "test_data_set_0" / ("input_" + std::to_string(part - 1) + ".pb"),
          bytes);
    if (cut == std::string_view::npos) break;
    rest.remove_prefix(cut + kSeparator.size());
  }
  try {
    const qconform::CaseDirectory cd = qconform::ReadCaseDirectory(dir.string());
    for (const qconform::DataSet& ds : cd.data_sets) {
#ifdef QCONFORM_FUZZ_ORACLE
      qconform::RunOracle(ds.c);
      if (ds.then) qconform::RunOracle(*ds.then);
#else
      (void)ds;
#endif
    }
  } catch (const qconform::CaseIoError&) {
  } catch (const qconform::OracleError&) {  // an operator it does not know: a case-error
  }
  return 0;
}
