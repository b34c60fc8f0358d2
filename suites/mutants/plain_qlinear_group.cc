// The com.microsoft QLinear operators (QLinearAdd, QLinearMul, QLinearLeakyRelu, QLinearSigmoid,
// QLinearGlobalAveragePool, QLinearSoftmax), plainly: its own reading of ONNX Runtime's
// ContribOperators.md (shares no code with the oracle): the page's formula in long double, numpy
// broadcasting, one rounding half to even, then the output zero point, then saturation; each with
// the family's defects (defects.h). A one-element parameter is read as the scalar; zero, negative,
// subnormal or non-finite scales are implementation-defined (docs/semantics.md#d35): this backend
// refuses them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

enum : int32_t { F32 = 1, U8 = 2, I8 = 3 };

long double Int(const PlainTensor& t, size_t i) {
  return CodeValue(t, i);
}
float Float(const PlainTensor& t) {
  return ScalarFloat(t);
}

struct Operand {
  const PlainTensor* value;
  long double scale, zero_point;
};

}  // namespace

// The broadcast shape of a and b; false when they do not broadcast.
bool Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
               std::vector<int64_t>& out) {
  const size_t r = std::max(a.size(), b.size());
  out.assign(r, 1);
  for (size_t k = 0; k < r; ++k) {
    const int64_t da = k + a.size() >= r ? a[k + a.size() - r] : 1;
    const int64_t db = k + b.size() >= r ? b[k + b.size() - r] : 1;
    if (da != db && da != 1 && db != 1) return false;
    out[k] = da == 1 ? db : da;
  }
  return true;
}
// The element of t (broadcast to `out`) at out's flat index i.
size_t Source(const std::vector<int64_t>& dims, const std::vector<int64_t>& out, size_t i) {
  size_t index = 0, stride = 1;
  for (size_t k = out.size(); k-- > 0;) {
    const size_t coordinate = i % static_cast<size_t>(out[k]);
    i /= static_cast<size_t>(out[k]);
    if (k + dims.size() < out.size()) continue;
    const int64_t d = dims[k + dims.size() - out.size()];
    index += (d == 1 ? 0 : coordinate) * stride;
    stride *= static_cast<size_t>(d);
  }
  return index;
}

long double CodeValue(const PlainTensor& t, size_t i) {
  const uint32_t code = t.codes.at(i);
  if (t.data_type == I8) return static_cast<int8_t>(static_cast<uint8_t>(code));
  return static_cast<long double>(code);
}
float ScalarFloat(const PlainTensor& t) {
  float f;
  std::memcpy(&f, &t.codes.at(0), sizeof f);
  return f;
}

int32_t RunQLinearGroup(const PlainNode& n, const Output& out) {
  const bool binary = n.op_type == "QLinearAdd" || n.op_type == "QLinearMul";
  const int operands = binary ? 2 : 1, count = n.node->input_count;
  const int inputs = 3 * operands + 2;
  // QLinearGlobalAveragePool's and QLinearSoftmax's y_zero_point is required.
  const bool pool = n.op_type == "QLinearGlobalAveragePool",
             softmax = n.op_type == "QLinearSoftmax";
  if (count < inputs - (pool || softmax ? 0 : 1) || count > inputs)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "inputs");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  in.resize(static_cast<size_t>(inputs));
  for (int i = 0; i < n.node->attribute_count; ++i) {
    const qconform_attribute& a = n.node->attributes[i];
    const std::string name = a.name;
    const bool known =
        (n.op_type == "QLinearLeakyRelu" && name == "alpha" && a.kind == QCONFORM_ATTR_FLOAT) ||
        (pool && name == "channels_last" && a.kind == QCONFORM_ATTR_INT) ||
        (softmax && (name == "axis" || name == "opset") && a.kind == QCONFORM_ATTR_INT);
    if (!known) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "attribute " + name);
  }
  // The pages' required zero points (an absent one may sit among the inputs as "").
  if ((pool && !in[2].present()) || ((pool || softmax) && !in[4].present()))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "a required zero point is absent");
  if (softmax && n.attribute("opset") == nullptr)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "opset");
  const int32_t t = in[0].data_type;
  if (t != U8 && t != I8) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "T");
  std::vector<Operand> ops;
  for (int k = 0; k <= operands; ++k) {  // the operands, then the output's parameters
    const size_t at = static_cast<size_t>(3 * k);
    const bool output = k == operands;
    const PlainTensor& scale = in[output ? at : at + 1];
    const PlainTensor& zero_point = in[output ? at + 1 : at + 2];
    if (!output && (!in[at].present() || in[at].data_type != t))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "operand type");
    if (!scale.present() || scale.data_type != F32 || scale.count() != 1)
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scale");
    if (zero_point.present() && (zero_point.data_type != t || zero_point.count() != 1))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point");
    const float s = Float(scale);
    if (!std::isnormal(s) || s < 0)
      return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
    ops.push_back({output ? nullptr : &in[at], s, zero_point.present() ? Int(zero_point, 0) : 0});
  }
  std::vector<int64_t> dims = in[0].dims;
  if (binary && !Broadcast(in[0].dims, in[3].dims, dims))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "shapes do not broadcast");
  const qconform_attribute* alpha_attribute = n.attribute("alpha");
  const long double alpha = alpha_attribute ? static_cast<float>(alpha_attribute->f) : 0.01f;
  // qlg-int8-table-unsigned: a lookup table's int8 index read as a uint8 code.
  const bool table = n.op_type == "QLinearSigmoid" || n.op_type == "QLinearLeakyRelu";
  const auto code = [&](const PlainTensor& p, size_t i) {
    const long double c = Int(p, i);
    return table && t == I8 && c < 0 && On(Defect::kQlgInt8TableUnsigned) ? c + 256 : c;
  };
  const auto x = [&](size_t i) {  // the first operand's real value
    return ops[0].scale * (code(in[0], i) - ops[0].zero_point);
  };
  // The fixed-point defects: each ratio float32(scale / C_scale) rounded to `bits` bits below
  // the larger ratio's exponent.
  const int bits = On(Defect::kQlgFixedPoint21) ? 21 : On(Defect::kQlgFixedPoint22) ? 22 : 0;
  long double multipliers[2] = {0, 0};
  int shift = 0;
  if (binary && bits != 0) {
    const float ratios[2] = {static_cast<float>(ops[0].scale) / static_cast<float>(ops[2].scale),
                             static_cast<float>(ops[1].scale) / static_cast<float>(ops[2].scale)};
    int exponent = 0;
    std::frexp(std::max(ratios[0], ratios[1]), &exponent);  // max in [2^(exponent-1), 2^exponent)
    shift = bits - exponent;
    for (int k = 0; k < 2; ++k) multipliers[k] = std::nearbyint(std::ldexp(ratios[k], shift));
  }
  std::vector<long double> v;
  if (pool) {
    if (dims.size() < 3) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "rank below 3");
    // qlgap-channels-last-ignored: the output shape as the attribute says, the sums as NCHW.
    const bool last = n.Int("channels_last", 0) != 0;
    const bool read_last = last && !On(Defect::kQlgChannelsLastIgnored);
    const size_t channel = last ? dims.size() - 1 : 1;
    const size_t c = static_cast<size_t>(dims[channel]), batch = static_cast<size_t>(dims[0]);
    size_t spatial = 1;
    for (size_t d = 1; d < dims.size(); ++d)
      spatial *= d == channel ? 1 : static_cast<size_t>(dims[d]);
    v.assign(batch * c, 0);
    for (size_t i = 0; i < static_cast<size_t>(in[0].count()); ++i) {
      const size_t b = i / (c * spatial), k = read_last ? i % c : i / spatial % c;
      v[b * c + k] += x(i) / static_cast<long double>(spatial);
    }
    for (size_t d = 1; d < dims.size(); ++d) dims[d] = d == channel ? dims[d] : 1;
  } else if (softmax) {
    // Softmax-13: along axis (default -1). Before 13: the input as a matrix split at axis
    // (default 1), the softmax along its rows: every dimension from axis on is one.
    const bool matrix = n.Int("opset", 13) < 13;
    const auto rank = static_cast<int64_t>(dims.size());
    int64_t axis = n.Int("axis", matrix ? 1 : -1);
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "axis");
    size_t inner = 1, length = 1;
    for (int64_t d = axis; d < rank; ++d) {
      const auto size = static_cast<size_t>(dims[static_cast<size_t>(d)]);
      (d == axis || matrix ? length : inner) *= size;
    }
    v.resize(static_cast<size_t>(in[0].count()));
    const bool unshifted = On(Defect::kQlgSoftmaxNoMaxSubtraction);
    for (size_t i = 0; i < v.size(); ++i) {
      const size_t first = i - (i / inner % length) * inner;
      long double sum = 0;
      if (unshifted) {  // float32 exp(x_i) / sum exp(x_j): inf / inf past 88.7
        float total = 0;
        for (size_t j = 0; j < length; ++j)
          total += std::exp(static_cast<float>(x(first + j * inner)));
        v[i] = std::exp(static_cast<float>(x(i))) / total;
        continue;
      }
      for (size_t j = 0; j < length; ++j) sum += std::exp(x(first + j * inner) - x(i));
      v[i] = 1 / sum;
    }
  } else {
    size_t total = 1;
    for (int64_t d : dims) total *= static_cast<size_t>(d);
    for (size_t i = 0; i < total; ++i) {
      const auto centred = [&](const Operand& o) -> long double {
        const long double c = code(*o.value, Source(o.value->dims, dims, i)) - o.zero_point;
        // qlg-centred-int8-wrap: the difference kept in 8 bits.
        if (On(Defect::kQlgCentredInt8Wrap))
          return static_cast<int8_t>(static_cast<uint8_t>(static_cast<int64_t>(c) & 0xFF));
        return c;
      };
      if (n.op_type == "QLinearAdd" && bits != 0) {
        // In units of the output scale: M_a (a - a_zp) + M_b (b - b_zp), over 2^shift.
        v.push_back(std::ldexp(multipliers[0] * centred(ops[0]) + multipliers[1] * centred(ops[1]),
                               -shift));
      } else if (n.op_type == "QLinearAdd") {
        v.push_back(ops[0].scale * centred(ops[0]) + ops[1].scale * centred(ops[1]));
      } else if (n.op_type == "QLinearMul") {
        long double product = centred(ops[0]) * centred(ops[1]);
        if (On(Defect::kQlgMulInt16ProductWrap)) {  // the low 16 bits of the product alone
          product = static_cast<int16_t>(static_cast<uint16_t>(static_cast<int64_t>(product)));
        }
        v.push_back(product * (ops[0].scale * ops[1].scale));
      } else {
        const long double xi = ops[0].scale * centred(ops[0]);
        v.push_back(n.op_type == "QLinearSigmoid" ? 1 / (1 + std::exp(-xi))
                    : xi < 0                      ? alpha * xi
                                                  : xi);
      }
    }
  }
  const Operand& y = ops.back();
  const bool fixed = n.op_type == "QLinearAdd" && bits != 0;  // v in units of C_scale already
  return WriteRequantized(v, fixed ? 1 : y.scale, y.zero_point, t, dims, out, fixed);
}

int32_t WriteRequantized(const std::vector<long double>& v, long double scale,
                         long double zero_point, int32_t t, const std::vector<int64_t>& dims,
                         const Output& out, bool ties_up) {
  const long double lo = t == I8 ? -128 : 0, hi = t == I8 ? 127 : 255;
  std::vector<uint32_t> codes(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    long double q =
        On(Defect::kQlgReciprocal)
            ? static_cast<float>(static_cast<float>(v[i]) * (1.0f / static_cast<float>(scale)))
        : On(Defect::kQlgFloorReciprocal) ? v[i] * std::floor(1.0f / static_cast<float>(scale))
        : On(Defect::kQlgDoubleReciprocal)
            ? static_cast<long double>(static_cast<double>(v[i]) *
                                       (1.0 / static_cast<double>(scale)))
            : v[i] / scale;
    // A NaN (qlsoftmax-no-max-subtraction's inf / inf) converts as x86's cvtps2dq does.
    if (std::isnan(q)) q = static_cast<long double>(INT32_MIN);
    // A float-to-int32 conversion first: from 2^31 on, INT32_MIN (then saturated).
    if (q >= 0x1p31L && On(Defect::kQlgInt32OverflowToMin)) q = static_cast<long double>(INT32_MIN);
    long double r;
    if (On(Defect::kQlgZeroPointBeforeRounding)) {
      r = std::nearbyint(q + zero_point);
    } else if (On(Defect::kQlgRoundHalfAway)) {
      r = std::round(q) + zero_point;
    } else if (ties_up || On(Defect::kQlgRoundHalfUp)) {
      r = std::floor(q + 0.5L) + zero_point;
    } else {
      r = std::nearbyint(q) + zero_point;
    }
    if (r > hi && On(Defect::kQlgOverflowToMin)) r = lo;
    r = std::clamp(r, lo, hi);
    codes[i] = static_cast<uint32_t>(static_cast<int64_t>(r)) & 0xFFu;
  }
  return WriteOutput(out.alloc, out.context, 0, *FindFormat(t), dims, codes, BitOrder::kLowFirst,
                     true, out.message, out.message_size);
}

}  // namespace qconform::mutants
