// libFuzzer: what a plugin hands back through alloc_output (adapters/plugin/plugin_outputs.h):
// any sequence of requests, with any index, data type, rank, dimensions and byte size. A buffer
// it grants must hold byte_size bytes (ASan checks the writes); a bad request is refused before
// anything is allocated.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstring>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_outputs.h"
#include "onnx_io/tensor_proto.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qconform::SetMaxTensorElements(1 << 20);
  FuzzedDataProvider in(data, size);
  qconform::PluginOutputs outputs(in.ConsumeIntegralInRange<size_t>(0, 3));
  while (in.remaining_bytes() > 0) {
    const int32_t index = in.ConsumeIntegralInRange<int32_t>(-1, 4);
    const int32_t data_type = in.ConsumeIntegralInRange<int32_t>(-1, 30);
    const int32_t rank = in.ConsumeIntegralInRange<int32_t>(-1, 6);
    std::vector<int64_t> dims;
    for (int32_t k = 0; k < rank; ++k) {
      dims.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-2, 64)
                                      : in.ConsumeIntegral<int64_t>());
    }
    const size_t byte_size = in.ConsumeBool() ? in.ConsumeIntegralInRange<size_t>(0, 4096)
                                              : in.ConsumeIntegral<size_t>();
    void* buffer =
        outputs.Alloc(index, data_type, rank, rank > 0 ? dims.data() : nullptr, byte_size);
    if (buffer != nullptr) std::memset(buffer, 0xA5, byte_size);
  }
  std::string error;
  const std::vector<qconform::Tensor> tensors = outputs.Collect(error);
  if (error.empty() == false && !tensors.empty()) __builtin_trap();
  return 0;
}
