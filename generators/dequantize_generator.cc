#include "generators/dequantize_generator.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "generators/edge_values.h"
#include "oracle/element_type.h"
#include "oracle/fast_codec.h"
#include "oracle/oracle.h"

#include <cmath>

namespace qconform {
namespace {

int64_t Count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// A uniformly random code of the type.
uint32_t AnyCode(Choices& ch, const ElementType& t) {
  return static_cast<uint32_t>(ch.Below(uint64_t{t.code_mask()} + 1));
}

// Codes for n elements: `edge_percent` of them from the edge table, the rest uniform.
Codes EdgeBiasedCodes(Choices& ch, const ElementType& t, int64_t n,
                      const std::vector<EdgeValue>& edges, int edge_percent) {
  Codes codes(t.bits, static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    codes.set(static_cast<size_t>(i), ch.Chance(edge_percent) || edges.empty()
                                          ? edges.empty() ? 0 : ch.Pick(edges).code
                                          : AnyCode(ch, t));
  }
  return codes;
}

Tensor InputTensor(Choices& ch, DataType type, std::vector<int64_t> shape) {
  const ElementType& t = element_type(type);
  const int64_t n = Count(shape);
  return Tensor{static_cast<int32_t>(type), std::move(shape),
                EdgeBiasedCodes(ch, t, n, InputEdges(t), 45), false};
}

Tensor ScaleTensor(Choices& ch, DataType type, std::vector<int64_t> shape) {
  const ElementType& t = element_type(type);
  const int64_t n = Count(shape);
  // Mostly one scale value repeated or a few: that is how real scales look, and it keeps
  // the products interesting rather than random.
  return Tensor{static_cast<int32_t>(type), std::move(shape),
                EdgeBiasedCodes(ch, t, n, ScaleEdges(t), 75), false};
}

// A zero point for x of `type`: edge-biased for integer types that admit any zero point; zero
// (or -0) for int32 and float types, where a non-zero one is implementation-defined.
Tensor ZeroPointTensor(Choices& ch, DataType type, std::vector<int64_t> shape) {
  const ElementType& t = element_type(type);
  const int64_t n = Count(shape);
  if (t.is_integer() && t.id != DataType::kInt32) return InputTensor(ch, type, std::move(shape));
  Codes codes(t.bits, static_cast<size_t>(n));
  const bool has_negative_zero =
      t.is_float() && t.fp.has_sign && t.fp.nan != NanEncoding::kNegativeZero;
  for (int64_t i = 0; i < n; ++i) {
    if (has_negative_zero && ch.Chance(25)) codes.set(static_cast<size_t>(i), t.sign_bit());
  }
  return Tensor{static_cast<int32_t>(type), std::move(shape), std::move(codes), false};
}

bool ScalarLike(const std::vector<int64_t>& shape) {
  return shape.empty() || (shape.size() == 1 && shape[0] == 1);
}

}  // namespace

std::vector<const OpSchema*> DequantizeSchemas() {
  std::vector<const OpSchema*> out;
  for (const OpSchema& s : AllSchemas()) {
    if (s.op_type == "DequantizeLinear") out.push_back(&s);
  }
  return out;
}

namespace {

// The shapes of a case and the attributes that go with them (axis, block_size): every
// granularity, axis spelling and block size the version allows. Shared by DequantizeLinear and
// QuantizeLinear, whose granularity rules are the same.
struct Layout {
  std::vector<int64_t> shape, scale_shape;
};
Layout GenerateLayout(Choices& ch, const OpSchema& s, const GeneratorLimits& limits, Case& c) {
  const Granularity g = limits.granularity && s.allows(*limits.granularity)
                            ? *limits.granularity
                            : ch.Pick(s.granularities);
  const bool per_tensor = g == Granularity::kPerTensor;

  // x's shape: size-1 and zero-size dimensions, odd element counts for sub-byte types.
  const int rank = per_tensor ? static_cast<int>(ch.Below(6)) : 1 + static_cast<int>(ch.Below(5));
  std::vector<int64_t> shape(static_cast<size_t>(rank));
  for (int64_t& d : shape) d = ch.Chance(4) ? 0 : 1 + static_cast<int64_t>(ch.Below(4));
  const int axis = per_tensor ? 0 : static_cast<int>(ch.Below(static_cast<uint64_t>(rank)));
  if (g == Granularity::kBlocked && shape[axis] != 0) {
    shape[axis] = 1 + static_cast<int64_t>(ch.Below(9));
  }
  while (Count(shape) > limits.max_elements) {
    auto largest = std::max_element(shape.begin(), shape.end());
    *largest = (*largest + 1) / 2;
  }

  // The axis attribute, in every spelling the version allows.
  const bool has_axis = s.attribute("axis") != nullptr;
  const bool default_axis = has_axis && s.attribute("axis")->default_value.has_value();
  if (!per_tensor) {
    const bool omit = default_axis && axis == 1 && ch.Chance(50);
    if (!omit) c.attributes["axis"] = Attribute::Int(ch.Chance(30) ? axis - rank : axis);
  } else if (default_axis && rank > 0 && ch.Chance(15)) {
    c.attributes["axis"] =
        Attribute::Int(static_cast<int64_t>(ch.Below(static_cast<uint64_t>(rank))));
  }

  std::vector<int64_t> scale_shape;
  if (per_tensor) {
    if (ch.Chance(30)) scale_shape = {1};
  } else if (g == Granularity::kPerAxis) {
    scale_shape = {shape[axis]};
  } else {
    const int64_t d = shape[axis];
    // The whole valid range of block_size: ceil(D/S) == S for any B in [1, D], and beyond D
    // a single (partial) block.
    int64_t block = d == 0 ? 1 + static_cast<int64_t>(ch.Below(4))
                           : 1 + static_cast<int64_t>(ch.Below(static_cast<uint64_t>(d)));
    if (d > 0 && ch.Chance(10)) block = d + 1 + static_cast<int64_t>(ch.Below(3));
    c.attributes["block_size"] = Attribute::Int(block);
    scale_shape = shape;
    scale_shape[axis] = (d + block - 1) / block;
  }

  return {shape, scale_shape};
}

Case NewCase(const OpSchema& s) {
  Case c;
  c.op_type = std::string(s.op_type);
  c.domain = std::string(s.domain);
  c.opset = s.since_version;
  return c;
}

}  // namespace

Case GenerateValidDequantize(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const DataType x_type = ch.Pick(s.x_types);
  const DataType scale_type = ch.Pick(s.scale_types);
  if (s.output_rule == OutputRule::kOutputDtypeElseScaleType &&
      (!s.allows_output(scale_type) || ch.Chance(35))) {
    c.attributes["output_dtype"] = Attribute::Int(static_cast<int64_t>(ch.Pick(s.output_types)));
  }
  const auto [shape, scale_shape] = GenerateLayout(ch, s, limits, c);
  c.inputs.push_back(InputTensor(ch, x_type, shape));
  c.inputs.push_back(ScaleTensor(ch, scale_type, scale_shape));
  if (ch.Chance(55)) c.inputs.push_back(ZeroPointTensor(ch, x_type, scale_shape));
  return c;
}

std::vector<const OpSchema*> QuantizeSchemas() {
  std::vector<const OpSchema*> out;
  for (const OpSchema& s : AllSchemas()) {
    if (s.op_type == "QuantizeLinear") out.push_back(&s);
  }
  return out;
}

namespace {

// Codes with NaN replaced by +0: for a y type without NaN, a NaN quotient is
// implementation-defined (decision 15), which a valid case must not have.
void DropNans(const ElementType& t, Codes& codes) {
  for (size_t i = 0; i < codes.size(); ++i) {
    if (is_nan_code(t, codes[i])) codes.set(i, 0);
  }
}

// Scales for QuantizeLinear: magnitudes in [2^-14, 2^15], so that the scale is finite and
// non-zero in every type a strategy divides in (float16 included): 0/0 and inf/inf would be NaN
// quotients, which are implementation-defined for integer y.
void ScaleInWorkingRange(const ElementType& t, Codes& codes) {
  for (size_t i = 0; i < codes.size(); ++i) {
    const double v = std::fabs(DecodeDouble(t, codes[i]));
    if (!(v >= 0x1p-14 && v <= 0x1p15)) codes.set(i, EncodeDouble(t, 1, Saturation::kNone).value());
  }
}

}  // namespace

Case GenerateValidQuantize(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const DataType x_type = ch.Pick(s.x_types);
  const DataType scale_type = s.scale_type_is_x_type ? x_type : ch.Pick(s.scale_types);
  const DataType y_type = ch.Pick(s.output_types);
  const bool has_output_dtype = s.attribute("output_dtype") != nullptr;
  // Without a zero point, y is uint8 unless output_dtype says otherwise.
  const bool zero_point = ch.Chance(55) || (y_type != DataType::kUint8 && !has_output_dtype);
  if (has_output_dtype && (!zero_point || ch.Chance(20))) {
    c.attributes["output_dtype"] = Attribute::Int(static_cast<int64_t>(y_type));
  }
  if (s.attribute("saturate") != nullptr && ch.Chance(40)) {
    c.attributes["saturate"] = Attribute::Int(static_cast<int64_t>(ch.Below(2)));
  }
  if (!s.precision_types.empty() && ch.Chance(30)) {
    c.attributes["precision"] = Attribute::Int(static_cast<int64_t>(ch.Pick(s.precision_types)));
  }
  const auto [shape, scale_shape] = GenerateLayout(ch, s, limits, c);
  Tensor scale = ScaleTensor(ch, scale_type, scale_shape);
  ScaleInWorkingRange(element_type(scale_type), scale.codes);
  // x: edge codes, and quotients at ties: (k + 1/2) * the first scale, k around y's range.
  Tensor x = InputTensor(ch, x_type, shape);
  const ElementType& xt = element_type(x_type);
  const ElementType& yt = element_type(y_type);
  const double first_scale =
      scale.codes.empty() ? 1 : DecodeDouble(element_type(scale_type), scale.codes[0]);
  const double lo = yt.is_integer() ? static_cast<double>(integer_min(yt)) : -8;
  const double hi = yt.is_integer() ? static_cast<double>(integer_max(yt)) : 8;
  for (size_t i = 0; i < x.codes.size(); ++i) {
    if (!ch.Chance(35)) continue;
    const double k = lo - 2 + static_cast<double>(ch.Below(static_cast<uint64_t>(hi - lo) + 4));
    x.codes.set(i, EncodeDouble(xt, (k + 0.5) * first_scale, Saturation::kNone).value_or(0));
  }
  if (!yt.has_nan()) DropNans(xt, x.codes);
  c.inputs.push_back(std::move(x));
  c.inputs.push_back(std::move(scale));
  if (zero_point) {
    c.inputs.push_back(
        yt.is_integer() ? InputTensor(ch, y_type, scale_shape)
                        : Tensor{static_cast<int32_t>(y_type), scale_shape,
                                 Codes(yt.bits, static_cast<size_t>(Count(scale_shape))), false});
  }
  return c;
}

Case GenerateDynamicQuantize(Choices& ch, const GeneratorLimits& limits) {
  const OpSchema& s = *ResolveSchema("", "DynamicQuantizeLinear", 11);
  Case c = NewCase(s);
  const int rank = 1 + static_cast<int>(ch.Below(3));
  std::vector<int64_t> shape(static_cast<size_t>(rank));
  for (int64_t& d : shape) d = 1 + static_cast<int64_t>(ch.Below(5));
  while (Count(shape) > limits.max_elements) {
    auto largest = std::max_element(shape.begin(), shape.end());
    *largest = (*largest + 1) / 2;
  }
  // Finite values, edge-biased (NaN and inf are implementation-defined, decision 13); one
  // chance in ten of an all-positive or all-negative tensor (zero point 0 or 255).
  Tensor x = InputTensor(ch, DataType::kFloat, shape);
  const ElementType& f = element_type(DataType::kFloat);
  const int sign = ch.Chance(20) ? (ch.Chance(50) ? 1 : -1) : 0;
  for (size_t i = 0; i < x.codes.size(); ++i) {
    double v = DecodeDouble(f, x.codes[i]);
    if (!std::isfinite(v)) v = 1;
    if (sign != 0) v = sign * std::fabs(v);
    x.codes.set(i, EncodeDouble(f, v, Saturation::kNone).value());
  }
  c.inputs.push_back(std::move(x));
  return c;
}

namespace {

// One way to break one rule: whether it applies to a valid case, and how. `rule` is the
// rule's name after the operator's prefix ("dq." or "ql."), or a whole id ("op...."); `op`
// limits the mutation to one operator ("" for both).
struct Mutation {
  std::string rule;
  std::string_view op;
  std::function<bool(const OpSchema&, const Case&)> applies;
  std::function<void(Choices&, const OpSchema&, Case&)> apply;
};

DataType TypeOf(const Tensor& t) {
  return static_cast<DataType>(t.data_type);
}

// The zero point's type: x's for DequantizeLinear; for QuantizeLinear y's (the zero point's
// own, else output_dtype, else uint8).
DataType ZeroPointType(const Case& c) {
  if (c.op_type != "QuantizeLinear") return TypeOf(*c.input(0));
  if (c.input(2)) return TypeOf(*c.input(2));
  const Attribute* o = c.attribute("output_dtype");
  return o && o->i != 0 ? static_cast<DataType>(o->i) : DataType::kUint8;
}

std::vector<DataType> TypesOutside(const std::vector<DataType>& allowed) {
  std::vector<DataType> out;
  for (const ElementType& t : all_element_types()) {
    if (std::find(allowed.begin(), allowed.end(), t.id) == allowed.end()) out.push_back(t.id);
  }
  return out;
}

bool IsBlocked(const Case& c) {
  const Attribute* b = c.attribute("block_size");
  return b != nullptr && b->i > 0;
}

// Per-axis or blocked with a scale that is not scalar-like (the axis matters).
bool AxisMatters(const Case& c) {
  return !ScalarLike(c.input(1)->shape);
}

int AxisOf(const Case& c) {
  const Attribute* a = c.attribute("axis");
  const auto rank = static_cast<int64_t>(c.input(0)->shape.size());
  const int64_t axis = a ? a->i : 1;
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

// Gives scale (and zero point) a new shape, with fresh codes.
void Reshape(Choices& ch, Case& c, std::vector<int64_t> shape) {
  c.inputs[1] = ScaleTensor(ch, TypeOf(*c.input(1)), shape);
  if (c.input(2)) c.inputs[2] = ZeroPointTensor(ch, TypeOf(*c.input(2)), shape);
}

const std::vector<Mutation>& Mutations() {
  static const std::vector<Mutation> kMutations = {
      {"op.not_in_opset", "", [](const OpSchema& s, const Case&) { return s.domain.empty(); },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.opset = 1 + static_cast<int64_t>(ch.Below(9));
       }},
      {"inputs.count", "", [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema&, Case& c) {
         if (ch.Chance(50)) {
           c.inputs[1] = std::nullopt;  // x_scale missing
         } else {
           while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
           c.inputs.push_back(*c.input(0));  // a fourth input
         }
       }},
      {"attr.undefined", "", [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<std::string> undefined = {"zero_point"};  // no version has it
         for (const char* name : {"axis", "saturate", "block_size", "output_dtype", "precision"}) {
           if (s.attribute(name) == nullptr) undefined.push_back(name);
         }
         c.attributes[ch.Pick(undefined)] = Attribute::Int(0);
       }},
      {"attr.type", "", [](const OpSchema& s, const Case&) { return !s.attributes.empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         const std::string name(s.attributes[ch.Below(s.attributes.size())].name);
         Attribute a;
         a.kind = Attribute::Kind::kFloat;
         a.f = 1.0;
         c.attributes[name] = a;
       }},
      {"type.x", "DequantizeLinear",
       [](const OpSchema& s, const Case&) { return !TypesOutside(s.x_types).empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[0] = InputTensor(ch, ch.Pick(TypesOutside(s.x_types)), c.input(0)->shape);
         if (c.inputs.size() > 2) c.inputs.resize(2);  // its zero point would break another rule
       }},
      {"type.x_scale", "DequantizeLinear",
       [](const OpSchema& s, const Case&) { return !TypesOutside(s.scale_types).empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[1] = ScaleTensor(ch, ch.Pick(TypesOutside(s.scale_types)), c.input(1)->shape);
       }},
      {"type.x_zero_point", "DequantizeLinear", [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<DataType> others = TypesOutside({TypeOf(*c.input(0))});
         while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
         c.inputs[2] = InputTensor(ch, ch.Pick(others), c.input(1)->shape);
       }},
      {"output_dtype.type", "DequantizeLinear",
       [](const OpSchema& s, const Case&) { return s.attribute("output_dtype") != nullptr; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<int64_t> bad = {3, 2, 6, 7, 9, 11, 99};  // integers, bool, double, unknown
         for (DataType t : TypesOutside(s.output_types)) bad.push_back(static_cast<int64_t>(t));
         c.attributes["output_dtype"] = Attribute::Int(ch.Pick(bad));
       }},
      {"output_dtype.required", "DequantizeLinear",
       [](const OpSchema& s, const Case&) {
         return s.attribute("output_dtype") != nullptr &&
                std::any_of(s.scale_types.begin(), s.scale_types.end(),
                            [&](DataType t) { return !s.allows_output(t); });
       },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<DataType> no_output;
         for (DataType t : s.scale_types) {
           if (!s.allows_output(t)) no_output.push_back(t);
         }
         c.inputs[1] = ScaleTensor(ch, ch.Pick(no_output), c.input(1)->shape);
         c.attributes.erase("output_dtype");
       }},
      {"shape.zero_point", "", [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<int64_t> shape = c.input(1)->shape;
         shape.push_back(1);  // the same elements, another shape
         while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
         c.inputs[2] = ZeroPointTensor(ch, ZeroPointType(c), shape);
       }},
      {"scale.rank", "",
       [](const OpSchema& s, const Case& c) {
         return !s.axis_presence_selects_granularity && !c.input(0)->shape.empty() &&
                (s.granularities.size() == 1 || !IsBlocked(c));
       },
       [](Choices& ch, const OpSchema& s, Case& c) {
         // Version 10: any non-scalar-like scale; later: rank 2 or more without block_size.
         const bool per_tensor_only = s.granularities.size() == 1;
         std::vector<int64_t> shape =
             per_tensor_only ? std::vector<int64_t>{2 + static_cast<int64_t>(ch.Below(3))}
                             : std::vector<int64_t>{2, 1 + static_cast<int64_t>(ch.Below(3))};
         c.attributes.erase("block_size");
         Reshape(ch, c, shape);
       }},
      {"axis.range", "",
       [](const OpSchema& s, const Case& c) { return s.attribute("axis") && AxisMatters(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         const auto rank = static_cast<int64_t>(c.input(0)->shape.size());
         c.attributes["axis"] =
             Attribute::Int(ch.Chance(50) ? -rank - 1 - static_cast<int64_t>(ch.Below(2))
                                          : rank + static_cast<int64_t>(ch.Below(2)));
       }},
      {"per_axis.length", "",
       [](const OpSchema&, const Case& c) { return !IsBlocked(c) && AxisMatters(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         const int64_t d = c.input(0)->shape[AxisOf(c)];
         Reshape(ch, c, {d == 0 ? 2 : d + 1});
       }},
      {"blocked.block_size_negative", "",
       [](const OpSchema& s, const Case&) { return s.attribute("block_size") != nullptr; },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.attributes["block_size"] = Attribute::Int(-1 - static_cast<int64_t>(ch.Below(3)));
       }},
      {"blocked.rank", "", [](const OpSchema&, const Case& c) { return IsBlocked(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<int64_t> shape = c.input(1)->shape;
         shape.push_back(1);
         Reshape(ch, c, shape);
       }},
      {"blocked.dims", "",
       [](const OpSchema&, const Case& c) { return IsBlocked(c) && c.input(0)->shape.size() >= 2; },
       [](Choices& ch, const OpSchema&, Case& c) {
         const int axis = AxisOf(c);
         std::vector<int64_t> shape = c.input(1)->shape;
         const int d = (axis + 1 + static_cast<int>(ch.Below(shape.size() - 1))) %
                       static_cast<int>(shape.size());
         shape[d] += 1;
         Reshape(ch, c, shape);
       }},
      {"blocked.block_size_range", "", [](const OpSchema&, const Case& c) { return IsBlocked(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<int64_t> shape = c.input(1)->shape;
         shape[AxisOf(c)] += 1 + static_cast<int64_t>(ch.Below(2));  // one block too many
         Reshape(ch, c, shape);
       }},
      {"ms.axis_absent_not_scalar", "DequantizeLinear",
       [](const OpSchema& s, const Case&) { return s.axis_presence_selects_granularity; },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.attributes.erase("axis");
         Reshape(ch, c, {2 + static_cast<int64_t>(ch.Below(3))});
       }},
      {"ms.axis_present_not_1d", "DequantizeLinear",
       [](const OpSchema& s, const Case& c) {
         return s.axis_presence_selects_granularity && !c.input(0)->shape.empty();
       },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.attributes["axis"] = Attribute::Int(0);
         Reshape(ch, c, {});
       }},
      // QuantizeLinear's type rules.
      {"type.x", "QuantizeLinear", [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[0] = InputTensor(ch, ch.Pick(TypesOutside(s.x_types)), c.input(0)->shape);
       }},
      {"type.y_scale", "QuantizeLinear", [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[1] = ScaleTensor(ch, ch.Pick(TypesOutside(s.scale_types)), c.input(1)->shape);
       }},
      {"type.y_zero_point", "QuantizeLinear", [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
         c.inputs[2] = InputTensor(ch, ch.Pick(TypesOutside(s.output_types)), c.input(1)->shape);
       }},
      {"output_dtype.type", "QuantizeLinear",
       [](const OpSchema& s, const Case&) { return s.attribute("output_dtype") != nullptr; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<int64_t> bad = {1, 10, 16, 11, 99};  // floats, double, unknown
         for (DataType t : TypesOutside(s.output_types)) bad.push_back(static_cast<int64_t>(t));
         c.attributes["output_dtype"] = Attribute::Int(ch.Pick(bad));
       }},
      {"precision.type", "QuantizeLinear",
       [](const OpSchema& s, const Case&) { return !s.precision_types.empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<int64_t> bad = {3, 6, 11, 99};  // int8, int32, double, unknown
         for (DataType t : TypesOutside(s.precision_types)) bad.push_back(static_cast<int64_t>(t));
         c.attributes["precision"] = Attribute::Int(ch.Pick(bad));
       }},
  };
  return kMutations;
}

bool MutationFits(const Mutation& m, const OpSchema& s) {
  return m.op.empty() || m.op == s.op_type;
}

std::string RuleIdOf(const Mutation& m, const OpSchema& s) {
  if (m.rule.rfind("op.", 0) == 0) return m.rule;
  return std::string(s.op_type == "QuantizeLinear" ? "ql." : "dq.") + m.rule;
}

}  // namespace

std::vector<InvalidCase> GenerateDequantizeBatch(const BatchOptions& options) {
  const std::vector<const OpSchema*> schemas =
      options.schemas.empty() ? DequantizeSchemas() : options.schemas;
  PrngChoices ch(options.seed);
  std::vector<InvalidCase> out;
  for (int n = 0; n < options.count; ++n) {
    const OpSchema& s = *ch.Pick(schemas);
    // DynamicQuantizeLinear has no invalid generator: its few rules are golden cases.
    const bool dynamic = s.op_type == "DynamicQuantizeLinear";
    InvalidCase g;
    if (!dynamic && ch.Chance(options.invalid_percent)) {
      g = GenerateInvalid(ch, s, options.limits);
    } else if (options.profile.empty()) {
      g.c = GenerateValid(ch, s, options.limits);
    } else if (std::optional<Case> c = GenerateForProfile(ch, s, options.profile, options.limits)) {
      g.c = std::move(*c);
    } else {
      continue;  // the profile forbids this version
    }
    g.c.profile = options.profile;
    const char* op = dynamic ? "dynql" : s.op_type == "QuantizeLinear" ? "ql" : "dq";
    char id[96];
    std::snprintf(id, sizeof id, "gen-%llu-%05d-%s%s%s%d",
                  static_cast<unsigned long long>(options.seed), n, s.domain.empty() ? "" : "ms",
                  op, g.rule.empty() ? "" : "-invalid-", s.since_version);
    g.c.id = id;
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<std::string> BreakableRules(const OpSchema& schema) {
  std::vector<std::string> out;
  for (const Mutation& m : Mutations()) {
    if (!MutationFits(m, schema)) continue;
    // Applicable to some case of the version: probe with the predicate's schema-only part by
    // trying a few generated cases.
    PrngChoices ch(0x5eed);
    for (int k = 0; k < 64; ++k) {
      const Case c = GenerateValid(ch, schema, {});
      if (m.applies(schema, c)) {
        out.push_back(RuleIdOf(m, schema));
        break;
      }
    }
  }
  return out;
}

InvalidCase GenerateInvalidDequantize(Choices& ch, const OpSchema& schema,
                                      const GeneratorLimits& limits) {
  return GenerateInvalid(ch, schema, limits);
}

InvalidCase GenerateInvalidQuantize(Choices& ch, const OpSchema& schema,
                                    const GeneratorLimits& limits) {
  return GenerateInvalid(ch, schema, limits);
}

std::optional<Case> GenerateForProfile(Choices& ch, const OpSchema& schema,
                                       const std::string& profile, const GeneratorLimits& limits) {
  for (int attempt = 0; attempt < 2000; ++attempt) {
    Case c = GenerateValid(ch, schema, limits);
    c.profile = profile;
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      if (!c.inputs[k]) continue;
      Tensor& t = *c.inputs[k];
      t.is_initializer = true;  // weights: constant x, scale and zero point
      const ElementType& et = element_type(static_cast<DataType>(t.data_type));
      for (size_t i = 0; i < t.codes.size(); ++i) {
        if (k == 2) t.codes.set(i, 0);  // zero points all zero
        if (k == 1 && et.is_float()) {  // scales positive and finite
          const double v = std::fabs(DecodeDouble(et, t.codes[i]));
          const double fixed = std::isfinite(v) && v > 0 ? v : 1.0;
          t.codes.set(i, EncodeDouble(et, fixed, Saturation::kNone).value());
        }
      }
    }
    if (RunOracle(c).findings.empty()) return c;
  }
  return std::nullopt;
}

Case GenerateValid(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits) {
  if (schema.op_type == "QuantizeLinear") return GenerateValidQuantize(ch, schema, limits);
  if (schema.op_type == "DynamicQuantizeLinear") return GenerateDynamicQuantize(ch, limits);
  return GenerateValidDequantize(ch, schema, limits);
}

InvalidCase GenerateInvalid(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits) {
  Case c = GenerateValid(ch, schema, limits);
  std::vector<const Mutation*> all;  // the operator's mutations, in table order
  for (const Mutation& m : Mutations()) {
    if (MutationFits(m, schema)) all.push_back(&m);
  }
  const size_t start = ch.Below(all.size());
  for (size_t k = 0; k < all.size(); ++k) {
    const Mutation& m = *all[(start + k) % all.size()];
    if (!m.applies(schema, c)) continue;
    m.apply(ch, schema, c);
    return {std::move(c), RuleIdOf(m, schema)};
  }
  // dq.attr.undefined always applies; this is never reached.
  return {std::move(c), ""};
}

}  // namespace qconform
