// Properties of the QuantizeLinear and DynamicQuantizeLinear oracle over generated cases
// (RapidCheck, shrinking, reproducers as in dequantize_properties_test.cc). The multiprecision
// evaluation is cross-checked against host IEEE float arithmetic where the two must agree.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>

#include "oracle/core/fast_codec.h"
#include "oracle/semantics/oracle.h"
#include "suites/properties/rc_choices.h"

namespace qconform {
namespace {

// For float x, a float scale and an integer y, the `f32` strategy is exactly what a host
// computes: nearbyintf(x / scale) + zero point, clamped. (The oracle divides in multiprecision
// and rounds to float32; the host divides in IEEE single precision.)
RC_GTEST_PROP(QuantizeProperties, F32StrategyEqualsHostFloatDivision, ()) {
  // Per-tensor float x, float scale, integer y: drawn until one fits (a few draws on average).
  const Case c = *rc::gen::exec([] {
    RcChoices ch;
    const std::vector<const OpSchema*> schemas = SchemasOf(OperatorKind::kQuantizeLinear);
    GeneratorLimits limits;
    limits.granularity = Granularity::kPerTensor;
    for (;;) {
      Case c = GenerateValidQuantize(ch, *ch.Pick(schemas), limits);
      const Tensor* zp = c.input(2);
      const Attribute* dtype = c.attribute("output_dtype");
      const int32_t y = zp ? zp->data_type : dtype ? static_cast<int32_t>(dtype->i) : 2;
      if (c.input(0)->data_type == 1 && c.input(1)->data_type == 1 &&
          ElementTypeOf(static_cast<DataType>(y)).is_integer()) {
        return c;
      }
    }
  });
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  const OracleResult r = RunOracle(c);
  RC_PRE(r.outputs.size() == 1u);
  const ElementType& y_type = *FindElementType(r.outputs[0].data_type);
  RC_ASSERT(y_type.is_integer());
  const float s = std::bit_cast<float>(scale.codes[0]);
  const Tensor* zp = c.input(2);
  const double z = zp ? DecodeDouble(y_type, zp->codes[0]) : 0;
  const double lo = static_cast<double>(IntegerMin(y_type));
  const double hi = static_cast<double>(IntegerMax(y_type));
  for (size_t i = 0; i < x.codes.size(); ++i) {
    const float q = std::bit_cast<float>(x.codes[i]) / s;
    const double want = std::fmin(hi, std::fmax(lo, static_cast<double>(std::nearbyint(q)) + z));
    const double got = DecodeDouble(y_type, r.outputs[0].alternative(0, i));
    if (got != want) {
      FailWith(c, "ql-f32-equals-host",
               "element " + std::to_string(i) + ": oracle f32 gives " + std::to_string(got) +
                   ", host float " + std::to_string(want));
    }
  }
}

// DynamicQuantizeLinear's procedure evaluated exactly step by step equals the host's float32
// evaluation of the same steps.
RC_GTEST_PROP(QuantizeProperties, DynamicQuantizeEqualsHostFloat, ()) {
  const Case c = *rc::gen::exec([] {
    RcChoices ch;
    return GenerateDynamicQuantize(ch);
  });
  const OracleResult r = RunOracle(c);
  RC_PRE(r.findings.empty());
  const Codes& x = c.input(0)->codes;
  float lo = 0, hi = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    lo = std::fmin(lo, std::bit_cast<float>(x[i]));
    hi = std::fmax(hi, std::bit_cast<float>(x[i]));
  }
  const float scale = (hi - lo) / 255.0f;
  const float zp = std::fmin(255.0f, std::fmax(0.0f, std::nearbyint(0.0f - lo / scale)));
  if (r.outputs[1].exact[0] != std::bit_cast<uint32_t>(scale) || r.outputs[2].exact[0] != zp) {
    FailWith(c, "dynql-equals-host", "y_scale or y_zero_point differs from host float32");
  }
  for (size_t i = 0; i < x.size(); ++i) {
    const float y =
        std::fmin(255.0f, std::fmax(0.0f, std::nearbyint(std::bit_cast<float>(x[i]) / scale) + zp));
    if (r.outputs[0].exact[i] != y) {
      FailWith(c, "dynql-equals-host", "y[" + std::to_string(i) + "] differs from host float32");
    }
  }
}

}  // namespace
}  // namespace qconform
