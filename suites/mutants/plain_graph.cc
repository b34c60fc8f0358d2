#include "suites/mutants/plain_graph.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
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

  const ::qconform::Node* Consumer(const std::string& value, const std::string& op) const {
    for (const ::qconform::Node& n : c_.graph) {
      if (n.op_type == op && !n.inputs.empty() && n.inputs[0] == value) return &n;
    }
    return nullptr;
  }

  // ONNX Runtime's test for removing a Relu or Clip before a Q: Relu when Q's zero point is its
  // type's minimum, Clip when its bounds lie within float32's epsilon outside Q's domain
  // [scale * (lo - z), scale * (hi - z)]; the sign and size of the scale are not looked at.
  bool Droppable(const ::qconform::Node& n, const std::vector<const GraphTensor*>& in) const {
    const ::qconform::Node* q = Consumer(n.outputs.at(0), "QuantizeLinear");
    if (q == nullptr || q->inputs.size() < 3) return false;
    const GraphTensor *s = Find(q->inputs[1]), *zp = Find(q->inputs[2]);
    if (s == nullptr || zp == nullptr || s->size() != 1 || zp->size() != 1) return false;
    const std::optional<Range> range = IntegerRange(zp->type);
    if (!range) return false;
    const Real z = zp->v[0];
    if (n.op_type == "Relu") return z == static_cast<Real>(range->lo);
    const float lower = static_cast<float>(s->v[0] * (static_cast<Real>(range->lo) - z));
    const float upper = static_cast<float>(s->v[0] * (static_cast<Real>(range->hi) - z));
    const float min =
        in.size() > 1 && in[1] != nullptr ? static_cast<float>(in[1]->v.at(0)) : -INFINITY;
    const float max =
        in.size() > 2 && in[2] != nullptr ? static_cast<float>(in[2]->v.at(0)) : INFINITY;
    const float epsilon = std::numeric_limits<float>::epsilon();
    return !(epsilon < min - lower) && !(epsilon < upper - max);
  }

  // A Conv's float weights to int8 per output channel (WeightBiasQuantization).
  static GraphTensor Int8PerChannel(const GraphTensor& w) {
    GraphTensor q = w;
    const size_t per = w.size() / static_cast<size_t>(w.shape.at(0));
    for (size_t start = 0; start < w.size(); start += per) Int8Symmetric(q.v, start, start + per);
    return q;
  }

  std::optional<BackendError> Compute(const ::qconform::Node& n,
                                      const std::vector<const GraphTensor*>& in) {
    if (n.op_type == "DequantizeLinear") return Dequantize(n, in);
    if (n.op_type == "QuantizeLinear") return Quantize(n, in);
    if ((n.op_type == "Relu" || n.op_type == "Clip") && On(Defect::kGraphClampDropped) &&
        Droppable(n, in)) {
      values_[n.outputs.at(0)] = *in.at(0);
      return std::nullopt;
    }
    std::vector<const GraphTensor*> args = in;
    GraphTensor quantized;
    if (n.op_type == "Conv" && On(Defect::kGraphFloatWeightsQuantized) && in.size() > 1 &&
        Producer(n.inputs[1]) == nullptr && in[1]->type == D::kFloat &&
        Producer(n.inputs[0]) != nullptr) {
      quantized = Int8PerChannel(*in[1]);
      args[1] = &quantized;
    }
    if (n.op_type == "MatMul" && On(Defect::kGraphActivationsInt8) && in.size() == 2 &&
        Producer(n.inputs[0]) == nullptr && Producer(n.inputs[1]) != nullptr) {
      quantized = Int8Blocks(*in[0]);
      args[0] = &quantized;
    }
    std::optional<GraphTensor> y = FloatOp(n, args);
    if (!y) throw Unsupported{n.op_type};
    values_[n.outputs.at(0)] = std::move(*y);
    return std::nullopt;
  }

  // v[start, end) quantized symmetrically to int8 (scale max |v| / 127 in float32, half to even)
  // and dequantized.
  static void Int8Symmetric(std::vector<Real>& v, size_t start, size_t end) {
    Real top = 0;
    for (size_t i = start; i < end; ++i) top = std::max(top, std::fabs(v[i]));
    const Real scale = static_cast<float>(top / 127);
    for (size_t i = start; i < end; ++i)
      v[i] = scale == 0 ? 0 : std::nearbyint(v[i] / scale) * scale;
  }

  // A [M, K] to int8 per block of 32 along K (MatMulNBits at accuracy level 4).
  static GraphTensor Int8Blocks(const GraphTensor& a) {
    GraphTensor q = a;
    const auto k = static_cast<size_t>(a.shape.back());
    for (size_t row = 0; row < a.size(); row += k) {
      for (size_t start = row; start < row + k; start += 32) {
        Int8Symmetric(q.v, start, std::min(row + k, start + 32));
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
