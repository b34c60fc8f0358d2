// What the XNNPACK plugin's mappings share (adapters/xnnpack/): the operator handle, XNNPACK's
// statuses as refusals, its qs8/qu8 types and per-tensor parameters.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_kit.h"

namespace qconform::xnnpack_adapter {

using plugin_kit::Node;

inline constexpr const char* kLibrary = "XNNPACK";

struct Deleter {
  void operator()(xnn_operator_t op) const { xnn_delete_operator(op); }
};
using Operator = std::unique_ptr<xnn_operator, Deleter>;

// xnn_create_* refusing a parameter is a refusal at load; xnn_setup/run failing, at run.
void Created(xnn_status status, const char* what);
void Ran(xnn_status status, const char* what);
void Initialize();
// True for int8 (qs8), false for uint8 (qu8); any other type is refused at load.
bool Signed(int32_t type, const char* what);
int64_t PerTensorZeroPoint(const qconform_tensor* t, const char* what);

// Bytes from channels-first to channels-last and back, for n blocks of c channels and s
// positions: NCHW <-> NHWC (s pixels), and Conv's weights [M, C/g, kH x kW] -> [M, kH x kW, C/g].
std::vector<uint8_t> ToChannelsLast(const uint8_t* x, int64_t n, int64_t c, int64_t s);
void FromChannelsLast(const std::vector<uint8_t>& x, int64_t n, int64_t c, int64_t s, uint8_t* y);

// The com.microsoft QLinear operators (xnnpack_qlinear.cc).
void Binary(const Node& node, qconform_alloc_output alloc, void* context, bool add);
void Unary(const Node& node, qconform_alloc_output alloc, void* context, bool sigmoid);
void AveragePool(const Node& node, qconform_alloc_output alloc, void* context);
void GlobalAveragePool(const Node& node, qconform_alloc_output alloc, void* context);
void Softmax(const Node& node, qconform_alloc_output alloc, void* context);

}  // namespace qconform::xnnpack_adapter
