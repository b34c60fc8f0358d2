#include "adapters/plugin/plugin_outputs.h"

#include "onnx_io/tensor_proto.h"  // MaxTensorElements
#include "oracle/core/element_type.h"
#include "oracle/core/packing.h"

namespace qconform {

void* PluginOutputs::Alloc(int32_t index, int32_t data_type, int32_t rank, const int64_t* dims,
                           size_t byte_size) {
  const auto refuse = [&](const std::string& why) -> void* {
    if (error_.empty()) error_ = "alloc_output: " + why;
    return nullptr;
  };
  const ElementType* t = FindElementType(data_type);
  if (index < 0 || static_cast<size_t>(index) >= slots_.size()) {
    return refuse("output index " + std::to_string(index) + " (the node has " +
                  std::to_string(slots_.size()) + ")");
  }
  if (t == nullptr) return refuse("unknown data_type " + std::to_string(data_type));
  if (rank < 0 || rank > 64 || (rank > 0 && dims == nullptr)) {
    return refuse("rank " + std::to_string(rank));
  }
  int64_t count = 1;
  for (int32_t k = 0; k < rank; ++k) {
    if (dims[k] < 0) return refuse("dimension " + std::to_string(dims[k]));
    if (dims[k] > 0 && count > MaxTensorElements() / dims[k]) {
      return refuse("more than " + std::to_string(MaxTensorElements()) + " elements");
    }
    count *= dims[k];
  }
  if (count > MaxTensorElements()) {
    return refuse("more than " + std::to_string(MaxTensorElements()) + " elements");
  }
  if (byte_size != RawDataSize(*t, static_cast<size_t>(count))) {
    return refuse(std::to_string(byte_size) + " bytes for " + std::to_string(count) +
                  " elements of " + DataTypeName(data_type));
  }
  Slot& slot = slots_[static_cast<size_t>(index)];
  slot.allocated = true;
  slot.data_type = data_type;
  slot.dims.assign(dims, dims + rank);
  slot.bytes.assign(byte_size, '\0');
  return slot.bytes.data();
}

std::vector<Tensor> PluginOutputs::Collect(std::string& error) const {
  error = error_;
  std::vector<Tensor> out;
  for (size_t k = 0; k < slots_.size() && error.empty(); ++k) {
    const Slot& slot = slots_[k];
    if (!slot.allocated) {
      error = "the plugin returned OK without output " + std::to_string(k);
      break;
    }
    int64_t count = 1;
    for (int64_t d : slot.dims) count *= d;  // checked in Alloc
    out.push_back(
        Tensor{slot.data_type, slot.dims,
               UnpackRaw(*FindElementType(slot.data_type), slot.bytes, static_cast<size_t>(count)),
               false});
  }
  if (!error.empty()) out.clear();
  return out;
}

}  // namespace qconform
