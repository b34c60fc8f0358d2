#include "oracle/core/case.h"

namespace qconform {

int64_t Tensor::element_count() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict for a temporary built
// from a const char* conditional and a std::string (its bug 105329).
std::string OperatorLabel(const std::string& domain, const std::string& op_type, int64_t version) {
  std::string s;
  if (!domain.empty()) s.append(domain).append(".");
  return s.append(op_type).append("-").append(std::to_string(version));
}

std::string_view AttributeKindPhrase(Attribute::Kind k) {
  switch (k) {
    case Attribute::Kind::kInt:
      return "an INT";
    case Attribute::Kind::kFloat:
      return "a FLOAT";
    case Attribute::Kind::kString:
      return "a STRING";
    case Attribute::Kind::kInts:
      return "INTS";
    case Attribute::Kind::kOther:
      break;
  }
  return "of another kind";
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + ")";
}

}  // namespace qconform
