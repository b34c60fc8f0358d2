// Tensors as ONNX TensorProto: reading accepts raw_data and every typed field ONNX uses
// (docs/semantics.md#d18); writing is canonical (raw_data), so a tensor always gives the same
// bytes. Bad input raises CaseIoError naming the file and the field, never a crash.
#pragma once

#include <stdexcept>
#include <string>

#include "oracle/core/case.h"

namespace onnx {
class TensorProto;
}  // namespace onnx

namespace qconform {

class CaseIoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The largest tensor a case file may declare, in elements (default 2^30; `qconform
// --max-elements N` sets it). Larger declared shapes are refused before anything is allocated.
int64_t MaxTensorElements();
void SetMaxTensorElements(int64_t n);

Tensor ReadTensorFile(const std::string& path);
void WriteTensorFile(const std::string& path, const Tensor& tensor, const std::string& name);
// The same, for a TensorProto's serialized bytes; `where` names them in errors.
Tensor TensorFromBytes(const std::string& bytes, const std::string& where);
std::string TensorBytes(const Tensor& tensor, const std::string& name);
Tensor TensorFromProto(const onnx::TensorProto& proto, const std::string& where);
onnx::TensorProto TensorToProto(const Tensor& tensor, const std::string& name);

}  // namespace qconform
