#include "generators/profile_cases.h"

#include <cmath>

#include "generators/valid_cases.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform {

std::optional<Case> GenerateForProfile(Choices& ch, const OpSchema& schema,
                                       const std::string& profile, const GeneratorLimits& limits) {
  for (int attempt = 0; attempt < 2000; ++attempt) {
    Case c = GenerateValid(ch, schema, limits);
    c.profile = profile;
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      if (!c.inputs[k]) continue;
      Tensor& t = *c.inputs[k];
      t.is_initializer = true;  // weights: constant x, scale and zero point
      const ElementType& et = ElementTypeOf(static_cast<DataType>(t.data_type));
      for (size_t i = 0; i < t.codes.size(); ++i) {
        if (k == 2) t.codes.set(i, 0);  // zero points all zero
        if (k == 1 && et.is_float()) {  // scales positive and finite
          const double v = std::fabs(DecodeDouble(et, t.codes[i]));
          const double fixed = std::isfinite(v) && v > 0 ? v : 1.0;
          t.codes.set(i, EncodeDouble(et, fixed, Saturation::kNone).value());
        }
      }
    }
    if (RunOracle(c).findings.empty()) return c;
  }
  return std::nullopt;
}

}  // namespace qconform
