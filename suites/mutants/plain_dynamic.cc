// DynamicQuantizeLinear, plainly: the ONNX page's float32 procedure, each step in float32
// (docs/semantics.md#d12). Degenerate inputs (empty, non-finite, a zero y_scale) are
// implementation-defined; this backend refuses them.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

float RoundHalfEven(float v) {
  return std::nearbyint(v);
}

int32_t Refuse(const Output& out, const char* why) {
  std::snprintf(out.message, out.message_size, "%s", why);
  return QCONFORM_REJECTED;
}

uint32_t Saturate(float v) {
  return static_cast<uint32_t>(std::fmax(0.0f, std::fmin(255.0f, v)));
}

}  // namespace

int32_t RunDynamicQuantize(const PlainNode& n, const Output& out) {
  const PlainTensor x = Unpack(n.node->inputs[0]);
  if (x.codes.empty()) return Refuse(out, "empty x");
  std::vector<float> values(x.codes.size());
  for (size_t i = 0; i < values.size(); ++i) {
    std::memcpy(&values[i], &x.codes[i], 4);
    if (!std::isfinite(values[i])) return Refuse(out, "x is not finite");
  }
  const bool with_zero = !On(Defect::kDynRangeWithoutZero);
  float x_min = with_zero ? 0.0f : values[0], x_max = with_zero ? 0.0f : values[0];
  for (float v : values) x_min = std::fmin(x_min, v), x_max = std::fmax(x_max, v);
  float scale;
  if (On(Defect::kDynScaleInDouble)) {
    scale = static_cast<float>((static_cast<double>(x_max) - x_min) / 255.0);
  } else {
    const float range = x_max - x_min;
    scale = range / (On(Defect::kDynScaleOver256) ? 256.0f : 255.0f);
  }
  if (scale == 0) return Refuse(out, "y_scale is zero");
  const float intermediate = -x_min / scale;
  const float zp_rounded = On(Defect::kDynZeroPointHalfAway)    ? std::round(intermediate)
                           : On(Defect::kDynZeroPointTruncated) ? std::trunc(intermediate)
                                                                : RoundHalfEven(intermediate);
  const uint32_t zp = Saturate(zp_rounded);
  std::vector<uint32_t> y(values.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const float q = values[i] / scale;
    float v;
    if (On(Defect::kDynYZeroPointBeforeRounding)) {
      v = RoundHalfEven(q + static_cast<float>(zp));
    } else {
      v = (On(Defect::kDynYRoundHalfAway) ? std::round(q) : RoundHalfEven(q)) +
          static_cast<float>(zp);
    }
    y[i] = On(Defect::kDynYNotSaturated) ? static_cast<uint32_t>(static_cast<int64_t>(v)) & 0xFF
                                         : Saturate(v);
  }
  uint32_t scale_code;
  std::memcpy(&scale_code, &scale, 4);
  const Format& u8 = *FindFormat(2);
  int32_t status = WriteOutput(out.alloc, out.context, 0, u8, x.dims, y, BitOrder::kLowFirst, true,
                               out.message, out.message_size);
  if (status == QCONFORM_OK) {
    status = WriteOutput(out.alloc, out.context, 1, *FindFormat(1), {}, {scale_code},
                         BitOrder::kLowFirst, true, out.message, out.message_size);
  }
  if (status == QCONFORM_OK) {
    status = WriteOutput(out.alloc, out.context, 2, u8, {}, {zp}, BitOrder::kLowFirst, true,
                         out.message, out.message_size);
  }
  return status;
}

}  // namespace qconform::mutants
