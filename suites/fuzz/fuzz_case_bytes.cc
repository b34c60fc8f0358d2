#include "suites/fuzz/fuzz_case_bytes.h"

#include <cstdio>
#include <cstdlib>
#include <map>

#include "generators/batch.h"
#include "generators/boundaries.h"
#include "generators/edge_values.h"
#include "generators/mutations.h"
#include "generators/valid_cases.h"
#include "onnx_io/case_reader.h"
#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/dynamic_quantize.h"

namespace qconform {
namespace {

constexpr int64_t kMaxGoldenElements = 1024;

std::string Id(const Case& c) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "%012llx",
                static_cast<unsigned long long>(ContentHash(c) & 0xFFFFFFFFFFFFull));
  return "fuzz-" + std::string(hex);
}

// x's elements moved onto or next to the boundaries that separate right from plausibly wrong,
// which generated values almost never reach: the rounding ties of x / y_scale (rounding rules,
// reciprocal multipliers, where the zero point is added) and, for a float y, the values where its
// saturation begins. QuantizeLinear's scale is one of y_scale's elements; DynamicQuantizeLinear's
// is the one it computes from x.
void TieOverwrites(ByteChoices& ch, Case& c) {
  const Operator* op = FindOperator(c.domain, c.op_type);
  if (op == nullptr || c.inputs.empty() || !c.inputs[0]) return;
  const bool dynamic = op->kind == OperatorKind::kDynamicQuantizeLinear;
  if (op->kind != OperatorKind::kQuantizeLinear && !dynamic) return;
  Tensor& x = *c.inputs[0];
  const ElementType* xt = FindElementType(x.data_type);
  if (xt == nullptr || !xt->is_float() || x.codes.empty()) return;
  Exact s;
  if (dynamic) {
    if (x.data_type != static_cast<int32_t>(DataType::kFloat)) return;
    s = Decode(*xt, DynamicQuantizeParametersOf(x.codes).y_scale);
  } else {
    if (c.inputs.size() < 2 || !c.inputs[1] || c.inputs[1]->codes.empty()) return;
    const Tensor& scale = *c.inputs[1];
    const ElementType* st = FindElementType(scale.data_type);
    if (st == nullptr) return;
    s = Decode(*st, scale.codes[ch.Below(scale.codes.size())]);
  }
  if (!s.is_finite() || s.is_zero()) return;
  const Rational factor = Rational(s.is_negative() ? -1 : 1) / abs(s.value());
  const ElementType* yt = FindElementType(DeclaredOutputType(c));
  const std::vector<Rational> saturation =
      yt != nullptr && yt->is_float() ? SaturationBoundaries(*yt) : std::vector<Rational>{};
  for (uint64_t n = ch.Below(8); n > 0; --n) {
    Rational target;
    if (!saturation.empty() && ch.Below(2) == 1) {
      target = saturation[ch.Below(saturation.size())];
      if (ch.Below(2) == 1) target = -target;
    } else {
      // k + 1/2 for k in [-256, 255]: the quotients of every 8-bit range and its zero points.
      target = Rational(static_cast<int64_t>(ch.Below(512)) - 256) + Rational(1, 2);
    }
    const std::vector<uint32_t> codes = NearTieCodes(*xt, factor, {target});
    if (!codes.empty()) x.codes.set(ch.Below(x.codes.size()), codes[ch.Below(codes.size())]);
  }
}

std::optional<Case> Generated(ByteChoices& ch, ByteChoices& tail) {
  const auto schemas = AllSchemas();
  const OpSchema& s = schemas[ch.Below(schemas.size())];
  Case c =
      GeneratesInvalid(s) && ch.Below(2) == 1 ? GenerateInvalid(ch, s).c : GenerateValid(ch, s);
  TieOverwrites(tail, c);
  c.id = Id(c);
  return c;
}

std::optional<Case> Golden(ByteChoices& ch, ByteChoices& tail) {
  const std::vector<std::string>& golden = FuzzGoldenDirectories();
  if (golden.empty()) return std::nullopt;
  const CaseDirectory dir = ReadCaseDirectory(golden[ch.Below(golden.size())]);
  const DataSet& set = dir.data_sets.at(0);
  int64_t elements = 0;
  for (const std::optional<Tensor>& t : set.c.inputs) elements += t ? t->element_count() : 0;
  // A fuzzer lives on executions per second: the catalogue's large cases (every code of a
  // 16-bit type, wide convolutions) stay out, as do the profile's and the chains.
  if (!set.c.profile.empty() || set.then || elements > kMaxGoldenElements) return std::nullopt;
  Case c = set.c;
  std::vector<size_t> present;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (c.inputs[k] && c.inputs[k]->element_count() > 0) present.push_back(k);
  }
  const uint64_t overwrites = present.empty() ? 0 : ch.Below(8);
  for (uint64_t n = 0; n < overwrites; ++n) {
    Tensor& t = *c.inputs[present[ch.Below(present.size())]];
    const ElementType* type = FindElementType(t.data_type);
    if (type == nullptr) continue;
    const size_t element = ch.Below(t.codes.size());
    const std::vector<EdgeValue> edges = InputEdges(*type);
    const uint64_t how = ch.Below(3);
    const uint32_t code = how < 2 && !edges.empty()
                              ? edges[ch.Below(edges.size())].code
                              : static_cast<uint32_t>(ch.Below(uint64_t{type->code_mask()} + 1));
    t.codes.set(element, code);
  }
  TieOverwrites(tail, c);
  c.id = Id(c);
  return c;
}

}  // namespace

std::string ChoiceBytes(uint64_t value, uint64_t n) {
  std::string bytes;
  for (uint64_t left = n - 1; left != 0; left >>= 8, value >>= 8) {
    bytes += static_cast<char>(value & 0xFF);
  }
  return bytes;
}

uint64_t ByteChoices::Below(uint64_t n) {
  if (n <= 1) return 0;
  uint64_t v = 0;
  int shift = 0;
  for (uint64_t left = n - 1; left != 0 && at_ < size_; left >>= 8, shift += 8) {
    const size_t i = at_++;
    v |= uint64_t{data_[from_end_ ? size_ - 1 - i : i]} << shift;
  }
  return v % n;
}

std::optional<Case> CaseFromFuzzInput(const uint8_t* data, size_t size) {
  if (size == 0) return std::nullopt;
  ByteChoices ch(data + 1, size - 1), tail(data + 1, size - 1, true);
  try {
    // QCONFORM_FUZZ_NO_GOLDEN=1: generated cases only, so that a measurement of the fuzzer does
    // not measure the golden catalogue.
    static const bool no_golden = [] {
      const char* env = std::getenv("QCONFORM_FUZZ_NO_GOLDEN");
      return env != nullptr && std::string(env) == "1";
    }();
    return data[0] % 2 == 0 || no_golden ? Generated(ch, tail) : Golden(ch, tail);
  } catch (const std::exception&) {
    return std::nullopt;  // bytes no generator turns into a case: nothing to compare
  }
}

std::vector<std::pair<std::string, std::string>> MinimalCaseInputs() {
  // Each operator's newest version: the last of its schemas.
  const auto schemas = AllSchemas();
  std::map<std::string, size_t> newest;
  for (size_t i = 0; i < schemas.size(); ++i) {
    newest[std::string(schemas[i].domain) + std::string(schemas[i].domain.empty() ? "" : ".") +
           std::string(schemas[i].op_type)] = i;
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [label, index] : newest) {
    out.emplace_back(label,
                     std::string(1, '\0') + ChoiceBytes(index, schemas.size()));  // generated
  }
  return out;
}

const std::vector<std::string>& FuzzGoldenDirectories() {
  static const std::vector<std::string> dirs = [] {
    const char* env = std::getenv("QCONFORM_FUZZ_GOLDEN");
    const std::string root = env && *env ? env : QCONFORM_GOLDEN_DIR;
    try {
      return FindCaseDirectories({root});
    } catch (const std::exception& e) {
      std::fprintf(stderr, "fuzz_differential: no golden cases: %s\n", e.what());
      return std::vector<std::string>{};
    }
  }();
  return dirs;
}

std::string GoldenCaseInput(size_t index) {
  return std::string(1, '\1') + ChoiceBytes(index, FuzzGoldenDirectories().size());  // golden
}

}  // namespace qconform
