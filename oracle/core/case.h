// The Case: the one plain format every part of qconform speaks (generator -> oracle -> adapter
// -> comparator). It says what a single-node ONNX model says: operator, domain, opset, attributes
// (absent is not the same as present with the default value) and input tensors (absent optional
// inputs kept in place); or, for a graph case, what a small graph says (its nodes, its named
// inputs and outputs). Tensors hold element codes, never host floats.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/codes.h"

namespace qconform {

struct Tensor {
  int32_t data_type = 0;        // ONNX data_type number; may be one the oracle does not know
  std::vector<int64_t> shape;   // rank 0 = scalar
  Codes codes;                  // one code per element, row-major
  bool is_initializer = false;  // a build-time constant in the model (TensorRT needs this)

  int64_t element_count() const;
  friend bool operator==(const Tensor&, const Tensor&) = default;
};

struct Attribute {
  enum class Kind { kInt, kFloat, kString, kInts, kOther };
  Kind kind = Kind::kInt;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;

  static Attribute Int(int64_t v) { return Attribute{Kind::kInt, v, 0, {}, {}}; }
  static Attribute Ints(std::vector<int64_t> v) {
    return Attribute{Kind::kInts, 0, 0, {}, std::move(v)};
  }
  // ONNX's AttributeProto.f is a float32: the value is rounded to one, as a model holds it.
  static Attribute Float(double v) {
    return Attribute{Kind::kFloat, 0, static_cast<double>(static_cast<float>(v)), {}, {}};
  }
  static Attribute String(std::string v) {
    return Attribute{Kind::kString, 0, 0, std::move(v), {}};
  }
  friend bool operator==(const Attribute&, const Attribute&) = default;
};
// "an INT", "a FLOAT", "a STRING", "INTS" (ONNX's AttributeProto type names), for messages.
std::string_view AttributeKindPhrase(Attribute::Kind k);

// One node of a graph case, as an ONNX NodeProto says it: by the names of the values it reads
// and writes ("" for an absent optional input).
struct Node {
  std::string op_type;
  std::string domain;  // "" (ai.onnx) or "com.microsoft"
  std::string name;
  std::map<std::string, Attribute> attributes;
  std::vector<std::string> inputs, outputs;
  friend bool operator==(const Node&, const Node&) = default;
};

// The op_type of a graph case (Case::graph).
inline constexpr const char* kGraphOpType = "Graph";

struct Case {
  std::string id;
  std::string op_type;                          // "DequantizeLinear"
  std::string domain;                           // "" (ai.onnx) or "com.microsoft"
  int64_t opset = 0;                            // the opset the model imports for `domain`
  std::map<std::string, Attribute> attributes;  // only the attributes the node sets
  std::vector<std::optional<Tensor>> inputs;    // nullopt: an absent optional input
  // The implementation profile the case is judged under ("" = plain ONNX; "tensorrt"), kept
  // in the model's metadata_props as qconform.profile. See oracle/profiles/.
  std::string profile;
  // The data set a case's values were drawn as, for the tensor-level test of long reductions
  // (docs/semantics.md#d41): "tosa-dot-product-<S>", TOSA's dot-product data set S (0: positive;
  // 3 to 5: signed, unbiased). Kept in metadata_props as qconform.data_set; "" elsewhere.
  std::string data_set;
  // A graph case (a QDQ group, docs/semantics.md#d32): its nodes in the order they run, reading
  // the graph inputs `inputs` (named by input_names, initializers marked) and earlier nodes'
  // outputs; the graph's outputs are named by output_names. op_type is then kGraphOpType and
  // opset the model's ai.onnx opset. Empty for a one-node case.
  std::vector<Node> graph;
  std::vector<std::string> input_names, output_names;
  bool is_graph() const { return !graph.empty(); }

  const Tensor* input(size_t k) const {
    return k < inputs.size() && inputs[k] ? &*inputs[k] : nullptr;
  }
  const Attribute* attribute(const std::string& name) const {
    auto it = attributes.find(name);
    return it == attributes.end() ? nullptr : &it->second;
  }
  friend bool operator==(const Case&, const Case&) = default;
};

// "DequantizeLinear-21" or "com.microsoft.DequantizeLinear-1".
std::string OperatorLabel(const std::string& domain, const std::string& op_type, int64_t version);

// "(2,3,4)", "()" for a scalar.
std::string ShapeString(const std::vector<int64_t>& shape);

}  // namespace qconform
