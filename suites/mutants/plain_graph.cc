#include "suites/mutants/plain_graph.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

#include "oracle/core/case_builder.h"
#include "suites/mutants/defects.h"
#include "suites/mutants/plain_graph_ops.h"

namespace qconform::mutants {
namespace {

using Real = long double;
using D = DataType;

struct Range {
  int64_t lo, hi;
};
std::optional<Range> IntegerRange(D t) {
  if (t == D::kUint8) return Range{0, 255};
  if (t == D::kInt8) return Range{-128, 127};
  if (t == D::kInt32) return Range{INT32_MIN, INT32_MAX};
  return std::nullopt;
}

GraphTensor Decoded(const Tensor& t) {
  GraphTensor g;
  g.type = static_cast<D>(t.data_type);
  g.shape = t.shape;
  const bool integer = IntegerRange(g.type).has_value();
  if (!integer && g.type != D::kFloat) throw Unsupported{"a tensor of another type than 8-bit"};
  for (size_t i = 0; i < t.codes.size(); ++i) {
    const uint32_t code = t.codes[i];
    if (g.type == D::kFloat) g.v.push_back(std::bit_cast<float>(code));
    if (g.type == D::kUint8) g.v.push_back(code);
    if (g.type == D::kInt8) g.v.push_back(static_cast<int8_t>(static_cast<uint8_t>(code)));
    if (g.type == D::kInt32) g.v.push_back(static_cast<int32_t>(code));
  }
  return g;
}

Tensor Encoded(const GraphTensor& g) {
  std::vector<uint32_t> codes;
  for (Real v : g.v) {
    codes.push_back(g.type == D::kFloat ? std::bit_cast<uint32_t>(static_cast<float>(v))
                                        : static_cast<uint32_t>(static_cast<int64_t>(v)) & 0xFFu);
  }
  return MakeTensorFromCodes(g.type, g.shape, codes);
}

// Element i's parameter index: per tensor, along `axis`, or in blocks of `block` along it.
size_t ParameterOf(const std::vector<int64_t>& shape, size_t count, int64_t axis, int64_t block,
                   size_t i) {
  if (count == 1) return 0;
  axis = axis < 0 ? axis + static_cast<int64_t>(shape.size()) : axis;
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t along = (static_cast<int64_t>(i) / inner) % shape[static_cast<size_t>(axis)];
  if (block == 0) return static_cast<size_t>(along);
  // Blocked: the scale has x's shape with the axis cut into blocks of `block`.
  const int64_t length = shape[static_cast<size_t>(axis)];
  const int64_t outer = static_cast<int64_t>(i) / (inner * length);
  return static_cast<size_t>((outer * ((length + block - 1) / block) + along / block) * inner +
                             static_cast<int64_t>(i) % inner);
}

class Evaluation {
 public:
  explicit Evaluation(const Case& c) : c_(c) {
    for (size_t k = 0; k < c.inputs.size() && k < c.input_names.size(); ++k) {
      if (c.inputs[k]) values_[c.input_names[k]] = Decoded(*c.inputs[k]);
    }
    for (const Node& n : c.graph) {
      for (const std::string& o : n.outputs) producer_[o] = &n;
    }
  }

  BackendResult Run() {
    for (const Node& n : c_.graph) {
      std::vector<const GraphTensor*> in;
      for (const std::string& name : n.inputs) in.push_back(Find(name));
      if (std::optional<BackendError> e = Compute(n, in)) return BackendResult(e, {});
    }
    std::vector<Tensor> outputs;
    for (const std::string& name : c_.output_names) outputs.push_back(Encoded(*Find(name)));
    return BackendResult(std::nullopt, std::move(outputs));
  }

 private:
  const GraphTensor* Find(const std::string& name) const {
    const auto v = values_.find(name);
    return v == values_.end() ? nullptr : &v->second;
  }
  const ::qconform::Node* Producer(const std::string& name) const {
    const auto p = producer_.find(name);
    return p == producer_.end() ? nullptr : p->second;
  }
  bool Feeds(const std::string& value, const std::string& op, size_t input) const {
    for (const ::qconform::Node& n : c_.graph) {
      if (n.op_type == op && n.inputs.size() > input && n.inputs[input] == value) return true;
    }
    return false;
  }

  std::optional<BackendError> Compute(const ::qconform::Node& n,
                                      const std::vector<const GraphTensor*>& in) {
    if (n.op_type == "DequantizeLinear") return Dequantize(n, in);
    if (n.op_type == "QuantizeLinear") return Quantize(n, in);
    std::vector<const GraphTensor*> args = in;
    GraphTensor quantized;
    if (n.op_type == "MatMul" && On(Defect::kGraphActivationsInt8) && in.size() == 2 &&
        Producer(n.inputs[0]) == nullptr && Producer(n.inputs[1]) != nullptr) {
      quantized = Int8Blocks(*in[0]);  // MatMulNBits at accuracy level 4: A to int8 per block
      args[0] = &quantized;
    }
    std::optional<GraphTensor> y = FloatOp(n, args);
    if (!y) throw Unsupported{n.op_type};
    values_[n.outputs.at(0)] = std::move(*y);
    return std::nullopt;
  }

  // A [M, K] quantized symmetrically to int8 per block of 32 along K (scale max |a| / 127, half
  // to even) and dequantized.
  static GraphTensor Int8Blocks(const GraphTensor& a) {
    GraphTensor q = a;
    const auto k = static_cast<size_t>(a.shape.back());
    for (size_t row = 0; row < a.size(); row += k) {
      for (size_t start = row; start < row + k; start += 32) {
        const size_t end = std::min(row + k, start + 32);
        Real top = 0;
        for (size_t i = start; i < end; ++i) top = std::max(top, std::fabs(a.v[i]));
        const Real scale = static_cast<float>(top / 127);
        for (size_t i = start; i < end; ++i) {
          q.v[i] = scale == 0 ? 0 : std::nearbyint(a.v[i] / scale) * scale;
        }
      }
    }
    return q;
  }

  std::optional<BackendError> Dequantize(const ::qconform::Node& n,
                                         const std::vector<const GraphTensor*>& in) {
    const GraphTensor &x = *in.at(0), &s = *in.at(1);
    const GraphTensor* zp = in.size() > 2 ? in[2] : nullptr;
    int64_t axis = IntAttribute(n, "axis", 1);
    // A fused Conv or MatMul reads its weight's scales per output channel, whatever the axis.
    if (On(Defect::kGraphWeightAxisAsOutputChannel) && s.size() > 1 &&
        IntAttribute(n, "block_size", 0) == 0) {
      if (Feeds(n.outputs[0], "Conv", 1)) axis = 0;
      if (Feeds(n.outputs[0], "MatMul", 1)) axis = static_cast<int64_t>(x.shape.size()) - 1;
      const auto along =
          static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(x.shape.size()) : axis);
      if (x.shape.at(along) != static_cast<int64_t>(s.size())) {
        return BackendError{ErrorKind::kRejectedAtRun,
                            "the weight's scales do not match its output channels"};
      }
    }
    GraphTensor y;
    y.shape = x.shape;
    for (size_t i = 0; i < x.size(); ++i) {
      const size_t p = ParameterOf(x.shape, s.size(), axis, IntAttribute(n, "block_size", 0), i);
      const Real z = zp != nullptr ? zp->v.at(p) : 0;
      y.v.push_back(static_cast<float>((x.v[i] - z) * s.v.at(p)));
    }
    values_[n.outputs.at(0)] = std::move(y);
    return std::nullopt;
  }

  std::optional<BackendError> Quantize(const ::qconform::Node& n,
                                       const std::vector<const GraphTensor*>& in) {
    const GraphTensor* x = in.at(0);
    const GraphTensor& s = *in.at(1);
    const GraphTensor* zp = in.size() > 2 ? in[2] : nullptr;
    if (s.size() != 1) throw Unsupported{"a QuantizeLinear with per-axis parameters"};
    const D type = zp != nullptr ? zp->type : D::kUint8;
    const std::optional<Range> range = IntegerRange(type);
    if (!range) throw Unsupported{"a QuantizeLinear to another type than 8-bit"};
    // Two Q/DQ pairs merged: this Q reads the value the earlier pair quantized.
    const ::qconform::Node* dq = Producer(n.inputs[0]);
    if (On(Defect::kGraphQdqPairsMerged) && dq != nullptr && dq->op_type == "DequantizeLinear") {
      const ::qconform::Node* q = Producer(dq->inputs[0]);
      if (q != nullptr && q->op_type == "QuantizeLinear") x = Find(q->inputs[0]);
    }
    const ::qconform::Node* from = Producer(n.inputs[0]);
    const std::string fused = from != nullptr ? from->op_type : "";
    const bool fusable = fused == "Add" || fused == "Mul" || fused == "AveragePool";
    const Real z = zp != nullptr ? zp->v.at(0) : 0;
    GraphTensor y;
    y.type = type;
    y.shape = x->shape;
    for (Real v : x->v) {
      const Real q = v / s.v[0];
      Real code = std::nearbyint(q) + z;
      if (fusable && On(Defect::kGraphZeroPointBeforeRounding)) code = std::nearbyint(q + z);
      if ((fused == "Add" || fused == "Mul") && On(Defect::kGraphOverflowToMin) &&
          code > static_cast<Real>(range->hi)) {
        code = static_cast<Real>(range->lo);
      }
      y.v.push_back(std::clamp(code, static_cast<Real>(range->lo), static_cast<Real>(range->hi)));
    }
    values_[n.outputs.at(0)] = std::move(y);
    return std::nullopt;
  }

  const Case& c_;
  std::map<std::string, GraphTensor> values_;
  std::map<std::string, const ::qconform::Node*> producer_;
};

}  // namespace

BackendResult RunPlainGraph(const Case& c) {
  try {
    return Evaluation(c).Run();
  } catch (const Unsupported& u) {
    return BackendResult(BackendError{ErrorKind::kUnsupported, "plain graph: " + u.why}, {});
  } catch (const std::exception& e) {
    return BackendResult(
        BackendError{ErrorKind::kUnsupported, "plain graph: " + std::string(e.what())}, {});
  }
}

}  // namespace qconform::mutants
