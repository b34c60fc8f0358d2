#include "oracle/core/conv_shape.h"

#include <algorithm>

namespace qconform {
namespace {

std::string List(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// ceil(a / b) for a >= 0, b > 0.
int64_t CeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

class GeometryBuilder {
 public:
  GeometryBuilder(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                  const ConvAttributes& a)
      : x_(x), w_(w), a_(a) {}

  ConvGeometryResult Run() {
    if (!Ranks() || !Attributes() || !Channels() || !Padding()) return std::move(r_);
    r_.geometry = g_;
    return std::move(r_);
  }

 private:
  bool Fail(ConvProblem p, std::string why) {
    r_.problem = p;
    r_.why = std::move(why);
    return false;
  }

  bool Ranks() {
    if (x_.size() < 3) {
      return Fail(ConvProblem::kRank, "x has shape " + ShapeString(x_) +
                                          "; Conv takes [N, C, D1, ...]: rank 3 or more");
    }
    if (x_.size() > 2 + kConvDims) {
      return Fail(ConvProblem::kSpatialRank,
                  "x has shape " + ShapeString(x_) + ": " + std::to_string(x_.size() - 2) +
                      " spatial dimensions; the oracle computes 1 to " + std::to_string(kConvDims));
    }
    if (w_.size() != x_.size()) {
      return Fail(ConvProblem::kRank, "w has shape " + ShapeString(w_) + ", x " + ShapeString(x_) +
                                          "; w is [M, C / group, k1, ...] of x's rank");
    }
    g_.spatial_rank = static_cast<int>(x_.size()) - 2;
    g_.n = x_[0], g_.c = x_[1], g_.m = w_[0];
    return true;
  }

  // A list attribute: absent gives `fallback` per dimension; present, it must have `per` values
  // per spatial dimension, each at least `least`.
  bool ListAttribute(const std::optional<std::vector<int64_t>>& v, const char* name, int per,
                     int64_t least, ConvProblem problem, std::vector<int64_t>& out) {
    const auto r = static_cast<size_t>(g_.spatial_rank);
    if (!v) return true;
    if (v->size() != r * static_cast<size_t>(per)) {
      return Fail(problem, std::string(name) + " is " + List(*v) + ": " +
                               std::to_string(r * static_cast<size_t>(per)) + " values for " +
                               std::to_string(r) + " spatial dimension(s)");
    }
    for (int64_t value : *v) {
      if (value < least) {
        return Fail(problem, std::string(name) + " is " + List(*v) + ": each must be at least " +
                                 std::to_string(least));
      }
    }
    out = *v;
    return true;
  }

  bool Attributes() {
    const auto r = static_cast<size_t>(g_.spatial_rank);
    g_.group = a_.group.value_or(1);
    if (g_.group < 1) {
      return Fail(ConvProblem::kAttrGroup,
                  "group is " + std::to_string(g_.group) + "; it must be at least 1");
    }
    std::vector<int64_t> kernel(w_.begin() + 2, w_.end()), strides(r, 1), dilations(r, 1),
        pads(2 * r, 0);
    if (a_.kernel_shape) {
      if (*a_.kernel_shape != kernel) {
        return Fail(ConvProblem::kKernelShape, "kernel_shape is " + List(*a_.kernel_shape) +
                                                   " but w's spatial dimensions are " +
                                                   List(kernel));
      }
    }
    if (!ListAttribute(a_.strides, "strides", 1, 1, ConvProblem::kStrides, strides) ||
        !ListAttribute(a_.dilations, "dilations", 1, 1, ConvProblem::kDilations, dilations) ||
        !ListAttribute(a_.pads, "pads", 2, 0, ConvProblem::kPads, pads)) {
      return false;
    }
    const std::string mode = a_.auto_pad.value_or("NOTSET");
    if (mode != "NOTSET" && mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID") {
      return Fail(ConvProblem::kAutoPad, "auto_pad is '" + mode +
                                             "'; it must be NOTSET, SAME_UPPER, SAME_LOWER or "
                                             "VALID");
    }
    if (mode != "NOTSET" && a_.pads) {
      return Fail(ConvProblem::kAutoPadPads,
                  "pads " + List(*a_.pads) + " are set with auto_pad " + mode +
                      "; \"auto_pad must be either NOTSET, SAME_UPPER, SAME_LOWER or VALID\" and "
                      "explicit pads go with NOTSET");
    }
    mode_ = mode;
    const size_t first = kConvDims - r;  // right-aligned: the last axis stays the last
    for (size_t d = 0; d < r; ++d) {
      const size_t at = first + d;
      g_.in[at] = x_[d + 2], g_.kernel[at] = kernel[d], g_.strides[at] = strides[d];
      g_.dilations[at] = dilations[d], g_.pads_begin[at] = pads[d], g_.pads_end[at] = pads[d + r];
    }
    return true;
  }

  bool Channels() {
    if (g_.c != w_[1] * g_.group) {
      return Fail(ConvProblem::kChannels,
                  "x has " + std::to_string(g_.c) + " channels but w.shape[1] * group is " +
                      std::to_string(w_[1]) + " * " + std::to_string(g_.group));
    }
    if (g_.m % g_.group != 0) {
      return Fail(ConvProblem::kGroup, "w has " + std::to_string(g_.m) +
                                           " output channels, not a multiple of group " +
                                           std::to_string(g_.group));
    }
    return true;
  }

  bool Padding() {
    for (int d = kConvDims - g_.spatial_rank; d < kConvDims; ++d) {
      const int64_t extent = (g_.kernel[d] - 1) * g_.dilations[d] + 1;
      if (mode_ == "SAME_UPPER" || mode_ == "SAME_LOWER") {
        g_.out[d] = CeilDiv(g_.in[d], g_.strides[d]);
        const int64_t total =
            std::max<int64_t>(0, (g_.out[d] - 1) * g_.strides[d] + extent - g_.in[d]);
        const int64_t small = total / 2, large = total - small;
        g_.pads_begin[d] = mode_ == "SAME_UPPER" ? small : large;
        g_.pads_end[d] = mode_ == "SAME_UPPER" ? large : small;
      } else {
        if (mode_ == "VALID") g_.pads_begin[d] = g_.pads_end[d] = 0;
        const int64_t span = g_.in[d] + g_.pads_begin[d] + g_.pads_end[d];
        if (span < extent) {
          return Fail(ConvProblem::kOutputEmpty,
                      "spatial axis " + std::to_string(d - (kConvDims - g_.spatial_rank) + 1) +
                          ": the dilated kernel spans " + std::to_string(extent) +
                          " but the padded input only " + std::to_string(span));
        }
        // ceil_mode (AveragePool's and MaxPool's): "ceil or floor (default) to compute the
        // output shape"; a window that would start in the end padding is dropped, as ONNX's
        // AveragePool-19 says ("Sliding windows that would start in the right padded region
        // are ignored") and ONNX Runtime's and PyTorch's pools compute.
        g_.out[d] = (a_.ceil_mode ? CeilDiv(span - extent, g_.strides[d])
                                  : (span - extent) / g_.strides[d]) +
                    1;
        if (a_.ceil_mode && (g_.out[d] - 1) * g_.strides[d] >= g_.in[d] + g_.pads_begin[d]) {
          --g_.out[d];
        }
      }
    }
    g_.output_shape = {g_.n, g_.m};
    for (int d = kConvDims - g_.spatial_rank; d < kConvDims; ++d)
      g_.output_shape.push_back(g_.out[d]);
    return true;
  }

  const std::vector<int64_t>& x_;
  const std::vector<int64_t>& w_;
  const ConvAttributes& a_;
  std::string mode_;
  ConvGeometry g_;
  ConvGeometryResult r_;
};

}  // namespace

ConvAttributes ConvAttributesOf(const Case& c) {
  ConvAttributes a;
  const auto ints = [&](const char* name) -> std::optional<std::vector<int64_t>> {
    const Attribute* at = c.attribute(name);
    if (at == nullptr || at->kind != Attribute::Kind::kInts) return std::nullopt;
    return at->ints;
  };
  if (const Attribute* at = c.attribute("auto_pad"); at && at->kind == Attribute::Kind::kString)
    a.auto_pad = at->s;
  if (const Attribute* at = c.attribute("group"); at && at->kind == Attribute::Kind::kInt)
    a.group = at->i;
  a.kernel_shape = ints("kernel_shape");
  a.pads = ints("pads");
  a.strides = ints("strides");
  a.dilations = ints("dilations");
  if (const Attribute* at = c.attribute("ceil_mode"); at && at->kind == Attribute::Kind::kInt)
    a.ceil_mode = at->i != 0;
  return a;
}

const char* ConvProblemRule(ConvProblem p) {
  switch (p) {
    case ConvProblem::kNone:
      return "";
    case ConvProblem::kRank:
      return "shape.rank";
    case ConvProblem::kChannels:
      return "shape.channels";
    case ConvProblem::kGroup:
      return "shape.group";
    case ConvProblem::kAttrGroup:
      return "attr.group";
    case ConvProblem::kKernelShape:
      return "attr.kernel_shape";
    case ConvProblem::kPads:
      return "attr.pads";
    case ConvProblem::kStrides:
      return "attr.strides";
    case ConvProblem::kDilations:
      return "attr.dilations";
    case ConvProblem::kAutoPad:
      return "attr.auto_pad";
    case ConvProblem::kAutoPadPads:
      return "attr.auto_pad_pads";
    case ConvProblem::kOutputEmpty:
      return "shape.output";
    case ConvProblem::kSpatialRank:
      break;
  }
  return "";
}

ConvGeometryResult MakeConvGeometry(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                                    const ConvAttributes& a) {
  return GeometryBuilder(x, w, a).Run();
}

ConvGeometryResult MakePoolGeometry(const std::vector<int64_t>& x, const ConvAttributes& a) {
  ConvGeometryResult r;
  if (x.size() < 3) {
    r.problem = ConvProblem::kRank;
    r.why = "X has shape " + ShapeString(x) + "; the pool takes [N, C, D1, ...]: rank 3 or more";
    return r;
  }
  const std::vector<int64_t> kernel = a.kernel_shape.value_or(std::vector<int64_t>{});
  if (kernel.size() != x.size() - 2 ||
      std::any_of(kernel.begin(), kernel.end(), [](int64_t k) { return k < 1; })) {
    r.problem = ConvProblem::kKernelShape;
    r.why = "kernel_shape is " + List(kernel) + " for X of shape " + ShapeString(x) + ": " +
            std::to_string(x.size() - 2) + " positive sizes, one per spatial dimension";
    return r;
  }
  std::vector<int64_t> w = {x[1], 1};
  w.insert(w.end(), kernel.begin(), kernel.end());
  ConvAttributes conv = a;
  conv.group = x[1];
  return MakeConvGeometry(x, w, conv);
}

bool ChannelsLastOf(const Case& c) {
  const Attribute* last = c.attribute("channels_last");
  return last != nullptr && last->kind == Attribute::Kind::kInt && last->i != 0;
}

ConvGeometryResult CasePoolGeometry(const Case& c, const std::vector<int64_t>& x_shape) {
  return MakePoolGeometry(ChannelsLastOf(c) ? ChannelsFirstShape(x_shape) : x_shape,
                          ConvAttributesOf(c));
}

std::vector<int64_t> ChannelsFirstShape(std::vector<int64_t> shape) {
  if (shape.size() >= 3) std::rotate(shape.begin() + 1, shape.end() - 1, shape.end());
  return shape;
}

std::vector<int64_t> ChannelsLastShape(std::vector<int64_t> shape) {
  if (shape.size() >= 3) std::rotate(shape.begin() + 1, shape.begin() + 2, shape.end());
  return shape;
}

std::vector<int64_t> ConvOutputShape(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                                     const ConvAttributes& a) {
  const ConvGeometryResult r = MakeConvGeometry(x, w, a);
  if (r.geometry) return r.geometry->output_shape;
  if (x.empty() || w.empty()) return {};
  return {x[0], w[0]};
}

}  // namespace qconform
