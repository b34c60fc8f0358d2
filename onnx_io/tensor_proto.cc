#include "onnx_io/tensor_proto.h"

#include <onnx/onnx_pb.h>

#include <bit>

#include "onnx_io/file_bytes.h"
#include "oracle/core/index_tensor.h"
#include "oracle/core/packing.h"

namespace qconform {
namespace {

int64_t max_elements = int64_t{1} << 30;

}  // namespace

int64_t MaxTensorElements() {
  return max_elements;
}
void SetMaxTensorElements(int64_t n) {
  max_elements = n;
}

Tensor TensorFromProto(const onnx::TensorProto& p, const std::string& where) {
  Tensor t;
  t.data_type = p.data_type();
  int64_t count = 1;
  for (int k = 0; k < p.dims_size(); ++k) {
    const int64_t d = p.dims(k);
    if (d < 0)
      throw CaseIoError(where + ": TensorProto.dims[" + std::to_string(k) + "] is " +
                        std::to_string(d));
    if (__builtin_mul_overflow(count, d, &count)) {
      throw CaseIoError(where + ": TensorProto.dims: the element count overflows 64 bits");
    }
    t.shape.push_back(d);
  }
  if (count > max_elements) {
    throw CaseIoError(where + ": TensorProto.dims " + ShapeString(t.shape) + ": " +
                      std::to_string(count) + " elements exceed the bound of " +
                      std::to_string(max_elements) + " (qconform --max-elements N raises it)");
  }
  if (t.data_type == static_cast<int32_t>(DataType::kUndefined)) {
    throw CaseIoError(where +
                      ": TensorProto.data_type is 0 (undefined): not a tensor (an empty "
                      "or foreign file?)");
  }
  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    throw CaseIoError(where + ": TensorProto.data_location: external data is not supported");
  }
  const ElementType* type = FindElementType(t.data_type);
  if (type == nullptr && DataTypeName(t.data_type).rfind("data_type ", 0) == 0) {
    throw CaseIoError(where + ": TensorProto.data_type: " + std::to_string(t.data_type) +
                      " is not an ONNX element type");
  }
  if (type == nullptr && IsIndexType(t.data_type)) {  // a graph case's int64 or bool constant
    const auto n = static_cast<size_t>(count);
    IndexUnpacked u;
    if (p.has_raw_data()) {
      u = UnpackIndexRaw(t.data_type, p.raw_data(), n);
    } else if (t.data_type == static_cast<int32_t>(DataType::kInt64)) {
      u = UnpackIndexEntries(t.data_type, {p.int64_data().begin(), p.int64_data().end()}, n);
    } else {
      u = UnpackIndexEntries(t.data_type, {p.int32_data().begin(), p.int32_data().end()}, n);
    }
    // Values the oracle cannot carry leave the tensor as a type and a shape (as for double), so
    // an operator's type rule still refuses it; a graph case naming it is an error there.
    if (u.error.empty()) t.codes = std::move(u.codes);
    return t;
  }
  if (type == nullptr) {
    // A type the oracle does not compute with (double, int64, ...): kept as a data_type and a
    // shape, so the oracle can refuse it by the operator's type constraints.
    return t;
  }
  const auto n = static_cast<size_t>(count);
  try {
    if (p.has_raw_data()) {
      t.codes = UnpackRaw(*type, p.raw_data(), n);
    } else if (type->id == DataType::kFloat) {
      if (static_cast<size_t>(p.float_data_size()) != n) {
        throw PackingError("float_data of a float tensor of " + std::to_string(n) +
                           " elements holds " + std::to_string(p.float_data_size()) +
                           " entries, expected " + std::to_string(n));
      }
      t.codes = Codes(32, n);
      for (size_t i = 0; i < n; ++i)
        t.codes.set(i, std::bit_cast<uint32_t>(p.float_data(static_cast<int>(i))));
    } else {
      const std::vector<int32_t> entries(p.int32_data().begin(), p.int32_data().end());
      t.codes = UnpackInt32Data(*type, entries, n);
    }
  } catch (const PackingError& e) {
    throw CaseIoError(where + ": TensorProto." + e.what());
  }
  return t;
}

onnx::TensorProto TensorToProto(const Tensor& tensor, const std::string& name) {
  onnx::TensorProto p;
  p.set_name(name);
  for (int64_t d : tensor.shape) p.add_dims(d);
  p.set_data_type(tensor.data_type);
  if (const ElementType* t = FindElementType(tensor.data_type)) {
    p.set_raw_data(PackRaw(*t, tensor.codes));
  } else if (IsIndexType(tensor.data_type) && !tensor.codes.empty()) {
    p.set_raw_data(PackIndexRaw(tensor));
  }
  return p;
}

Tensor TensorFromBytes(const std::string& bytes, const std::string& where) {
  onnx::TensorProto p;
  if (!p.ParseFromString(bytes))
    throw CaseIoError(where + ": not a TensorProto (truncated or corrupt)");
  return TensorFromProto(p, where);
}

std::string TensorBytes(const Tensor& tensor, const std::string& name) {
  return Serialize(TensorToProto(tensor, name));
}

Tensor ReadTensorFile(const std::string& path) {
  return TensorFromBytes(ReadFile(path), path);
}

void WriteTensorFile(const std::string& path, const Tensor& tensor, const std::string& name) {
  WriteFile(path, TensorBytes(tensor, name));
}

}  // namespace qconform
