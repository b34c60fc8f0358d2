// The audit's test models beyond make_audit_models.cc's own (one file each).
#pragma once

#include <string>

namespace qconform::audit_models {

// blocks_qdq.onnx: the rest of d33's patterns as QDQ groups on one small tensor.
void BlocksQdq(const std::string& dir);

}  // namespace qconform::audit_models
