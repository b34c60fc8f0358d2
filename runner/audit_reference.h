// The tensors that really flow through a model, for `qconform audit`: its inputs (given as files
// or seeded random values of the declared shapes) and one run of it on a reference runtime with
// every value the audit needs made a graph output.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace qconform {
class ModelFile;
}  // namespace qconform

namespace qconform::runner {

using NamedTensors = std::map<std::string, Tensor>;

// From DIR/<name>.pb (TensorProto) or DIR/<name>.npy, one per declared input. A missing file, or
// one whose type or shape does not match the declaration, throws CaseIoError naming both.
NamedTensors ReadAuditInputs(const ModelFile& model, const std::string& dir);

// Seeded random values of the declared shapes: floats uniform in [-1, 1), integers over their
// type's range. A symbolic dimension takes dims[its name], else 1; `resolved` lists the choices.
NamedTensors RandomAuditInputs(const ModelFile& model, uint64_t seed,
                               const std::map<std::string, int64_t>& dims,
                               std::vector<std::string>& resolved);

// Runs the model once on `reference` (an ONNX Runtime spelling: onnxruntime, onnxruntime-web,
// onnxruntime:all, ...) under `work_dir`, fed `inputs`; returns the values called `names`.
// Throws std::runtime_error naming the reference and its words when it refuses or fails.
NamedTensors CaptureValues(const ModelFile& model, const NamedTensors& inputs,
                           const std::vector<std::string>& names, const std::string& reference,
                           const std::string& work_dir, double timeout_seconds);

}  // namespace qconform::runner
