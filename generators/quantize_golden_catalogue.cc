// The golden catalogue's QuantizeLinear and DynamicQuantizeLinear cases.
// Values come from a PRNG seeded by the case id (the same on every machine); x is drawn as
// quotients around y's range (ties, saturation, both signs) times a power-of-two scale, so the
// cases exercise rounding and saturation rather than mostly saturating.
#include <cmath>

#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/core/prng.h"
#include "oracle/registry/schema.h"

namespace qconform {
namespace {

using D = DataType;
using Attrs = std::map<std::string, int64_t>;

// The y range a quotient is drawn around: the integer range, or +-(max finite) for floats.
std::pair<double, double> Range(D y) {
  const ElementType& t = ElementTypeOf(y);
  if (t.is_integer())
    return {static_cast<double>(IntegerMin(t)), static_cast<double>(IntegerMax(t))};
  const double max = Decode(t, MaxFiniteCode(t)).is_finite()
                         ? static_cast<double>(Decode(t, MaxFiniteCode(t)).value())
                         : 1;
  return {-max, max};
}

// n codes of x_type: quotients q (quarter steps, a third of them exact ties k + 0.5, some
// beyond the range) times 2^e, rounded to x_type.
std::vector<uint32_t> QuotientCodes(D x_type, D y, double scale, size_t n, Prng& prng) {
  const auto [lo, hi] = Range(y);
  const double span = hi - lo;
  std::vector<uint32_t> codes(n);
  for (uint32_t& c : codes) {
    const double u = static_cast<double>(prng.Below(1u << 20)) / (1u << 20);
    double q = lo - span / 8 + u * span * 1.25;
    q = prng.Below(3) == 0 ? std::floor(q) + 0.5 : std::round(q * 4) / 4;
    c = *Encode(ElementTypeOf(x_type), Exact::FromDouble(q * scale), Saturation::kNone);
  }
  return codes;
}

class QuantizeCatalogue : public CatalogueBuilder {
 public:
  // A QuantizeLinear case: x around y's range, scale 2^-2 (exact in every scale type), zero
  // point random in y's range (integers) or 0 (floats, docs/semantics.md#d11).
  void AddQuantize(const std::string& id, int64_t v, D x, D scale, D y, std::vector<int64_t> shape,
                   std::vector<int64_t> scale_shape, bool zero_point, Attrs attributes,
                   const std::string& granularity, const std::string& decision,
                   const std::string& domain = "") {
    Prng prng(CaseSeed(id));
    const int64_t n = Tensor{1, shape, {}, false}.element_count();
    const int64_t m = Tensor{1, scale_shape, {}, false}.element_count();
    const ElementType& yt = ElementTypeOf(y);
    // One scale for the case: a power of two (exact in every scale type), 1 or 2 for int32.
    const double s = scale == D::kInt32 ? 1 + static_cast<double>(prng.Below(2))
                                        : std::ldexp(1, -static_cast<int>(prng.Below(3)));
    const uint32_t scale_code =
        *Encode(ElementTypeOf(scale), Exact::FromDouble(s), Saturation::kNone);
    std::vector<uint32_t> scales(static_cast<size_t>(m), scale_code),
        zps(static_cast<size_t>(m), 0);
    if (yt.is_integer()) {
      for (uint32_t& c : zps) c = prng.Next32() & yt.code_mask();
    }
    std::vector<std::optional<Tensor>> inputs = {
        MakeTensorFromCodes(x, shape, QuotientCodes(x, y, s, static_cast<size_t>(n), prng)),
        MakeTensorFromCodes(scale, scale_shape, scales)};
    if (zero_point) {
      inputs.push_back(MakeTensorFromCodes(y, scale_shape, zps));
    } else if (y != D::kUint8) {
      attributes["output_dtype"] = static_cast<int64_t>(y);
    }
    Add(MakeCase("QuantizeLinear", v, std::move(inputs), attributes, domain, id),
        "type:" + TypeName(x) + ",scale:" + TypeName(scale) + ",y:" + TypeName(y) +
            ",granularity:" + granularity + ",zero_point:" + (zero_point ? "yes" : "no"),
        decision);
  }

  // Every version x y type x granularity (x float), float8 under both saturate values.
  void QuantizeSweep(const OpSchema& s) {
    const int64_t v = s.since_version;
    const std::string p = CasePrefix(s), domain(s.domain);
    const bool has_output_dtype = s.attribute("output_dtype") != nullptr;
    for (D y : s.output_types) {
      const bool float8 = ElementTypeOf(y).is_float() && ElementTypeOf(y).bits == 8;
      const std::vector<int64_t> saturates =
          float8 ? std::vector<int64_t>{1, 0} : std::vector<int64_t>{-1};
      for (int64_t saturate : saturates) {
        Attrs a;
        std::string suffix;
        if (saturate >= 0) a["saturate"] = saturate, suffix = "-sat" + std::to_string(saturate);
        const std::string id = p + "-" + TypeName(y) + suffix;
        AddQuantize(id + "-pt-zp", v, D::kFloat, D::kFloat, y, {3, 4}, {}, true, a, "per-tensor",
                    "docs/semantics.md#d14" + std::string(float8 ? ", 16" : ""), domain);
        if (has_output_dtype) {
          AddQuantize(id + "-pt-output-dtype", v, D::kFloat, D::kFloat, y, {2, 3}, {}, false, a,
                      "per-tensor", "output_dtype picks y", domain);
        } else if (y == D::kUint8) {
          AddQuantize(id + "-pt", v, D::kFloat, D::kFloat, y, {2, 3}, {}, false, a, "per-tensor",
                      "without y_zero_point, y is uint8 with zero point 0", domain);
        }
        if (!s.allows(Granularity::kPerAxis)) continue;
        Attrs axis = a;
        axis["axis"] = 0;
        AddQuantize(id + "-axis0-zp", v, D::kFloat, D::kFloat, y, {3, 2}, {3}, true, axis,
                    "per-axis", "docs/semantics.md#d5", domain);
        if (!s.allows(Granularity::kBlocked)) continue;
        Attrs blocked = a;
        blocked["axis"] = -1, blocked["block_size"] = 2;
        AddQuantize(id + "-blocked-zp", v, D::kFloat, D::kFloat, y, {2, 5}, {2, 3}, true, blocked,
                    "blocked", "docs/semantics.md#d6 (partial last block)", domain);
      }
    }
    // Every x type (y int8), and for 23+ every scale type with the precision attribute.
    for (D x : s.x_types) {
      const D scale = QuantizeScaleType(s, x);
      AddQuantize(p + "-x" + TypeName(x) + "-int8", v, x, scale, D::kInt8, {2, 4}, {}, true, {},
                  "per-tensor", "docs/semantics.md#d14", domain);
    }
    if (s.precision_types.empty()) return;
    for (D scale : s.scale_types) {
      AddQuantize(p + "-scale" + TypeName(scale) + "-int16", v, D::kFloat, scale, D::kInt16, {2, 4},
                  {}, true, {}, "per-tensor",
                  "docs/semantics.md#d14 (precision 0: the scale's type)");
    }
    for (D precision : s.precision_types) {
      AddQuantize(p + "-precision" + TypeName(precision) + "-uint16", v, D::kFloat, D::kFloat,
                  D::kUint16, {2, 4}, {}, true, {{"precision", static_cast<int64_t>(precision)}},
                  "per-tensor", "docs/semantics.md#d14 (precision)");
    }
  }

  void QuantizeEdges() {
    const double inf = INFINITY;
    auto x = [](std::vector<double> v) {  // the float32 values nearest to v
      for (double& d : v) d = static_cast<float>(d);
      return MakeTensor(D::kFloat, {static_cast<int64_t>(v.size())}, v);
    };
    const Tensor one = MakeScalar(D::kFloat, 1);
    Add(MakeCase("QuantizeLinear", 25,
                 {x({inf, -inf, 1e30, -1e30, -0.0}), one, MakeScalar(D::kInt8, 0)}, {}, "",
                 "ql25-int8-infinities"),
        "type:float,y:int8,granularity:per-tensor,edges:inf",
        "docs/semantics.md#d15: +-inf saturate");
    Add(MakeCase("QuantizeLinear", 25,
                 {x({inf, -inf, 1e30, 5, -5, 0.25, -0.0}), one, MakeScalar(D::kFloat4E2M1, 0)},
                 {{"saturate", 0}}, "", "ql25-float4e2m1-saturates"),
        "type:float,y:float4e2m1,granularity:per-tensor,edges:inf",
        "docs/semantics.md#d17: float4e2m1 always saturates");
    for (D y : {D::kFloat8E4M3FN, D::kFloat8E4M3FNUZ, D::kFloat8E5M2, D::kFloat8E5M2FNUZ}) {
      for (int64_t saturate : {0, 1}) {
        Add(MakeCase("QuantizeLinear", 21,
                     {x({inf, -inf, 1e9, -1e9, 464, 465, -0.0, NAN}), one, MakeScalar(y, 0)},
                     {{"saturate", saturate}}, "",
                     "ql21-" + TypeName(y) + "-sat" + std::to_string(saturate) + "-edges"),
            "type:float,y:" + TypeName(y) + ",granularity:per-tensor,edges:saturate",
            "docs/semantics.md#d16: the saturate table");
      }
    }
    std::vector<double> ties;
    for (int k = -6; k < 6; ++k) ties.push_back(k + 0.5);
    Add(MakeCase("QuantizeLinear", 13, {x(ties), one, MakeScalar(D::kInt8, 3)}, {}, "",
                 "ql13-ties-odd-zero-point"),
        "type:float,y:int8,granularity:per-tensor,trap:ties",
        "docs/semantics.md#d14: round the quotient, then add the zero point");
    Add(MakeCase(
            "QuantizeLinear", 13,
            {x({0, 2, 3, 1000, -254, -1000}), MakeScalar(D::kFloat, 2), MakeScalar(D::kUint8, 128)},
            {}, "", "ql13-seed-default"),
        "type:float,y:uint8,granularity:per-tensor,seed:onnx-default", "the upstream example");
    Add(MakeCase("QuantizeLinear", 21, {x({1, NAN, -1}), one, MakeScalar(D::kUint8, 0)}, {}, "",
                 "ql21-impl-nan-to-uint8"),
        "type:float,implementation-defined:ql.nan.integer", "docs/semantics.md#d15");
    Add(MakeCase("QuantizeLinear", 21, {x({1, 2}), one, MakeScalar(D::kFloat8E4M3FN, 1)}, {}, "",
                 "ql21-impl-float8-zero-point"),
        "type:float,implementation-defined:ql.zero_point.float_nonzero",
        "docs/semantics.md#d11 for QL");
    // docs/semantics.md#d7 (revised): a scalar y_scale with a y_zero_point of shape (1).
    Add(MakeCase("QuantizeLinear", 21,
                 {x({-3, 0.5, 1.5, 300}), one, MakeTensor(D::kInt8, {1}, {2})}, {}, "",
                 "ql21-scalar-scale-zero-point-1"),
        "type:float,y:int8,granularity:per-tensor,one-element:zero_point", "docs/semantics.md#d7");
  }

  void Negative(const std::string& id, int64_t v, std::vector<std::optional<Tensor>> inputs,
                Attrs attributes, const std::string& rule, const std::string& decision,
                const std::string& op = "QuantizeLinear", const std::string& domain = "") {
    Add(MakeCase(op, v, std::move(inputs), attributes, domain, id), "negative:" + rule, decision,
        rule);
  }

  // com.microsoft QuantizeLinear-1: the axis's presence picks the parameters' rank (d9, d35).
  void MicrosoftNegatives() {
    const Tensor x = MakeTensor(D::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
    const Tensor s = MakeScalar(D::kFloat, 0.5);
    const Tensor s3 = MakeTensor(D::kFloat, {3}, {1, 2, 4});
    const auto ms = [&](const std::string& id, std::vector<std::optional<Tensor>> inputs,
                        Attrs attributes, const std::string& rule, const std::string& decision) {
      Negative("msql1-reject-" + id, 1, std::move(inputs), attributes, rule, decision,
               "QuantizeLinear", "com.microsoft");
    };
    ms("axis-absent-1d", {x, s3}, {}, "ql.ms.axis_absent_not_scalar",
       "axis absent: y_scale must be a scalar");
    ms("axis-present-scalar", {x, s}, {{"axis", 1}}, "ql.ms.axis_present_not_1d",
       "axis set: y_scale must be 1-D");
    ms("bfloat16-x", {MakeScalar(D::kBfloat16, 1), MakeScalar(D::kBfloat16, 1)}, {}, "ql.type.x",
       "T1 is float or float16");
    ms("scale-not-x-type", {MakeScalar(D::kFloat16, 1), s}, {}, "ql.type.y_scale",
       "x and y_scale are both T1");
    ms("float8-zero-point", {x, s, MakeScalar(D::kFloat8E4M3FN, 0)}, {}, "ql.type.y_zero_point",
       "T2 is 8-, 16- and 4-bit integers");
    ms("saturate-attribute", {x, s}, {{"saturate", 1}}, "ql.attr.undefined",
       "the only attribute is axis");
  }

  void QuantizeNegatives() {
    const Tensor x = MakeTensor(D::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
    const Tensor s = MakeScalar(D::kFloat, 0.5);
    const Tensor s3 = MakeTensor(D::kFloat, {3}, {1, 2, 4});
    Negative("ql21-reject-missing-scale", 21, {x}, {}, "ql.inputs.count", "Between 2 and 3 inputs");
    Negative("ql13-reject-saturate-attribute", 13, {x, s}, {{"saturate", 1}}, "ql.attr.undefined",
             "saturate arrives in 19");
    Negative("ql21-reject-precision-attribute", 21, {x, s}, {{"precision", 1}}, "ql.attr.undefined",
             "precision arrives in 23");
    Negative("ql13-reject-float16-x", 13, {MakeScalar(D::kFloat16, 1), s}, {}, "ql.type.x", "T1");
    Negative("ql19-reject-scale-not-x-type", 19, {MakeScalar(D::kFloat16, 1), s}, {},
             "ql.type.y_scale", "19: y_scale is T1, x's type");
    Negative("ql23-reject-scale-e8m0", 23, {x, MakeScalar(D::kFloat8E8M0, 1)}, {},
             "ql.type.y_scale", "e8m0 scales arrive in 24");
    Negative("ql19-reject-int16-zero-point", 19, {x, s, MakeScalar(D::kInt16, 1)}, {},
             "ql.type.y_zero_point", "int16 arrives in 21");
    Negative("ql24-reject-int2-zero-point", 24, {x, s, MakeScalar(D::kInt2, 1)}, {},
             "ql.type.y_zero_point", "int2 arrives in 25");
    Negative("ql21-reject-output-dtype-float", 21, {x, s}, {{"output_dtype", 1}},
             "ql.output_dtype.type", "output_dtype is a y type");
    Negative("ql21-reject-output-dtype-vs-zero-point", 21, {x, s, MakeScalar(D::kUint8, 1)},
             {{"output_dtype", 3}}, "ql.output_dtype.zero_point",
             "output_dtype and y_zero_point agree");
    Negative("ql23-reject-precision-int8", 23, {x, s}, {{"precision", 3}}, "ql.precision.type",
             "precision is a float type");
    Negative("ql21-reject-zero-point-shape", 21, {x, s, MakeTensor(D::kUint8, {1, 1}, {0})}, {},
             "ql.shape.zero_point", "Shape must match y_scale; (1,1) is not a scalar's shape");
    Negative("ql10-reject-scale-1d", 10, {x, s3}, {}, "ql.scale.rank", "10: scalars");
    Negative("ql13-reject-axis-out-of-range", 13, {x, s3}, {{"axis", 2}}, "ql.axis.range",
             "docs/semantics.md#d5");
    Negative("ql13-reject-per-axis-length", 13, {x, s3}, {{"axis", 0}}, "ql.per_axis.length",
             "docs/semantics.md#d5");
    Negative("ql21-reject-blocked-dims", 21, {x, MakeTensor(D::kFloat, {3, 2}, {1, 2, 3, 4, 5, 6})},
             {{"block_size", 2}}, "ql.blocked.dims", "docs/semantics.md#d6");
    Negative("ql21-reject-block-size-range", 21, {x, MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4})},
             {{"block_size", 1}}, "ql.blocked.block_size_range", "docs/semantics.md#d6");
    Negative("ql9-reject-not-in-opset", 9, {x, s}, {}, "op.not_in_opset",
             "QuantizeLinear arrives in opset 10");
    Negative("dynql11-reject-float16", 11, {MakeTensor(D::kFloat16, {2}, {1, 2})}, {},
             "dynql.type.x", "T1 is float", "DynamicQuantizeLinear");
    Negative("dynql11-reject-attribute", 11, {MakeTensor(D::kFloat, {2}, {1, 2})}, {{"axis", 0}},
             "dynql.attr.undefined", "no attributes", "DynamicQuantizeLinear");
  }

  void AddDynamic(const std::string& id, std::vector<int64_t> shape, const std::vector<double>& x,
                  const std::string& edges, const std::string& decision) {
    Add(MakeCase("DynamicQuantizeLinear", 11, {MakeTensor(D::kFloat, std::move(shape), x)}, {}, "",
                 id),
        "type:float,y:uint8,granularity:per-tensor,edges:" + edges, decision);
  }

  void Dynamic() {
    auto f = [](std::vector<double> v) {
      for (double& d : v) d = static_cast<float>(d);
      return v;
    };
    AddDynamic("dynql11-seed-default", {6}, f({0, 2, -3, -2.5, 1.34, 0.5}), "seed",
               "the ONNX DynamicQuantizeLinear page example 1: scale 0.0196078438, zero point 153");
    AddDynamic("dynql11-seed-max-adjusted", {6}, f({-1.0, -2.1, -1.3, -2.5, -3.34, -4.0}), "seed",
               "the ONNX DynamicQuantizeLinear page example 2: scale 0.0156862754, zero point 255");
    AddDynamic("dynql11-seed-min-adjusted", {3, 4},
               f({1, 2.1, 1.3, 2.5, 3.34, 4.0, 1.5, 2.6, 3.9, 4.0, 3.0, 2.345}), "seed",
               "the ONNX DynamicQuantizeLinear page example 3: scale 0.0156862754, zero point 0");
    std::vector<double> ties = {0, 1};
    const float scale = 1.0f / 255.0f;
    for (int k = 0; k < 255; k += 7) {
      const auto t = static_cast<float>((k + 0.5) * static_cast<double>(scale));
      ties.push_back(std::nextafter(t, 0.0f)), ties.push_back(t),
          ties.push_back(std::nextafter(t, 1.0f));
    }
    AddDynamic("dynql11-ties", {static_cast<int64_t>(ties.size())}, ties, "ties",
               "docs/semantics.md#d12: quotients within a float32 step of k + 0.5");
    AddDynamic("dynql11-single-positive", {1}, {3.25}, "single", "docs/semantics.md#d12");
    AddDynamic("dynql11-single-negative", {1, 1}, {-0.75}, "single", "docs/semantics.md#d12");
    AddDynamic("dynql11-large-range", {4}, f({1.0e38, -2.0e38, 1e30, -7}), "large-range",
               "docs/semantics.md#d12: a range of 3e38, near float32's largest");
    AddDynamic("dynql11-wide-range", {5}, f({65504, -1e-3, 1e-30, 12345.678, -0.0}), "wide-range",
               "docs/semantics.md#d12");
    // Found by the differential fuzzer: a range just above the zero-scale one, so y_scale is
    // subnormal and 1 / y_scale is beyond float32; a reciprocal kernel multiplies x = 0 by it.
    AddDynamic("dynql11-subnormal-scale", {3}, f({0, 1e-37, 5e-38}), "subnormal-scale",
               "docs/semantics.md#d12: y_scale subnormal, 1 / y_scale beyond float32");
    AddDynamic("dynql11-impl-all-zero", {2, 2}, {0, -0.0, 0, 0}, "all-zero",
               "docs/semantics.md#d13: y_scale 0, 1/255 or 1");
    AddDynamic("dynql11-impl-nan", {3}, {1, NAN, 2}, "nan", "docs/semantics.md#d13: NaN");
    AddDynamic("dynql11-impl-empty", {0}, {}, "empty", "docs/semantics.md#d13: empty x");
  }
};

}  // namespace

std::vector<GoldenCase> QuantizeGoldenCatalogue() {
  QuantizeCatalogue c;
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() == OperatorKind::kQuantizeLinear) c.QuantizeSweep(s);
  }
  c.QuantizeEdges();
  c.QuantizeNegatives();
  c.MicrosoftNegatives();
  c.Dynamic();
  return c.cases;
}

}  // namespace qconform
