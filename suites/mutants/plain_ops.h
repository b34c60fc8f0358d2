// The mutant backend's three kernels, each exact unless a defect (defects.h) is switched on.
#pragma once

#include <string>

#include "suites/mutants/plain_validation.h"

namespace qconform::mutants {

struct Output {
  qconform_alloc_output alloc;
  void* context;
  char* message;
  size_t message_size;
};

// Writes `why` into the host's message buffer and returns `status` (a refusal).
int32_t Fail(const Output& out, int32_t status, const std::string& why);

int32_t RunDequantize(const PlainNode& n, const PlainPlan& plan, const Output& out);
int32_t RunQuantize(const PlainNode& n, const PlainPlan& plan, const Output& out);
int32_t RunDynamicQuantize(const PlainNode& n, const Output& out);
// QLinearMatMul and MatMulInteger (plain_matmul.cc): their own validation, then the kernel.
int32_t RunMatMul(const PlainNode& n, const Output& out);
// QLinearConv and ConvInteger (plain_conv.cc): their own validation, then the kernel.
int32_t RunConv(const PlainNode& n, const Output& out);
// com.microsoft QGemm (plain_qgemm.cc): its own validation, then the kernel.
int32_t RunQGemm(const PlainNode& n, const Output& out);
// com.microsoft MatMulNBits (plain_nbits.cc): its own validation, then a float32 dot product.
int32_t RunMatMulNBits(const PlainNode& n, const Output& out);
// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul (plain_to_float.cc): int32
// accumulators scaled in float32, A quantized first for DynamicQuantizeMatMul.
int32_t RunMatMulToFloat(const PlainNode& n, const Output& out);
// com.microsoft GatherBlockQuantized (plain_gather.cc): each gathered code dequantized in float32.
int32_t RunGatherBlockQuantized(const PlainNode& n, const Output& out);
// The com.microsoft QLinear operators (plain_qlinear_group.cc): their own validation, then the
// page's formula.
int32_t RunQLinearGroup(const PlainNode& n, const Output& out);
// QLinearConcat (plain_qlinear_concat.cc): each operand requantized to Y's parameters.
int32_t RunQLinearConcat(const PlainNode& n, const Output& out);
// QLinearWhere (plain_qlinear_where.cc): X's or Y's element by the condition, requantized to Z's.
int32_t RunQLinearWhere(const PlainNode& n, const Output& out);
// QLinearAveragePool (plain_qlinear_avgpool.cc): its window geometry, then WriteRequantized.
int32_t RunQLinearAveragePool(const PlainNode& n, const Output& out);
// numpy broadcasting (plain_qlinear_group.cc): the shape of a and b (false when they do not
// broadcast), and the flat index in a tensor of shape dims of out's flat index i.
bool Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
               std::vector<int64_t>& out);
size_t Source(const std::vector<int64_t>& dims, const std::vector<int64_t>& out, size_t i);
// Element i of a uint8 or int8 tensor as its integer; a float32 tensor's first element.
long double CodeValue(const PlainTensor& t, size_t i);
float ScalarFloat(const PlainTensor& t);
// The real values v (before the division by the output scale) as codes of t (uint8 2, int8 3),
// rounded half to even, the zero point added, saturated (with the com.microsoft family's
// defects), written as output 0 of shape dims. `ties_up`: rounded as floor(v / scale + 1/2)
// (a fixed-point defect's rounding shift).
int32_t WriteRequantized(const std::vector<long double>& v, long double scale,
                         long double zero_point, int32_t t, const std::vector<int64_t>& dims,
                         const Output& out, bool ties_up = false);

// The plan's parameter index with the index-mapping defects of `op` applied: a negative axis
// read as 1, per-axis or blocked scales along the last axis, the block size as floor(D / S).
ParameterIndex DefectiveIndex(const PlainNode& n, const PlainPlan& plan, bool quantize);

// An int8, uint8 or int32 code's integer (the compute operators' operands, zero points and bias).
inline int64_t ValueOf(const PlainTensor& t, uint32_t code) {
  if (t.data_type == QCONFORM_INT8) return static_cast<int8_t>(static_cast<uint8_t>(code));
  if (t.data_type == QCONFORM_INT32) return static_cast<int32_t>(code);
  return code;
}

// The element `p` of a parameter tensor, clamped into it (a defective index reads the last).
inline uint32_t At(const PlainTensor& t, int64_t p) {
  if (t.codes.empty()) return 0;
  return t
      .codes[static_cast<size_t>(std::min<int64_t>(p, static_cast<int64_t>(t.codes.size()) - 1))];
}

// Decodes a scale (float32, float16, bfloat16, e8m0, int32), with the e8m0 decoding defects.
long double DecodeScale(const Format& f, uint32_t code);

}  // namespace qconform::mutants
