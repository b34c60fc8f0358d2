// com.microsoft QGemm, plainly: its own reading of the page (shares no code with the oracle),
// int64 accumulators of A' and B' with C added, then y's requantization (plain_requantize.h,
// alpha inside the exact product) or a float32 Y (the product in double, rounded to float).
// Each with QGemm's defects (defects.h). Zero, negative, subnormal or non-finite scales are
// implementation-defined (docs/semantics.md#d26): this backend refuses them.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"
#include "suites/mutants/plain_requantize.h"

namespace qconform::mutants {
namespace {

enum : int32_t { F32 = 1, U8 = 2, I8 = 3, I32 = 6 };

float FloatOf(uint32_t code) {
  float f;
  std::memcpy(&f, &code, sizeof f);
  return f;
}

}  // namespace

int32_t RunQGemm(const PlainNode& n, const Output& out) {
  const int count = n.node->input_count;
  if (count < 6 || count > 9) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "input count");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  in.resize(9);
  for (int k : {0, 1, 2, 3, 4}) {
    if (!in[static_cast<size_t>(k)].present())
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "absent input");
  }
  float alpha = 1;
  bool trans_a = false, trans_b = false;
  for (int i = 0; i < n.node->attribute_count; ++i) {
    const qconform_attribute& a = n.node->attributes[i];
    const std::string name = a.name;
    if (name == "alpha" && a.kind == QCONFORM_ATTR_FLOAT) {
      alpha = static_cast<float>(a.f);
    } else if ((name == "transA" || name == "transB") && a.kind == QCONFORM_ATTR_INT) {
      (name == "transA" ? trans_a : trans_b) = a.i != 0;
    } else {
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "attribute " + name);
    }
  }
  if (On(Defect::kQgemmAlphaIgnored)) alpha = 1;
  if (On(Defect::kQgemmTransBIgnored)) trans_b = false;
  const PlainTensor &a = in[0], &b = in[3];
  const auto eight = [](const PlainTensor& t) { return t.data_type == U8 || t.data_type == I8; };
  if (!eight(a) || !eight(b) || in[2].data_type != a.data_type ||
      (in[5].present() && in[5].data_type != b.data_type))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "A, B or zero point type");
  if (in[1].data_type != F32 || in[4].data_type != F32 ||
      (in[7].present() && in[7].data_type != F32))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scale type");
  if (in[6].present() && in[6].data_type != I32) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "C");
  if (in[7].present() != in[8].present())
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "y_scale and y_zero_point go together");
  const bool quantized = in[8].present();
  if (quantized && !eight(in[8])) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "y type");
  if (a.dims.size() != 2 || b.dims.size() != 2) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "rank");
  const int64_t m = trans_a ? a.dims[1] : a.dims[0], k = trans_a ? a.dims[0] : a.dims[1];
  const int64_t n_cols = trans_b ? b.dims[0] : b.dims[1];
  if ((trans_b ? b.dims[1] : b.dims[0]) != k) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "K");
  const bool column = in[4].dims == std::vector<int64_t>{n_cols} && n_cols != 1;
  if (!in[1].scalar_like() || !in[2].scalar_like() || (!in[4].scalar_like() && !column))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "a or b parameters");
  // b_zero_point: a scalar or one per column, apart from b_scale's form (the page).
  if (in[5].present() && !in[5].scalar_like() && in[5].dims != std::vector<int64_t>{n_cols})
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "b_zero_point shape");
  if (quantized && (!in[7].scalar_like() || !in[8].scalar_like()))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "y parameters");
  const PlainTensor& c = in[6];
  int64_t c_rows = 1, c_cols = 1;
  if (c.present()) {
    if (c.dims.size() > 2) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "C rank");
    c_rows = c.dims.size() == 2 ? c.dims[0] : 1;
    c_cols = c.dims.empty() ? 1 : c.dims.back();
    if ((c_rows != 1 && c_rows != m) || (c_cols != 1 && c_cols != n_cols))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "C shape");
  }
  for (int s : {1, 4, 7}) {
    for (uint32_t code : in[static_cast<size_t>(s)].codes) {
      const float f = FloatOf(code);
      if (!(std::isnormal(f) && f > 0))
        return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
    }
  }
  const bool per_column = column && !On(Defect::kQgemmPerColumnAsPerTensor);
  const int64_t za = ValueOf(a, in[2].codes[0]);
  std::vector<uint32_t> codes;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n_cols; ++j) {
      const auto p = static_cast<size_t>(per_column ? j : 0);
      const auto zp_at = static_cast<size_t>(
          in[5].codes.size() == 1 || On(Defect::kQgemmPerColumnAsPerTensor) ? 0 : j);
      const int64_t zb = in[5].present() ? ValueOf(b, in[5].codes[zp_at]) : 0;
      int64_t acc = 0;
      for (int64_t x = 0; x < k; ++x) {
        const int64_t av =
            ValueOf(a, a.codes[static_cast<size_t>(trans_a ? x * m + i : i * k + x)]);
        const int64_t bv =
            ValueOf(b, b.codes[static_cast<size_t>(trans_b ? j * k + x : x * n_cols + j)]);
        acc += (av - za) * (bv - zb);
      }
      if (On(Defect::kMmZeroPointProductDropped)) acc -= k * za * zb;
      const int64_t c_term =
          c.present() ? ValueOf(c, c.codes[static_cast<size_t>((c_rows == 1 ? 0 : i) * c_cols +
                                                               (c_cols == 1 ? 0 : j))])
                      : 0;
      const float bs = FloatOf(in[4].codes[p]), as = FloatOf(in[1].codes[0]);
      if (!quantized) {
        const double v = static_cast<double>(acc + c_term) * alpha * as * bs;
        const auto f = static_cast<float>(v);
        uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        codes.push_back(bits);
        continue;
      }
      const PlainTensor& yz = in[8];
      Requantizer r{as,
                    bs,
                    FloatOf(in[7].codes[0]),
                    ValueOf(yz, yz.codes[0]),
                    yz.format->min_int(),
                    yz.format->max_int(),
                    QGemmRequantizeDefects(),
                    alpha};
      int64_t v;
      if (On(Defect::kQgemmCAfterRequantization)) {
        Requantizer no_zero = r;
        no_zero.zero_point = 0, no_zero.lo = INT64_MIN / 4, no_zero.hi = INT64_MAX / 4;
        v = std::clamp(no_zero(acc) + no_zero(c_term) + r.zero_point, r.lo, r.hi);
      } else {
        v = r(std::clamp<int64_t>(acc + c_term, INT32_MIN, INT32_MAX));
      }
      codes.push_back(static_cast<uint32_t>(v) & 0xFFu);
    }
  }
  const Format& y = quantized ? *in[8].format : *FindFormat(F32);
  return WriteOutput(out.alloc, out.context, 0, y, {m, n_cols}, codes, BitOrder::kLowFirst, true,
                     out.message, out.message_size);
}

}  // namespace qconform::mutants
