#include "oracle/core/case.h"

namespace qconform {

int64_t Tensor::element_count() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string OperatorLabel(const std::string& domain, const std::string& op_type, int64_t version) {
  return (domain.empty() ? "" : domain + ".") + op_type + "-" + std::to_string(version);
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + ")";
}

}  // namespace qconform
