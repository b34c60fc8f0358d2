// The golden catalogue's TensorRT-profile cases.
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

class TensorRtCatalogue : public CatalogueBuilder {
 public:
  // The TensorRT profile: the examples of TensorRT's Dequantize layer page as QuantizeLinear and
  // DequantizeLinear cases, and one case per profile rule (each valid ONNX, refused by TensorRT).
  void AddTrt(Case c, const std::string& features, const std::string& decision,
              const std::string& rule = "") {
    c.profile = "tensorrt";
    Add(std::move(c), "profile:tensorrt," + features, decision, rule);
  }

  void TensorRt() {
    Tensor x1 = MakeTensor(D::kFloat, {1, 1, 3, 3},
                           {0.56f, 0.89f, 1.4f, -0.56f, 0.39f, 6.0f, 0.67f, 0.11f, -3.6f});
    Tensor scale1 = MakeTensor(D::kFloat, {1}, {1.0f / 127.0f});
    scale1.is_initializer = true;
    Tensor zp1 = MakeTensor(D::kInt8, {1}, {0});
    zp1.is_initializer = true;
    AddTrt(
        MakeCase("QuantizeLinear", 21, {x1, scale1, zp1}, {{"axis", 3}}, "", "trt-seed1-quantize"),
        "type:float,y:int8,granularity:per-tensor,seed:002-example-1",
        "TensorRT's Quantize/Dequantize page example 1, the Quantize half (6.0 and -3.6 saturate)");
    const std::vector<double> q1 = {71, 113, 127, -71, 50, 127, 85, 14, -128};
    AddTrt(MakeCase("DequantizeLinear", 21, {MakeTensor(D::kInt8, {1, 1, 3, 3}, q1), scale1, zp1},
                    {{"axis", 3}}, "", "trt-seed1-dequantize"),
           "type:int8,y:float,granularity:per-tensor,seed:002-example-1",
           "TensorRT's Quantize/Dequantize page example 1, the Dequantize half: exact k * "
           "RN32(1/127), not the page's rounded "
           "print");
    Tensor w = MakeTensor(
        D::kFloat, {4, 8},
        {1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 1.1f, 1.2f, 2.1f, 2.2f, 3.1f, 3.2f, 4.1f, 4.2f,
         4.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0, 7.0, 4.1f, 4.2f, 5.1f, 5.2f, 6.1f, 6.2f, 7.1f, 7.2f});
    w.is_initializer = true;
    Tensor scale2 = MakeTensor(D::kFloat, {2, 8}, {1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 6, 6, 7, 7});
    scale2.is_initializer = true;
    Tensor zp2 = MakeTensorFromCodes(D::kInt4, {2, 8}, std::vector<uint32_t>(16, 0));
    zp2.is_initializer = true;
    AddTrt(MakeCase("QuantizeLinear", 21, {w, scale2, zp2}, {{"axis", 0}, {"block_size", 2}}, "",
                    "trt-seed2-quantize-int4-blocks"),
           "type:float,y:int4,granularity:blocked,seed:002-example-2",
           "TensorRT's Quantize/Dequantize page example 2, the Quantize half");
    AddTrt(MakeCase("DequantizeLinear", 21,
                    {MakeTensor(D::kInt4, {4, 8}, std::vector<double>(32, 1)), scale2, zp2},
                    {{"axis", 0}, {"block_size", 2}}, "", "trt-seed2-dequantize-int4-blocks"),
           "type:int4,y:float,granularity:blocked,seed:002-example-2",
           "TensorRT's Quantize/Dequantize page example 2, the Dequantize half");
    // The page's two networks as Quantize -> Dequantize models any ONNX runner can load.
    Case chain1 =
        MakeCase("QuantizeLinear", 21, {x1, scale1, zp1}, {{"axis", 3}}, "", "trt-seed1-qdq");
    chain1.profile = "tensorrt";
    Case dq1 = MakeCase("DequantizeLinear", 21, {std::nullopt, scale1, zp1}, {{"axis", 3}});
    dq1.profile = "tensorrt";
    AddTrt(chain1,
           "type:float,y:float,granularity:per-tensor,chain:QuantizeLinear>DequantizeLinear,"
           "seed:002-example-1",
           "TensorRT's Quantize/Dequantize page example 1 as one model: exact values, not the "
           "page's rounded print");
    cases.back().then = dq1;
    Case chain2 = MakeCase("QuantizeLinear", 21, {w, scale2, zp2}, {{"axis", 0}, {"block_size", 2}},
                           "", "trt-seed2-qdq-int4-blocks");
    Case dq2 = MakeCase("DequantizeLinear", 21, {std::nullopt, scale2, zp2},
                        {{"axis", 0}, {"block_size", 2}});
    dq2.profile = "tensorrt";
    AddTrt(chain2,
           "type:float,y:float,granularity:blocked,chain:QuantizeLinear>DequantizeLinear,seed:"
           "002-example-2",
           "TensorRT's Quantize/Dequantize page example 2 as one model (the weights are an "
           "initializer: the model has no input)");
    cases.back().then = dq2;
    Tensor fp8 = MakeScalar(D::kFloat8E4M3FN, 0);
    fp8.is_initializer = true;
    Tensor one = MakeScalar(D::kFloat, 1);
    one.is_initializer = true;
    const Tensor xs = MakeTensor(D::kFloat, {4}, {1000, -1000, 448, 3.3f});
    AddTrt(MakeCase("QuantizeLinear", 21, {xs, one, fp8}, {{"saturate", 0}}, "",
                    "trt-fp8-always-saturates"),
           "type:float,y:float8e4m3fn,granularity:per-tensor",
           "TensorRT reads saturate=0 as 1: FP8 clamps to +-448");
    // One case per profile rule: valid ONNX, refused by TensorRT.
    const Tensor plain_scale = MakeScalar(D::kFloat, 1);
    Tensor neg = MakeScalar(D::kFloat, -0.5);
    neg.is_initializer = true;
    Tensor zp_nonzero = MakeScalar(D::kInt8, 3);
    zp_nonzero.is_initializer = true;
    Tensor u8 = MakeScalar(D::kUint8, 0);
    u8.is_initializer = true;
    Tensor per_axis = MakeTensor(D::kFloat, {4}, {1, 2, 3, 4});
    per_axis.is_initializer = true;
    Tensor scale3d = MakeTensor(D::kFloat, {1, 2, 2}, {1, 2, 3, 4});
    scale3d.is_initializer = true;
    Tensor x3d = MakeTensor(D::kFloat, {1, 4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
    const Tensor x = MakeTensor(D::kFloat, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
    const Tensor i8 = MakeScalar(D::kInt8, 0);
    struct Row {
      const char* id;
      Case c;
      const char* rule;
    };
    Tensor i8i = i8;
    i8i.is_initializer = true;
    Tensor partial = MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4});
    partial.is_initializer = true;
    Tensor partial_zp = MakeTensorFromCodes(D::kInt4, {2, 2}, {0, 0, 0, 0});
    partial_zp.is_initializer = true;
    Tensor x25 = MakeTensor(D::kFloat, {2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    Tensor x3 = MakeTensor(D::kFloat, {3}, {1, 2, 3});
    Tensor int4_scalar = MakeScalar(D::kInt4, 0);
    int4_scalar.is_initializer = true;
    Tensor e8m0_scale = MakeScalar(D::kFloat8E8M0, 1);
    e8m0_scale.is_initializer = true;
    Tensor one_const = MakeScalar(D::kFloat, 1);
    one_const.is_initializer = true;
    const Tensor x_int32 = MakeTensor(D::kInt32, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
    const Row rows[] = {
        {"trt-reject-e8m0-scale", MakeCase("QuantizeLinear", 24, {x, e8m0_scale, i8i}, {}, "", ""),
         "trt.scale.type"},
        {"trt-reject-int32-x",
         MakeCase("QuantizeLinear", 23, {x_int32, one_const, i8i}, {}, "", ""), "trt.type.float"},
        {"trt-reject-dynamic", MakeCase("DynamicQuantizeLinear", 11, {x}, {}, "", ""), "trt.op"},
        {"trt-reject-scale-input",
         MakeCase("QuantizeLinear", 21, {x, plain_scale, i8i}, {}, "", ""), "trt.scale.constant"},
        {"trt-reject-negative-scale", MakeCase("QuantizeLinear", 21, {x, neg, i8i}, {}, "", ""),
         "trt.scale.positive"},
        {"trt-reject-zero-point-nonzero",
         MakeCase("QuantizeLinear", 21, {x, one, zp_nonzero}, {}, "", ""),
         "trt.zero_point.nonzero"},
        {"trt-reject-uint8", MakeCase("QuantizeLinear", 21, {x, one, u8}, {}, "", ""),
         "trt.type.quantized"},
        {"trt-reject-per-axis-activation",
         MakeCase("QuantizeLinear", 21, {x, per_axis, std::nullopt},
                  {{"axis", 1}, {"output_dtype", 3}}, "", ""),
         "trt.per_axis.constant"},
        {"trt-reject-scale-rank-3",
         MakeCase("QuantizeLinear", 21, {x3d, scale3d},
                  {{"axis", 1}, {"block_size", 2}, {"output_dtype", 22}}, "", ""),
         "trt.scale.rank"},
        {"trt-reject-blocked-int8",
         MakeCase("QuantizeLinear", 21, {x, partial},
                  {{"axis", 1}, {"block_size", 2}, {"output_dtype", 3}}, "", ""),
         "trt.blocked.type"},
        {"trt-reject-partial-block",
         MakeCase("QuantizeLinear", 21, {x25, partial, partial_zp},
                  {{"axis", 1}, {"block_size", 3}}, "", ""),
         "trt.blocked.partial"},
        {"trt-reject-odd-int4", MakeCase("QuantizeLinear", 21, {x3, one, int4_scalar}, {}, "", ""),
         "trt.subbyte.odd"},
        {"trt-reject-scalar-x",
         MakeCase("QuantizeLinear", 21, {MakeScalar(D::kFloat, 1), one, i8i}, {}, "", ""),
         "trt.x.scalar"},
    };
    for (const Row& r : rows) {
      Case c = r.c;
      c.id = r.id;
      AddTrt(std::move(c), std::string("negative:") + r.rule, "docs/semantics.md#tensorrt", r.rule);
    }
  }
};

}  // namespace

std::vector<GoldenCase> TensorRtGoldenCatalogue() {
  TensorRtCatalogue c;
  c.TensorRt();
  return c.cases;
}

}  // namespace qconform
