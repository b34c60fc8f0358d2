// GatherBlockQuantized's validation (ONNX Runtime's ContribOperators.md): bits for data's type,
// block_size, the two axes within data's rank, uint8's gather_axis 0, scales' shape (data's, with
// quantize_axis in blocks), zero points' (the scales', packed along quantize_axis for uint8 of
// bits < 8), and indices within [-s, s - 1]. The types come from the row's constraints
// (ValidateNode).
#include <string>

#include "oracle/core/codec.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/common/operand_checker.h"
#include "oracle/semantics/float_output/gather_block_quantized.h"

namespace qconform {
namespace {

class GatherChecker : OperandChecker {
 public:
  GatherChecker(const Case& c, const OpSchema& s) : OperandChecker(c, s) {}

  GatherBlockQuantizedValidation Run() {
    GatherBlockQuantizedValidation v;
    if (ValidateNode(c_, s_, findings_) && Attributes() && Axes() && Scales() && ZeroPoints() &&
        Indices()) {
      CheckUnusualScales({op_.input_index("scales")});
      v.plan = plan_;
    }
    v.findings = std::move(findings_);
    return v;
  }

 private:
  bool Attributes() {
    const Tensor& data = *At(0);
    plan_.data_type = FindElementType(data.data_type);
    plan_.t = FindElementType(At(2)->data_type);
    plan_.bits = Int("bits"), plan_.block_size = Int("block_size");
    const bool uint8 = plan_.data_type->id == DataType::kUint8;
    if (uint8 ? plan_.bits != 2 && plan_.bits != 4 && plan_.bits != 8 : plan_.bits != 4) {
      Add("attr.bits", "bits is " + std::to_string(plan_.bits) + "; for " +
                           std::string(plan_.data_type->name) + " data it is " +
                           (uint8 ? "2, 4 or 8" : "4 (an element holds 4 bits)"));
    } else if (plan_.block_size < 16 || (plan_.block_size & (plan_.block_size - 1)) != 0) {
      Add("attr.block_size", "block_size is " + std::to_string(plan_.block_size) +
                                 "; it is a power of two and at least 16");
    } else if (data.shape.empty()) {
      Add("shape.data", "data is a scalar; it has rank r >= 1");
    }
    if (Rejected()) return false;
    plan_.per_byte = uint8 ? 8 / plan_.bits : 1;
    plan_.logical_shape = data.shape;
    plan_.logical_shape.back() *= plan_.per_byte;
    return true;
  }

  // An axis attribute within [-r, r - 1], made nonnegative.
  bool Axis(const char* name, int64_t& axis) {
    const auto r = static_cast<int64_t>(plan_.logical_shape.size());
    axis = Int(name);
    if (axis < -r || axis >= r) {
      Add(std::string("attr.") + name, std::string(name) + " is " + std::to_string(axis) +
                                           "; the accepted range is [-r, r-1] = [" +
                                           std::to_string(-r) + ", " + std::to_string(r - 1) + "]");
      return false;
    }
    if (axis < 0) axis += r;
    return true;
  }

  bool Axes() {
    if (!Axis("gather_axis", plan_.gather_axis) || !Axis("quantize_axis", plan_.quantize_axis)) {
      return false;
    }
    if (plan_.data_type->id != DataType::kUint8) return true;
    if (plan_.gather_axis != 0) {
      Add("uint8.gather_axis", "data is uint8 and gather_axis is " +
                                   std::to_string(plan_.gather_axis) + "; for uint8 data it is 0");
      return false;
    }
    const auto last = static_cast<int64_t>(plan_.logical_shape.size()) - 1;
    if (plan_.quantize_axis != last || plan_.gather_axis == plan_.quantize_axis) {
      Add("uint8.quantize_axis",
          "data is uint8 and quantize_axis is " + std::to_string(plan_.quantize_axis) +
              " (gather_axis 0, last axis " + std::to_string(last) +
              "); ONNX Runtime requires the last axis, apart from the gather axis");
    }
    return true;
  }

  bool Scales() {
    plan_.scale_shape = plan_.logical_shape;
    int64_t& blocks = plan_.scale_shape[static_cast<size_t>(plan_.quantize_axis)];
    blocks = (blocks + plan_.block_size - 1) / plan_.block_size;
    if (At(2)->shape != plan_.scale_shape) {
      Add("shape.scales", "scales has shape " + ShapeString(At(2)->shape) +
                              "; it is data's logical shape " + ShapeString(plan_.logical_shape) +
                              " with quantize_axis " + std::to_string(plan_.quantize_axis) +
                              " in blocks of " + std::to_string(plan_.block_size) + ": " +
                              ShapeString(plan_.scale_shape));
      return false;
    }
    plan_.y_shape.assign(plan_.logical_shape.begin(),
                         plan_.logical_shape.begin() + plan_.gather_axis);
    plan_.y_shape.insert(plan_.y_shape.end(), At(1)->shape.begin(), At(1)->shape.end());
    plan_.y_shape.insert(plan_.y_shape.end(), plan_.logical_shape.begin() + plan_.gather_axis + 1,
                         plan_.logical_shape.end());
    return true;
  }

  bool ZeroPoints() {
    const Tensor* zp = At(3);
    if (zp == nullptr) return true;
    plan_.zero_point_input = 3;
    std::vector<int64_t> expected = plan_.scale_shape;
    int64_t& along = expected[static_cast<size_t>(plan_.quantize_axis)];
    along = (along + plan_.per_byte - 1) / plan_.per_byte;
    if (zp->shape != expected) {
      Add("shape.zero_points",
          "zero_points has shape " + ShapeString(zp->shape) + "; it is scales' shape" +
              (plan_.per_byte > 1 ? " with " + std::to_string(plan_.per_byte) +
                                        " zero points a byte along quantize_axis"
                                  : std::string()) +
              ": " + ShapeString(expected));
      return false;
    }
    return true;
  }

  bool Indices() {
    const Tensor& indices = *At(1);
    const int64_t s = plan_.logical_shape[static_cast<size_t>(plan_.gather_axis)];
    for (size_t k = 0; k < indices.codes.size(); ++k) {
      const int64_t v = static_cast<int32_t>(indices.codes[k]);
      if (v < -s || v >= s) {
        Add("indices.range", "indices[" + std::to_string(k) + "] is " + std::to_string(v) +
                                 "; along gather_axis of size " + std::to_string(s) +
                                 " an index is within [-s, s-1] = [" + std::to_string(-s) + ", " +
                                 std::to_string(s - 1) + "]");
        return false;
      }
      plan_.indices.push_back(v < 0 ? v + s : v);
    }
    return true;
  }

  GatherBlockQuantizedPlan plan_;
};

}  // namespace

GatherBlockQuantizedValidation ValidateGatherBlockQuantized(const Case& c, const OpSchema& schema) {
  return GatherChecker(c, schema).Run();
}

}  // namespace qconform
