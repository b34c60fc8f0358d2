#include "onnx_io/stored_range.h"

#include <filesystem>

#include "onnx_io/tensor_proto.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"

namespace qconform {

std::optional<StoredRange> ReadStoredRange(const std::string& set, size_t k, const Tensor* output,
                                           const std::string& name) {
  namespace fs = std::filesystem;
  const std::string file = "output_" + std::to_string(k) + ".pb";
  const fs::path lo_file = fs::path(set) / "range" / "lo" / file;
  const fs::path hi_file = fs::path(set) / "range" / "hi" / file;
  const bool has_lo = fs::exists(lo_file), has_hi = fs::exists(hi_file);
  const std::string what = "the admitted range of output " + std::to_string(k) + " '" + name + "'";
  if (!has_lo && !has_hi) return std::nullopt;
  if (has_lo != has_hi) {
    throw CaseIoError((has_lo ? hi_file : lo_file).string() + ": missing (" + what + " has " +
                      (has_lo ? lo_file : hi_file).filename().string() + " in range/" +
                      (has_lo ? "lo" : "hi") + "/ but not its other end)");
  }
  StoredRange r{ReadTensorFile(lo_file.string()), ReadTensorFile(hi_file.string())};
  for (const auto& [path, t] : {std::pair{lo_file, &r.lo}, std::pair{hi_file, &r.hi}}) {
    if (output == nullptr) {
      throw CaseIoError(path.string() + ": " + what + " is stored, but output_" +
                        std::to_string(k) + ".pb is not");
    }
    if (t->data_type != output->data_type || t->shape != output->shape) {
      throw CaseIoError(path.string() + ": " + what + " is " + DataTypeName(t->data_type) +
                        ShapeString(t->shape) + ", output_" + std::to_string(k) + ".pb is " +
                        DataTypeName(output->data_type) + ShapeString(output->shape));
    }
  }
  const ElementType* type = FindElementType(output->data_type);
  if (type == nullptr) {
    throw CaseIoError(lo_file.string() + ": " + what + " has element type " +
                      DataTypeName(output->data_type) + ", which qconform does not know");
  }
  for (size_t i = 0; i < r.lo.codes.size(); ++i) {
    if (!WellFormed(*type, {r.lo.codes[i], r.hi.codes[i]})) {
      throw CaseIoError(lo_file.string() + ": " + what + " at element " + std::to_string(i) +
                        ": lo " + DescribeCode(*type, r.lo.codes[i]) + " > hi " +
                        DescribeCode(*type, r.hi.codes[i]));
    }
  }
  return r;
}

}  // namespace qconform
