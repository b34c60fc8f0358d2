// Conv's geometry, as the ONNX Conv page of the same opset defines it and QLinearConv and
// ConvInteger inherit (docs/semantics.md#d25): x is [N, C, D1, ...], w is [M, C / group, k1, ...]
// with 1 to 3 spatial dimensions; kernel_shape is inferred from w when absent; pads are
// [x1_begin, x2_begin, ..., x1_end, x2_end, ...]; auto_pad SAME_UPPER and SAME_LOWER give
// ceil(D / stride) outputs with the odd padding at the end (UPPER) or the beginning (LOWER);
// VALID pads nothing. Everything is canonicalised to three spatial dimensions, the case's last
// (leading ones of size 1 added: the memory layout is the same), so that one loop nest serves 1-D,
// 2-D and 3-D convolutions with the last axis innermost.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace qconform {

// The attributes as the node sets them (absent ones nullopt).
struct ConvAttributes {
  std::optional<std::string> auto_pad;
  std::optional<std::vector<int64_t>> kernel_shape, pads, strides, dilations;
  std::optional<int64_t> group;
  // A pool's ceil_mode (AveragePool, MaxPool; QLinearAveragePool): the output size rounded up,
  // a window that would start in the end padding dropped.
  bool ceil_mode = false;
};
// Reads them from a case (an attribute of the wrong kind reads as absent: the node validation
// rejects it first).
ConvAttributes ConvAttributesOf(const Case& c);

// What makes a geometry impossible, one per rule id suffix (oracle/registry/rules.cc).
enum class ConvProblem {
  kNone,
  kRank,         // shape.rank: x of rank 3 or more, w of x's rank
  kChannels,     // shape.channels: C == w.shape[1] * group
  kGroup,        // shape.group: M divisible by group
  kAttrGroup,    // attr.group: group >= 1
  kKernelShape,  // attr.kernel_shape: one per spatial dimension, w's
  kPads,         // attr.pads: two per spatial dimension, non-negative
  kStrides,      // attr.strides: one per spatial dimension, positive
  kDilations,    // attr.dilations: one per spatial dimension, positive
  kAutoPad,      // attr.auto_pad: NOTSET, SAME_UPPER, SAME_LOWER or VALID
  kAutoPadPads,  // attr.auto_pad_pads: pads set with auto_pad other than NOTSET
  kOutputEmpty,  // shape.output: the dilated kernel larger than the padded input
  // More than 3 spatial dimensions: valid ONNX, beyond what the oracle computes (no rule: the
  // oracle says it cannot judge the case, never a silent verdict).
  kSpatialRank,
};
// The rule id suffix of a problem ("shape.rank"); "" for kNone and kSpatialRank.
const char* ConvProblemRule(ConvProblem p);

constexpr int kConvDims = 3;
using ConvDims = std::array<int64_t, kConvDims>;

struct ConvGeometry {
  int spatial_rank = 2;  // of the case: 1, 2 or 3
  int64_t n = 1, c = 1, m = 1, group = 1;
  // Canonical spatial dimensions (the case's last, leading ones 1).
  ConvDims in{1, 1, 1}, kernel{1, 1, 1}, strides{1, 1, 1}, dilations{1, 1, 1};
  ConvDims pads_begin{0, 0, 0}, pads_end{0, 0, 0}, out{1, 1, 1};
  std::vector<int64_t> output_shape;  // [N, M, out_1, ..., out_r]

  int64_t c_per_group() const { return c / group; }
  int64_t m_per_group() const { return m / group; }
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
  int64_t kernel_size() const { return kernel[0] * kernel[1] * kernel[2]; }
  // The products summed into one output element: C / group * the kernel's elements.
  int64_t window() const { return c_per_group() * kernel_size(); }
  // The first input coordinate of output coordinate o along spatial dimension d (may be negative:
  // padding).
  int64_t origin(int d, int64_t o) const { return o * strides[d] - pads_begin[d]; }
  // A pool window's taps along d within the padded input (count_include_pad 1 divides by their
  // product): kernel[d], less what passes the end padding, which ceil_mode's last window may.
  int64_t padded_taps(int d, int64_t o) const {
    return std::min(origin(d, o) + kernel[d], in[d] + pads_end[d]) - origin(d, o);
  }
  int64_t padded_taps(const ConvDims& o) const {
    return padded_taps(0, o[0]) * padded_taps(1, o[1]) * padded_taps(2, o[2]);
  }
};

struct ConvGeometryResult {
  std::optional<ConvGeometry> geometry;
  ConvProblem problem = ConvProblem::kNone;
  std::string why;  // for a problem: what is wrong, naming the attribute or the dimension
};
ConvGeometryResult MakeConvGeometry(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                                    const ConvAttributes& a);

// A pool's geometry (AveragePool's, QLinearAveragePool's): x [N, C, D1, ...], kernel_shape one
// positive size per spatial dimension, no dilations: Conv's with w = [C, 1, k1, ...] and group C.
// x of rank below 3 is kRank, a missing or wrong kernel_shape kKernelShape.
ConvGeometryResult MakePoolGeometry(const std::vector<int64_t>& x, const ConvAttributes& a);
// The com.microsoft pools' channels_last: an INT attribute other than 0 (absent: 0).
bool ChannelsLastOf(const Case& c);
// A com.microsoft pool's geometry as the case sets it: MakePoolGeometry of X's shape (read as
// N x C x D1 ... when channels_last) and the case's attributes.
ConvGeometryResult CasePoolGeometry(const Case& c, const std::vector<int64_t>& x_shape);
// channels_last 1's layout [N, D1, ..., C] read as [N, C, D1, ...], and back.
std::vector<int64_t> ChannelsFirstShape(std::vector<int64_t> shape);
std::vector<int64_t> ChannelsLastShape(std::vector<int64_t> shape);

// The output shape a runtime infers, for a declared output; for an impossible geometry the
// shape as far as it is known ([N, M] when x and w have ranks).
std::vector<int64_t> ConvOutputShape(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                                     const ConvAttributes& a);

}  // namespace qconform
