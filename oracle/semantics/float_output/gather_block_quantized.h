// com.microsoft GatherBlockQuantized (ONNX Runtime's ContribOperators.md; docs/semantics.md#d36):
// a Gather of block-quantized codes along gather_axis, each gathered code dequantized as
// (code - zero_point) * scale with the scale and zero point of its block along quantize_axis
// (block_size codes a block), and rounded once to the scales' float type. data is int4, uint4 or
// uint8; uint8 data of bits 2 or 4 holds 8 / bits codes per byte along its last dimension, low
// bits first, and its zero points the same way along quantize_axis. Absent zero points are 0
// (int4, uint4) or 2^(bits - 1) (uint8). Exact: no element has a range.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/exact.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/plans.h"

namespace qconform {

struct GatherBlockQuantizedValidation {
  std::vector<Finding> findings;
  std::optional<GatherBlockQuantizedPlan> plan;  // absent when must-reject
};
GatherBlockQuantizedValidation ValidateGatherBlockQuantized(const Case& c, const OpSchema& schema);

// Where output element i comes from: its code's flat position in data's logical shape (`at`
// gives its coordinates), the code, its block's scale code and zero-point code (of data's type;
// the default when absent). Found by arithmetic on the gather's and the quantization's views of
// data ([outer, s, inner] and [x, quantize dimension, z]), without allocating.
struct GatherSource {
  int64_t flat = 0;
  uint32_t code = 0, zero_point = 0, scale = 0;
  int64_t scale_index = 0;  // the block's position in scales
};
class GatherBlockSources {
 public:
  GatherBlockSources(const Case& c, const GatherBlockQuantizedPlan& p);
  GatherSource operator()(int64_t i) const;  // every field
  uint32_t scale_code(int64_t scale_index) const {
    return scales_.codes[static_cast<size_t>(scale_index)];
  }
  std::vector<int64_t> at(int64_t flat) const;  // coordinates in data's logical shape
  // f(i, source) for every output element in order, each gathered slice walked along data
  // without a division per element; the source's scale code is left 0 (read it by scale_index
  // once per block: scale_code).
  template <class F>
  void ForEach(F&& f) const {
    int64_t i = 0;
    for (int64_t outer = 0; outer < outer_; ++outer) {
      for (int64_t index : p_.indices) {
        const int64_t flat = (outer * size_ + index) * inner_;
        Walk w{flat,      flat / (along_ * z_), flat / z_ % along_,
               flat % z_, flat / last_,         flat % last_};
        for (int64_t t = 0; t < inner_; ++t, ++i) {
          f(i, Read(w));
          Advance(w);
        }
      }
    }
  }

 private:
  struct Walk {  // data's flat position, its [x, y, z] and its (row, column) of the last axis
    int64_t flat, x, y, z, row, column;
  };
  GatherSource Read(const Walk& w) const;
  void Advance(Walk& w) const {
    ++w.flat;
    if (++w.z == z_) w.z = 0, w.y = w.y + 1 == along_ ? (++w.x, 0) : w.y + 1;
    if (++w.column == last_) w.column = 0, ++w.row;
  }

  const Tensor& data_;
  const Tensor& scales_;
  const Tensor* zero_points_;
  const GatherBlockQuantizedPlan& p_;
  uint32_t default_zero_point_ = 0;
  int64_t outer_ = 1, inner_ = 1, size_ = 1, index_count_ = 1;  // the gather's [outer, size, inner]
  int64_t along_ = 1, z_ = 1, blocks_ = 1, zp_blocks_ = 1;      // the quantization's: [x, along, z]
  int64_t last_ = 1, row_bytes_ = 1;  // uint8 of bits < 8: codes and bytes per last-axis row
  int per_byte_shift_ = 0, block_shift_ = 0;  // log2 of per_byte and block_size (powers of two)
};

// The small-bit field `slot` of a byte, low bits first.
inline uint32_t GatherField(uint32_t byte, int64_t slot, int64_t bits) {
  return (byte >> (slot * bits)) & ((1u << bits) - 1);
}

inline GatherSource GatherBlockSources::Read(const Walk& w) const {
  GatherSource s;
  s.flat = w.flat;
  if (p_.per_byte == 1) {
    s.code = data_.codes[static_cast<size_t>(w.flat)];
  } else {  // uint8 of bits < 8: per_byte codes a byte along the last axis
    s.code = GatherField(
        data_.codes[static_cast<size_t>(w.row * row_bytes_ + (w.column >> per_byte_shift_))],
        w.column & (p_.per_byte - 1), p_.bits);
  }
  const int64_t block = w.y >> block_shift_;
  s.scale_index = (w.x * blocks_ + block) * z_ + w.z;
  if (zero_points_ == nullptr) {
    s.zero_point = default_zero_point_;
  } else if (p_.per_byte == 1) {
    s.zero_point = zero_points_->codes[static_cast<size_t>(s.scale_index)];
  } else {  // packed along quantize_axis, per_byte blocks to a byte
    const int64_t at = (w.x * zp_blocks_ + (block >> per_byte_shift_)) * z_ + w.z;
    s.zero_point = GatherField(zero_points_->codes[static_cast<size_t>(at)],
                               block & (p_.per_byte - 1), p_.bits);
  }
  return s;
}

// Element i exactly (the reference, and explain): the value (code - zero_point) * scale and its
// output code.
struct GatherBlockElement {
  GatherSource source;
  Exact value;
  uint32_t output = 0;
};
GatherBlockElement GatherBlockQuantizedElement(const Case& c, const GatherBlockQuantizedPlan& p,
                                               int64_t i);

OutputEvaluation EvaluateGatherBlockQuantized(const Case& c, const OpSchema& schema,
                                              const GatherBlockQuantizedPlan& plan,
                                              const EvaluateOptions& options = {});

}  // namespace qconform
