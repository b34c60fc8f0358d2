// The XNNPACK plugin's shared pieces (xnnpack_common.h).
#include "adapters/xnnpack/xnnpack_common.h"

#include <algorithm>

namespace qconform::xnnpack_adapter {

using namespace plugin_kit;

void Created(xnn_status status, const char* what) {
  if (status != xnn_status_success) {
    RefuseAtLoad(std::string(kLibrary) + " " + what + " refused its parameters (xnn_status " +
                 std::to_string(static_cast<int>(status)) + ")");
  }
}
void Ran(xnn_status status, const char* what) {
  if (status != xnn_status_success) {
    RejectAtRun(std::string(kLibrary) + " " + what + " failed (xnn_status " +
                std::to_string(static_cast<int>(status)) + ")");
  }
}

void Initialize() {
  static const xnn_status status = xnn_initialize(nullptr);
  if (status != xnn_status_success) RejectAtRun("xnn_initialize failed");
}

bool Signed(int32_t type, const char* what) {
  if (type != QCONFORM_INT8 && type != QCONFORM_UINT8) {
    RefuseAtLoad(std::string(kLibrary) + " has no " + TypeName(type) + " " + what +
                 " (its quantized types are qs8 and qu8)");
  }
  return type == QCONFORM_INT8;
}

int64_t PerTensorZeroPoint(const qconform_tensor* t, const char* what) {
  if (t != nullptr && !Scalar(*t) && !AllZero(t)) {
    RefuseAtLoad(std::string(kLibrary) + " takes " + what + " per tensor");
  }
  return ZeroPoint(t);
}

std::vector<uint8_t> ToChannelsLast(const uint8_t* x, int64_t n, int64_t c, int64_t s) {
  std::vector<uint8_t> y(static_cast<size_t>(n * c * s));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t i = 0; i < s; ++i)
        y[static_cast<size_t>((b * s + i) * c + k)] = x[(b * c + k) * s + i];
  return y;
}
void FromChannelsLast(const std::vector<uint8_t>& x, int64_t n, int64_t c, int64_t s, uint8_t* y) {
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t i = 0; i < s; ++i)
        y[(b * c + k) * s + i] = x[static_cast<size_t>((b * s + i) * c + k)];
}

}  // namespace qconform::xnnpack_adapter
