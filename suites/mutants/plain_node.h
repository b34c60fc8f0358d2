// The mutant backend's view of a node: tensors unpacked into codes, attributes by name, and the
// index arithmetic of per-axis and blocked parameters. Plain code, its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "adapters/plugin/qconform_plugin.h"
#include "suites/mutants/plain_format.h"

namespace qconform::mutants {

struct PlainTensor {
  int32_t data_type = 0;  // 0: absent
  const Format* format = nullptr;
  std::vector<int64_t> dims;
  std::vector<uint32_t> codes;

  bool present() const { return data_type != 0; }
  int64_t count() const;
  bool scalar_like() const { return dims.empty() || (dims.size() == 1 && dims[0] == 1); }
};

// Sub-byte elements packed from the lowest bits (ONNX's layout), or from the highest (a defect).
enum class BitOrder { kLowFirst, kHighFirst };

PlainTensor Unpack(const qconform_tensor& t, BitOrder order = BitOrder::kLowFirst);
// Packs codes into raw_data bytes; `masked` false ORs each code in unmasked (a defect).
std::vector<uint8_t> Pack(int bits, const std::vector<uint32_t>& codes, BitOrder order,
                          bool masked = true);

struct PlainNode {
  std::string op_type, domain;
  int64_t opset = 0;
  const qconform_node* node = nullptr;

  const qconform_attribute* attribute(const char* name) const;
  // An INT attribute's value, `fallback` when absent.
  int64_t Int(const char* name, int64_t fallback) const;
  const qconform_tensor* input(int k) const;  // nullptr when absent
};

// Where element i's parameter lies: per-tensor (0), per-axis along `axis`, or blocked along
// `axis` with `block` elements a block (block 0: per-axis).
struct ParameterIndex {
  std::vector<int64_t> dims;
  int axis = -1;  // -1: per-tensor
  int64_t block = 0;
  int64_t scale_axis_length = 1;  // S along the axis (blocked)

  int64_t operator()(int64_t i) const;
};

// The writer of one output: allocates through the host and packs.
int32_t WriteOutput(qconform_alloc_output alloc, void* context, int index, const Format& f,
                    const std::vector<int64_t>& dims, const std::vector<uint32_t>& codes,
                    BitOrder order, bool masked, char* message, size_t message_size);

}  // namespace qconform::mutants
