// A vendor's first plugin, as written from the README: QuantizeLinear of a float32 x to int8 or
// uint8 with one y_scale per tensor, computed the way the specification says (the quotient
// rounded half to even, then the zero point, then saturation). Everything else it refuses
// (QCONFORM_REJECTED_AT_LOAD: "no kernel"), as a runtime without the kernel would.
//
// Built with MY_PLUGIN_RECIPROCAL it multiplies by a precomputed float32 1 / y_scale instead, as
// many NPUs do: the conformance gate (qconform_add_conformance_test) must then fail, naming the
// reciprocal multiplier (suites/install/install_test.sh checks that it does).
#include <cmath>
#include <cstdio>
#include <cstring>

#include "adapters/plugin/qconform_plugin.h"

namespace {

int32_t Refuse(int32_t status, char* message, size_t size, const char* why) {
  std::snprintf(message, size, "%s", why);
  return status;
}

int32_t Run(const qconform_node* node, qconform_alloc_output alloc, void* context, char* message,
            size_t message_size) {
  if (std::strcmp(node->op_type, "QuantizeLinear") != 0 || node->domain[0] != '\0' ||
      node->input_count < 3) {
    return Refuse(QCONFORM_REJECTED_AT_LOAD, message, message_size,
                  "my NPU: QuantizeLinear with a zero point only");
  }
  const qconform_tensor &x = node->inputs[0], &scale = node->inputs[1], &zp = node->inputs[2];
  const bool is_int8 = zp.data_type == QCONFORM_INT8;
  if (x.data_type != QCONFORM_FLOAT || scale.data_type != QCONFORM_FLOAT || scale.rank != 0 ||
      (!is_int8 && zp.data_type != QCONFORM_UINT8)) {
    return Refuse(QCONFORM_REJECTED_AT_LOAD, message, message_size,
                  "my NPU: float32 x, one float32 y_scale, int8 or uint8 y");
  }
  int64_t n = 1;
  for (int32_t k = 0; k < x.rank; ++k) n *= x.dims[k];
  auto* y = static_cast<uint8_t*>(
      alloc(context, 0, zp.data_type, x.rank, x.dims, static_cast<size_t>(n)));
  if (y == nullptr) return Refuse(QCONFORM_REJECTED, message, message_size, "allocation refused");
  float s;
  std::memcpy(&s, scale.data, 4);
  const uint8_t zp_byte = *static_cast<const uint8_t*>(zp.data);
  const int zero_point = is_int8 ? static_cast<int8_t>(zp_byte) : zp_byte;
  const float lo = is_int8 ? -128.0f : 0.0f, hi = is_int8 ? 127.0f : 255.0f;
#ifdef MY_PLUGIN_RECIPROCAL
  const float reciprocal = 1.0f / s;
#endif
  for (int64_t i = 0; i < n; ++i) {
    float v;
    std::memcpy(&v, static_cast<const uint8_t*>(x.data) + 4 * i, 4);
#ifdef MY_PLUGIN_RECIPROCAL
    const double q = static_cast<double>(v * reciprocal);
#else
    const double q = static_cast<double>(v) / static_cast<double>(s);  // exact to double
#endif
    // Half to even (the default rounding mode), then the zero point, then saturation; NaN to 0.
    double r = std::isnan(q) ? 0.0 : std::nearbyint(q) + zero_point;
    r = r < lo ? lo : r > hi ? hi : r;
    y[i] = static_cast<uint8_t>(static_cast<int>(r));
  }
  return QCONFORM_OK;
}

const qconform_plugin kPlugin = {QCONFORM_PLUGIN_ABI, "my-npu", "0.1",
                                 "QuantizeLinear float32 -> int8/uint8, per tensor", Run};

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry(
    void) {
  return &kPlugin;
}
