// A small builder for the audit's test models: nodes, initializers from a seeded generator,
// QuantizeLinear/DequantizeLinear pairs, and writing with the larger initializers as ONNX
// external data. Only make_audit_models uses it.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/prng.h"

namespace qconform::audit_models {

class ModelWriter {
 public:
  ModelWriter(int64_t opset, bool com_microsoft, uint64_t seed);

  // Another domain's opset.
  void Import(const std::string& domain, int64_t version);
  // A float graph input, its first dimension symbolic ("N").
  void Input(const std::string& name, const std::vector<int64_t>& rest);
  // A float graph output (type only; the shape is left to the runtime).
  void Output(const std::string& name, int32_t data_type = 1);

  std::string Node(const std::string& op, const std::vector<std::string>& in,
                   const std::string& name, const std::vector<onnx::AttributeProto>& attrs = {},
                   const std::string& domain = "");
  static onnx::AttributeProto Int(const std::string& name, int64_t v);
  static onnx::AttributeProto Ints(const std::string& name, const std::vector<int64_t>& v);
  static onnx::AttributeProto Float(const std::string& name, float v);

  // Initializers: scalars, and tensors of seeded codes in [lo, hi].
  std::string Scale(const std::string& name, float v);
  std::string Scales(const std::string& name, const std::vector<float>& v);
  std::string ZeroPoint(const std::string& name, int32_t data_type, int32_t v,
                        const std::vector<int64_t>& dims = {});
  std::string Codes(const std::string& name, int32_t data_type, const std::vector<int64_t>& dims,
                    int64_t lo, int64_t hi);
  std::string Int64s(const std::string& name, const std::vector<int64_t>& v);

  // x -> QuantizeLinear(scale, zero point of type zp_type) -> DequantizeLinear: the QDQ pair
  // every activation of a QDQ model passes; returns the DequantizeLinear's output.
  std::string Qdq(const std::string& x, const std::string& name, float scale, int32_t zp,
                  int32_t zp_type = 2);
  // A weight of int8 codes, dequantized (per tensor when `scales` has one entry, else along
  // `axis`); returns the DequantizeLinear's output.
  std::string Weight(const std::string& name, const std::vector<int64_t>& dims,
                     const std::vector<float>& scales, int64_t axis, int64_t lo = -127,
                     int64_t hi = 127);

  // A weight of int4 codes [k, n] in blocks of `block` along k (axis 0), one scale per block
  // and column, zero points in [zp_lo, zp_hi]; returns the DequantizeLinear's output.
  std::string Int4Blocks(const std::string& name, int64_t k, int64_t n, int64_t block, float scale,
                         int64_t zp_lo, int64_t zp_hi);

  // Writes path; initializers over `external_bytes` bytes go to path's stem + ".data" when
  // external_bytes > 0.
  void Write(const std::string& path, size_t external_bytes = 0);

  onnx::GraphProto& graph() { return *model_.mutable_graph(); }

 private:
  onnx::ModelProto model_;
  Prng prng_;
};

}  // namespace qconform::audit_models
