// com.microsoft MatMulNBits' must-reject cases: one per rule of its own and per generated rule
// (inputs.count, attr.required, attr.undefined, attr.type, type.T1 to T4), each breaking that
// rule alone, and one implementation-defined case (a zero scale).
#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"

namespace qconform {

std::vector<GoldenCase> MatMulNBitsRejectCases() {
  using D = DataType;
  CatalogueBuilder b;
  // K 32, N 2, bits 4, block_size 16: B [2, 2, 8], scales [2, 2], zero points [2, 1].
  const auto bytes = [](std::vector<int64_t> shape) {
    return MakeTensor(D::kUint8, shape, std::vector<double>(ShapeElements(shape), 0x98));
  };
  const auto floats = [](std::vector<int64_t> shape, double v, D t = D::kFloat) {
    return MakeTensor(t, shape, std::vector<double>(ShapeElements(shape), v));
  };
  const auto base = [&] {
    return std::vector<std::optional<Tensor>>{floats({1, 32}, 0.5), bytes({2, 2, 8}),
                                              floats({2, 2}, 0.25), bytes({2, 1})};
  };
  const std::map<std::string, Attribute> attrs = {{"K", Attribute::Int(32)},
                                                  {"N", Attribute::Int(2)},
                                                  {"bits", Attribute::Int(4)},
                                                  {"block_size", Attribute::Int(16)}};
  const auto reject = [&](const std::string& name, std::vector<std::optional<Tensor>> in,
                          const std::string& rule, const std::string& why,
                          std::map<std::string, Attribute> changed = {},
                          const std::string& removed = "") {
    while (!in.back()) in.pop_back();
    Case c = MakeCase("MatMulNBits", 1, std::move(in), {}, "com.microsoft", "mnb1-reject-" + name);
    c.attributes = attrs;
    for (auto& [key, value] : changed) c.attributes[key] = value;
    if (!removed.empty()) c.attributes.erase(removed);
    b.Add(std::move(c), "negative:" + rule, why, rule);
  };
  const auto set = [&](size_t at, std::optional<Tensor> t) {
    auto in = base();
    if (in.size() <= at) in.resize(at + 1);
    in[at] = std::move(t);
    return in;
  };
  reject("bits-3", base(), "mnb.attr.bits", "bits is 2, 4 or 8", {{"bits", Attribute::Int(3)}});
  reject("block-size-24", base(), "mnb.attr.block_size", "block_size is a power of two",
         {{"block_size", Attribute::Int(24)}});
  reject("block-size-8", set(1, bytes({2, 4, 4})), "mnb.attr.block_size",
         "block_size is at least 16", {{"block_size", Attribute::Int(8)}});
  reject("k-0", base(), "mnb.attr.k_n", "K is at least 1", {{"K", Attribute::Int(0)}});
  reject("accuracy-level-5", base(), "mnb.attr.accuracy_level", "accuracy_level is 0 to 4",
         {{"accuracy_level", Attribute::Int(5)}});
  reject("prepacked", base(), "mnb.attr.weight_prepacked", "a CUDA layout is not the page's",
         {{"weight_prepacked", Attribute::Int(1)}});
  reject("a-last-dim", set(0, floats({1, 31}, 0.5)), "mnb.shape.a", "A's last dimension is K");
  reject("b-shape", set(1, bytes({2, 16})), "mnb.shape.b", "B is (N, k_blocks, blob_size)");
  reject("b-blob", set(1, bytes({2, 2, 16})), "mnb.shape.b", "blob_size is block_size * bits / 8");
  reject("scales-shape", set(2, floats({2, 3}, 0.25)), "mnb.shape.scales",
         "scales is (N, k_blocks)");
  reject("zero-points-packed-shape", set(3, bytes({2, 2})), "mnb.shape.zero_points",
         "two 4-bit zero points pack into one byte per row");
  reject("zero-points-float-shape", set(3, floats({2, 1}, 8)), "mnb.shape.zero_points",
         "unpacked zero points are (N, k_blocks)");
  reject("zero-points-float16", set(3, floats({2, 2}, 8, D::kFloat16)), "mnb.type.zero_points",
         "unpacked zero points have A's type");
  reject("g-idx-shape", set(4, MakeTensor(D::kInt32, {16}, std::vector<double>(16, 0))),
         "mnb.shape.g_idx", "g_idx is [K]");
  reject("g-idx-range", set(4, MakeTensor(D::kInt32, {32}, std::vector<double>(32, 2))),
         "mnb.g_idx.range", "two blocks: index 2 is none");
  reject("bias-shape", set(5, floats({3}, 1)), "mnb.shape.bias", "bias is [N]");
  reject("no-scales", {floats({1, 32}, 0.5), bytes({2, 2, 8})}, "mnb.inputs.count",
         "scales is required");
  reject("no-block-size", base(), "mnb.attr.required", "block_size is required", {}, "block_size");
  reject("alpha", base(), "mnb.attr.undefined", "MatMulNBits has no alpha",
         {{"alpha", Attribute::Float(1)}});
  reject("bits-float", base(), "mnb.attr.type", "bits is an INT", {{"bits", Attribute::Float(4)}});
  reject("a-int8", set(0, MakeTensor(D::kInt8, {1, 32}, std::vector<double>(32, 1))), "mnb.type.T1",
         "A is float, float16 or bfloat16");
  reject("b-int8", set(1, MakeTensor(D::kInt8, {2, 2, 8}, std::vector<double>(32, 1))),
         "mnb.type.T2", "B is uint8");
  reject("zero-points-int8", set(3, MakeTensor(D::kInt8, {2, 1}, {1, 1})), "mnb.type.T3",
         "zero points are uint8 or a float type");
  reject("g-idx-int64", set(4, MakeIndexTensor(D::kInt64, {32}, std::vector<int64_t>(32, 0))),
         "mnb.type.T4", "g_idx is int32");
  Case zero =
      MakeCase("MatMulNBits", 1, set(2, floats({2, 2}, 0)), {}, "com.microsoft", "mnb1-scale-zero");
  zero.attributes = attrs;
  b.Add(std::move(zero), "implementation-defined:mnb.scale.unusual", "d26");
  return std::move(b.cases);
}

}  // namespace qconform
