// MatMulNBits' validation (ONNX Runtime's ContribOperators.md): the attributes' values, B's,
// the scales', the zero points' and g_idx's shapes against K, N, bits and block_size, and bias.
#include <string>

#include "oracle/core/codec.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/common/operand_checker.h"
#include "oracle/semantics/float_output/matmul_nbits.h"

namespace qconform {
namespace {

using ZP = MatMulNBitsPlan::ZeroPoints;

std::string Dims(std::initializer_list<int64_t> d) {
  return ShapeString(std::vector<int64_t>(d));
}

class NBitsChecker : OperandChecker {
 public:
  NBitsChecker(const Case& c, const OpSchema& s) : OperandChecker(c, s) {}

  MatMulNBitsValidation Run() {
    MatMulNBitsValidation v;
    if (ValidateNode(c_, s_, findings_) && Attributes() && Shapes() && ZeroPoints() && GIdx()) {
      CheckUnusualScales({op_.input_index("scales")});
      v.plan = plan_;
    }
    v.findings = std::move(findings_);
    return v;
  }

 private:
  bool Attributes() {
    plan_.k = Int("K"), plan_.n = Int("N"), plan_.bits = Int("bits");
    plan_.block_size = Int("block_size"), plan_.accuracy_level = Int("accuracy_level");
    if (plan_.bits != 2 && plan_.bits != 4 && plan_.bits != 8) {
      Add("attr.bits", "bits is " + std::to_string(plan_.bits) + "; it is 2, 4 or 8");
    } else if (plan_.block_size < 16 || (plan_.block_size & (plan_.block_size - 1)) != 0) {
      Add("attr.block_size", "block_size is " + std::to_string(plan_.block_size) +
                                 "; it is a power of two and at least 16");
    } else if (plan_.k < 1 || plan_.n < 1) {
      Add("attr.k_n", "K is " + std::to_string(plan_.k) + " and N " + std::to_string(plan_.n) +
                          "; both are at least 1");
    } else if (plan_.accuracy_level < 0 || plan_.accuracy_level > 4) {
      Add("attr.accuracy_level",
          "accuracy_level is " + std::to_string(plan_.accuracy_level) + "; it is 0 to 4");
    } else if (Int("weight_prepacked") != 0) {
      Add("attr.weight_prepacked", "weight_prepacked is " +
                                       std::to_string(Int("weight_prepacked")) +
                                       "; B in a CUDA prepacked layout is not the page's format");
    }
    plan_.k_blocks = (plan_.k + plan_.block_size - 1) / std::max<int64_t>(1, plan_.block_size);
    plan_.blob_size = plan_.block_size * plan_.bits / 8;
    return !Rejected();
  }

  // A 2-D [rows, cols] parameter, or the same flattened to 1-D (ONNX Runtime's older models).
  static bool Matrix(const std::vector<int64_t>& s, int64_t rows, int64_t cols) {
    return s == std::vector<int64_t>{rows, cols} || s == std::vector<int64_t>{rows * cols};
  }

  bool Shapes() {
    const Tensor& a = *At(op_.input_index("A"));
    plan_.t = FindElementType(a.data_type);
    // d40: level 1 fp32, 2 fp16, 3 bf16 or better; 0 and 4 A's own type.
    static constexpr DataType kLevelType[] = {DataType::kUndefined, DataType::kFloat,
                                              DataType::kFloat16, DataType::kBfloat16,
                                              DataType::kUndefined};
    const DataType level = kLevelType[plan_.accuracy_level];
    plan_.e = level == DataType::kUndefined ? plan_.t : &ElementTypeOf(level);
    for (const ElementType* x : EvaluationTypesOf(plan_)) {
      plan_.converts = plan_.converts || !HoldsEveryValue(*x, *plan_.t);
    }
    if (a.shape.empty() || a.shape.back() != plan_.k) {
      Add("shape.a", "A has shape " + ShapeString(a.shape) +
                         "; its last dimension is K = " + std::to_string(plan_.k));
      return false;
    }
    plan_.m = 1;
    for (size_t d = 0; d + 1 < a.shape.size(); ++d) plan_.m *= a.shape[d];
    plan_.y_shape = a.shape;
    plan_.y_shape.back() = plan_.n;
    const Tensor& b = *At(op_.input_index("B"));
    const std::vector<int64_t> packed = {plan_.n, plan_.k_blocks, plan_.blob_size};
    if (b.shape != packed) {
      Add("shape.b", "B has shape " + ShapeString(b.shape) + "; (N, k_blocks, blob_size) is " +
                         ShapeString(packed) + " for K " + std::to_string(plan_.k) + ", bits " +
                         std::to_string(plan_.bits) + ", block_size " +
                         std::to_string(plan_.block_size));
      return false;
    }
    const Tensor& scales = *At(op_.input_index("scales"));
    if (!Matrix(scales.shape, plan_.n, plan_.k_blocks)) {
      Add("shape.scales", "scales has shape " + ShapeString(scales.shape) + "; (N, k_blocks) is " +
                              Dims({plan_.n, plan_.k_blocks}));
      return false;
    }
    plan_.bias = At(op_.input_index("bias")) ? op_.input_index("bias") : -1;
    if (const Tensor* bias = At(plan_.bias); bias && bias->shape != std::vector<int64_t>{plan_.n}) {
      Add("shape.bias",
          "bias has shape " + ShapeString(bias->shape) + "; it is [N] = " + Dims({plan_.n}));
      return false;
    }
    return true;
  }

  bool ZeroPoints() {
    const int at = op_.input_index("zero_points");
    const Tensor* zp = At(at);
    if (zp == nullptr) return true;
    plan_.zero_point_input = at;
    if (zp->data_type == static_cast<int32_t>(DataType::kUint8)) {
      plan_.zero_points = ZP::kPacked;
      const int64_t bytes = (plan_.k_blocks * plan_.bits + 7) / 8;
      if (!Matrix(zp->shape, plan_.n, bytes)) {
        Add("shape.zero_points", "zero_points (uint8, packed) has shape " + ShapeString(zp->shape) +
                                     "; (N, ceil(k_blocks * bits / 8)) is " +
                                     Dims({plan_.n, bytes}));
        return false;
      }
      return true;
    }
    plan_.zero_points = ZP::kFloat;
    if (zp->data_type != static_cast<int32_t>(plan_.t->id)) {
      Add("type.zero_points", "zero_points has type " + DataTypeName(zp->data_type) +
                                  "; unpacked zero points have A's type, " +
                                  std::string(plan_.t->name));
      return false;
    }
    if (!Matrix(zp->shape, plan_.n, plan_.k_blocks)) {
      Add("shape.zero_points", "zero_points (unpacked) has shape " + ShapeString(zp->shape) +
                                   "; (N, k_blocks) is " + Dims({plan_.n, plan_.k_blocks}));
      return false;
    }
    return true;
  }

  bool GIdx() {
    const int at = op_.input_index("g_idx");
    const Tensor* g = At(at);
    if (g == nullptr) return true;
    plan_.g_idx = at;
    if (g->shape != std::vector<int64_t>{plan_.k}) {
      Add("shape.g_idx",
          "g_idx has shape " + ShapeString(g->shape) + "; it is [K] = " + Dims({plan_.k}));
      return false;
    }
    for (size_t k = 0; k < g->codes.size(); ++k) {
      const int64_t v = static_cast<int32_t>(g->codes[k]);
      if (v < 0 || v >= plan_.k_blocks) {
        Add("g_idx.range",
            "g_idx[" + std::to_string(k) + "] is " + std::to_string(v) +
                "; a block index is 0 to k_blocks - 1 = " + std::to_string(plan_.k_blocks - 1));
        return false;
      }
    }
    return true;
  }

  MatMulNBitsPlan plan_;
};

}  // namespace

MatMulNBitsValidation ValidateMatMulNBits(const Case& c, const OpSchema& schema) {
  return NBitsChecker(c, schema).Run();
}

}  // namespace qconform
