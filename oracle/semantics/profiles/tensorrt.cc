// The TensorRT profile: IQuantizeLayer / IDequantizeLayer as the ONNX-TensorRT importer maps
// QuantizeLinear and DequantizeLinear onto them (TensorRT's Quantize/Dequantize page,
// docs/semantics.md#tensorrt). Its one implementation choice: FP8 always saturates (the `saturate`
// attribute is not read).
#include <algorithm>
#include <string>

#include "oracle/core/codec.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/linear/linear_validation.h"
#include "oracle/semantics/profiles/profile.h"

namespace qconform {
namespace {

using D = DataType;

// Table rows, not branches: the types on each side of the layer.
constexpr D kQuantized[] = {D::kInt8, D::kFloat8E4M3FN, D::kInt4, D::kFloat4E2M1};
constexpr D kFloats[] = {D::kFloat, D::kFloat16, D::kBfloat16};
constexpr D kBlockedTypes[] = {D::kInt4, D::kFloat8E4M3FN, D::kFloat4E2M1};
constexpr int64_t kMaxVolume = (int64_t{1} << 31) - 1;

template <size_t N>
bool In(const D (&set)[N], int32_t t) {
  return std::find(std::begin(set), std::end(set), static_cast<D>(t)) != std::end(set);
}

int64_t IntAttribute(const Case& c, const std::string& name, int64_t fallback) {
  const Attribute* a = c.attribute(name);
  return a != nullptr ? a->i : fallback;
}

class Checker {
 public:
  explicit Checker(const Case& c) : c_(c) {}

  std::vector<Finding> Run() {
    // TensorRT's IQuantizeLayer and IDequantizeLayer: the ai.onnx linear operators only.
    const Operator* op = FindOperator(c_.domain, c_.op_type);
    const bool dq = op != nullptr && op->kind == OperatorKind::kDequantizeLinear;
    const bool q = op != nullptr && op->kind == OperatorKind::kQuantizeLinear;
    if (op == nullptr || !op->domain.empty() || !(dq || q)) {
      Add("trt.op", OperatorLabel(c_.domain, c_.op_type, c_.opset) + " has no TensorRT layer");
      return std::move(out_);
    }
    const Tensor* x = c_.input(0);
    const Tensor* scale = c_.input(1);
    const Tensor* zero_point = c_.input(2);
    if (x == nullptr || scale == nullptr) return std::move(out_);  // the ONNX rules say it
    // The quantized side is the zero point's type; the float side is y for DequantizeLinear,
    // x for QuantizeLinear.
    const int32_t quantized = op->zero_point_type(c_);
    const int32_t real = dq ? DeclaredOutputType(c_) : x->data_type;
    if (!In(kQuantized, quantized)) {
      Add("trt.type.quantized", "the quantized type is " + DataTypeName(quantized) +
                                    "; TensorRT has INT8, FP8 (e4m3), INT4, FP4 (e2m1)");
    }
    if (!In(kFloats, real)) {
      Add("trt.type.float", "the float side is " + DataTypeName(real) +
                                "; TensorRT takes float32, float16, bfloat16");
    }
    CheckScale(*scale);
    if (zero_point != nullptr) CheckZeroPoint(*zero_point);
    CheckShapes(*x, *scale, quantized);
    for (const Tensor* t : {x, scale, zero_point}) {
      if (t == nullptr) continue;
      if (t->element_count() > kMaxVolume) {
        Add("trt.volume",
            "a tensor of shape " + ShapeString(t->shape) + " has more than 2^31 - 1 elements");
      }
    }
    const bool four_bit = element_type_bits(quantized) == 4;
    if (four_bit && x->element_count() % 2 != 0) {
      Add("trt.subbyte.odd", "the 4-bit tensor has " + std::to_string(x->element_count()) +
                                 " elements; TensorRT needs an even count");
    }
    return std::move(out_);
  }

 private:
  void Add(std::string_view id, const std::string& message) {
    out_.push_back({&RuleById(id), "tensorrt: " + message});
  }

  static int element_type_bits(int32_t t) {
    const ElementType* e = FindElementType(t);
    return e != nullptr ? e->bits : 0;
  }

  void CheckScale(const Tensor& scale) {
    if (!scale.is_initializer) {
      Add("trt.scale.constant", "the scale is a graph input; TensorRT needs an initializer");
    }
    if (!In(kFloats, scale.data_type)) {
      Add("trt.scale.type", "the scale has type " + DataTypeName(scale.data_type));
      return;
    }
    const ElementType& t = *FindElementType(scale.data_type);
    for (size_t i = 0; i < scale.codes.size(); ++i) {
      const Exact v = Decode(t, scale.codes[i]);
      if (v.is_finite() && v.value() > 0) continue;
      Add("trt.scale.positive", "scale[" + std::to_string(i) + "] is " + v.ToString());
      return;
    }
  }

  void CheckZeroPoint(const Tensor& zero_point) {
    const ElementType* t = FindElementType(zero_point.data_type);
    if (t == nullptr) return;
    for (size_t i = 0; i < zero_point.codes.size(); ++i) {
      const Exact v = Decode(*t, zero_point.codes[i]);
      if (v.is_zero()) continue;
      Add("trt.zero_point.nonzero", "zero_point[" + std::to_string(i) + "] is " + v.ToString());
      return;
    }
  }

  void CheckShapes(const Tensor& x, const Tensor& scale, int32_t quantized) {
    const auto rank = static_cast<int64_t>(x.shape.size());
    const auto scale_rank = static_cast<int64_t>(scale.shape.size());
    if (rank == 0) Add("trt.x.scalar", "the input is a scalar");
    if (scale_rank > 2) {
      Add("trt.scale.rank", "the scale has shape " + ShapeString(scale.shape));
      return;
    }
    const bool per_tensor = scale.element_count() == 1 && scale_rank <= 1;
    if (per_tensor) return;
    if (scale_rank == 1) {
      if (!x.is_initializer) {
        Add("trt.per_axis.constant", "per-channel scale on an input that is not an initializer");
      }
      return;
    }
    // Same rank as x: block quantization.
    if (!In(kBlockedTypes, quantized)) {
      Add("trt.blocked.type", "block quantization of " + DataTypeName(quantized));
    }
    if (scale_rank != rank) return;  // the ONNX rules reject it
    // Rank <= 2, so the blocked axis is always one of the last two, as TensorRT requires.
    int64_t axis = IntAttribute(c_, "axis", 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return;
    const int64_t di = x.shape[axis], si = scale.shape[axis];
    const int64_t block_size = IntAttribute(c_, "block_size", 0);
    if (si == 0 || di % si != 0 || block_size != di / si) {  // no block_size * si: it may overflow
      Add("trt.blocked.partial", "D = " + std::to_string(di) + ", S = " + std::to_string(si) +
                                     ", block_size " + std::to_string(block_size) +
                                     ": TensorRT infers blocks of D / S and has no partial block");
    }
  }

  const Case& c_;
  std::vector<Finding> out_;
};

Case ReadAs(const Case& c) {
  Case adjusted = c;
  // FP8 always saturates in TensorRT: `saturate` is not read.
  if (adjusted.attribute("saturate") != nullptr)
    adjusted.attributes["saturate"] = Attribute::Int(1);
  return adjusted;
}

std::vector<Finding> Check(const Case& c) {
  return Checker(c).Run();
}

}  // namespace

const Profile& TensorRtProfile() {
  static const Profile profile = {
      "tensorrt",
      "TensorRT IQuantizeLayer/IDequantizeLayer via the ONNX parser: constant positive scales, "
      "zero zero points, INT8/FP8/INT4/FP4, FP8 always saturating",
      ReadAs, Check};
  return profile;
}

}  // namespace qconform
