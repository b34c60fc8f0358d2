// QLinearConv and ConvInteger, plainly: its own reading of the pages and of Conv's attributes
// (shares no code with the oracle), a direct convolution over every output element and its
// window in int64, padding holding x_zero_point, then QLinearConv's requantization
// (plain_requantize.h). Each with the family's defects (defects.h). Zero, negative, subnormal or
// non-finite scales are implementation-defined (docs/semantics.md#d26): this backend refuses them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"
#include "suites/mutants/plain_requantize.h"

namespace qconform::mutants {
namespace {

enum : int32_t { F32 = 1, U8 = 2, I8 = 3, I32 = 6 };

// Conv's geometry as this backend reads it, per spatial axis.
struct Geometry {
  int r = 0;  // spatial axes
  int64_t n = 0, c = 0, m = 0, group = 1;
  std::vector<int64_t> in, k, stride, dilation, begin, end, out;
};

std::vector<int64_t> Ints(const PlainNode& n, const char* name, size_t count, int64_t fallback,
                          bool& present) {
  const qconform_attribute* a = n.attribute(name);
  present = a != nullptr;
  if (a == nullptr) return std::vector<int64_t>(count, fallback);
  return std::vector<int64_t>(a->ints, a->ints + a->ints_count);
}

std::optional<std::string> Plan(const PlainNode& node, const PlainTensor& x, const PlainTensor& w,
                                Geometry& g) {
  for (int i = 0; i < node.node->attribute_count; ++i) {
    const qconform_attribute& a = node.node->attributes[i];
    const std::string name = a.name;
    const bool microsoft = node.domain == "com.microsoft";
    const int32_t want =
        name == "auto_pad"                       ? QCONFORM_ATTR_STRING
        : name == "group"                        ? QCONFORM_ATTR_INT
        : (microsoft && name == "channels_last") ? QCONFORM_ATTR_INT
        : (name == "pads" || name == "strides" || name == "dilations" || name == "kernel_shape")
            ? QCONFORM_ATTR_INTS
            : 0;
    if (want == 0) return "unknown attribute " + name;
    if (a.kind != want) return "attribute " + name + " of the wrong kind";
  }
  if (x.dims.size() < 3 || x.dims.size() > 5 || w.dims.size() != x.dims.size())
    return "x and w ranks";
  g.r = static_cast<int>(x.dims.size()) - 2;
  const auto r = static_cast<size_t>(g.r);
  g.n = x.dims[0], g.c = x.dims[1], g.m = w.dims[0];
  g.group = node.Int("group", 1);
  if (g.group < 1) return "group below 1";
  if (g.c != w.dims[1] * g.group) return "channels differ from w.shape[1] * group";
  if (g.m % g.group != 0) return "M not a multiple of group";
  g.in.assign(x.dims.begin() + 2, x.dims.end());
  g.k.assign(w.dims.begin() + 2, w.dims.end());
  bool has_kernel, has_pads, has_strides, has_dilations;
  if (Ints(node, "kernel_shape", r, 0, has_kernel) != g.k && has_kernel) return "kernel_shape";
  const std::vector<int64_t> pads = Ints(node, "pads", 2 * r, 0, has_pads);
  g.stride = Ints(node, "strides", r, 1, has_strides);
  g.dilation = Ints(node, "dilations", r, 1, has_dilations);
  if (pads.size() != 2 * r || g.stride.size() != r || g.dilation.size() != r) return "lengths";
  for (size_t d = 0; d < r; ++d) {
    if (g.stride[d] < 1 || g.dilation[d] < 1 || pads[d] < 0 || pads[d + r] < 0) return "values";
  }
  const qconform_attribute* ap = node.attribute("auto_pad");
  const std::string mode = ap ? ap->s : "NOTSET";
  if (mode != "NOTSET" && mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID")
    return "auto_pad " + mode;
  if (mode != "NOTSET" && has_pads) return "pads with auto_pad " + mode;
  g.begin.assign(r, 0), g.end.assign(r, 0), g.out.assign(r, 0);
  for (size_t d = 0; d < r; ++d) {
    const bool interleaved = On(Defect::kConvPadsInterleaved);
    g.begin[d] = pads[interleaved ? 2 * d : d];
    g.end[d] = pads[interleaved ? 2 * d + 1 : d + r];
    const int64_t dilation = On(Defect::kConvDilationIgnoredInSamePads) ? 1 : g.dilation[d];
    const int64_t extent = (g.k[d] - 1) * g.dilation[d] + 1;
    if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      g.out[d] = (g.in[d] + g.stride[d] - 1) / g.stride[d];
      const int64_t same_extent = (g.k[d] - 1) * dilation + 1;
      const int64_t total =
          std::max<int64_t>(0, (g.out[d] - 1) * g.stride[d] + same_extent - g.in[d]);
      const bool upper = (mode == "SAME_UPPER") != On(Defect::kConvSameUpperLowerSwapped);
      g.begin[d] = upper ? total / 2 : total - total / 2;
      g.end[d] = total - g.begin[d];
      continue;
    }
    if (mode == "VALID") g.begin[d] = g.end[d] = 0;
    const int64_t span = g.in[d] + g.begin[d] + g.end[d] - extent;
    if (span < 0) return "kernel larger than the padded input";
    g.out[d] = span / g.stride[d] + 1;
    if (On(Defect::kConvOutputSizeCeil) && span % g.stride[d] != 0) ++g.out[d];
  }
  return std::nullopt;
}

bool ScalarLike(const PlainTensor& t) {
  return t.dims.empty() || (t.dims.size() == 1 && t.dims[0] == 1);
}
// A per-tensor or per-output-channel parameter.
bool PerChannel(const PlainTensor& t, int64_t m) {
  return t.dims.size() == 1 && t.dims[0] == m;
}

bool Ordinary(float f) {
  return std::isnormal(f) && f > 0;
}

struct Operands {
  const PlainTensor &x, &w;
  const PlainTensor *xz, *wz;
  bool w_per_tensor;  // a defect: w's per-channel parameters read as their first element
};

// The accumulators of every output element, y's element order [N, M, out...].
std::vector<int64_t> Accumulate(const Geometry& g, const Operands& o, bool pairs) {
  const auto r = static_cast<size_t>(g.r);
  int64_t out_size = 1, in_size = 1, k_size = 1;
  for (size_t d = 0; d < r; ++d) out_size *= g.out[d], in_size *= g.in[d], k_size *= g.k[d];
  const int64_t cg = g.c / g.group, mg = g.m / g.group;
  const int64_t zx = o.xz ? ValueOf(*o.xz, o.xz->codes[0]) : 0;
  const int64_t pad_value = On(Defect::kConvPaddingZero) ? 0 : zx;
  const int64_t subtract_x = On(Defect::kConvXZeroPointIgnored) ? 0 : zx;
  std::vector<int64_t> acc(static_cast<size_t>(g.n * g.m * out_size));
  (void)in_size;
  std::vector<int64_t> pos(r), kpos(r);
  for (int64_t e = 0; e < static_cast<int64_t>(acc.size()); ++e) {
    int64_t rest = e % out_size;
    for (size_t d = r; d-- > 0;) pos[d] = rest % g.out[d], rest /= g.out[d];
    const int64_t m = e / out_size % g.m, b = e / out_size / g.m;
    int64_t group = m / mg;
    if (On(Defect::kConvGroupOffByOne)) group = (group + 1) % g.group;
    const bool per_channel_w = o.wz && !ScalarLike(*o.wz) && !o.w_per_tensor;
    const int64_t zw = o.wz ? ValueOf(*o.wz, o.wz->codes[per_channel_w ? m : 0]) : 0;
    int64_t sum = 0, raw = 0, pair = 0, x_sum = 0, w_sum = 0, count = 0;
    for (int64_t c = 0; c < cg; ++c) {
      for (int64_t t = 0; t < k_size; ++t) {
        int64_t kr = t;
        for (size_t d = r; d-- > 0;) kpos[d] = kr % g.k[d], kr /= g.k[d];
        bool inside = true;
        int64_t xi = b * g.c + group * cg + c;
        for (size_t d = 0; d < r; ++d) {
          const int64_t at = pos[d] * g.stride[d] - g.begin[d] + kpos[d] * g.dilation[d];
          inside &= at >= 0 && at < g.in[d];
          xi = xi * g.in[d] + at;
        }
        const int64_t wt = On(Defect::kConvKernelFlipped) ? k_size - 1 - t : t;
        const int64_t wv = ValueOf(o.w, o.w.codes[static_cast<size_t>((m * cg + c) * k_size + wt)]);
        const int64_t xv = inside ? ValueOf(o.x, o.x.codes[static_cast<size_t>(xi)]) : pad_value;
        sum += (xv - subtract_x) * (wv - zw);
        pair += xv * wv, x_sum += xv, w_sum += wv;
        if (++count % 2 == 0) raw += std::clamp<int64_t>(pair, -32768, 32767), pair = 0;
      }
    }
    if (count % 2 == 1) raw += std::clamp<int64_t>(pair, -32768, 32767);
    if (pairs) sum = raw - zw * x_sum - zx * w_sum + count * zx * zw;
    acc[static_cast<size_t>(e)] = sum;
  }
  return acc;
}

// A tensor stored as [D0, D2, ..., D(r-1), D1] (channels last) read into [D0, D1, D2, ...], or
// the other way round (`to_last`).
PlainTensor MoveChannels(PlainTensor t, bool to_last) {
  if (t.dims.size() < 3) return t;
  int64_t spatial = 1;
  for (size_t d = 2; d < t.dims.size(); ++d) spatial *= t.dims[d];
  const int64_t c = t.dims[1], outer = t.dims[0];
  std::vector<uint32_t> moved(t.codes.size());
  for (int64_t n = 0; n < outer; ++n) {
    for (int64_t k = 0; k < c; ++k) {
      for (int64_t s = 0; s < spatial; ++s) {
        const auto first = static_cast<size_t>((n * c + k) * spatial + s);
        const auto last = static_cast<size_t>((n * spatial + s) * c + k);
        if (to_last) {
          moved[last] = t.codes[first];
        } else {
          moved[first] = t.codes[last];
        }
      }
    }
  }
  t.codes = std::move(moved);
  return t;
}

}  // namespace

int32_t RunConv(const PlainNode& n, const Output& out) {
  const bool qlinear = n.op_type == "QLinearConv";
  const int count = n.node->input_count;
  if (qlinear ? (count < 8 || count > 9) : (count < 2 || count > 4))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "input count");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  const int xi = 0, wi = qlinear ? 3 : 1, xzi = 2, wzi = qlinear ? 5 : 3;
  // com.microsoft's channels_last 1: x is [N, D1, ..., C]; this backend moves it to [N, C, D1,
  // ...] and y back.
  const qconform_attribute* last = n.attribute("channels_last");
  const bool channels_last = n.domain == "com.microsoft" && last != nullptr &&
                             last->kind == QCONFORM_ATTR_INT && last->i != 0;
  if (channels_last && in[xi].dims.size() >= 3) {
    std::rotate(in[xi].dims.begin() + 1, in[xi].dims.end() - 1, in[xi].dims.end());
    in[xi] = MoveChannels(in[xi], false);
    // The defect: w read as [M, k1, ..., C / group] too.
    if (On(Defect::kMsqlcWeightsChannelsLast)) in[wi] = MoveChannels(in[wi], false);
  }
  for (int k = 0; k < (qlinear ? 8 : 2); ++k) {
    if (!in[static_cast<size_t>(k)].present())
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "absent input");
  }
  const auto at = [&](int k) -> const PlainTensor* {
    return k < count && in[static_cast<size_t>(k)].present() ? &in[static_cast<size_t>(k)]
                                                             : nullptr;
  };
  const auto integer = [](const PlainTensor& t) { return t.data_type == U8 || t.data_type == I8; };
  if (!integer(in[xi]) || !integer(in[wi]))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "x or w type");
  if ((at(xzi) && at(xzi)->data_type != in[xi].data_type) ||
      (at(wzi) && at(wzi)->data_type != in[wi].data_type))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point type");
  Geometry g;
  if (auto why = Plan(n, in[xi], in[wi], g)) return Fail(out, QCONFORM_REJECTED_AT_LOAD, *why);
  if (at(xzi) && !ScalarLike(*at(xzi))) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "x_zero_point");
  if (at(wzi) && !ScalarLike(*at(wzi)) && !PerChannel(*at(wzi), g.m))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "w_zero_point");
  const PlainTensor* bias = qlinear ? at(8) : nullptr;
  if (qlinear) {
    for (int k : {1, 4, 6}) {
      if (in[static_cast<size_t>(k)].data_type != F32)
        return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scale type");
    }
    if (!integer(in[7])) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "y type");
    if (!ScalarLike(in[1]) || !ScalarLike(in[6]) || !ScalarLike(in[7]))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "x and y per tensor");
    if (!ScalarLike(in[4]) && !PerChannel(in[4], g.m))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "w_scale");
    const auto same = [](const PlainTensor& s, const PlainTensor& z) {
      return s.dims == z.dims || (ScalarLike(s) && ScalarLike(z));
    };
    if (!same(in[4], in[5])) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point shape");
    if (bias && (bias->data_type != I32 || !(bias->dims.size() == 1 && bias->dims[0] == g.m)))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "B");
    for (int k : {1, 4, 6}) {
      for (uint32_t c : in[static_cast<size_t>(k)].codes) {
        float f;
        std::memcpy(&f, &c, sizeof f);
        if (!Ordinary(f))
          return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
      }
    }
  }
  const bool pairs =
      On(Defect::kQlcInt16PairSaturation) && in[xi].data_type == U8 && in[wi].data_type == I8;
  const bool w_per_tensor =
      qlinear ? On(Defect::kQlcPerChannelAsPerTensor) : On(Defect::kConvWZeroPointPerTensor);
  const std::vector<int64_t> acc =
      Accumulate(g, {in[xi], in[wi], at(xzi), at(wzi), w_per_tensor}, pairs);
  std::vector<int64_t> y_dims = {g.n, g.m};
  y_dims.insert(y_dims.end(), g.out.begin(), g.out.end());
  std::vector<uint32_t> codes(acc.size());
  if (!qlinear) {
    for (size_t e = 0; e < acc.size(); ++e)
      codes[e] = static_cast<uint32_t>(
          static_cast<int32_t>(std::clamp<int64_t>(acc[e], INT32_MIN, INT32_MAX)));
    return WriteOutput(out.alloc, out.context, 0, *FindFormat(I32), y_dims, codes,
                       BitOrder::kLowFirst, true, out.message, out.message_size);
  }
  const auto scale = [&](int k, size_t i) {
    float f;
    std::memcpy(&f, &in[static_cast<size_t>(k)].codes[i], sizeof f);
    return f;
  };
  const int64_t plane = static_cast<int64_t>(acc.size()) / std::max<int64_t>(1, g.n * g.m);
  const bool after = On(Defect::kQlcBiasAfterRequantization);
  for (size_t e = 0; e < acc.size(); ++e) {
    const int64_t m = static_cast<int64_t>(e) / std::max<int64_t>(1, plane) % g.m;
    const bool per_channel = !ScalarLike(in[4]) && !w_per_tensor;
    const Requantizer r{scale(1, 0),
                        scale(4, per_channel ? static_cast<size_t>(m) : 0),
                        scale(6, 0),
                        ValueOf(in[7], in[7].codes[0]),
                        in[7].format->min_int(),
                        in[7].format->max_int(),
                        ConvRequantizeDefects()};
    const int64_t b = bias ? ValueOf(*bias, bias->codes[static_cast<size_t>(m)]) : 0;
    const int64_t sum = acc[e] + b;
    int64_t v;
    if (after) {
      Requantizer no_zero = r;
      no_zero.zero_point = 0, no_zero.lo = INT64_MIN / 4, no_zero.hi = INT64_MAX / 4;
      v = std::clamp(no_zero(acc[e]) + no_zero(b) + r.zero_point, r.lo, r.hi);
    } else {
      // Beyond int32 the element is implementation-defined (d22): any code, so saturate.
      v = r(std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX));
    }
    codes[e] = static_cast<uint32_t>(v) & 0xFFu;
  }
  if (channels_last) {
    PlainTensor y{in[7].data_type, in[7].format, y_dims, std::move(codes)};
    y = MoveChannels(std::move(y), true);
    codes = std::move(y.codes);
    std::rotate(y_dims.begin() + 1, y_dims.begin() + 2, y_dims.end());
  }
  return WriteOutput(out.alloc, out.context, 0, *in[7].format, y_dims, codes, BitOrder::kLowFirst,
                     true, out.message, out.message_size);
}

}  // namespace qconform::mutants
