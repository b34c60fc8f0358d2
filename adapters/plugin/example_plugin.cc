// The example plugin: DequantizeLinear written the way a typical runtime kernel is, in plain
// float32 -- y = (float)(x - x_zero_point) * x_scale -- with only the checks it needs to stay in
// bounds. It is what a vendor's first plugin looks like, and qconform's tests run it: it conforms
// wherever float32 arithmetic is admissible and shows up in the report where it is not (it does
// not reject what the specification forbids).
//
// Built a second time with QCONFORM_BROKEN_PLUGIN, it misbehaves on purpose so that the tests can
// prove a bad backend fails only its own cases: it crashes on int16 x, hangs on uint16 x, and
// returns a wrong shape for int32 x.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "adapters/plugin/qconform_plugin.h"

#ifdef QCONFORM_BROKEN_PLUGIN
#include <unistd.h>
#include <csignal>
#endif

namespace {

int32_t Fail(int32_t status, char* message, size_t size, const char* text) {
  std::snprintf(message, size, "%s", text);
  return status;
}

bool Supported(int32_t t) {
  return t == QCONFORM_UINT8 || t == QCONFORM_INT8 || t == QCONFORM_UINT16 || t == QCONFORM_INT16 ||
         t == QCONFORM_INT32 || t == QCONFORM_UINT4 || t == QCONFORM_INT4;
}

// Element i of an integer tensor in raw_data layout, as an int32 (what kernels widen to).
int32_t Load(const qconform_tensor& t, int64_t i) {
  const auto* b = static_cast<const uint8_t*>(t.data);
  switch (t.data_type) {
    case QCONFORM_UINT8:
      return b[i];
    case QCONFORM_INT8:
      return static_cast<int8_t>(b[i]);
    case QCONFORM_UINT16:
      return b[2 * i] | (b[2 * i + 1] << 8);
    case QCONFORM_INT16:
      return static_cast<int16_t>(b[2 * i] | (b[2 * i + 1] << 8));
    case QCONFORM_INT32: {
      int32_t v;
      std::memcpy(&v, b + 4 * i, 4);
      return v;
    }
    case QCONFORM_UINT4:
      return (b[i / 2] >> (4 * (i % 2))) & 0xF;
    case QCONFORM_INT4: {
      const int v = (b[i / 2] >> (4 * (i % 2))) & 0xF;
      return v >= 8 ? v - 16 : v;
    }
  }
  return 0;
}

int64_t Count(const qconform_tensor& t) {
  int64_t n = 1;
  for (int32_t k = 0; k < t.rank; ++k) n *= t.dims[k];
  return n;
}

int64_t IntAttribute(const qconform_node* node, const char* name, int64_t fallback) {
  for (int32_t k = 0; k < node->attribute_count; ++k) {
    if (std::strcmp(node->attributes[k].name, name) == 0) return node->attributes[k].i;
  }
  return fallback;
}

int32_t Run(const qconform_node* node, qconform_alloc_output alloc, void* context, char* message,
            size_t message_size) {
  if (std::strcmp(node->op_type, "DequantizeLinear") != 0) {
    return Fail(QCONFORM_UNSUPPORTED, message, message_size, "only DequantizeLinear");
  }
  if (node->input_count < 2 || node->inputs[0].data_type == QCONFORM_UNDEFINED ||
      node->inputs[1].data_type == QCONFORM_UNDEFINED) {
    return Fail(QCONFORM_REJECTED, message, message_size, "x and x_scale are required");
  }
  const qconform_tensor& x = node->inputs[0];
  const qconform_tensor& scale = node->inputs[1];
  const qconform_tensor* zp =
      node->input_count > 2 && node->inputs[2].data_type != 0 ? &node->inputs[2] : nullptr;
  if (!Supported(x.data_type)) {
    // Deliberately partial, like a first kernel: float8/float4 x is reported, not guessed at.
    return Fail(QCONFORM_UNSUPPORTED, message, message_size,
                "only 4-, 8-, 16- and 32-bit integer x");
  }
  if (scale.data_type != QCONFORM_FLOAT) {
    return Fail(QCONFORM_UNSUPPORTED, message, message_size, "only float32 x_scale");
  }
  const int64_t output_dtype = IntAttribute(node, "output_dtype", 0);  // 0: the scale's type
  if (output_dtype != 0 && output_dtype != QCONFORM_FLOAT) {
    return Fail(QCONFORM_UNSUPPORTED, message, message_size, "only float32 output");
  }
#ifdef QCONFORM_BROKEN_PLUGIN
  if (x.data_type == QCONFORM_INT16) std::raise(SIGSEGV);
  if (x.data_type == QCONFORM_UINT16) {
    for (;;) pause();
  }
#endif
  const int64_t n = Count(x);
  const int64_t scale_count = Count(scale);
  if (zp != nullptr && Count(*zp) != scale_count) {
    return Fail(QCONFORM_REJECTED, message, message_size, "zero point and scale sizes differ");
  }
  // Granularity, the way kernels infer it: one scale is per-tensor; else axis and block_size.
  int64_t axis = IntAttribute(node, "axis", 1);
  const int64_t block_size = IntAttribute(node, "block_size", 0);
  if (axis < 0) axis += x.rank;
  int64_t inner = 1, axis_dim = 1;
  if (scale_count != 1) {
    if (axis < 0 || axis >= x.rank) {
      return Fail(QCONFORM_REJECTED, message, message_size, "axis out of range");
    }
    axis_dim = x.dims[axis];
    for (int32_t k = static_cast<int32_t>(axis) + 1; k < x.rank; ++k) inner *= x.dims[k];
    const int64_t expected =
        block_size > 0 ? n / axis_dim * ((axis_dim + block_size - 1) / block_size) : axis_dim;
    if (scale_count != expected) {
      return Fail(QCONFORM_REJECTED, message, message_size, "scale size does not fit x");
    }
  }
  std::vector<int64_t> dims(x.dims, x.dims + x.rank);
#ifdef QCONFORM_BROKEN_PLUGIN
  if (x.data_type == QCONFORM_INT32) dims.push_back(1);
#endif
  auto* y = static_cast<float*>(
      alloc(context, 0, QCONFORM_FLOAT, static_cast<int32_t>(dims.size()), dims.data(), 4 * n));
  if (y == nullptr) return Fail(QCONFORM_REJECTED, message, message_size, "allocation refused");
  std::vector<float> s(static_cast<size_t>(scale_count));
  // An empty x_scale (a zero-length axis) copies nothing: memcpy from or to null is undefined.
  if (!s.empty()) std::memcpy(s.data(), scale.data, 4 * s.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = 0;  // the scale for element i
    if (scale_count != 1) {
      const int64_t a = i / inner % axis_dim;
      if (block_size > 0) {
        const int64_t blocks = (axis_dim + block_size - 1) / block_size;
        j = (i / inner / axis_dim * blocks + a / block_size) * inner + i % inner;
      } else {
        j = a;
      }
    }
    const int64_t z = zp != nullptr ? Load(*zp, j) : 0;  // int64: no overflow on int32 extremes
    y[i] = static_cast<float>(Load(x, i) - z) * s[static_cast<size_t>(j)];
  }
  return QCONFORM_OK;
}

const qconform_plugin kPlugin = {
    QCONFORM_PLUGIN_ABI,
#ifdef QCONFORM_BROKEN_PLUGIN
    "broken-example",
#else
    "example-f32",
#endif
    "1.0",
    "DequantizeLinear, integer x, float32 scale and output, (float)(x - zp) * scale",
    Run,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry(
    void) {
  return &kPlugin;
}
