#include "generators/catalogue_builder.h"

namespace qconform {

uint64_t CaseSeed(const std::string& id) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : id) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

std::string TypeName(DataType t) {
  return std::string(ElementTypeOf(t).name);
}

}  // namespace qconform
