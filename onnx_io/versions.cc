#include "onnx_io/versions.h"

#include <google/protobuf/stubs/common.h>
#include <onnx/common/version.h>
#include <onnx/onnx_pb.h>

namespace qconform {

std::string OnnxIoVersions() {
  const int p = GOOGLE_PROTOBUF_VERSION;
  return std::string("ONNX ") + onnx::LAST_RELEASE_VERSION + " (IR " +
         std::to_string(static_cast<int>(onnx::IR_VERSION)) + "), protobuf " +
         std::to_string(p / 1000000) + "." + std::to_string(p / 1000 % 1000) + "." +
         std::to_string(p % 1000);
}

}  // namespace qconform
