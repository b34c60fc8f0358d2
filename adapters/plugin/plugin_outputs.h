// What a plugin hands back through alloc_output (adapters/plugin/qconform_plugin.h), checked
// before anything is trusted: the output index, the data type, the rank and dimensions (none
// negative, their product within MaxTensorElements, no overflow), and the byte size for that
// many elements. A plugin that breaks any of these gets nullptr and its case a protocol error;
// the host never allocates what a bad request asks for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace qconform {

class PluginOutputs {
 public:
  explicit PluginOutputs(size_t count) : slots_(count) {}

  // alloc_output: a zeroed buffer of byte_size bytes, or nullptr (error() says why).
  void* Alloc(int32_t index, int32_t data_type, int32_t rank, const int64_t* dims,
              size_t byte_size);
  // After the plugin returned OK: every output as a tensor, or an error naming the first
  // problem (an earlier bad request, an output never allocated).
  std::vector<Tensor> Collect(std::string& error) const;
  const std::string& error() const { return error_; }

 private:
  struct Slot {
    bool allocated = false;
    int32_t data_type = 0;
    std::vector<int64_t> dims;
    std::string bytes;
  };
  std::vector<Slot> slots_;
  std::string error_;  // the first bad request
};

}  // namespace qconform
