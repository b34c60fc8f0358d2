#include "generators/catalogue_builder.h"
// One builder for the DequantizeLinear part; a little past 400 lines because its negative cases
// (one per must-reject rule) share the sweeps' helpers.

#include <map>

#include "generators/boundaries.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/core/prng.h"
#include "oracle/registry/schema.h"

namespace qconform {
namespace {

using D = DataType;
using Attrs = std::map<std::string, int64_t>;

class DequantizeCatalogue : public CatalogueBuilder {
 public:
  // x codes: the whole code space of the type, drawn at random (NaN and inf included: they
  // are valid inputs), so every case exercises different codes.
  std::vector<uint32_t> XCodes(D type, size_t n, Prng& prng) const {
    const ElementType& t = ElementTypeOf(type);
    std::vector<uint32_t> codes(n);
    for (uint32_t& c : codes) c = prng.Next32() & t.code_mask();
    return codes;
  }

  // Positive scales (1 + k/8) * 2^e, exactly representable in every float scale type; powers of
  // two only for float8e8m0.
  std::vector<uint32_t> ScaleCodes(D type, size_t n, Prng& prng) const {
    const ElementType& t = ElementTypeOf(type);
    std::vector<uint32_t> codes(n);
    for (uint32_t& c : codes) {
      const int e = static_cast<int>(prng.Below(9)) - 6;
      const double k = type == D::kFloat8E8M0 ? 0 : static_cast<double>(prng.Below(8));
      c = *Encode(t, Exact::FromDouble(std::ldexp(1 + k / 8, e)), Saturation::kNone);
    }
    return codes;
  }

  // Zero points: any value of an integer type but int32 (docs/semantics.md#d10, #d11: a non-zero
  // zero point is implementation-defined for int32 and float inputs, so those get 0 here).
  std::vector<uint32_t> ZeroPointCodes(D type, size_t n, Prng& prng) const {
    const ElementType& t = ElementTypeOf(type);
    std::vector<uint32_t> codes(n, 0);
    if (t.is_integer() && type != D::kInt32) {
      for (uint32_t& c : codes) c = prng.Next32() & t.code_mask();
    }
    return codes;
  }

  // A DequantizeLinear case with random x, scale and zero point of the given shapes.
  void AddRandom(const std::string& id, const OpSchema& s, D x, D scale, std::optional<D> output,
                 std::vector<int64_t> x_shape, std::vector<int64_t> scale_shape, bool zero_point,
                 Attrs attributes, const std::string& granularity, const std::string& decision) {
    Prng prng(CaseSeed(id));
    const int64_t n = Tensor{1, x_shape, {}, false}.element_count();
    const int64_t m = Tensor{1, scale_shape, {}, false}.element_count();
    std::vector<std::optional<Tensor>> inputs = {
        MakeTensorFromCodes(x, x_shape, XCodes(x, static_cast<size_t>(n), prng)),
        MakeTensorFromCodes(scale, scale_shape, ScaleCodes(scale, static_cast<size_t>(m), prng))};
    if (zero_point) {
      inputs.push_back(
          MakeTensorFromCodes(x, scale_shape, ZeroPointCodes(x, static_cast<size_t>(m), prng)));
    }
    if (output) attributes["output_dtype"] = static_cast<int64_t>(*output);
    std::string features = "type:" + TypeName(x) + ",scale:" + TypeName(scale) +
                           ",y:" + TypeName(output ? *output : scale) +
                           ",granularity:" + granularity +
                           ",zero_point:" + (zero_point ? "yes" : "no");
    Add(MakeCase("DequantizeLinear", s.since_version, std::move(inputs), attributes,
                 std::string(s.domain), id),
        features, decision);
  }

  // Every input type in every granularity the version has, with a float scale.
  void TypeSweep(const OpSchema& s) {
    const bool ms = s.axis_presence_selects_granularity;
    for (D x : s.x_types) {
      const std::string p = CasePrefix(s) + "-" + TypeName(x);
      AddRandom(p + "-pt-zp", s, x, D::kFloat, {}, {3, 3}, {}, true, {}, "per-tensor",
                "docs/semantics.md#d1, #d4");
      AddRandom(p + "-pt", s, x, D::kFloat, {}, {3, 3}, {}, false, {}, "per-tensor",
                "docs/semantics.md#d1");
      if (!s.allows(Granularity::kPerAxis)) continue;
      AddRandom(p + "-axis1-zp", s, x, D::kFloat, {}, {2, 3, 1}, {3}, true, {{"axis", 1}},
                "per-axis", "docs/semantics.md#d5");
      if (ms) continue;
      AddRandom(p + "-axism3-zp", s, x, D::kFloat, {}, {3, 1, 3}, {3}, true, {{"axis", -3}},
                "per-axis", "docs/semantics.md#d5 (negative axis)");
      if (!s.allows(Granularity::kBlocked)) continue;
      AddRandom(p + "-blocked-axism1-zp", s, x, D::kFloat, {}, {3, 5}, {3, 3}, true,
                {{"axis", -1}, {"block_size", 2}}, "blocked",
                "docs/semantics.md#d6 (partial last block)");
      AddRandom(p + "-blocked-axis0", s, x, D::kFloat, {}, {4, 2}, {2, 2}, false,
                {{"axis", 0}, {"block_size", 3}}, "blocked",
                "docs/semantics.md#d6 (partial last block)");
    }
  }

  // Every scale type and output type, on int8 (and uint4 blocked where it exists).
  void ScaleAndOutputSweep(const OpSchema& s) {
    const bool has_output_dtype = s.attribute("output_dtype") != nullptr;
    for (D scale : s.scale_types) {
      std::vector<std::optional<D>> outputs;
      if (s.allows_output(scale)) outputs.push_back(std::nullopt);
      if (has_output_dtype) {
        for (D o : s.output_types) outputs.push_back(o);
      }
      for (const std::optional<D>& out : outputs) {
        if (scale == D::kFloat && !out) continue;  // the type sweep has these
        const std::string p =
            CasePrefix(s) + "-int8-scale" + TypeName(scale) + (out ? "-to" + TypeName(*out) : "");
        AddRandom(p + "-pt-zp", s, D::kInt8, scale, out, {2, 3}, {}, true, {}, "per-tensor",
                  has_output_dtype ? "docs/semantics.md#d2 (out strategy), output_dtype"
                                   : "scale type determines the output");
        if (s.allows(Granularity::kPerAxis) && !s.axis_presence_selects_granularity) {
          AddRandom(p + "-axis1-zp", s, D::kInt8, scale, out, {2, 3}, {3}, true, {{"axis", 1}},
                    "per-axis", "docs/semantics.md#d5");
        }
        if (s.allows(Granularity::kBlocked)) {
          AddRandom(CasePrefix(s) + "-uint4-scale" + TypeName(scale) +
                        (out ? "-to" + TypeName(*out) : "") + "-blocked",
                    s, D::kUint4, scale, out, {2, 7}, {2, 2}, true,
                    {{"axis", 1}, {"block_size", 4}}, "blocked", "docs/semantics.md#d6");
        }
      }
    }
  }

  // Every code of each input type of at most 8 bits (edges and random codes for wider ones),
  // against a scale that is not a power of two.
  void EdgeCodes(const OpSchema& s) {
    for (D x : s.x_types) {
      const std::vector<uint32_t> codes = EveryCodeOrEdges(ElementTypeOf(x));
      const std::string id = CasePrefix(s) + "-" + TypeName(x) + "-every-code";
      Tensor xt = MakeTensorFromCodes(x, {static_cast<int64_t>(codes.size())}, codes);
      Add(MakeCase("DequantizeLinear", s.since_version, {xt, MakeScalar(D::kFloat, 0.375)}, {},
                   std::string(s.domain), id),
          "type:" + TypeName(x) +
              ",scale:float,y:float,granularity:per-tensor,zero_point:no,edges:all-codes",
          "docs/semantics.md#d1 (every code: min, max, zero, -0, subnormals, NaN, inf)");
    }
  }

  // Scales at the edges of their types: overflow to inf, subnormal products, underflow to 0.
  void ScaleEdges() {
    const OpSchema& v21 = *ResolveSchema("", "DequantizeLinear", 21);
    const OpSchema& v25 = *ResolveSchema("", "DequantizeLinear", 25);
    const Tensor x = MakeTensor(D::kInt8, {5}, {-128, -1, 0, 1, 127});
    struct Row {
      const char* id;
      const OpSchema* s;
      Tensor scale;
      Attrs attributes;
      const char* what;
    };
    const Row rows[] = {
        {"dq21-int8-scalefloat16-max-overflows",
         &v21,
         MakeScalar(D::kFloat16, 65504),
         {},
         "products beyond float16 give inf"},
        {"dq21-int8-scalefloat16-min-subnormal",
         &v21,
         MakeTensorFromCodes(D::kFloat16, {}, {0x0001}),
         {},
         "subnormal products"},
        {"dq21-int8-scalefloat-min-subnormal",
         &v21,
         MakeTensorFromCodes(D::kFloat, {}, {0x00000001}),
         {},
         "float32 subnormals"},
        {"dq21-int8-scalebfloat16-max",
         &v21,
         MakeTensorFromCodes(D::kBfloat16, {}, {0x7F7F}),
         {},
         "bfloat16 overflow"},
        {"dq21-int8-scalefloat-zero",
         &v21,
         MakeScalar(D::kFloat, 0),
         {},
         "zero scale: signed zeros"},
        {"dq21-int8-scalefloat-negative", &v21, MakeScalar(D::kFloat, -0.75), {}, "negative scale"},
        {"dq21-int8-scalefloat-inf",
         &v21,
         MakeTensorFromCodes(D::kFloat, {}, {0x7F800000}),
         {},
         "inf scale: 0 * inf is NaN"},
        {"dq21-int8-scalefloat-nan",
         &v21,
         MakeTensorFromCodes(D::kFloat, {}, {0x7FC00000}),
         {},
         "NaN scale"},
        {"dq25-int8-scalefloat8e8m0-max-tofloat16",
         &v25,
         MakeTensorFromCodes(D::kFloat8E8M0, {}, {0xFE}),
         {{"output_dtype", 10}},
         "2^127 to float16: inf"},
        {"dq25-int8-scalefloat8e8m0-min-tobfloat16",
         &v25,
         MakeTensorFromCodes(D::kFloat8E8M0, {}, {0x00}),
         {{"output_dtype", 16}},
         "2^-127 to bfloat16: subnormal"},
        {"dq25-int8-scalefloat8e8m0-nan-tofloat",
         &v25,
         MakeTensorFromCodes(D::kFloat8E8M0, {}, {0xFF}),
         {{"output_dtype", 1}},
         "e8m0 NaN scale"},
    };
    for (const Row& r : rows) {
      Add(MakeCase("DequantizeLinear", r.s->since_version, {x, r.scale}, r.attributes, "", r.id),
          "type:int8,scale:" + DataTypeName(r.scale.data_type) +
              ",granularity:per-tensor,edges:scale",
          std::string("docs/semantics.md#d1: ") + r.what);
    }
  }

  // Inputs around the double-rounding traps, where exact and f32/out differ (docs/semantics.md#d2).
  void Traps() {
    std::vector<double> x16, x32, x511;
    for (int i = 0; i < 32; ++i) x16.push_back(20480 + i);
    for (int i = 0; i < 16; ++i) x32.push_back(16777217 + 2 * i);
    for (int i = 0; i < 32; ++i) x511.push_back(500 + i);
    Add(MakeCase("DequantizeLinear", 21,
                 {MakeTensor(D::kInt16, {32}, x16), MakeTensorFromCodes(D::kFloat16, {}, {0x3FFF})},
                 {}, "", "dq21-trap-int16-scalefloat16"),
        "type:int16,scale:float16,granularity:per-tensor,trap:double-rounding",
        "docs/semantics.md#d2: f32 differs from exact");
    Add(MakeCase("DequantizeLinear", 13,
                 {MakeTensor(D::kInt32, {16}, x32), MakeScalar(D::kFloat, 3)}, {}, "",
                 "dq13-trap-int32-above-2to24"),
        "type:int32,scale:float,granularity:per-tensor,trap:double-rounding",
        "docs/semantics.md#d2: f32 rounds x - zp first");
    Add(MakeCase(
            "DequantizeLinear", 23,
            {MakeTensor(D::kInt16, {32}, x511), MakeTensorFromCodes(D::kFloat, {}, {0x3F800808})},
            {{"output_dtype", 10}}, "", "dq23-trap-scalefloat-tofloat16"),
        "type:int16,scale:float,y:float16,granularity:per-tensor,trap:double-rounding",
        "docs/semantics.md#d2: out rounds the scale to float16 first");
  }

  void Seeds() {
    const std::vector<double> axis_x = {3,  89, 34, 200, 74, 59, 5,   24,  24,
                                        87, 32, 13, 245, 99, 4,  142, 121, 102};
    for (int64_t v : {10, 25}) {
      Add(MakeCase("DequantizeLinear", v,
                   {MakeTensor(D::kUint8, {4}, {0, 3, 128, 255}), MakeScalar(D::kFloat, 2),
                    MakeScalar(D::kUint8, 128)},
                   {}, "", "dq" + std::to_string(v) + "-seed-default"),
          "type:uint8,scale:float,granularity:per-tensor,zero_point:yes,seed:000-default",
          "ONNX's DequantizeLinear page default example");
    }
    for (int64_t v : {13, 25}) {
      Add(MakeCase(
              "DequantizeLinear", v,
              {MakeTensor(D::kUint8, {1, 3, 3, 2}, axis_x), MakeTensor(D::kFloat, {3}, {2, 4, 5}),
               MakeTensor(D::kUint8, {3}, {84, 24, 196})},
              {}, "", "dq" + std::to_string(v) + "-seed-axis"),
          "type:uint8,scale:float,granularity:per-axis,zero_point:yes,seed:000-axis",
          "ONNX's DequantizeLinear page _axis example");
    }
    Add(MakeCase("DequantizeLinear", 1,
                 {MakeTensor(D::kUint8, {1, 3, 3, 2}, axis_x),
                  MakeTensor(D::kFloat, {3}, {2, 4, 5}), MakeTensor(D::kUint8, {3}, {84, 24, 196})},
                 {{"axis", 1}}, "com.microsoft", "msdq1-seed-axis"),
        "type:uint8,scale:float,granularity:per-axis,zero_point:yes,seed:000-axis",
        "the com.microsoft DequantizeLinear page _axis example with axis set "
        "(docs/semantics.md#d9)");
    for (int64_t v : {19, 25}) {
      Add(MakeCase(
              "DequantizeLinear", v,
              {MakeTensor(D::kFloat8E4M3FN, {5}, {0, 0.5, 1, 448, 104}), MakeScalar(D::kFloat, 2)},
              {}, "", "dq" + std::to_string(v) + "-seed-e4m3fn"),
          "type:float8e4m3fn,scale:float,granularity:per-tensor,seed:000-e4m3fn",
          "the com.microsoft DequantizeLinear page _e4m3fn example");
      Add(MakeCase(
              "DequantizeLinear", v,
              {MakeTensor(D::kFloat8E5M2, {5}, {0, 0.5, 1, 49152, 96}), MakeScalar(D::kFloat, 2)},
              {}, "", "dq" + std::to_string(v) + "-seed-e5m2"),
          "type:float8e5m2,scale:float,granularity:per-tensor,seed:000-e5m2",
          "the com.microsoft DequantizeLinear page _e5m2 example");
    }
    Add(MakeCase("DequantizeLinear", 21,
                 {MakeTensor(D::kInt8, {1, 1, 3, 3}, {71, 113, 127, -71, 50, 127, 85, 14, -128}),
                  MakeTensor(D::kFloat, {1}, {1.0f / 127.0f})},
                 {{"axis", 3}}, "", "dq21-seed-tensorrt-per-tensor"),
        "type:int8,scale:float,granularity:per-tensor,seed:002-dequantize",
        "TensorRT's Quantize/Dequantize page example 1 (docs/semantics.md#d4: a (1,) scale is "
        "per-tensor)");
    Add(MakeCase("DequantizeLinear", 21,
                 {MakeTensor(D::kInt4, {4, 8}, std::vector<double>(32, 1)),
                  MakeTensor(D::kFloat, {2, 8}, {1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 6, 6, 7, 7})},
                 {{"axis", 0}, {"block_size", 2}}, "", "dq21-seed-tensorrt-int4-blocks"),
        "type:int4,scale:float,granularity:blocked,seed:002-block",
        "TensorRT's Quantize/Dequantize page example 2");
  }

  void Negative(const std::string& id, int64_t v, std::vector<std::optional<Tensor>> inputs,
                Attrs attributes, const std::string& rule, const std::string& decision,
                const std::string& domain = "") {
    Add(MakeCase("DequantizeLinear", v, std::move(inputs), attributes, domain, id),
        "negative:" + rule, decision, rule);
  }

  void Negatives() {
    const Tensor i8 = MakeTensor(D::kInt8, {2, 3}, {-3, -2, -1, 0, 1, 2});
    const Tensor f1 = MakeScalar(D::kFloat, 0.5);
    const Tensor s3 = MakeTensor(D::kFloat, {3}, {1, 2, 4});
    Negative("dq21-reject-missing-scale", 21, {i8}, {}, "dq.inputs.count",
             "Between 2 and 3 inputs");
    Negative("dq10-reject-axis-attribute", 10, {i8, f1}, {{"axis", 1}}, "dq.attr.undefined",
             "docs/semantics.md#d8");
    Negative("dq19-reject-block-size-attribute", 19, {i8, f1}, {{"block_size", 1}},
             "dq.attr.undefined", "docs/semantics.md#d8");
    Negative("dq21-reject-output-dtype-attribute", 21, {i8, f1}, {{"output_dtype", 1}},
             "dq.attr.undefined", "docs/semantics.md#d8");
    Negative("dq19-reject-int4", 19, {MakeTensor(D::kInt4, {2}, {1, 2}), f1}, {}, "dq.type.x",
             "docs/semantics.md#d8: int4 arrives in 21");
    Negative("dq24-reject-int2", 24, {MakeTensor(D::kInt2, {2}, {1, -2}), f1}, {}, "dq.type.x",
             "docs/semantics.md#d8: int2 arrives in 25");
    Negative("dq13-reject-float8", 13, {MakeTensor(D::kFloat8E4M3FN, {2}, {1, 2}), f1}, {},
             "dq.type.x", "docs/semantics.md#d8");
    Negative("dq13-reject-scale-float16", 13, {i8, MakeScalar(D::kFloat16, 0.5)}, {},
             "dq.type.x_scale", "docs/semantics.md#d8");
    Negative("dq23-reject-scale-e8m0", 23, {i8, MakeScalar(D::kFloat8E8M0, 0.5)},
             {{"output_dtype", 1}}, "dq.type.x_scale",
             "docs/semantics.md#d8: e8m0 scales arrive in 24");
    Negative("dq21-reject-zero-point-type", 21, {i8, f1, MakeScalar(D::kUint8, 1)}, {},
             "dq.type.x_zero_point", "docs/semantics.md#d7");
    Negative("dq23-reject-output-dtype-int8", 23, {i8, f1}, {{"output_dtype", 3}},
             "dq.output_dtype.type", "T3");
    Negative("dq24-reject-e8m0-without-output-dtype", 24, {i8, MakeScalar(D::kFloat8E8M0, 0.5)}, {},
             "dq.output_dtype.required", "output type = scale type, not in T3");
    Negative("dq21-reject-zero-point-shape", 21, {i8, f1, MakeTensor(D::kInt8, {1, 1}, {0})}, {},
             "dq.shape.zero_point", "docs/semantics.md#d7: (1,1) is not a scalar's shape");
    Negative("dq10-reject-scale-1d", 10, {i8, MakeTensor(D::kFloat, {2}, {1, 2})}, {},
             "dq.scale.rank", "10: scalars only");
    Negative("dq21-reject-scale-2d-without-block-size", 21,
             {i8, MakeTensor(D::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6})}, {}, "dq.scale.rank",
             "docs/semantics.md#d6: blocked needs block_size > 0");
    Negative("dq13-reject-axis-out-of-range", 13, {i8, s3}, {{"axis", 2}}, "dq.axis.range",
             "docs/semantics.md#d5");
    Negative("dq25-reject-axis-too-negative", 25, {i8, s3}, {{"axis", -3}}, "dq.axis.range",
             "docs/semantics.md#d5");
    Negative("dq13-reject-per-axis-length", 13, {i8, s3}, {{"axis", 0}}, "dq.per_axis.length",
             "docs/semantics.md#d5");
    Negative("dq21-reject-negative-block-size", 21,
             {i8, MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4})}, {{"block_size", -1}},
             "dq.blocked.block_size_negative", "docs/semantics.md#d8");
    Negative("dq21-reject-blocked-rank", 21, {i8, s3}, {{"block_size", 1}}, "dq.blocked.rank",
             "docs/semantics.md#d6");
    Negative("dq21-reject-blocked-dims", 21,
             {i8, MakeTensor(D::kFloat, {3, 2}, {1, 2, 3, 4, 5, 6})}, {{"block_size", 2}},
             "dq.blocked.dims", "docs/semantics.md#d6");
    Negative("dq21-reject-block-size-below-range", 21,
             {MakeTensor(D::kInt8, {2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
              MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4})},
             {{"block_size", 2}}, "dq.blocked.block_size_range",
             "docs/semantics.md#d6: [ceil(5/2), ceil(5/1)-1] = [3, 4]");
    Negative(
        "dq21-reject-block-size-reference-accepts", 21,
        {MakeTensor(D::kInt8, {5, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
         MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4})},
        {{"axis", 0}, {"block_size", 6}}, "dq.blocked.block_size_range",
        "docs/semantics.md#d6: ONNX's reference accepts Si * B >= Di; the spec's range does not");
    Negative("msdq1-reject-axis-absent-1d", 1, {i8, s3}, {}, "dq.ms.axis_absent_not_scalar",
             "docs/semantics.md#d9", "com.microsoft");
    Negative("msdq1-reject-axis-present-scalar", 1, {i8, f1}, {{"axis", 1}},
             "dq.ms.axis_present_not_1d", "docs/semantics.md#d9", "com.microsoft");
    Negative("dq9-reject-not-in-opset", 9, {i8, f1}, {}, "op.not_in_opset",
             "DequantizeLinear arrives in opset 10");
    // Implementation-defined: outputs are the formula's, refusing is admissible too.
    Add(MakeCase("DequantizeLinear", 21,
                 {MakeTensor(D::kInt32, {3}, {100, -100, 7}), f1, MakeScalar(D::kInt32, 5)}, {}, "",
                 "dq21-impl-int32-zero-point"),
        "type:int32,implementation-defined:dq.zero_point.int32_nonzero", "docs/semantics.md#d10");
    Add(MakeCase(
            "DequantizeLinear", 21,
            {MakeTensor(D::kFloat8E4M3FN, {3}, {1, 2, 448}), f1, MakeScalar(D::kFloat8E4M3FN, 1)},
            {}, "", "dq21-impl-float8-zero-point"),
        "type:float8e4m3fn,implementation-defined:dq.zero_point.float_nonzero",
        "docs/semantics.md#d11");
    Add(MakeCase("DequantizeLinear", 13, {i8, f1}, {{"axis", 7}}, "", "dq13-impl-per-tensor-axis"),
        "type:int8,implementation-defined:dq.per_tensor.axis_range", "docs/semantics.md#d5");
    // docs/semantics.md#d7 (revised): a scalar and a one-element 1-D tensor are the same shape.
    Add(MakeCase("DequantizeLinear", 21, {i8, f1, MakeTensor(D::kInt8, {1}, {-1})}, {}, "",
                 "dq21-scalar-scale-zero-point-1"),
        "type:int8,granularity:per-tensor,one-element:zero_point", "docs/semantics.md#d7");
    Add(MakeCase("DequantizeLinear", 13,
                 {i8, MakeTensor(D::kFloat, {1}, {0.5}), MakeScalar(D::kInt8, 3)}, {}, "",
                 "dq13-scale-1-scalar-zero-point"),
        "type:int8,granularity:per-tensor,one-element:scale", "docs/semantics.md#d7");
  }
};

}  // namespace

std::vector<GoldenCase> DequantizeGoldenCatalogue() {
  DequantizeCatalogue c;
  for (const OpSchema& s : AllSchemas()) {
    if (s.kind() != OperatorKind::kDequantizeLinear) continue;
    c.TypeSweep(s);
    c.ScaleAndOutputSweep(s);
  }
  for (int64_t v : {10, 19, 21, 23, 25}) c.EdgeCodes(*ResolveSchema("", "DequantizeLinear", v));
  c.ScaleEdges();
  c.Traps();
  c.Seeds();
  c.Negatives();
  return c.cases;
}

}  // namespace qconform
