// Exhaustive enumeration: for every input type of at most 8 bits, every (x, x_zero_point) pair
// for a fixed set of scales per scale type, in every DequantizeLinear version that accepts the
// type. Each element is checked three ways: fast path = multiprecision path, and both equal to
// decoded-value arithmetic written here independently (double products, which are exact for
// these operand widths, rounded to the output format by frexp/ldexp/nearbyint).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

// An IEEE binary format with `precision` significant bits, `min_exponent` the exponent of its
// smallest normal and `max_finite` its largest value. Round to nearest, ties to even, once.
struct Format {
  int precision;
  int min_exponent;
  double max_finite;
};

double RoundTo(const Format& f, double v) {
  if (std::isnan(v) || std::isinf(v) || v == 0) return v;
  int e = 0;
  std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, m in [0.5, 1): its exponent is e - 1
  const int quantum = std::max(e - 1, f.min_exponent) - (f.precision - 1);
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -quantum)), quantum);
  if (std::fabs(r) > f.max_finite) return std::copysign(INFINITY, v);
  return r == 0 ? std::copysign(0.0, v) : r;
}

const Format* FormatOf(DataType t) {
  static const Format kFloat{24, -126, 3.4028234663852886e38};
  static const Format kHalf{11, -14, 65504.0};
  static const Format kBfloat{8, -126, 3.3895313892515355e38};
  switch (t) {
    case DataType::kFloat:
      return &kFloat;
    case DataType::kFloat16:
      return &kHalf;
    case DataType::kBfloat16:
      return &kBfloat;
    default:
      return nullptr;
  }
}

// The scales every narrow type is enumerated with, as exact values (each encoded into the scale
// type, which must hold it; those it cannot are skipped).
std::vector<Exact> Scales() {
  return {
      Exact::Dyadic(BigInt(1), -3),                     // a power of two
      Exact::Dyadic(BigInt(1), 4),                      // another
      Exact::Dyadic(BigInt(0x5555), -16),               // 1/3-like: 0.0101... in binary
      Exact::Dyadic(BigInt(0x1FF), -8),                 // 1.99609375: odd mantissa, 9 bits
      Exact::Dyadic(BigInt(1) + (BigInt(1) << 7), -7),  // 1 + 2^-7
      Exact::Dyadic(BigInt(1), -20),                    // small: products near underflow of float16
      Exact::Dyadic(BigInt(1), 12),                     // large: products overflow float16
  };
}

std::vector<uint32_t> AllCodes(const ElementType& t) {
  std::vector<uint32_t> codes(size_t{1} << t.bits);
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint32_t>(i);
  return codes;
}

struct Tally {
  int64_t cases = 0, elements = 0;
};

// Checks one case: both paths agree, and each element equals the independent computation.
void CheckCase(const Case& c, const ElementType& x_type, const ElementType& scale_type,
               DataType out_type, Tally& tally) {
  const OracleResult fast = RunOracle(c, {.fast_path = true});
  const OracleResult slow = RunOracle(c, {.fast_path = false});
  ASSERT_TRUE(fast.findings.empty()) << c.id << ": " << fast.findings[0].message;
  ASSERT_EQ(fast.outputs.size(), 1u);
  const OutputEvaluation& y = fast.outputs[0];
  ASSERT_TRUE(y.exact == slow.outputs[0].exact) << c.id << ": fast and multiprecision differ";
  ASSERT_EQ(y.data_type, static_cast<int32_t>(out_type));
  const ElementType& out = ElementTypeOf(out_type);
  const Format& format = *FormatOf(out_type);
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  const Tensor* zp = c.input(2);
  const int64_t columns = x.shape.back();
  int failures = 0;
  for (size_t i = 0; i < x.codes.size() && failures < 5; ++i) {
    const size_t row = x.shape.size() == 2 ? i / static_cast<size_t>(columns) : 0;
    const double xv = DecodeDouble(x_type, x.codes[i]);
    const double zv = zp ? DecodeDouble(x_type, zp->codes[zp->codes.size() == 1 ? 0 : row]) : 0.0;
    const double sv = DecodeDouble(scale_type, scale.codes[scale.codes.size() == 1 ? 0 : row]);
    const double want = RoundTo(format, (xv - zv) * sv);
    const double got = DecodeDouble(out, y.exact[i]);
    const bool same = (std::isnan(want) && std::isnan(got)) || want == got;
    if (!same) {
      ++failures;
      ADD_FAILURE() << c.id << " element " << i << ": x=" << xv << " zp=" << zv << " scale=" << sv
                    << ": oracle " << got << ", independent " << want;
    }
  }
  tally.cases += 1;
  tally.elements += static_cast<int64_t>(x.codes.size());
}

// One test per operator version, so that ctest runs them in parallel.
class Exhaustive : public ::testing::TestWithParam<const OpSchema*> {};

TEST_P(Exhaustive, EveryNarrowInputAndZeroPointPair) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  Tally tally;
  const OpSchema& s = *GetParam();
  {
    for (DataType x_id : s.x_types) {
      const ElementType& xt = ElementTypeOf(x_id);
      if (xt.bits > 8) continue;
      // Integer types: every zero point (int32 aside, which is wider). Float types: a non-zero
      // zero point is implementation-defined, so +0 only.
      const std::vector<uint32_t> zero_points =
          xt.is_integer() ? AllCodes(xt) : std::vector<uint32_t>{0};
      for (DataType scale_id : s.scale_types) {
        const ElementType& st = ElementTypeOf(scale_id);
        // The output: the scale's type, or float32 through output_dtype where it is not in T3.
        const bool needs_output_dtype = !s.allows_output(scale_id);
        const DataType out_id = needs_output_dtype ? DataType::kFloat : scale_id;
        if (FormatOf(out_id) == nullptr) continue;
        for (const Exact& value : Scales()) {
          const std::optional<uint32_t> code = Encode(st, value, Saturation::kNone);
          if (!code || !(Decode(st, *code) == value)) continue;
          Case c;
          c.op_type = "DequantizeLinear";
          c.domain = std::string(s.domain);
          c.opset = s.since_version;
          c.id = s.label() + "-" + std::string(xt.name) + "-" + std::string(st.name) + "-" +
                 value.ToString();
          if (needs_output_dtype) {
            c.attributes["output_dtype"] = Attribute::Int(static_cast<int64_t>(out_id));
          }
          const std::vector<uint32_t> xs = AllCodes(xt);
          const auto rows = static_cast<int64_t>(zero_points.size());
          const auto columns = static_cast<int64_t>(xs.size());
          Tensor x{static_cast<int32_t>(x_id),
                   {rows, columns},
                   Codes(xt.bits, xs.size() * zero_points.size()),
                   false};
          for (size_t r = 0; r < zero_points.size(); ++r) {
            for (size_t k = 0; k < xs.size(); ++k) x.codes.set(r * xs.size() + k, xs[k]);
          }
          if (s.allows(Granularity::kPerAxis) && rows > 1) {
            // One zero point per row: per-axis along axis 0, every scale the same.
            c.attributes["axis"] = Attribute::Int(0);
            Tensor scale{
                static_cast<int32_t>(scale_id), {rows}, Codes(st.bits, zero_points.size()), false};
            Tensor zp{
                static_cast<int32_t>(x_id), {rows}, Codes(xt.bits, zero_points.size()), false};
            for (size_t r = 0; r < zero_points.size(); ++r) {
              scale.codes.set(r, *code);
              zp.codes.set(r, zero_points[r]);
            }
            c.inputs = {x, scale, zp};
            CheckCase(c, xt, st, out_id, tally);
          } else {
            // Per-tensor only (version 10) or one zero point: a case per zero point.
            for (size_t r = 0; r < zero_points.size(); ++r) {
              Tensor row{static_cast<int32_t>(x_id), {columns}, Codes(xt.bits, xs.size()), false};
              for (size_t k = 0; k < xs.size(); ++k) row.codes.set(k, xs[k]);
              Tensor scale{static_cast<int32_t>(scale_id), {}, Codes(st.bits, 1), false};
              scale.codes.set(0, *code);
              Tensor zp{static_cast<int32_t>(x_id), {}, Codes(xt.bits, 1), false};
              zp.codes.set(0, zero_points[r]);
              c.inputs = {row, scale, zp};
              CheckCase(c, xt, st, out_id, tally);
            }
          }
          if (HasFatalFailure()) return;
        }
      }
    }
  }
  std::printf("[ COUNT    ] %lld cases, %lld elements, each checked three ways\n",
              static_cast<long long>(tally.cases), static_cast<long long>(tally.elements));
  EXPECT_GT(tally.elements, 100000);
}

std::vector<const OpSchema*> DequantizeRows() {
  std::vector<const OpSchema*> rows;
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() == OperatorKind::kDequantizeLinear) rows.push_back(&s);
  }
  return rows;
}

INSTANTIATE_TEST_SUITE_P(DequantizeLinear, Exhaustive, ::testing::ValuesIn(DequantizeRows()),
                         [](const ::testing::TestParamInfo<const OpSchema*>& info) {
                           std::string name = (info.param->domain.empty() ? "" : "ms_") +
                                              std::string("v") +
                                              std::to_string(info.param->since_version);
                           return name;
                         });

}  // namespace
}  // namespace qconform
