#include "onnx_io/model_check.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <set>

#include "oracle/core/element_type.h"

namespace qconform {
namespace {

using D = DataType;

// The element types newer than IR 5, with the IR version that introduced them.
struct TypeIr {
  DataType type;
  int64_t ir;
};
constexpr TypeIr kTypeIr[] = {
    {D::kFloat8E4M3FN, 9}, {D::kFloat8E4M3FNUZ, 9}, {D::kFloat8E5M2, 9},  {D::kFloat8E5M2FNUZ, 9},
    {D::kUint4, 10},       {D::kInt4, 10},          {D::kFloat4E2M1, 11}, {D::kFloat8E8M0, 12},
    {D::kUint2, 13},       {D::kInt2, 13},
};

// The element types a graph's inputs, outputs and initializers use.
std::set<int32_t> TypesUsed(const onnx::GraphProto& g) {
  std::set<int32_t> types;
  for (const auto* values : {&g.input(), &g.output()}) {
    for (const auto& v : *values) types.insert(v.type().tensor_type().elem_type());
  }
  for (const auto& t : g.initializer()) types.insert(t.data_type());
  return types;
}

}  // namespace

int64_t IrVersionForOpset(int64_t opset) {
  // The IR version of the ONNX release that introduced each ai.onnx opset.
  struct Row {
    int64_t opset, ir;
  };
  constexpr Row kRows[] = {{10, 5}, {11, 6},  {12, 7},  {13, 7},  {14, 7}, {15, 8},
                           {19, 9}, {21, 10}, {23, 11}, {24, 12}, {25, 13}};
  int64_t ir = 5;
  for (const Row& r : kRows) {
    if (opset >= r.opset) ir = r.ir;
  }
  return ir;
}

int64_t IrVersionForType(int32_t data_type) {
  for (const TypeIr& t : kTypeIr) {
    if (static_cast<int32_t>(t.type) == data_type) return t.ir;
  }
  return 5;
}

void RaiseIrVersionForTypes(onnx::ModelProto& model) {
  int64_t ir = model.ir_version();
  for (int32_t t : TypesUsed(model.graph())) ir = std::max(ir, IrVersionForType(t));
  model.set_ir_version(ir);
}

std::vector<std::string> StrictLoaderProblems(const onnx::ModelProto& model) {
  std::vector<std::string> problems;
  const onnx::GraphProto& g = model.graph();
  const auto check_value = [&](const onnx::ValueInfoProto& v, const char* role) {
    const std::string what = std::string(role) + " '" + v.name() + "'";
    if (!v.has_type() || !v.type().has_tensor_type()) {
      problems.push_back(what + ": no type");
      return;
    }
    const auto& t = v.type().tensor_type();
    if (t.elem_type() == 0) problems.push_back(what + ": no elem_type");
    if (!t.has_shape()) problems.push_back(what + ": no shape");
    if (t.elem_type() != 0 && IrVersionForType(t.elem_type()) > model.ir_version()) {
      problems.push_back(what + ": " + DataTypeName(t.elem_type()) + " needs IR version " +
                         std::to_string(IrVersionForType(t.elem_type())) + ", the model has " +
                         std::to_string(model.ir_version()));
    }
  };
  for (const auto& v : g.input()) check_value(v, "graph input");
  for (const auto& v : g.output()) check_value(v, "graph output");
  if (g.output_size() == 0) problems.push_back("the graph has no output");
  for (const auto& t : g.initializer()) {
    if (IrVersionForType(t.data_type()) > model.ir_version()) {
      problems.push_back("initializer '" + t.name() + "': " + DataTypeName(t.data_type()) +
                         " needs IR version " + std::to_string(IrVersionForType(t.data_type())));
    }
  }
  std::set<std::string> imported;
  for (const auto& o : model.opset_import())
    imported.insert(o.domain() == "ai.onnx" ? "" : o.domain());
  for (const auto& n : g.node()) {
    const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
    if (!imported.count(domain)) {
      problems.push_back("node '" + n.name() + "': no opset import for domain '" + domain + "'");
    }
  }
  return problems;
}

std::string CheckModel(const onnx::ModelProto& model) {
  for (const auto& o : model.opset_import()) {
    if ((o.domain().empty() || o.domain() == "ai.onnx") && o.version() > 17) return "";
  }
  if (model.ir_version() > 8) return "";  // ONNX 1.12 knows IR versions up to 8
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace qconform
