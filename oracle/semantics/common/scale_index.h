// Which x_scale / x_zero_point element applies to each element of x: per-tensor (always 0),
// per-axis (the coordinate along axis) or blocked (the axis coordinate divided by block_size,
// other coordinates unchanged). Shared by every quantization operator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "oracle/registry/schema.h"

namespace qconform {

class ScaleIndex {
 public:
  // x_shape is x's shape, axis already in [0, rank), block_size > 0 only for kBlocked; the
  // blocked scale's axis length is ceil(D[axis] / block_size).
  ScaleIndex(Granularity g, const std::vector<int64_t>& x_shape, int axis, int64_t block_size);

  // One past the last flat index from i on that uses the same scale element as i (a run):
  // the whole tensor per-tensor, a stretch of `inner` elements per-axis, up to the next block
  // or row boundary when blocking the last axis (else a single element).
  int64_t run_end(int64_t i, int64_t n) const {
    int64_t end = n;
    switch (granularity_) {
      case Granularity::kPerTensor:
        break;
      case Granularity::kPerAxis:
        end = (i / inner_ + 1) * inner_;
        break;
      case Granularity::kBlocked:
        if (inner_ == 1) {
          const int64_t p = i % axis_length_;
          end = std::min(i - p + axis_length_, i - p % block_size_ + block_size_);
        } else {
          end = i + 1;
        }
        break;
    }
    return std::min(end, n);
  }

  // Calls f(begin, end, k) for each run from b on, in order, with its scale element k, until
  // f returns false or the runs reach n; returns where the runs stopped. Incremental: no
  // division per run (consecutive runs use consecutive scale elements, modulo the axis),
  // except for blocks along an axis that is not the last (runs of one element).
  template <class F>
  int64_t ForEachRun(int64_t b, int64_t n, F f) const {
    if (b >= n) return b;
    switch (granularity_) {
      case Granularity::kPerTensor:
        f(b, n, int64_t{0});
        return n;
      case Granularity::kPerAxis: {
        int64_t k = (b / inner_) % axis_length_;
        while (b < n) {
          const int64_t end = std::min((b / inner_ + 1) * inner_, n);
          if (!f(b, end, k)) return end;
          b = end;
          k = k + 1 == axis_length_ ? 0 : k + 1;
        }
        return b;
      }
      case Granularity::kBlocked:
        break;
    }
    if (inner_ != 1) {
      for (; b < n; ++b) {
        if (!f(b, b + 1, (*this)(b))) return b + 1;
      }
      return b;
    }
    // Blocks along the last axis: k steps through the row's blocks, then the next row's.
    int64_t p = b % axis_length_, k = (*this)(b);
    while (b < n) {
      const int64_t length = std::min(block_size_ - p % block_size_, axis_length_ - p);
      const int64_t end = std::min(b + length, n);
      if (!f(b, end, k)) return end;
      p += end - b;
      if (p == axis_length_) p = 0;
      b = end;
      ++k;
    }
    return b;
  }

  // Flat (row-major) index into x_scale for flat index i of x.
  int64_t operator()(int64_t i) const {
    switch (granularity_) {
      case Granularity::kPerTensor:
        return 0;
      case Granularity::kPerAxis:
        return (i / inner_) % axis_length_;
      case Granularity::kBlocked: {
        const int64_t outer = i / (axis_length_ * inner_);
        const int64_t k = (i / inner_) % axis_length_;
        return (outer * scale_axis_length_ + k / block_size_) * inner_ + i % inner_;
      }
    }
    return 0;
  }

 private:
  Granularity granularity_;
  int64_t inner_ = 1;        // product of the dimensions after axis
  int64_t axis_length_ = 1;  // D[axis]
  int64_t scale_axis_length_ = 1;
  int64_t block_size_ = 1;
};

// Row-major coordinates of flat index i in shape.
std::vector<int64_t> Coordinates(const std::vector<int64_t>& shape, int64_t i);

// ceil(length / block_size): the number of blocks along an axis (length >= 0, block_size >= 1),
// without the overflow of (length + block_size - 1) for a block_size near INT64_MAX (found by
// fuzzing: block_size is an attribute, any int64).
inline int64_t BlockCount(int64_t length, int64_t block_size) {
  return length == 0 ? 0 : (length - 1) / block_size + 1;
}

}  // namespace qconform
