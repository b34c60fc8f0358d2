// libFuzzer: the TensorProto reader (every element type, raw_data and each typed field, external
// data refused). Any input is a tensor or a CaseIoError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "onnx_io/tensor_proto.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qconform::SetMaxTensorElements(1 << 20);  // bounds the work, as --max-elements does
  try {
    const qconform::Tensor t =
        qconform::TensorFromBytes(std::string(reinterpret_cast<const char*>(data), size), "input");
    // What was read must write back and read again as the same tensor.
    const qconform::Tensor again =
        qconform::TensorFromBytes(qconform::TensorBytes(t, "x"), "written");
    if (!(again == t)) __builtin_trap();
  } catch (const qconform::CaseIoError&) {
  }
  return 0;
}
