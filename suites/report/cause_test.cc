// The report's causes: a runtime's refusal is labelled by its message, not by the source
// location and function signature ONNX Runtime puts before it.
#include "report/cause.h"

#include <gtest/gtest.h>

namespace qconform::report {
namespace {

CaseRecord Refused(std::string detail) {
  CaseRecord r;
  r.op = "DequantizeLinear";
  r.kind = Kind::kRejectedValid;
  r.detail = std::move(detail);
  return r;
}

TEST(Cause, ARefusalIsLabelledByTheRuntimesMessage) {
  const std::string wrapper =
      "rejected-at-run: Non-zero status code returned while running DequantizeLinear node. "
      "Name:'DequantizeLinear' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/"
      "quantization/quantize_linear.cc:560 onnxruntime::common::Status "
      "onnxruntime::DequantizeLinear<T>::Compute(onnxruntime::OpKernelContext*) const";
  EXPECT_EQ(CauseOf(Refused(wrapper + " [with T = signed char] x_scale and x_zero_point must have "
                                      "the same shape")),
            "refused valid DequantizeLinear: x_scale and x_zero_point must have the same shape");
  EXPECT_EQ(CauseOf(Refused(wrapper + " x_scale must be a scalar")),
            "refused valid DequantizeLinear: x_scale must be a scalar");
  // OpenCV's exceptions: the message, not the file, line and error code.
  EXPECT_EQ(CauseOf(Refused("rejected-at-load: OpenCV(4.6.0) ./modules/dnn/src/onnx/"
                            "onnx_graph_simplifier.cpp:842: error: (-210:Unsupported format or "
                            "combination of formats) Unsupported data type: UNDEFINED in function "
                            "'getMatFromTensor'")),
            "refused valid DequantizeLinear: Unsupported data type: UNDEFINED");
  // A message without a location is kept as it is (up to its first detail).
  EXPECT_EQ(CauseOf(Refused("rejected-at-load: no kernel for int4 (opset 21)")),
            "refused valid DequantizeLinear: no kernel for int4");
}

}  // namespace
}  // namespace qconform::report
