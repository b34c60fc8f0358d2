// com.microsoft GatherBlockQuantized's must-reject cases, one per rule of its own and per
// generated rule (inputs.count, attr.undefined, attr.type, type.T1, type.T2, type.Tind), each
// breaking that rule alone.
#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"

namespace qconform {

std::vector<GoldenCase> GatherBlockQuantizedRejectCases() {
  using D = DataType;
  using Inputs = std::vector<std::optional<Tensor>>;
  CatalogueBuilder b;
  // int4 data [4, 20], indices [2] int64, float scales [4, 2] (blocks of 16), int4 zero points.
  const auto base = [&] {
    return Inputs{Filled(D::kInt4, {4, 20}, -3), MakeIndexTensor(D::kInt64, {2}, {0, -1}),
                  Filled(D::kFloat, {4, 2}, 0.5), Filled(D::kInt4, {4, 2}, 1)};
  };
  // uint8 data of bits 4: [4, 10] bytes hold [4, 20] codes.
  const auto uint8 = [&] {
    return Inputs{Filled(D::kUint8, {4, 10}, 0x37), MakeIndexTensor(D::kInt64, {2}, {0, -1}),
                  Filled(D::kFloat, {4, 2}, 0.5), Filled(D::kUint8, {4, 1}, 0x18)};
  };
  const auto add = [&](const std::string& name, Inputs in, std::map<std::string, int64_t> attrs,
                       const std::string& rule, const std::string& why) {
    while (!in.empty() && !in.back()) in.pop_back();
    attrs.emplace("block_size", 16);
    Case c = MakeCase("GatherBlockQuantized", 1, std::move(in), attrs, "com.microsoft",
                      "gbq1-reject-" + name);
    b.Add(std::move(c), "negative:" + rule, why, rule);
  };
  add("bits-2-int4", base(), {{"bits", 2}}, "gbq.attr.bits", "int4 data holds 4 bits");
  add("bits-3-uint8", uint8(), {{"bits", 3}}, "gbq.attr.bits", "uint8 data: bits 2, 4 or 8");
  add("block-size-24", base(), {{"block_size", 24}}, "gbq.attr.block_size",
      "a power of two of at least 16");
  add("data-scalar", WithInput(base(), 0, Filled(D::kInt4, {}, 1)), {}, "gbq.shape.data",
      "rank >= 1");
  add("gather-axis-2", base(), {{"gather_axis", 2}}, "gbq.attr.gather_axis", "within [-2, 1]");
  add("quantize-axis-minus-3", base(), {{"quantize_axis", -3}}, "gbq.attr.quantize_axis",
      "within [-2, 1]");
  add("uint8-gather-axis-1", uint8(), {{"gather_axis", 1}}, "gbq.uint8.gather_axis",
      "uint8 data is gathered along axis 0");
  add("scales-shape", WithInput(base(), 2, Filled(D::kFloat, {4, 1}, 0.5)), {}, "gbq.shape.scales",
      "20 codes in blocks of 16 are 2 blocks");
  add("zero-points-shape", WithInput(base(), 3, Filled(D::kInt4, {4, 1}, 1)), {},
      "gbq.shape.zero_points", "the scales' shape");
  add("uint8-zero-points-unpacked", WithInput(uint8(), 3, Filled(D::kUint8, {4, 2}, 8)), {},
      "gbq.shape.zero_points", "two 4-bit zero points a byte: [4, 1]");
  add("index-out-of-range", WithInput(base(), 1, MakeIndexTensor(D::kInt64, {2}, {0, 4})), {},
      "gbq.indices.range", "indices within [-4, 3]");
  add("index-below-range", WithInput(base(), 1, MakeTensor(D::kInt32, {2}, {-5, 0})), {},
      "gbq.indices.range", "indices within [-4, 3]");
  const Inputs full = base();
  add("no-scales", Inputs(full.begin(), full.begin() + 2), {}, "gbq.inputs.count",
      "scales is required");
  add("attribute", base(), {{"axis", 0}}, "gbq.attr.undefined", "the operator has no axis");
  {
    Case c = MakeCase("GatherBlockQuantized", 1, base(), {{"block_size", 16}}, "com.microsoft",
                      "gbq1-reject-attribute-type");
    c.attributes["bits"] = Attribute::Float(4);
    b.Add(std::move(c), "negative:gbq.attr.type", "bits is an INT", "gbq.attr.type");
  }
  add("data-int8", WithInput(base(), 0, Filled(D::kInt8, {4, 20}, 1)), {}, "gbq.type.T1",
      "data is int4, uint4 or uint8");
  add("scales-int32", WithInput(base(), 2, Filled(D::kInt32, {4, 2}, 1)), {}, "gbq.type.T2",
      "scales are float, float16 or bfloat16");
  add("indices-float", WithInput(base(), 1, Filled(D::kFloat, {2}, 0)), {}, "gbq.type.Tind",
      "indices are int32 or int64");
  return std::move(b.cases);
}

}  // namespace qconform
