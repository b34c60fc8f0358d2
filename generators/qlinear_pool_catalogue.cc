// QLinearAveragePool's golden cases (docs/semantics.md#d35), for each T (int8, uint8). X holds
// every code of T in a shuffled order as 1 x 4 x 8 x 8 (N x C x H x W) at x_scale 1/2 and an odd
// zero point; y_scale 1 and another odd zero point, so that a window's mean is a multiple of
// 1/(2 count) and a 2 x 2 window's is a tie whenever its sum of halves is 4 mod 8:
//   - ties: 2 x 2 windows, stride 1 (49 per channel), and stride 2 (non-overlapping);
//   - padding: 3 x 3 windows, pads 1, count_include_pad 0 (edge windows of 4 and 6 taps: the
//     4-tap ones tie, the 6-tap ones divide in float) and 1 (every window of 9, padding the real
//     value 0, not the zero point);
//   - auto_pad SAME_UPPER and SAME_LOWER, 3 x 3 windows at stride 2 (one row and column of
//     padding, at the end or the beginning: edge windows of 6 and 4 taps);
//   - channels_last 1 (1 x 8 x 8 x 4) and a 1-D pool (1 x 4 x 64, kernel 4);
//   - ceil_mode 1: the last window partly past the input, with and without count_include_pad,
//     with pads, a dropped window, both layouts;
//   - global-window: a kernel covering the whole 8 x 8 (ONNX Runtime takes its global-pool path);
//   - saturate: a ratio of 2^12 past both ends of T; absent zero points (X's, and both);
//   - same-parameters: Y's scale and zero point X's (the only pools PyTorch and TFLite have),
//     2 x 2 windows, and 3 x 3 with padding excluded, also with zero points 0 (oneDNN's);
//   - reciprocal: a 1 x 1 kernel (a requantization) with scales found by search whose float32
//     reciprocal rounds some results the other way;
// and one case per rule (must-reject and implementation-defined).
#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/qlinear_group_codes.h"
#include "oracle/core/case_builder.h"

namespace qconform {
namespace {

using D = DataType;
using Inputs = std::vector<std::optional<Tensor>>;
using Attributes = std::map<std::string, Attribute>;
using namespace qlinear_codes;

Attribute Ints(std::vector<int64_t> v) {
  return Attribute::Ints(std::move(v));
}

class QLinearPools : public CatalogueBuilder {
 public:
  // X's codes as `shape`, with its parameters and Y's.
  static Inputs In(D t, Tensor x, std::vector<int64_t> shape, double x_scale, double y_scale) {
    x.shape = std::move(shape);
    const auto zp = [t](int64_t v) { return MakeScalar(t, static_cast<double>(v)); };
    return {x, F(x_scale), zp(Zp(t, -3)), F(y_scale), zp(Zp(t, 7))};
  }
  static Inputs Nchw(D t, double x_scale = 0.5, double y_scale = 1) {
    return In(t, Shuffled(t), {1, 4, 8, 8}, x_scale, y_scale);
  }
  static Case Make(Inputs in, const std::string& id, Attributes attributes) {
    Case c = MakeCase("QLinearAveragePool", 1, std::move(in), {}, "com.microsoft", id);
    c.attributes = std::move(attributes);
    return c;
  }
  void Computed(D t, const std::string& boundary, Inputs in, Attributes attributes) {
    Add(Make(std::move(in), "qlavgpool1-" + boundary + "-" + TypeName(t), std::move(attributes)),
        "op:QLinearAveragePool,type:" + TypeName(t) + ",y:" + TypeName(t) + ",boundary:" + boundary,
        "d35");
  }

  void Cells(D t) {
    const Attribute k2 = Ints({2, 2}), k3 = Ints({3, 3}), s2 = Ints({2, 2});
    Computed(t, "ties", Nchw(t), {{"kernel_shape", k2}});
    Computed(t, "ties-stride-2", Nchw(t), {{"kernel_shape", k2}, {"strides", s2}});
    const Attribute pads = Ints({1, 1, 1, 1});
    Computed(t, "pads-excluded", Nchw(t), {{"kernel_shape", k3}, {"pads", pads}});
    Computed(t, "pads-included", Nchw(t),
             {{"kernel_shape", k3}, {"pads", pads}, {"count_include_pad", Attribute::Int(1)}});
    for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
      std::string name = mode;
      for (char& ch : name) ch = ch == '_' ? '-' : static_cast<char>(std::tolower(ch));
      Computed(t, "auto-pad-" + name, Nchw(t),
               {{"kernel_shape", k3}, {"strides", s2}, {"auto_pad", Attribute::String(mode)}});
    }
    Computed(t, "channels-last", In(t, Shuffled(t), {1, 8, 8, 4}, 0.5, 1),
             {{"kernel_shape", k2}, {"channels_last", Attribute::Int(1)}});
    // ceil_mode 1 (AveragePool's): 3 x 3 at stride 2 over 8 gives 4 windows, not 3; the last
    // starts at 6 and holds 2 taps of the input, so count_include_pad 1 divides by 2 there, not
    // by 3 (taps past the end padding are not counted); with pads 1, 5 windows, the last of one
    // input and one padding tap; kernel 2 at stride 3 with one end pad: the 4th window would
    // start in the padding and is dropped (3 windows, as floor gives); both layouts.
    const Attribute ceil = Attribute::Int(1), include = Attribute::Int(1);
    Computed(t, "ceil-excluded", Nchw(t),
             {{"kernel_shape", k3}, {"strides", s2}, {"ceil_mode", ceil}});
    Computed(t, "ceil-included", Nchw(t),
             {{"kernel_shape", k3},
              {"strides", s2},
              {"ceil_mode", ceil},
              {"count_include_pad", include}});
    Computed(t, "ceil-pads-included", Nchw(t),
             {{"kernel_shape", k3},
              {"strides", s2},
              {"pads", pads},
              {"ceil_mode", ceil},
              {"count_include_pad", include}});
    Computed(t, "ceil-drop", Nchw(t),
             {{"kernel_shape", k2},
              {"strides", Ints({3, 3})},
              {"pads", Ints({0, 0, 1, 1})},
              {"ceil_mode", ceil},
              {"count_include_pad", include}});
    Computed(t, "ceil-channels-last", In(t, Shuffled(t), {1, 8, 8, 4}, 0.5, 1),
             {{"kernel_shape", k3},
              {"strides", s2},
              {"ceil_mode", ceil},
              {"count_include_pad", include},
              {"channels_last", Attribute::Int(1)}});
    Computed(t, "one-dimensional", In(t, Shuffled(t), {1, 4, 64}, 0.5, 1),
             {{"kernel_shape", Ints({4})}, {"strides", Ints({2})}});
    Computed(t, "global-window", Nchw(t, 1.0 / 32, 1.0 / 8), {{"kernel_shape", Ints({8, 8})}});
    Computed(t, "saturate", Nchw(t, 64, 1.0 / 64), {{"kernel_shape", k2}});
    // Y with X's parameters, as PyTorch's and TFLite's pools require: a 2 x 2 window's mean of
    // codes is a tie whenever its sum is 2 mod 4; with padding excluded, edge windows of 4 and 6.
    Inputs same = Nchw(t, 0.5, 0.5);
    same[4] = same[2];
    Computed(t, "same-parameters", same, {{"kernel_shape", k2}});
    Computed(t, "same-parameters-pads-excluded", same, {{"kernel_shape", k3}, {"pads", pads}});
    // And zero points 0: a mean of codes, what a pool without quantization parameters computes
    // (oneDNN's).
    same[2] = same[4] = MakeScalar(t, 0);
    Computed(t, "same-parameters-zero-points", same, {{"kernel_shape", k3}, {"pads", pads}});
    // Absent zero points read as 0: X's alone, and both.
    Inputs in = Nchw(t);
    in[2] = std::nullopt;
    Computed(t, "default-x-zero-point", in, {{"kernel_shape", k2}});
    in.pop_back();
    Computed(t, "default-zero-points", in, {{"kernel_shape", k2}});
    // A 1 x 1 window requantizes each code: the search for a reciprocal's wrong codes.
    const int64_t zp = Zp(t, -3), y_zp = Zp(t, 7);
    const auto pool = [&](const Tensor& x, double x_scale, double scale) {
      Inputs in = In(t, x, {1, 1, 1, static_cast<int64_t>(x.codes.size())}, x_scale, scale);
      return in;
    };
    const Attributes one = {{"kernel_shape", Ints({1, 1})}};
    const RequantizeReciprocal r =
        SearchRequantizeReciprocal(t, zp, y_zp, [&](const Tensor& x, float x_scale, float scale) {
          return Make(pool(x, x_scale, scale), "search", one);
        });
    Computed(t, "reciprocal", pool(r.x, r.x_scale, r.scale), one);
  }

  // One case per rule of the operator.
  void Rules() {
    const D t = D::kUint8;
    const Inputs base = Nchw(t);
    const Attributes k2 = {{"kernel_shape", Ints({2, 2})}};
    const auto reject = [&](const std::string& what, Inputs in, const std::string& rule,
                            Attributes attributes) {
      Add(Make(std::move(in), "qlavgpool1-reject-" + what, std::move(attributes)),
          "negative:qlavgpool." + rule, "d35", "qlavgpool." + rule);
    };
    const auto impl = [&](const std::string& what, Inputs in, const std::string& rule) {
      Add(Make(std::move(in), "qlavgpool1-impl-" + what, k2),
          "op:QLinearAveragePool,type:uint8,implementation-defined:qlavgpool." + rule, "d35");
    };
    const auto with = [&](Attributes a) {
      Attributes all = k2;
      for (auto& [name, value] : a) all[name] = value;
      return all;
    };
    reject("missing-scale", {base[0]}, "inputs.count", k2);
    reject("dilations-attribute", base, "attr.undefined", with({{"dilations", Ints({1, 1})}}));
    reject("kernel-shape-int", base, "attr.type", {{"kernel_shape", Attribute::Int(2)}});
    reject("no-kernel-shape", base, "attr.required", {});
    Inputs in = base;
    in[0] = MakeTensor(D::kInt16, {1, 1, 2, 2}, {1, 2, 3, 4});
    reject("int16-operand", in, "type.T", k2);
    in = base, in[4] = MakeScalar(D::kInt8, 1);
    reject("zero-point-type-differs", in, "type.T", k2);
    in = base, in[1] = MakeScalar(D::kFloat16, 0.5);
    reject("float16-scale", in, "type.scale", k2);
    in = base, in[3] = MakeTensor(D::kFloat, {2}, {1, 1});
    reject("two-element-scale", in, "param.scalar", k2);
    in = base, in[0]->shape = {16, 16};
    reject("rank-2", in, "shape.rank", k2);
    reject("kernel-larger-than-input", base, "shape.output", {{"kernel_shape", Ints({9, 9})}});
    reject("kernel-shape-of-three", base, "attr.kernel_shape", {{"kernel_shape", Ints({2, 2, 2})}});
    reject("three-pads", base, "attr.pads", with({{"pads", Ints({1, 1, 1})}}));
    reject("stride-0", base, "attr.strides", with({{"strides", Ints({0, 1})}}));
    reject("auto-pad-unknown", base, "attr.auto_pad",
           with({{"auto_pad", Attribute::String("SAME")}}));
    reject("auto-pad-with-pads", base, "attr.auto_pad_pads",
           with({{"auto_pad", Attribute::String("VALID")}, {"pads", Ints({0, 0, 0, 0})}}));
    in = base, in[1] = MakeTensor(D::kFloat, {1}, {0.5});
    impl("one-element-scale", in, "param.one_element");
    in = base, in[3] = F(-1);
    impl("negative-scale", in, "scale.unusual");
  }
};

}  // namespace

std::vector<GoldenCase> QLinearPoolCatalogue(CatalogueParts parts) {
  QLinearPools b;
  if (parts == CatalogueParts::kAll) {
    for (D t : {D::kInt8, D::kUint8}) b.Cells(t);
  }
  b.Rules();
  return b.cases;
}

}  // namespace qconform
