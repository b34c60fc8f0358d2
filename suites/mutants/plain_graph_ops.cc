#include "suites/mutants/plain_graph_ops.h"

#include <algorithm>
#include <cmath>

namespace qconform::mutants {
namespace {

using Real = long double;

Real F32(Real v) {
  return static_cast<Real>(static_cast<float>(v));
}

// numpy broadcasting of two shapes; Unsupported when they do not broadcast.
std::vector<int64_t> Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t k = 0; k < out.size(); ++k) {
    const int64_t da = k + a.size() >= out.size() ? a[k + a.size() - out.size()] : 1;
    const int64_t db = k + b.size() >= out.size() ? b[k + b.size() - out.size()] : 1;
    if (da != db && da != 1 && db != 1) throw Unsupported{"shapes that do not broadcast"};
    out[k] = std::max(da, db);
  }
  return out;
}

// The flat index in a tensor of shape `dims` of element i of the broadcast shape `out`.
size_t From(const std::vector<int64_t>& dims, const std::vector<int64_t>& out, size_t i) {
  size_t index = 0, stride = 1;
  auto rest = static_cast<int64_t>(i);
  for (size_t k = out.size(); k-- > 0;) {
    const int64_t coordinate = rest % out[k];
    rest /= out[k];
    const size_t d = k + dims.size() >= out.size() ? k + dims.size() - out.size() : SIZE_MAX;
    if (d == SIZE_MAX) continue;
    if (dims[d] != 1) index += static_cast<size_t>(coordinate) * stride;
    stride *= static_cast<size_t>(dims[d]);
  }
  return index;
}

GraphTensor Elementwise(const GraphTensor& a, const GraphTensor& b, Real (*f)(Real, Real)) {
  GraphTensor y;
  y.shape = Broadcast(a.shape, b.shape);
  int64_t n = 1;
  for (int64_t d : y.shape) n *= d;
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    y.v.push_back(F32(f(a.v[From(a.shape, y.shape, i)], b.v[From(b.shape, y.shape, i)])));
  }
  return y;
}

GraphTensor MatMul(const GraphTensor& a, const GraphTensor& b) {
  if (a.shape.size() != 2 || b.shape.size() != 2 || a.shape[1] != b.shape[0]) {
    throw Unsupported{"MatMul other than [M, K] x [K, N]"};
  }
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  GraphTensor y;
  y.shape = {m, n};
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      Real sum = 0;
      for (int64_t t = 0; t < k; ++t) {
        sum += a.v[static_cast<size_t>(i * k + t)] * b.v[static_cast<size_t>(t * n + j)];
      }
      y.v.push_back(F32(sum));
    }
  }
  return y;
}

// The 2-D window geometry of Conv and AveragePool along one spatial axis.
struct Axis {
  int64_t in, kernel, stride, begin, dilation, out;
};
std::vector<Axis> Geometry(const Node& node, const std::vector<int64_t>& x,
                           const std::vector<int64_t>& kernel) {
  if (x.size() != 4) throw Unsupported{node.op_type + " of other than 4-D input"};
  const std::vector<int64_t> strides = IntsAttribute(node, "strides", {1, 1});
  const std::vector<int64_t> pads = IntsAttribute(node, "pads", {0, 0, 0, 0});
  const std::vector<int64_t> dilations = IntsAttribute(node, "dilations", {1, 1});
  if (node.attributes.count("auto_pad") || IntAttribute(node, "ceil_mode", 0) != 0) {
    throw Unsupported{node.op_type + " with auto_pad or ceil_mode"};
  }
  std::vector<Axis> out;
  for (size_t d = 0; d < 2; ++d) {
    const int64_t span = (kernel[d] - 1) * dilations[d] + 1;
    out.push_back({x[2 + d], kernel[d], strides[d], pads[d], dilations[d],
                   (x[2 + d] + pads[d] + pads[d + 2] - span) / strides[d] + 1});
  }
  return out;
}

GraphTensor Conv(const Node& node, const GraphTensor& x, const GraphTensor& w,
                 const GraphTensor* bias) {
  if (IntAttribute(node, "group", 1) != 1 || w.shape.size() != 4) {
    throw Unsupported{"Conv with groups or a weight other than 4-D"};
  }
  const std::vector<Axis> g = Geometry(node, x.shape, {w.shape[2], w.shape[3]});
  const int64_t n = x.shape[0], c = x.shape[1], m = w.shape[0];
  GraphTensor y;
  y.shape = {n, m, g[0].out, g[1].out};
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t o = 0; o < m; ++o) {
      for (int64_t r = 0; r < g[0].out; ++r) {
        for (int64_t s = 0; s < g[1].out; ++s) {
          Real sum = bias != nullptr ? bias->v[static_cast<size_t>(o)] : 0;
          for (int64_t ch = 0; ch < c; ++ch) {
            for (int64_t i = 0; i < g[0].kernel; ++i) {
              for (int64_t j = 0; j < g[1].kernel; ++j) {
                const int64_t p = r * g[0].stride - g[0].begin + i * g[0].dilation;
                const int64_t q = s * g[1].stride - g[1].begin + j * g[1].dilation;
                if (p < 0 || q < 0 || p >= g[0].in || q >= g[1].in) continue;
                sum += x.v[static_cast<size_t>(((b * c + ch) * g[0].in + p) * g[1].in + q)] *
                       w.v[static_cast<size_t>(((o * c + ch) * g[0].kernel + i) * g[1].kernel + j)];
              }
            }
          }
          y.v.push_back(F32(sum));
        }
      }
    }
  }
  return y;
}

GraphTensor AveragePool(const Node& node, const GraphTensor& x) {
  const std::vector<int64_t> kernel = IntsAttribute(node, "kernel_shape", {});
  if (kernel.size() != 2) throw Unsupported{"AveragePool other than 2-D"};
  const std::vector<Axis> g = Geometry(node, x.shape, kernel);
  const bool include_pad = IntAttribute(node, "count_include_pad", 0) != 0;
  GraphTensor y;
  y.shape = {x.shape[0], x.shape[1], g[0].out, g[1].out};
  for (int64_t plane = 0; plane < x.shape[0] * x.shape[1]; ++plane) {
    for (int64_t r = 0; r < g[0].out; ++r) {
      for (int64_t s = 0; s < g[1].out; ++s) {
        Real sum = 0;
        int64_t count = 0;
        for (int64_t i = 0; i < g[0].kernel; ++i) {
          for (int64_t j = 0; j < g[1].kernel; ++j) {
            const int64_t p = r * g[0].stride - g[0].begin + i * g[0].dilation;
            const int64_t q = s * g[1].stride - g[1].begin + j * g[1].dilation;
            const bool inside = p >= 0 && q >= 0 && p < g[0].in && q < g[1].in;
            if (inside) sum += x.v[static_cast<size_t>((plane * g[0].in + p) * g[1].in + q)];
            count += inside || include_pad ? 1 : 0;
          }
        }
        y.v.push_back(F32(sum / static_cast<Real>(count)));
      }
    }
  }
  return y;
}

}  // namespace

int64_t IntAttribute(const Node& node, const std::string& name, int64_t fallback) {
  const auto a = node.attributes.find(name);
  return a == node.attributes.end() ? fallback : a->second.i;
}

std::vector<int64_t> IntsAttribute(const Node& node, const std::string& name,
                                   std::vector<int64_t> fallback) {
  const auto a = node.attributes.find(name);
  return a == node.attributes.end() ? fallback : a->second.ints;
}

std::optional<GraphTensor> FloatOp(const Node& node, const std::vector<const GraphTensor*>& in) {
  const std::string& op = node.op_type;
  const auto arg = [&](size_t k) -> const GraphTensor* { return k < in.size() ? in[k] : nullptr; };
  if (op == "Add") return Elementwise(*in.at(0), *in.at(1), [](Real a, Real b) { return a + b; });
  if (op == "Sub") return Elementwise(*in.at(0), *in.at(1), [](Real a, Real b) { return a - b; });
  if (op == "Mul") return Elementwise(*in.at(0), *in.at(1), [](Real a, Real b) { return a * b; });
  if (op == "Div") return Elementwise(*in.at(0), *in.at(1), [](Real a, Real b) { return a / b; });
  if (op == "Relu" || op == "Clip") {
    GraphTensor y = *in.at(0);
    const Real lo = op == "Relu" ? 0 : arg(1) != nullptr ? arg(1)->v.at(0) : -INFINITY;
    const Real hi = op == "Relu" || arg(2) == nullptr ? INFINITY : arg(2)->v.at(0);
    for (Real& v : y.v) v = std::min(std::max(v, lo), hi);
    return y;
  }
  if (op == "MatMul") return MatMul(*in.at(0), *in.at(1));
  if (op == "Conv") return Conv(node, *in.at(0), *in.at(1), arg(2));
  if (op == "AveragePool") return AveragePool(node, *in.at(0));
  return std::nullopt;
}

}  // namespace qconform::mutants
