// libFuzzer: the files qconform reads back from a run: the journal `run --resume` reads
// (observed.jsonl: JSON lines, output tensors as base64 TensorProto), run.json (any JSON text)
// and the results.json files `qconform diff` compares. Malformed input is a JsonError or
// CaseIoError naming the file and line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "onnx_io/tensor_proto.h"
#include "report/journal.h"
#include "report/json_value.h"
#include "report/run_diff.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qconform::SetMaxTensorElements(1 << 20);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    qconform::report::ParseJson(text);
  } catch (const qconform::report::JsonError&) {
  }
  try {
    for (const qconform::report::CaseRecord& r : qconform::report::ParseResults(text, "x").cases) {
      (void)r.operator_version();
    }
  } catch (const qconform::report::JsonError&) {
  }
  try {
    for (const auto& [id, r] : qconform::report::ParseJournal(text, "observed.jsonl")) {
      // A record read back writes the same line again.
      const std::string line = qconform::report::JournalLine(id, r.observed, r.seconds);
      const auto again = qconform::report::ParseJournal(line + "\n", "again");
      if (again.size() != 1 || again.begin()->first != id) __builtin_trap();
    }
  } catch (const qconform::report::JsonError&) {
  } catch (const qconform::CaseIoError&) {
  }
  return 0;
}
