// The golden catalogue's graph cases for the float operators beyond graph_golden_catalogue.cc's
// (docs/semantics.md#d32, #d33), each group DQ -> op -> Q built from the boundaries:
//   arithmetic (Gemm, Conv with an int32 bias DQ, AveragePool, Resize linear, and Conv and Gemm
//     with float weights and bias between a DQ and a Q, each weight row spanning 2^-7 to 96, so
//     that int8 cannot hold it; AveragePool with its window the whole spatial extent, the shape
//     ONNX Runtime's fused kernel takes another path for): dyadic scales
//     with y_scale found by search so that the most elements sit exactly on ties of Q (B = 0:
//     one code, half to even, the odd zero point after); non-dyadic scales with y_scale found
//     by search so that a tie falls inside an element's float range (both codes admitted);
//   transcendental (Sigmoid, Softmax): every uint8 input code, y_scale 1/256 (the usual
//     QLinearSigmoid grid) and a y_scale whose tie falls inside TOSA's bound;
//   data movement (MaxPool, Reshape, Squeeze, Unsqueeze, Slice, Gather, Split, Where, Resize
//     nearest): y's parameters equal x's, so Q(DQ(x)) = x and a moved element anywhere else is a
//     wrong value; the extreme codes 0, 1, 127, 128, 254, 255 among the values.
#include <functional>
#include <sstream>

#include "generators/catalogue_builder.h"
#include "generators/graph_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"

namespace qconform {
namespace {

using D = DataType;
using Body = std::function<std::string(GraphCaseBuilder&)>;

// n uint8 codes: the extremes first, then a spread.
std::vector<double> Spread(int64_t n, int64_t salt = 0) {
  const std::vector<double> extremes = {0, 1, 127, 128, 254, 255};
  std::vector<double> v;
  for (int64_t j = 0; j < n; ++j) {
    v.push_back(j < 6 ? extremes[static_cast<size_t>(j)]
                      : static_cast<double>((j * 29 + 7 + salt * 13) % 256));
  }
  return v;
}

Tensor U8(std::vector<int64_t> shape, int64_t salt = 0) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return MakeTensor(D::kUint8, std::move(shape), Spread(n, salt));
}

// Codes in [low, low + 15]: sums with few significant bits, so that a power-of-two y_scale puts
// them on ties with codes inside uint8.
Tensor Small(D type, std::vector<int64_t> shape, int64_t low, int64_t salt = 0) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<double> v;
  for (int64_t j = 0; j < n; ++j) v.push_back(static_cast<double>(low + (j * 7 + 3 + salt) % 16));
  return MakeTensor(type, std::move(shape), v);
}

class OperatorCatalogue : public CatalogueBuilder {
 public:
  // The group at a tie-making y_scale (dyadic body) or a straddling one; `body` builds
  // everything up to the float result.
  void Arithmetic(const std::string& id, const std::string& op, const Body& body,
                  const std::string& boundary, double zero_point = 3,
                  const std::string& more = "") {
    GraphCaseBuilder probe(id + "-float");
    probe.Output(body(probe));
    const std::vector<FloatElement> elements = FloatOutput(probe.Build());
    const std::optional<float> scale = boundary == "ties"
                                           ? TieScale(elements, zero_point, D::kUint8)
                                           : StraddleScale(elements, zero_point, D::kUint8);
    if (!scale) {
      std::ostringstream why;
      why << id << ": the search found no " << boundary << " y_scale among " << elements.size()
          << " elements (value, ~ where inexact):";
      for (size_t i = 0; i < elements.size() && i < 16; ++i)
        why << " " << elements[i].value << (elements[i].exact ? "" : "~");
      throw std::logic_error(why.str());
    }
    Quantized(id, op, body, *scale, zero_point, D::kUint8, "boundary:" + boundary + more);
  }

  void Quantized(const std::string& id, const std::string& op, const Body& body, float scale,
                 double zero_point, D type, const std::string& features) {
    GraphCaseBuilder b(id);
    b.Quantize(body(b), "y", scale, zero_point, type);
    Add(b.Build(), "graph:qdq,op:" + op + ",type:uint8,y:" + TypeName(type) + "," + features,
        "d30,d31,d32,d33");
  }

  // DQ(x) -> op -> Q with x's parameters (0.75, 7).
  void Movement(
      const std::string& id, const std::string& op, Tensor x,
      const std::function<std::vector<std::string>(GraphCaseBuilder&, std::string)>& body) {
    GraphCaseBuilder b(id);
    const std::string real = b.Dequantize("x", std::move(x), 0.75f, 7);
    const std::vector<std::string> outs = body(b, real);
    const std::vector<std::string> names = {"y0", "y1", "y2", "y3"};
    for (size_t k = 0; k < outs.size(); ++k) {
      b.Quantize(outs[k], outs.size() == 1 ? std::string("y") : names.at(k), 0.75f, 7, D::kUint8);
    }
    Add(b.Build(), "graph:qdq,op:" + op + ",type:uint8,y:uint8,boundary:movement", "d32,d33");
  }

  void Gemm() {
    const auto body = [](float as, float bs, std::vector<double> c, int64_t k) -> Body {
      return [=](GraphCaseBuilder& b) {
        const bool ties = as == 0.5f;
        const std::string a =
            b.Dequantize("a", ties ? Small(D::kUint8, {4, k}, 0) : U8({4, k}), as, ties ? 0 : 3);
        const std::string w = b.Dequantize(
            "b", ties ? Small(D::kUint8, {2, k}, 0, 5) : U8({2, k}, 1), bs, ties ? 9 : 7, true);
        const std::string bias = b.Constant("c", MakeTensor(D::kFloat, {2}, c));
        return b.Op("Gemm", {a, w, bias}, {"y_real"}, {{"transB", Attribute::Int(1)}});
      };
    };
    Arithmetic("qdq13-gemm-ties-uint8", "Gemm", body(0.5f, 0.25f, {0.125, -0.375}, 9), "ties", 129);
    Arithmetic("qdq13-gemm-straddle-uint8", "Gemm",
               body(static_cast<float>(0.1), static_cast<float>(0.3),
                    {static_cast<float>(0.7), static_cast<float>(-1.3)}, 64),
               "straddle");
  }

  void Conv() {
    const auto body = [](float xs, float ws) -> Body {
      return [=](GraphCaseBuilder& b) {
        const std::string x = b.Dequantize("x", U8({1, 2, 5, 5}), xs, 3);
        std::vector<double> w;
        for (int j = 0; j < 54; ++j) w.push_back(static_cast<double>((j * 37 + 11) % 256 - 128));
        w[0] = -128, w[1] = 127;
        const std::string wr =
            b.Dequantize("w", MakeTensor(D::kInt8, {3, 2, 3, 3}, w), ws, 0, true);
        const std::string bias =
            b.Dequantize("bias", MakeTensor(D::kInt32, {3}, {-1001, 7, 40000}), xs * ws, 0, true);
        return b.Op("Conv", {x, wr, bias}, {"y_real"}, {{"pads", Attribute::Ints({1, 1, 1, 1})}});
      };
    };
    Arithmetic("qdq13-conv-ties-uint8", "Conv", body(0.5f, 0.25f), "ties", 129);
    Arithmetic("qdq13-conv-straddle-uint8", "Conv",
               body(static_cast<float>(0.1), static_cast<float>(0.3)), "straddle");
  }

  // DQ(x) -> Conv or Gemm with float32 weights and bias (initializers, no DQ) -> Q. Every
  // product lies on the grid 2^-8 and every sum far below 2^16, so the float result is exact
  // (B = 0); quantizing the weights to int8 (scale max |w| / 127) moves it by far more.
  void FloatWeights() {
    const std::vector<double> six = {96, 0x1p-7, -3, 0.375, 0.0625, -100};
    const std::vector<double> bias = {0.125, -0.25, 3};
    // A 1 x 1 Conv, with or without the bias, padded by p.
    const auto conv = [&](bool with_bias, int64_t p) -> Body {
      return [=](GraphCaseBuilder& b) {
        const std::string x = b.Dequantize("x", Small(D::kUint8, {1, 2, 3, 3}, 0), 0.5f, 3);
        std::vector<std::string> in = {x,
                                       b.Constant("w", MakeTensor(D::kFloat, {3, 2, 1, 1}, six))};
        if (with_bias) in.push_back(b.Constant("bias", MakeTensor(D::kFloat, {3}, bias)));
        return b.Op("Conv", in, {"y_real"}, {{"pads", Attribute::Ints({p, p, p, p})}});
      };
    };
    Arithmetic("qdq13-conv-float-weight-ties-uint8", "Conv", conv(true, 0), "ties", 129,
               ",w:float");
    Arithmetic("qdq13-conv-float-weight-no-bias-ties-uint8", "Conv", conv(false, 0), "ties", 129,
               ",w:float");
    Arithmetic("qdq13-conv-float-weight-padded-ties-uint8", "Conv", conv(true, 1), "ties", 129,
               ",w:float");
    Arithmetic(
        "qdq13-gemm-float-weight-ties-uint8", "Gemm",
        [=](GraphCaseBuilder& b) {
          const std::string a = b.Dequantize("a", Small(D::kUint8, {4, 2}, 0, 3), 0.5f, 3);
          const std::string wr = b.Constant("w", MakeTensor(D::kFloat, {3, 2}, six));
          const std::string br = b.Constant("c", MakeTensor(D::kFloat, {3}, bias));
          return b.Op("Gemm", {a, wr, br}, {"y_real"}, {{"transB", Attribute::Int(1)}});
        },
        "ties", 129, ",b:float");
  }

  void Pools() {
    Arithmetic(
        "qdq13-average-pool-whole-extent-ties-uint8", "AveragePool",
        [](GraphCaseBuilder& b) {
          const std::string x = b.Dequantize("x", U8({1, 3, 2, 2}, 4), 0.5f, 3);
          return b.Op("AveragePool", {x}, {"y_real"}, {{"kernel_shape", Attribute::Ints({2, 2})}});
        },
        "ties", 3, ",window:whole-extent");
    Arithmetic(
        "qdq13-average-pool-ties-uint8", "AveragePool",
        [](GraphCaseBuilder& b) {
          const std::string x = b.Dequantize("x", U8({1, 2, 5, 5}), 0.5f, 3);
          return b.Op("AveragePool", {x}, {"y_real"},
                      {{"kernel_shape", Attribute::Ints({2, 2})},
                       {"pads", Attribute::Ints({1, 1, 1, 1})},
                       {"strides", Attribute::Ints({2, 2})}});
        },
        "ties");
    Arithmetic(
        "qdq13-average-pool-include-pad-uint8", "AveragePool",
        [](GraphCaseBuilder& b) {
          const std::string x = b.Dequantize("x", U8({1, 2, 5, 5}, 2), static_cast<float>(0.1), 3);
          return b.Op("AveragePool", {x}, {"y_real"},
                      {{"kernel_shape", Attribute::Ints({3, 3})},
                       {"pads", Attribute::Ints({1, 1, 1, 1})},
                       {"count_include_pad", Attribute::Int(1)}});
        },
        "straddle");
    Movement("qdq13-max-pool-uint8", "MaxPool", U8({1, 1, 5, 5}),
             [](GraphCaseBuilder& b, const std::string& x) {
               return std::vector<std::string>{b.Op("MaxPool", {x}, {"y_real"},
                                                    {{"kernel_shape", Attribute::Ints({3, 3})},
                                                     {"pads", Attribute::Ints({1, 1, 1, 1})},
                                                     {"strides", Attribute::Ints({2, 2})}})};
             });
  }

  void Transcendental() {
    std::vector<double> all(256);
    for (int j = 0; j < 256; ++j) all[static_cast<size_t>(j)] = j;
    const Body sigmoid = [all](GraphCaseBuilder& b) {
      const std::string x = b.Dequantize("x", MakeTensor(D::kUint8, {256}, all), 0.0625f, 128);
      return b.Op("Sigmoid", {x}, {"y_real"});
    };
    Quantized("qdq13-sigmoid-every-code-uint8", "Sigmoid", sigmoid, 1.0f / 256, 0, D::kUint8,
              "boundary:every-code");
    Arithmetic("qdq13-sigmoid-straddle-uint8", "Sigmoid", sigmoid, "straddle", 0);
    const Body softmax = [](GraphCaseBuilder& b) {
      const std::string x = b.Dequantize("x", U8({4, 8}, 3), 0.125f, 128);
      return b.Op("Softmax", {x}, {"y_real"});
    };
    Quantized("qdq13-softmax-uint8", "Softmax", softmax, 1.0f / 256, 0, D::kUint8,
              "boundary:bound");
    Arithmetic("qdq13-softmax-straddle-uint8", "Softmax", softmax, "straddle", 0);
  }

  void Resize() {
    Arithmetic(
        "qdq13-resize-linear-ties-uint8", "Resize",
        [](GraphCaseBuilder& b) {
          const std::string x = b.Dequantize("x", U8({1, 1, 2, 4}), 0.5f, 0);
          const std::string scales = b.Constant("scales", MakeTensor(D::kFloat, {4}, {1, 1, 2, 2}));
          return b.Op("Resize", {x, "", scales}, {"y_real"},
                      {{"mode", Attribute::String("linear")}});
        },
        "ties");
    Movement(
        "qdq13-resize-nearest-uint8", "Resize", U8({1, 1, 2, 3}),
        [](GraphCaseBuilder& b, const std::string& x) {
          const std::string scales = b.Constant("scales", MakeTensor(D::kFloat, {4}, {1, 1, 2, 2}));
          return std::vector<std::string>{b.Op("Resize", {x, "", scales}, {"y_real"})};
        });
  }

  void Shapes() {
    const auto index = [](std::vector<int64_t> shape, std::vector<int64_t> v) {
      return MakeIndexTensor(D::kInt64, std::move(shape), v);
    };
    Movement("qdq13-reshape-uint8", "Reshape", U8({2, 3, 2}),
             [&](GraphCaseBuilder& b, const std::string& x) {
               const std::string s = b.Constant("shape", index({2}, {0, -1}));
               return std::vector<std::string>{b.Op("Reshape", {x, s}, {"y_real"})};
             });
    Movement("qdq13-squeeze-uint8", "Squeeze", U8({1, 6, 1}),
             [&](GraphCaseBuilder& b, const std::string& x) {
               return std::vector<std::string>{b.Op("Squeeze", {x}, {"y_real"})};
             });
    Movement("qdq13-unsqueeze-uint8", "Unsqueeze", U8({2, 3}),
             [&](GraphCaseBuilder& b, const std::string& x) {
               const std::string axes = b.Constant("axes", index({2}, {0, -1}));
               return std::vector<std::string>{b.Op("Unsqueeze", {x, axes}, {"y_real"})};
             });
    Movement("qdq13-slice-uint8", "Slice", U8({3, 4}),
             [&](GraphCaseBuilder& b, const std::string& x) {
               const std::string starts = b.Constant("starts", index({2}, {-1, 0}));
               const std::string ends = b.Constant("ends", index({2}, {-100, 4}));
               const std::string axes = b.Constant("axes", index({2}, {0, 1}));
               const std::string steps = b.Constant("steps", index({2}, {-2, 3}));
               return std::vector<std::string>{
                   b.Op("Slice", {x, starts, ends, axes, steps}, {"y_real"})};
             });
    Movement("qdq13-gather-uint8", "Gather", U8({4, 3}),
             [&](GraphCaseBuilder& b, const std::string& x) {
               const std::string idx = b.Constant("indices", index({2, 2}, {3, -1, 0, -4}));
               return std::vector<std::string>{b.Op("Gather", {x, idx}, {"y_real"})};
             });
    Movement("qdq13-split-uint8", "Split", U8({2, 6}),
             [&](GraphCaseBuilder& b, const std::string& x) {
               const std::string split = b.Constant("split", index({2}, {2, 4}));
               b.Op("Split", {x, split}, {"part0", "part1"}, {{"axis", Attribute::Int(1)}});
               return std::vector<std::string>{"part0", "part1"};
             });
    Movement("qdq13-where-uint8", "Where", U8({2, 3}),
             [&](GraphCaseBuilder& b, const std::string& x) {
               const std::string cond =
                   b.Constant("condition", MakeIndexTensor(D::kBool, {2, 3}, {1, 0, 1, 0, 0, 1}));
               const std::string other = b.Dequantize("other", U8({1, 3}, 5), 0.75f, 7);
               return std::vector<std::string>{b.Op("Where", {cond, x, other}, {"y_real"})};
             });
  }
};

}  // namespace

std::vector<GoldenCase> GraphOperatorCatalogue() {
  OperatorCatalogue g;
  g.Gemm();
  g.Conv();
  g.FloatWeights();
  g.Pools();
  g.Transcendental();
  g.Resize();
  g.Shapes();
  return std::move(g.cases);
}

}  // namespace qconform
