// com.microsoft QLinearAveragePool, plainly: its own reading of ContribOperators.md (shares no
// code with the oracle): "Output = Dequantize(Input) -> AveragePool on fp32 data ->
// Quantize(output)", the window's dequantized float32 values summed in long double (a sum more
// exact than float32's, which the oracle admits) and divided by the taps
// inside the input (count_include_pad 0) or by every tap (1, padding the real value 0); kernel,
// strides, explicit pads or auto_pad SAME_UPPER / SAME_LOWER / VALID, N x C x D... or N x D... x C
// (channels_last); then WriteRequantized with the family's defects. ceil_mode 1 as AveragePool's:
// the output size rounded up, a window that would start in the end padding dropped, the last
// window's taps past the end padding not counted.
#include <cmath>
#include <string>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

enum : int32_t { F32 = 1, U8 = 2, I8 = 3 };

struct Window {
  std::vector<int64_t> in, kernel, strides, begin, end, out;  // per spatial axis
};

// The window geometry, or a reason it cannot be computed ("" when it can).
std::string Geometry(const PlainNode& n, const std::vector<int64_t>& spatial, Window& w) {
  const size_t r = spatial.size();
  const bool ceil = n.Int("ceil_mode", 0) != 0;
  const qconform_attribute* kernel = n.attribute("kernel_shape");
  if (kernel == nullptr || kernel->kind != QCONFORM_ATTR_INTS ||
      kernel->ints_count != static_cast<int32_t>(r))
    return "kernel_shape";
  w.in = spatial;
  w.kernel.assign(kernel->ints, kernel->ints + r);
  w.strides.assign(r, 1);
  std::vector<int64_t> pads(2 * r, 0);
  if (const qconform_attribute* s = n.attribute("strides")) {
    if (s->kind != QCONFORM_ATTR_INTS || s->ints_count != static_cast<int32_t>(r)) return "strides";
    w.strides.assign(s->ints, s->ints + r);
  }
  if (const qconform_attribute* p = n.attribute("pads")) {
    if (p->kind != QCONFORM_ATTR_INTS || p->ints_count != static_cast<int32_t>(2 * r))
      return "pads";
    pads.assign(p->ints, p->ints + 2 * r);
  }
  const qconform_attribute* mode_attribute = n.attribute("auto_pad");
  const std::string mode = mode_attribute ? std::string(mode_attribute->s) : "NOTSET";
  if (mode != "NOTSET" && mode != "VALID" && mode != "SAME_UPPER" && mode != "SAME_LOWER")
    return "auto_pad";
  if (mode != "NOTSET" && n.attribute("pads") != nullptr) return "pads with auto_pad";
  for (size_t d = 0; d < r; ++d) {
    if (w.kernel[d] < 1 || w.strides[d] < 1 || pads[d] < 0 || pads[d + r] < 0) return "attribute";
    int64_t before = pads[d], after = pads[d + r];
    if (mode == "VALID") before = after = 0;
    if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      const int64_t out = (w.in[d] + w.strides[d] - 1) / w.strides[d];
      const int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[d] + w.kernel[d] - w.in[d]);
      before = mode == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.begin.push_back(before);
      w.end.push_back(total - before);
      w.out.push_back(out);
      continue;
    }
    const int64_t span = w.in[d] + before + after - w.kernel[d];
    if (span < 0) return "a window larger than the padded input";
    w.begin.push_back(before);
    w.end.push_back(after);
    // ceil_mode: rounded up, less a window that would start in the end padding.
    int64_t out = (ceil ? (span + w.strides[d] - 1) / w.strides[d] : span / w.strides[d]) + 1;
    if (ceil && (out - 1) * w.strides[d] >= w.in[d] + before) --out;
    w.out.push_back(out);
  }
  return "";
}

}  // namespace

int32_t RunQLinearAveragePool(const PlainNode& n, const Output& out) {
  const int count = n.node->input_count;
  if (count < 4 || count > 5) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "inputs");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  in.resize(5);
  for (int i = 0; i < n.node->attribute_count; ++i) {
    const qconform_attribute& a = n.node->attributes[i];
    const std::string name = a.name;
    const bool ints = name == "kernel_shape" || name == "pads" || name == "strides";
    const bool flag = name == "ceil_mode" || name == "channels_last" || name == "count_include_pad";
    if (!(ints && a.kind == QCONFORM_ATTR_INTS) && !(flag && a.kind == QCONFORM_ATTR_INT) &&
        !(name == "auto_pad" && a.kind == QCONFORM_ATTR_STRING))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "attribute " + name);
  }
  const int32_t t = in[0].data_type;
  if (t != U8 && t != I8) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "T");
  long double scale[2], zero_point[2];
  for (int k = 0; k < 2; ++k) {  // X's parameters, then Y's
    const PlainTensor& s = in[static_cast<size_t>(1 + 2 * k)];
    const PlainTensor& z = in[static_cast<size_t>(2 + 2 * k)];
    if (!s.present() || s.data_type != F32 || s.count() != 1)
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scale");
    if (z.present() && (z.data_type != t || z.count() != 1))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point");
    const float f = ScalarFloat(s);
    if (!std::isnormal(f) || f < 0)
      return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
    scale[k] = f;
    zero_point[k] = z.present() ? CodeValue(z, 0) : 0;
  }
  const std::vector<int64_t>& dims = in[0].dims;
  if (dims.size() < 3) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "rank below 3");
  const bool last = n.Int("channels_last", 0) != 0;
  const size_t r = dims.size() - 2, first = last ? 1 : 2;
  const int64_t batch = dims[0], channels = last ? dims.back() : dims[1];
  Window w;
  const std::string problem =
      Geometry(n, std::vector<int64_t>(dims.begin() + first, dims.begin() + first + r), w);
  if (!problem.empty()) return Fail(out, QCONFORM_REJECTED_AT_LOAD, problem);
  const bool include_pad = n.Int("count_include_pad", 0) != 0;
  int64_t in_size = 1, out_size = 1;
  for (size_t d = 0; d < r; ++d) in_size *= w.in[d], out_size *= w.out[d];
  // The flat index of (b, c, spatial position p) in X's layout.
  const auto index = [&](int64_t b, int64_t c, int64_t p) {
    return static_cast<size_t>(last ? (b * in_size + p) * channels + c
                                    : (b * channels + c) * in_size + p);
  };
  std::vector<long double> v(static_cast<size_t>(batch * channels * out_size));
  std::vector<int64_t> o(r), k(r);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t q = 0; q < out_size; ++q) {
        for (int64_t rest = q, d = static_cast<int64_t>(r); d-- > 0;) {
          o[static_cast<size_t>(d)] = rest % w.out[static_cast<size_t>(d)];
          rest /= w.out[static_cast<size_t>(d)];
        }
        int64_t taps = 1;
        for (size_t d = 0; d < r; ++d) taps *= w.kernel[d];
        long double sum = 0;
        int64_t counted = 0;
        for (int64_t tap = 0; tap < taps; ++tap) {
          int64_t p = 0;
          bool inside = true;
          for (int64_t rest = tap, d = static_cast<int64_t>(r); d-- > 0;) {
            const auto u = static_cast<size_t>(d);
            k[u] = rest % w.kernel[u];
            rest /= w.kernel[u];
          }
          for (size_t d = 0; d < r; ++d) {
            const int64_t at = o[d] * w.strides[d] - w.begin[d] + k[d];
            inside = inside && at >= 0 && at < w.in[d];
            p = p * w.in[d] + at;
          }
          // "Dequantize(Input)": each value a float32 ("AveragePool on fp32 data").
          if (inside) {
            sum +=
                static_cast<float>(scale[0] * (CodeValue(in[0], index(b, c, p)) - zero_point[0]));
          }
          bool padded = true;  // within the padded input (ceil_mode's last window may pass it)
          for (size_t d = 0; d < r; ++d) {
            padded = padded && o[d] * w.strides[d] - w.begin[d] + k[d] < w.in[d] + w.end[d];
          }
          // qlavgpool-ceil-overhang-counted: with count_include_pad, every tap counted.
          if (include_pad && On(Defect::kQlgCeilOverhangCounted)) padded = true;
          counted += inside || ((include_pad || On(Defect::kQlgPaddingCounted)) && padded) ? 1 : 0;
        }
        const size_t y = static_cast<size_t>(last ? (b * out_size + q) * channels + c
                                                  : (b * channels + c) * out_size + q);
        v[y] = sum / static_cast<long double>(counted);
      }
    }
  }
  std::vector<int64_t> y_dims = {batch};
  if (!last) y_dims.push_back(channels);
  y_dims.insert(y_dims.end(), w.out.begin(), w.out.end());
  if (last) y_dims.push_back(channels);
  return WriteRequantized(v, scale[1], zero_point[1], t, y_dims, out);
}

}  // namespace qconform::mutants
