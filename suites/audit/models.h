// The audit's test models beyond make_audit_models.cc's own (one file each).
#pragma once

#include <string>

namespace qconform::audit_models {

// blocks_qdq.onnx: the rest of d33's patterns as QDQ groups on one small tensor.
void BlocksQdq(const std::string& dir);
// opset10_qop.onnx and opset25_qdq.onnx: the oldest and the newest ai.onnx opsets.
void Opset10Qop(const std::string& dir);
void Opset25Qdq(const std::string& dir);
// large_qdq.onnx: `layers` pairs of 4096 x 4096 int8 weights (16 MB each), external data.
void LargeQdq(const std::string& dir, int layers);

}  // namespace qconform::audit_models
