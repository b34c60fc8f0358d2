// The versions of the ONNX and protobuf libraries qconform was built with, for `qconform version`.
#pragma once

#include <string>

namespace qconform {

// "ONNX 1.12.0 (IR 8), protobuf 3.21.12"
std::string OnnxIoVersions();

}  // namespace qconform
