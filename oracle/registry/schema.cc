#include "oracle/registry/schema.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <stdexcept>
#include <tuple>

#include "oracle/registry/float_output_rows.h"

namespace qconform {
namespace {

using D = DataType;
using K = OperatorKind;

// A list, and these besides: how a version's types, a row's strategies or a row's constraints
// grow from another's.
template <class T>
std::vector<T> Extended(std::vector<T> base, std::initializer_list<T> more) {
  base.insert(base.end(), more);
  return base;
}

// DequantizeLinear's T1 grows version by version (the ONNX DequantizeLinear page and, for 24 and
// 25, the ONNX DequantizeLinear page (24, 25)).
const std::vector<D> kDqX10 = {D::kInt8, D::kUint8, D::kInt32};
const std::vector<D> kDqX19 = {D::kInt8,          D::kUint8,          D::kInt32,
                               D::kFloat8E4M3FN,  D::kFloat8E4M3FNUZ, D::kFloat8E5M2,
                               D::kFloat8E5M2FNUZ};
const std::vector<D> kDqX21 = {
    D::kInt8,           D::kUint8, D::kInt32,  D::kFloat8E4M3FN, D::kFloat8E4M3FNUZ, D::kFloat8E5M2,
    D::kFloat8E5M2FNUZ, D::kInt16, D::kUint16, D::kInt4,         D::kUint4};
const std::vector<D> kDqX23 = Extended(kDqX21, {D::kFloat4E2M1});
const std::vector<D> kDqX25 = Extended(kDqX23, {D::kInt2, D::kUint2});

const std::vector<D> kFloatOnly = {D::kFloat};
const std::vector<D> kFloats = {D::kBfloat16, D::kFloat, D::kFloat16};  // T2 19-23, T3 23+
const std::vector<D> kFloatsAndE8M0 = {D::kBfloat16, D::kFloat, D::kFloat16, D::kFloat8E8M0};

const std::vector<AttributeSpec> kNoAttributes = {};
const std::vector<AttributeSpec> kAxis = {{"axis", 1}};
const std::vector<AttributeSpec> kAxisBlock = {{"axis", 1}, {"block_size", 0}};
const std::vector<AttributeSpec> kAxisBlockOutput = {
    {"axis", 1}, {"block_size", 0}, {"output_dtype", 0}};

using G = Granularity;
const std::vector<G> kPerTensor = {G::kPerTensor};
const std::vector<G> kPerAxis = {G::kPerTensor, G::kPerAxis};
const std::vector<G> kBlocked = {G::kPerTensor, G::kPerAxis, G::kBlocked};

const std::vector<Strategy> kExactF32 = {Strategy::kExact, Strategy::kF32};
const std::vector<Strategy> kExactF32Out = {Strategy::kExact, Strategy::kF32, Strategy::kOut};
const std::vector<Strategy> kExactF32Precision = {Strategy::kExact, Strategy::kF32,
                                                  Strategy::kPrecision};
// DynamicQuantizeLinear's exact result is its float32 procedure; runtimes also divide exactly or
// multiply by the reciprocal.
const std::vector<Strategy> kExactQuotientReciprocal = {Strategy::kExact, Strategy::kExactQuotient,
                                                        Strategy::kReciprocal};

// QuantizeLinear (docs/semantics.md#tensorrt): T1 for x, the y types growing version by version.
const std::vector<D> kQlX10 = {D::kFloat, D::kInt32};
const std::vector<D> kQlX19 = {D::kFloat, D::kFloat16, D::kBfloat16, D::kInt32};
const std::vector<D> kQlScale23 = kQlX19;
const std::vector<D> kQlScale24 = {D::kFloat, D::kFloat16, D::kBfloat16, D::kInt32, D::kFloat8E8M0};
const std::vector<D> kQlY10 = {D::kInt8, D::kUint8};
const std::vector<D> kQlY19 = {D::kInt8,           D::kUint8,      D::kFloat8E4M3FN,
                               D::kFloat8E4M3FNUZ, D::kFloat8E5M2, D::kFloat8E5M2FNUZ};
const std::vector<D> kQlY21 = Extended(kQlY19, {D::kInt16, D::kUint16, D::kInt4, D::kUint4});
const std::vector<D> kQlY23 = Extended(kQlY21, {D::kFloat4E2M1});
const std::vector<D> kQlY25 = Extended(kQlY23, {D::kInt2, D::kUint2});
// com.microsoft QuantizeLinear-1's T2 (ONNX Runtime's ContribOperators.md): 8-, 16- and 4-bit
// integers; its T1 is float and float16 (kMsFloats).
const std::vector<D> kQlYMicrosoft = {D::kInt8,   D::kUint8, D::kInt16,
                                      D::kUint16, D::kInt4,  D::kUint4};
const std::vector<D> kMsFloats = {D::kFloat, D::kFloat16};
const std::vector<AttributeSpec> kQlAttrs19 = {{"axis", 1}, {"saturate", 1}};
const std::vector<AttributeSpec> kQlAttrs21 = {
    {"axis", 1}, {"saturate", 1}, {"block_size", 0}, {"output_dtype", 0}};
const std::vector<AttributeSpec> kQlAttrs23 = {
    {"axis", 1}, {"saturate", 1}, {"block_size", 0}, {"output_dtype", 0}, {"precision", 0}};

// The matmul family: int8 and uint8 operands (10); the requantizations every runtime ships,
// computed and named (docs/semantics.md#d21); MatMulInteger's int32 overflow read as wrapping
// (#d22, the exact result saturates).
const std::vector<D> kInt8Uint8 = {D::kInt8, D::kUint8};
const std::vector<Strategy> kRequantizations = {
    Strategy::kOnnxReference,       Strategy::kQ31DoubleRound, Strategy::kQ31SingleRound,
    Strategy::kMantissaTiesUp,      Strategy::kZeroPointFirst, Strategy::kReciprocal,
    Strategy::kInt16PairSaturation, Strategy::kInt32Wrap};
const std::vector<Strategy> kExactInt32Wrap = {Strategy::kExact, Strategy::kInt32Wrap};
// The convolution family: Conv's attributes (the ONNX Conv page), defaults applied by the
// geometry (oracle/core/conv_shape.h).
using AK = Attribute::Kind;
const std::vector<AttributeSpec> kConvAttributes = {{"auto_pad", std::nullopt, AK::kString},
                                                    {"dilations", std::nullopt, AK::kInts},
                                                    {"group", 1, AK::kInt},
                                                    {"kernel_shape", std::nullopt, AK::kInts},
                                                    {"pads", std::nullopt, AK::kInts},
                                                    {"strides", std::nullopt, AK::kInts}};
// QGemm: "alpha : float", "transA : int", "transB : int"; ONNX Runtime's schema gives them the
// defaults 1.0, 0 and 0 (Gemm's), the page none.
const std::vector<AttributeSpec> kQGemmAttributes = {
    {"alpha", std::nullopt, AK::kFloat, 1.0}, {"transA", 0, AK::kInt}, {"transB", 0, AK::kInt}};
// QGemm's type constraints: "TA", "TB" (uint8, int8), "TC" (int32), "T" (float), "TYZ"
// (uint8, int8); "TY" (float, uint8, int8) is the output's, y_zero_point's type or float.
const std::vector<TypeConstraint> kQGemmTypes = {{"TA", {D::kInt8, D::kUint8}},
                                                 {"TB", {D::kInt8, D::kUint8}},
                                                 {"TC", {D::kInt32}},
                                                 {"T", {D::kFloat}},
                                                 {"TYZ", {D::kInt8, D::kUint8}}};
const std::vector<AttributeSpec> kMsConvAttributes = [] {
  std::vector<AttributeSpec> a = kConvAttributes;
  a.insert(a.begin() + 1, {"channels_last", 0, AK::kInt});
  return a;
}();

// The com.microsoft QLinear operators (ONNX Runtime's ContribOperators.md): T for the quantized
// operands, their zero points and the output; every scale tensor(float), per tensor.
const std::vector<TypeConstraint> kQLinearTypes = {{"T", {D::kInt8, D::kUint8}},
                                                   {"scale", {D::kFloat}}};
// QLinearWhere's: "B : tensor(bool)" for the condition besides.
const std::vector<TypeConstraint> kQLinearWhereTypes =
    Extended(kQLinearTypes, {TypeConstraint{"B", {D::kBool}}});
// QLinearLeakyRelu's alpha: the page gives no default; ONNX LeakyRelu's and ONNX Runtime's
// kernel's is 0.01 (docs/semantics.md#d35).
const std::vector<AttributeSpec> kAlpha = {{"alpha", std::nullopt, AK::kFloat, 0.01}};
const std::vector<Strategy> kExactOnly = {Strategy::kExact};
// Named beside the exact result in every mismatch (docs/semantics.md#d35), admitted by --admit.
const std::vector<Strategy> kQLinearNamed = {Strategy::kZeroPointFirst, Strategy::kTiesAway,
                                             Strategy::kTiesUp, Strategy::kMinimumOnOverflow,
                                             Strategy::kReciprocal};
// QLinearSoftmax's: the same, and the value times floor(1 / y_scale) (ONNX Runtime 1.30's).
const std::vector<Strategy> kSoftmaxNamed = Extended(kQLinearNamed, {Strategy::kFloorReciprocal});
// QLinearAdd's: the same, and its fixed-point multipliers (XNNPACK's 21 bits, NEON's 22).
const std::vector<Strategy> kAddNamed =
    Extended(kQLinearNamed, {Strategy::kFixedPoint21, Strategy::kFixedPoint22});
// QLinearAveragePool's: the same, and its windows with every tap counted.
const std::vector<Strategy> kPoolNamed = Extended(kQLinearNamed, {Strategy::kPaddingCounted});
// QLinearGlobalAveragePool: "channels_last: int" (0: N x C x D1..., 1: N x D1... x C).
const std::vector<AttributeSpec> kChannelsLast = {{"channels_last", 0}};
// QLinearAveragePool: AveragePool's attributes without dilations ("kernel_shape (required)";
// ceil_mode, count_include_pad default 0; auto_pad default NOTSET) and channels_last.
const std::vector<AttributeSpec> kPoolAttributes = {
    {"auto_pad", std::nullopt, AK::kString},
    {"ceil_mode", 0},
    {"channels_last", 0},
    {"count_include_pad", 0},
    {"kernel_shape", std::nullopt, AK::kInts, std::nullopt, true},
    {"pads", std::nullopt, AK::kInts},
    {"strides", std::nullopt, AK::kInts}};
// QLinearSoftmax: "axis: int", "opset: int (required)", the Softmax version whose axis rule
// applies (13+: along axis, default -1; 12 and before: coerced to a matrix, not computed yet).
// QLinearConcat: "axis: int (required)".
const std::vector<AttributeSpec> kConcatAxis = {
    {"axis", std::nullopt, AK::kInt, std::nullopt, true}};
const std::vector<AttributeSpec> kSoftmaxAttributes = {
    {"axis", -1}, {"opset", std::nullopt, AK::kInt, std::nullopt, true}};

// clang-format off
const std::vector<OpSchema> kSchemas = {
  // kind, domain, op, since, T1, T2, T3, attributes, granularities, axis selects, strategies, source
  {K::kDequantizeLinear, "", "DequantizeLinear", 10, kDqX10, kFloatOnly, kFloatOnly, kNoAttributes, kPerTensor, false, kExactF32,
   "ONNX DequantizeLinear-10"},
  {K::kDequantizeLinear, "", "DequantizeLinear", 13, kDqX10, kFloatOnly, kFloatOnly, kAxis, kPerAxis, false, kExactF32,
   "ONNX DequantizeLinear-13"},
  {K::kDequantizeLinear, "", "DequantizeLinear", 19, kDqX19, kFloats, kFloats, kAxis, kPerAxis, false, kExactF32,
   "ONNX DequantizeLinear-19"},
  {K::kDequantizeLinear, "", "DequantizeLinear", 21, kDqX21, kFloats, kFloats, kAxisBlock, kBlocked, false, kExactF32,
   "ONNX DequantizeLinear-21"},
  {K::kDequantizeLinear, "", "DequantizeLinear", 23, kDqX23, kFloats, kFloats, kAxisBlockOutput, kBlocked, false, kExactF32Out,
   "ONNX DequantizeLinear-23 (with output_dtype, as in the released schema)"},
  {K::kDequantizeLinear, "", "DequantizeLinear", 24, kDqX23, kFloatsAndE8M0, kFloats, kAxisBlockOutput, kBlocked, false, kExactF32Out,
   "ONNX DequantizeLinear-24"},
  {K::kDequantizeLinear, "", "DequantizeLinear", 25, kDqX25, kFloatsAndE8M0, kFloats, kAxisBlockOutput, kBlocked, false, kExactF32Out,
   "ONNX DequantizeLinear-25"},
  {K::kDequantizeLinear, "com.microsoft", "DequantizeLinear", 1, {D::kInt8, D::kUint8}, {D::kFloat, D::kFloat16}, {D::kFloat, D::kFloat16},
   {{"axis", std::nullopt}}, kPerAxis, true, kExactF32,
   "ONNX Runtime's com.microsoft DequantizeLinear-1 (docs/semantics.md#d9)"},
  // QuantizeLinear: docs/semantics.md#tensorrt; the y types are the zero point's (output_types).
  {K::kQuantizeLinear, "", "QuantizeLinear", 10, kQlX10, kFloatOnly, kQlY10, kNoAttributes, kPerTensor, false, kExactF32,
   "ONNX QuantizeLinear-10 (docs/semantics.md#quantizelinear)"},
  {K::kQuantizeLinear, "", "QuantizeLinear", 13, kQlX10, kFloatOnly, kQlY10, kAxis, kPerAxis, false, kExactF32,
   "ONNX QuantizeLinear-13 (docs/semantics.md#quantizelinear)"},
  {K::kQuantizeLinear, "", "QuantizeLinear", 19, kQlX19, kQlX19, kQlY19, kQlAttrs19, kPerAxis, false, kExactF32,
   "ONNX QuantizeLinear-19 (docs/semantics.md#quantizelinear)", true},
  {K::kQuantizeLinear, "", "QuantizeLinear", 21, kQlX19, kQlX19, kQlY21, kQlAttrs21, kBlocked, false, kExactF32,
   "ONNX QuantizeLinear-21 (docs/semantics.md#quantizelinear)", true},
  {K::kQuantizeLinear, "", "QuantizeLinear", 23, kQlX19, kQlScale23, kQlY23, kQlAttrs23, kBlocked, false, kExactF32Precision,
   "ONNX QuantizeLinear-23 (docs/semantics.md#quantizelinear)", false, kFloats},
  {K::kQuantizeLinear, "", "QuantizeLinear", 24, kQlX19, kQlScale24, kQlY23, kQlAttrs23, kBlocked, false, kExactF32Precision,
   "ONNX QuantizeLinear-24 (docs/semantics.md#quantizelinear)", false, kFloats},
  {K::kQuantizeLinear, "", "QuantizeLinear", 25, kQlX19, kQlScale24, kQlY25, kQlAttrs23, kBlocked, false, kExactF32Precision,
   "ONNX QuantizeLinear-25 (docs/semantics.md#quantizelinear)", false, kFloats},
  // ONNX Runtime's com.microsoft QuantizeLinear-1: x and y_scale one type T1 (float, float16);
  // the axis's presence selects per-axis (docs/semantics.md#d9, as its DequantizeLinear).
  {K::kQuantizeLinear, "com.microsoft", "QuantizeLinear", 1, kMsFloats, kMsFloats, kQlYMicrosoft, {{"axis", std::nullopt}}, kPerAxis, true, kExactF32,
   "ONNX Runtime's com.microsoft QuantizeLinear-1 (docs/semantics.md#d35)", true},
  // DynamicQuantizeLinear: the ONNX DynamicQuantizeLinear page; its outputs are fixed (y, y_zero_point uint8; y_scale float).
  {K::kDynamicQuantizeLinear, "", "DynamicQuantizeLinear", 11, kFloatOnly, {}, {D::kUint8}, kNoAttributes, kPerTensor,
   false, kExactQuotientReciprocal, "ONNX DynamicQuantizeLinear-11 (docs/semantics.md#dynamicquantizelinear)"},
  // The matmul family (the ONNX QLinearMatMul and MatMulInteger pages; docs/semantics.md#d20-d28).
  // T1 (a) and T2 (b) are one set in every version: x_types holds it. QLinearMatMul's scale types
  // are TS (float in 10), its output types T3.
  {K::kQLinearMatMul, "", "QLinearMatMul", 10, kInt8Uint8, kFloatOnly, kInt8Uint8, kNoAttributes, kPerTensor, false, kExactF32,
   "ONNX QLinearMatMul-10 (docs/semantics.md#qlinearmatmul)", false, {}, kRequantizations},
  {K::kQLinearMatMul, "", "QLinearMatMul", 21, kQlY19, kFloats, kQlY19, kNoAttributes, kPerTensor, false, kExactF32,
   "ONNX QLinearMatMul-21 (docs/semantics.md#qlinearmatmul)", false, {}, kRequantizations},
  {K::kMatMulInteger, "", "MatMulInteger", 10, kInt8Uint8, {}, {D::kInt32}, kNoAttributes, kPerTensor, false, kExactInt32Wrap,
   "ONNX MatMulInteger-10 (docs/semantics.md#matmulinteger)"},
  // The convolution family: T1 (x) and T2 (w) are one set, T3 y's (QLinearConv), int32 (ConvInteger).
  {K::kQLinearConv, "", "QLinearConv", 10, kInt8Uint8, kFloatOnly, kInt8Uint8, kConvAttributes, kPerTensor, false, kExactF32,
   "ONNX QLinearConv-10 (docs/semantics.md#qlinearconv)", false, {}, kRequantizations},
  // ONNX Runtime's com.microsoft QLinearConv-1: the same inputs and types, and channels_last (x and
  // y as N x D1 ... x C; w stays M x C/group x k1 ...).
  {K::kQLinearConv, "com.microsoft", "QLinearConv", 1, kInt8Uint8, kFloatOnly, kInt8Uint8, kMsConvAttributes, kPerTensor, false, kExactF32,
   "ONNX Runtime's com.microsoft QLinearConv-1 (docs/semantics.md#d35)", false, {}, kRequantizations},
  // ONNX Runtime's com.microsoft QGemm-1 (docs/semantics.md#d35, #d36): the matmul family's
  // requantizations with alpha folded into a_scale; a float32 Y by its bound.
  {K::kQGemm, "com.microsoft", "QGemm", 1, kInt8Uint8, kFloatOnly, {D::kFloat, D::kInt8, D::kUint8}, kQGemmAttributes, kPerTensor, false, kExactF32,
   "ONNX Runtime's com.microsoft QGemm-1 (docs/semantics.md#d35)", false, {}, kRequantizations, kQGemmTypes},
  {K::kConvInteger, "", "ConvInteger", 10, kInt8Uint8, {}, {D::kInt32}, kConvAttributes, kPerTensor, false, kExactInt32Wrap,
   "ONNX ConvInteger-10 (docs/semantics.md#convinteger)"},
};
// clang-format on

// The com.microsoft QLinear operators' rows (their graphs are the registry rows' bodies,
// docs/semantics.md#d35): version 1, T int8 or uint8, float scales per tensor, the exact result
// with the d35 roundings named.
// One row of the table below: the op type, its attributes, its type constraints, the source,
// the strategies it names (kQLinearNamed when none are given).
struct QLinearRowSpec {
  std::string_view op_type;
  const std::vector<AttributeSpec>& attributes;
  const std::vector<TypeConstraint>& types;
  std::string_view source;
  const std::vector<Strategy>* named = nullptr;
};
OpSchema QLinearRow(const QLinearRowSpec& r) {
  return {K::kQLinearGroup,
          "com.microsoft",
          r.op_type,
          1,
          kInt8Uint8,
          kFloatOnly,
          kInt8Uint8,
          r.attributes,
          kPerTensor,
          false,
          kExactOnly,
          r.source,
          false,
          {},
          r.named ? *r.named : kQLinearNamed,
          r.types};
}
const std::vector<OpSchema> kAllSchemas = [] {
  std::vector<OpSchema> all = kSchemas;
  // clang-format off
  const QLinearRowSpec rows[] = {
    {"QLinearAdd", kNoAttributes, kQLinearTypes, "ONNX Runtime's com.microsoft QLinearAdd-1", &kAddNamed},
    {"QLinearMul", kNoAttributes, kQLinearTypes, "ONNX Runtime's com.microsoft QLinearMul-1"},
    {"QLinearLeakyRelu", kAlpha, kQLinearTypes, "ONNX Runtime's com.microsoft QLinearLeakyRelu-1"},
    {"QLinearSigmoid", kNoAttributes, kQLinearTypes, "ONNX Runtime's com.microsoft QLinearSigmoid-1"},
    {"QLinearGlobalAveragePool", kChannelsLast, kQLinearTypes,
     "ONNX Runtime's com.microsoft QLinearGlobalAveragePool-1"},
    {"QLinearAveragePool", kPoolAttributes, kQLinearTypes,
     "ONNX Runtime's com.microsoft QLinearAveragePool-1", &kPoolNamed},
    {"QLinearSoftmax", kSoftmaxAttributes, kQLinearTypes, "ONNX Runtime's com.microsoft QLinearSoftmax-1", &kSoftmaxNamed},
    {"QLinearConcat", kConcatAxis, kQLinearTypes, "ONNX Runtime's com.microsoft QLinearConcat-1"},
    {"QLinearWhere", kNoAttributes, kQLinearWhereTypes, "ONNX Runtime's com.microsoft QLinearWhere-1"},
  };
  // clang-format on
  for (const QLinearRowSpec& r : rows) all.push_back(QLinearRow(r));
  for (OpSchema& r : FloatOutputSchemas()) all.push_back(std::move(r));
  return all;
}();

bool Contains(const std::vector<DataType>& v, DataType t) {
  return std::find(v.begin(), v.end(), t) != v.end();
}

}  // namespace

const AttributeSpec* OpSchema::attribute(std::string_view name) const {
  for (const AttributeSpec& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const TypeConstraint* OpSchema::constraint(std::string_view name) const {
  for (const TypeConstraint& t : type_constraints) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::optional<Attribute> AttributeSpec::default_attribute() const {
  if (kind == Attribute::Kind::kFloat && float_default) return Attribute::Float(*float_default);
  if (kind == Attribute::Kind::kInt && default_value) return Attribute::Int(*default_value);
  return std::nullopt;
}

bool OpSchema::allows(Granularity g) const {
  return std::find(granularities.begin(), granularities.end(), g) != granularities.end();
}
bool OpSchema::allows_scale(DataType t) const {
  return Contains(scale_types, t);
}
bool OpSchema::allows_output(DataType t) const {
  return Contains(output_types, t);
}

std::string OpSchema::label() const {
  return (domain.empty() ? "" : std::string(domain) + ".") + std::string(op_type) + "-" +
         std::to_string(since_version);
}

// The registry row of the row's kind and domain (Registry.SchemaRowsNameTheirOperatorRows checks
// that there is one and that it has the row's op_type).
const Operator& OpSchema::op() const {
  for (const Operator& o : AllOperators()) {
    if (o.kind == operator_kind && o.domain == domain && o.op_type == op_type) return o;
  }
  throw std::logic_error("no registry row for " + label());
}

std::span<const OpSchema> AllSchemas() {
  return kAllSchemas;
}

std::vector<const OpSchema*> SchemasOf(OperatorKind kind) {
  std::vector<const OpSchema*> out;
  for (const OpSchema& s : kAllSchemas) {
    if (s.kind() == kind) out.push_back(&s);
  }
  return out;
}

std::vector<const OpSchema*> SchemasOf(const Operator& op) {
  std::vector<const OpSchema*> out;
  for (const OpSchema& s : kAllSchemas) {
    if (s.kind() == op.kind && s.domain == op.domain && s.op_type == op.op_type) out.push_back(&s);
  }
  return out;
}

std::vector<const OpSchema*> SchemasNamed(std::string_view name) {
  const auto lower = [](std::string_view v) {
    std::string out(v);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  std::vector<const OpSchema*> out;
  for (const OpSchema& s : kAllSchemas) {
    if (name == "all" || lower(s.op_type) == lower(name)) out.push_back(&s);
  }
  return out;
}

std::string OperatorNames() {
  std::string names;
  for (const Operator& o : AllOperators()) {
    if (names.find(std::string(o.op_type)) == std::string::npos) {
      names += (names.empty() ? "" : ", ") + std::string(o.op_type);
    }
  }
  return names;
}

const OpSchema* ResolveSchema(std::string_view domain, std::string_view op_type, int64_t opset) {
  domain = CanonicalDomain(domain);
  const OpSchema* best = nullptr;
  for (const OpSchema& s : kAllSchemas) {
    if (s.domain != domain || s.op_type != op_type || s.since_version > opset) continue;
    if (best == nullptr || s.since_version > best->since_version) best = &s;
  }
  return best;
}

namespace {
struct DomainOpset {
  std::string_view domain;
  int64_t newest;
};
constexpr DomainOpset kNewestOpsets[] = {{"", 25}, {"com.microsoft", 1}};
}  // namespace

int64_t NewestKnownOpset(std::string_view domain) {
  domain = CanonicalDomain(domain);
  for (const DomainOpset& d : kNewestOpsets) {
    if (d.domain == domain) return d.newest;
  }
  return 0;
}

int NewestKnownVersion(std::string_view domain, std::string_view op_type) {
  domain = CanonicalDomain(domain);
  int newest = 0;
  for (const OpSchema& s : kAllSchemas) {
    if (s.domain == domain && s.op_type == op_type) newest = std::max(newest, s.since_version);
  }
  return newest;
}

std::string TypeListString(const std::vector<DataType>& types) {
  std::string s;
  for (DataType t : types) s += (s.empty() ? "" : ", ") + DataTypeName(static_cast<int32_t>(t));
  return s;
}

}  // namespace qconform
