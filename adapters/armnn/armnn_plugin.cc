// Arm NN 20.08 (Debian's libarmnn-dev with the CpuRef backend) as a qconform backend through the
// plugin ABI (plugin:armnn). Debian's build has no ONNX parser, so the plugin builds the network
// an Arm NN user builds: Input -> Quantize or Dequantize -> Output, the quantization parameters
// in the quantized tensor's TensorInfo (one scale and one offset), optimised for CpuRef;
// Input, Input -> Addition or Multiplication -> Output for com.microsoft QLinearAdd and
// QLinearMul; Input -> Activation (Sigmoid, LeakyReLu), Pooling2d (Average) or Softmax -> Output
// for QLinearSigmoid, QLinearLeakyRelu, QLinearAveragePool, QLinearGlobalAveragePool and
// QLinearSoftmax.
//
// Types: uint8 is QAsymmU8, int8 QAsymmS8, int16 QSymmS16 (symmetric: no offset); Dequantize
// outputs Float32. The Debian build keeps its asserts, which abort the process on some inputs:
// the plugin host runs it out of process, so an abort fails only its case.
#include <armnn/ArmNN.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_kit.h"

namespace {

using namespace qconform::plugin_kit;

constexpr const char* kLibrary = "Arm NN 20.08";

struct TypeRow {
  int32_t onnx;
  armnn::DataType armnn;
  size_t bytes;
  bool symmetric;
};
constexpr TypeRow kTypes[] = {{QCONFORM_UINT8, armnn::DataType::QAsymmU8, 1, false},
                              {QCONFORM_INT8, armnn::DataType::QAsymmS8, 1, false},
                              {QCONFORM_INT16, armnn::DataType::QSymmS16, 2, true}};

const TypeRow& Quantized(int32_t onnx, const char* what) {
  return RowForType(kTypes, onnx, kLibrary, what,
                    "its quantized types are QAsymmU8, QAsymmS8 and QSymmS16");
}

armnn::IRuntime& Runtime() {
  static armnn::IRuntimePtr runtime = armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
  return *runtime;
}

armnn::TensorShape ShapeOf(std::vector<int64_t> dims) {
  if (dims.empty()) dims.push_back(1);  // Arm NN has no rank-0 tensors
  std::vector<unsigned int> d(dims.begin(), dims.end());
  return armnn::TensorShape(static_cast<unsigned int>(d.size()), d.data());
}
armnn::TensorShape Shape(const qconform_tensor& t) {
  return ShapeOf(Dims(t));
}

// A quantized tensor's info of shape `dims`: its scale (input k) and offset (input k + 1, 0 when
// absent), each one value for the tensor.
armnn::TensorInfo QuantizedInfo(const Node& node, int k, armnn::DataType type,
                                std::vector<int64_t> dims, const char* what) {
  const qconform_tensor* zp = node.Input(k + 1);
  if (zp != nullptr && !Scalar(*zp)) {
    RefuseAtLoad(std::string(kLibrary) + " takes " + what + " per tensor");
  }
  return armnn::TensorInfo(ShapeOf(std::move(dims)), type,
                           PerTensorReal(node.Required(k, what), what, kLibrary),
                           static_cast<int32_t>(ZeroPoint(zp)));
}

// The network optimised for CpuRef and loaded (a refusal at load when it cannot be).
armnn::NetworkId Load(armnn::INetworkPtr network) {
  armnn::NetworkId id = 0;
  try {
    armnn::IOptimizedNetworkPtr optimized =
        armnn::Optimize(*network, {armnn::Compute::CpuRef}, Runtime().GetDeviceSpec());
    if (!optimized || Runtime().LoadNetwork(id, std::move(optimized)) != armnn::Status::Success) {
      RefuseAtLoad(std::string(kLibrary) + " CpuRef could not load the network");
    }
  } catch (const armnn::Exception& e) {
    RefuseAtLoad(std::string(kLibrary) + ": " + e.what());
  }
  return id;
}

// Runs a loaded network on its inputs (binding ids 0, 1, ...) into output 0, then unloads it.
void Enqueue(armnn::NetworkId id, const std::vector<const void*>& in, void* y) {
  armnn::InputTensors inputs;
  for (size_t k = 0; k < in.size(); ++k) {
    const auto binding = static_cast<armnn::LayerBindingId>(k);
    inputs.emplace_back(binding,
                        armnn::ConstTensor(Runtime().GetInputTensorInfo(id, binding), in[k]));
  }
  const armnn::OutputTensors outputs{{0, armnn::Tensor(Runtime().GetOutputTensorInfo(id, 0), y)}};
  const armnn::Status status = Runtime().EnqueueWorkload(id, inputs, outputs);
  Runtime().UnloadNetwork(id);
  if (status != armnn::Status::Success)
    RejectAtRun(std::string(kLibrary) + " EnqueueWorkload failed");
}

void Convert(const Node& node, qconform_alloc_output alloc, void* context, bool dequantize) {
  const qconform_tensor& x = node.Required(0, "x");
  const qconform_tensor& scale_tensor = node.Required(1, "scale");
  const qconform_tensor* zp = node.Input(2);
  const int32_t out_type = DeclaredOutputType(node);
  if (dequantize && out_type != QCONFORM_FLOAT) {
    RefuseAtLoad(std::string(kLibrary) + " dequantizes to Float32 here, not " + TypeName(out_type));
  }
  const TypeRow& q = Quantized(dequantize ? x.data_type : out_type, dequantize ? "x" : "y");
  if (!Scalar(scale_tensor) || (zp != nullptr && !Scalar(*zp))) {
    RefuseAtLoad(std::string(kLibrary) + " quantizes per tensor (one scale and one offset)");
  }
  const float scale = LoadReal(scale_tensor, 0, "the scale", kLibrary);
  const int64_t offset = ZeroPoint(zp);
  if (q.symmetric && offset != 0) {
    RefuseAtLoad(std::string(kLibrary) + " QSymmS16 is symmetric: no zero point");
  }
  const armnn::TensorShape shape = Shape(x);
  const armnn::TensorInfo quantized(shape, q.armnn, scale, static_cast<int32_t>(offset));
  const armnn::TensorInfo real(shape, armnn::DataType::Float32);
  armnn::INetworkPtr network = armnn::INetwork::Create();
  armnn::IConnectableLayer* input = network->AddInputLayer(0);
  armnn::IConnectableLayer* layer = dequantize ? network->AddDequantizeLayer("dequantize")
                                               : network->AddQuantizeLayer("quantize");
  armnn::IConnectableLayer* output = network->AddOutputLayer(0);
  input->GetOutputSlot(0).Connect(layer->GetInputSlot(0));
  layer->GetOutputSlot(0).Connect(output->GetInputSlot(0));
  input->GetOutputSlot(0).SetTensorInfo(dequantize ? quantized : real);
  layer->GetOutputSlot(0).SetTensorInfo(dequantize ? real : quantized);
  const armnn::NetworkId id = Load(std::move(network));
  const size_t n = static_cast<size_t>(Count(x));
  std::vector<float> xs;
  const void* in = x.data;
  if (!dequantize) {
    xs = Reals(x, "x", kLibrary);
    in = xs.data();
  }
  const size_t out_bytes = n * (dequantize ? 4 : q.bytes);
  void* y = Output(alloc, context, 0, dequantize ? QCONFORM_FLOAT : out_type, Dims(x), out_bytes);
  if (n == 0) {
    Runtime().UnloadNetwork(id);
    return;
  }
  Enqueue(id, {in}, y);
}

// com.microsoft QLinearAdd and QLinearMul: Input, Input -> Addition or Multiplication -> Output,
// each tensor's quantization in its TensorInfo (A's, B's, C's scale and offset); the operands'
// ranks made equal with leading 1s (Arm NN broadcasts dimensions of 1 between equal ranks).
void Binary(const Node& node, qconform_alloc_output alloc, void* context, bool add) {
  const qconform_tensor& a = node.Required(0, "A");
  const qconform_tensor& b = node.Required(3, "B");
  const TypeRow& q = Quantized(a.data_type, "A");
  if (b.data_type != a.data_type || q.symmetric) {
    RefuseAtLoad(std::string(kLibrary) +
                 " adds and multiplies QAsymmU8 or QAsymmS8 tensors of "
                 "one type here");
  }
  const std::vector<int64_t> da = Dims(a), db = Dims(b);
  const size_t rank = std::max(da.size(), db.size());
  std::vector<int64_t> dims(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t x = i < rank - da.size() ? 1 : da[i - (rank - da.size())];
    const int64_t y = i < rank - db.size() ? 1 : db[i - (rank - db.size())];
    if (x != y && x != 1 && y != 1) RejectAtRun("A and B do not broadcast");
    dims[i] = x == 1 ? y : x;
  }
  armnn::INetworkPtr network = armnn::INetwork::Create();
  armnn::IConnectableLayer* in_a = network->AddInputLayer(0);
  armnn::IConnectableLayer* in_b = network->AddInputLayer(1);
  armnn::IConnectableLayer* layer =
      add ? network->AddAdditionLayer("add") : network->AddMultiplicationLayer("multiply");
  armnn::IConnectableLayer* output = network->AddOutputLayer(0);
  in_a->GetOutputSlot(0).Connect(layer->GetInputSlot(0));
  in_b->GetOutputSlot(0).Connect(layer->GetInputSlot(1));
  layer->GetOutputSlot(0).Connect(output->GetInputSlot(0));
  // The operands' ranks made equal with leading 1s.
  const auto padded = [rank](std::vector<int64_t> d) {
    d.insert(d.begin(), rank - d.size(), 1);
    return d;
  };
  in_a->GetOutputSlot(0).SetTensorInfo(
      QuantizedInfo(node, 1, q.armnn, padded(da), "A's parameters"));
  in_b->GetOutputSlot(0).SetTensorInfo(
      QuantizedInfo(node, 4, q.armnn, padded(db), "B's parameters"));
  layer->GetOutputSlot(0).SetTensorInfo(QuantizedInfo(node, 6, q.armnn, dims, "C's parameters"));
  const armnn::NetworkId id = Load(std::move(network));
  size_t n = 1;
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  void* y = Output(alloc, context, 0, a.data_type, dims, n);
  if (n == 0) {
    Runtime().UnloadNetwork(id);
    return;
  }
  Enqueue(id, {a.data, b.data}, y);
}

// A one-layer network's layer, the shapes Arm NN reads X and writes Y as (a 1-D pool as one row
// of a 2-D one, a matrix softmax as its matrix) and Y's ONNX shape (the same memory).
struct Layer {
  armnn::IConnectableLayer* layer;
  std::vector<int64_t> x_dims, y_dims, onnx_y_dims;
};
using AddLayer = Layer (*)(armnn::INetwork& network, const Node& node, const qconform_tensor& x);

// com.microsoft QLinearSigmoid, QLinearLeakyRelu, QLinearAveragePool, QLinearGlobalAveragePool
// and QLinearSoftmax: Input -> one layer -> Output, X's scale and offset in the input's
// TensorInfo, Y's in the layer's (inputs X, X_scale, X_zero_point, Y_scale, Y_zero_point).
void OneLayer(const Node& node, qconform_alloc_output alloc, void* context, AddLayer add) {
  const qconform_tensor& x = node.Required(0, "X");
  const TypeRow& q = Quantized(x.data_type, "X");
  if (q.symmetric) RefuseAtLoad(std::string(kLibrary) + " takes QAsymmU8 or QAsymmS8 here");
  armnn::INetworkPtr network = armnn::INetwork::Create();
  armnn::IConnectableLayer* input = network->AddInputLayer(0);
  const Layer l = add(*network, node, x);
  armnn::IConnectableLayer* output = network->AddOutputLayer(0);
  input->GetOutputSlot(0).Connect(l.layer->GetInputSlot(0));
  l.layer->GetOutputSlot(0).Connect(output->GetInputSlot(0));
  input->GetOutputSlot(0).SetTensorInfo(
      QuantizedInfo(node, 1, q.armnn, l.x_dims, "X's parameters"));
  l.layer->GetOutputSlot(0).SetTensorInfo(
      QuantizedInfo(node, 3, q.armnn, l.y_dims, "Y's parameters"));
  const armnn::NetworkId id = Load(std::move(network));
  size_t n = 1;
  for (int64_t d : l.onnx_y_dims) n *= static_cast<size_t>(d);
  void* y = Output(alloc, context, 0, x.data_type, l.onnx_y_dims, n);
  if (n == 0 || Count(x) == 0) {
    Runtime().UnloadNetwork(id);
    return;
  }
  Enqueue(id, {x.data}, y);
}

Layer Activation(armnn::INetwork& network, const Node& node, const qconform_tensor& x,
                 armnn::ActivationFunction f) {
  armnn::ActivationDescriptor d;
  d.m_Function = f;
  d.m_A = static_cast<float>(node.Float("alpha", 0.01));  // LeakyReLu's slope
  return {network.AddActivationLayer(d, "activation"), Dims(x), Dims(x), Dims(x)};
}

// Pooling2d, Average: NCHW or NHWC (channels_last); a 1-D pool as H = 1. The global pool is one
// window over every pixel. count_include_pad 1 is PaddingMethod::IgnoreValue (the padding
// counts), 0 Exclude; ceil_mode 1 is OutputShapeRounding::Ceiling.
Layer Pool(armnn::INetwork& network, const Node& node, const qconform_tensor& x, bool global) {
  if (x.rank != 3 && x.rank != 4) {
    RefuseAtLoad(std::string(kLibrary) + " pools 2-D (1-D as one row), not " +
                 std::to_string(x.rank - 2) + "-D");
  }
  const bool last = node.Int("channels_last", 0) != 0, one_d = x.rank == 3;
  std::vector<int64_t> dims = Dims(x);
  if (one_d) dims.insert(dims.begin() + (last ? 1 : 2), 1);  // [N, C, 1, W] or [N, 1, W, C]
  const size_t hy = last ? 1 : 2, wx = hy + 1;
  const std::vector<int64_t> kernel =
      global ? std::vector<int64_t>{dims[hy], dims[wx]} : node.Ints("kernel_shape");
  if (!global && kernel.size() != static_cast<size_t>(x.rank - 2)) {
    RejectAtRun("kernel_shape does not fit X");
  }
  const size_t axes = one_d ? 1 : 2;
  const WindowAxis h = global || one_d ? WindowAxis{dims[hy], kernel[0], 1, 1, 0, 0, 1}
                                       : Window(node, dims[hy], kernel[0], 0, axes, kLibrary);
  const WindowAxis w = global ? WindowAxis{dims[wx], kernel[1], 1, 1, 0, 0, 1}
                              : Window(node, dims[wx], kernel[axes - 1], axes - 1, axes, kLibrary);
  armnn::Pooling2dDescriptor d;
  d.m_PoolType = armnn::PoolingAlgorithm::Average;
  const auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  d.m_PadTop = u32(h.pad_begin), d.m_PadBottom = u32(h.pad_end);
  d.m_PadLeft = u32(w.pad_begin), d.m_PadRight = u32(w.pad_end);
  d.m_PoolHeight = u32(h.kernel), d.m_PoolWidth = u32(w.kernel);
  d.m_StrideY = u32(h.stride), d.m_StrideX = u32(w.stride);
  d.m_OutputShapeRounding = node.Int("ceil_mode", 0) != 0 ? armnn::OutputShapeRounding::Ceiling
                                                          : armnn::OutputShapeRounding::Floor;
  d.m_PaddingMethod = node.Int("count_include_pad", 0) != 0 ? armnn::PaddingMethod::IgnoreValue
                                                            : armnn::PaddingMethod::Exclude;
  d.m_DataLayout = last ? armnn::DataLayout::NHWC : armnn::DataLayout::NCHW;
  std::vector<int64_t> y_dims = dims;
  y_dims[hy] = h.out, y_dims[wx] = w.out;
  std::vector<int64_t> onnx_y_dims = y_dims;
  if (one_d) onnx_y_dims.erase(onnx_y_dims.begin() + static_cast<int64_t>(hy));
  return {network.AddPooling2dLayer(d, "pool"), dims, y_dims, onnx_y_dims};
}

// Softmax along the last axis (13+: `axis` must be it); before 13 over the axes from `axis` on,
// X read as that matrix.
Layer Softmax(armnn::INetwork& network, const Node& node, const qconform_tensor& x) {
  const bool matrix = node.Int("opset", 13) < 13;
  int64_t axis = node.Int("axis", matrix ? 1 : -1);
  axis = axis < 0 ? axis + x.rank : axis;
  if (axis < 0 || axis >= std::max<int64_t>(x.rank, 1)) RejectAtRun("axis is outside X");
  if (!matrix && axis != x.rank - 1) {
    RefuseAtLoad(std::string(kLibrary) + " Softmax runs along the last axis only here");
  }
  int64_t row = 1;
  for (int64_t k = axis; k < x.rank; ++k) row *= x.dims[k];
  armnn::SoftmaxDescriptor d;
  d.m_Beta = 1;
  const std::vector<int64_t> rows = {row == 0 ? 0 : Count(x) / row, row};
  return {network.AddSoftmaxLayer(d, "softmax"), rows, rows, Dims(x)};
}

// What the library offers, per operator; the others are not judged.
constexpr MappingRow kRows[] = {
    {OperatorKind::kDequantizeLinear,
     [](const Node& n, qconform_alloc_output a, void* c) { Convert(n, a, c, true); }},
    {OperatorKind::kQuantizeLinear,
     [](const Node& n, qconform_alloc_output a, void* c) { Convert(n, a, c, false); }},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Binary(n, a, c, true); }, "QLinearAdd"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Binary(n, a, c, false); }, "QLinearMul"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) {
       OneLayer(n, a, c, [](armnn::INetwork& net, const Node& node, const qconform_tensor& x) {
         return Activation(net, node, x, armnn::ActivationFunction::Sigmoid);
       });
     },
     "QLinearSigmoid"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) {
       OneLayer(n, a, c, [](armnn::INetwork& net, const Node& node, const qconform_tensor& x) {
         return Activation(net, node, x, armnn::ActivationFunction::LeakyReLu);
       });
     },
     "QLinearLeakyRelu"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) {
       OneLayer(n, a, c, [](armnn::INetwork& net, const Node& node, const qconform_tensor& x) {
         return Pool(net, node, x, false);
       });
     },
     "QLinearAveragePool"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) {
       OneLayer(n, a, c, [](armnn::INetwork& net, const Node& node, const qconform_tensor& x) {
         return Pool(net, node, x, true);
       });
     },
     "QLinearGlobalAveragePool"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { OneLayer(n, a, c, Softmax); },
     "QLinearSoftmax"}};
constexpr LibraryPlugin kPlugin{kLibrary, kRows};

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry() {
  static const qconform_plugin plugin = {
      QCONFORM_PLUGIN_ABI, "armnn", "20.08",
      "Arm NN's Quantize and Dequantize layers, Addition, Multiplication, Activation, Pooling2d "
      "and Softmax (com.microsoft QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu, "
      "QLinearAveragePool, QLinearGlobalAveragePool, QLinearSoftmax), on the CpuRef backend, per "
      "tensor",
      RunPlugin<kPlugin>};
  return &plugin;
}
