#include "suites/fuzz/fuzz_case_bytes.h"

#include <cstdio>
#include <cstdlib>
#include <map>

#include "generators/batch.h"
#include "generators/edge_values.h"
#include "generators/mutations.h"
#include "generators/valid_cases.h"
#include "onnx_io/case_reader.h"
#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/schema.h"
#include "suites/fuzz/fuzz_boundary_moves.h"
#include "suites/fuzz/fuzz_groups.h"

namespace qconform {
namespace {

constexpr int64_t kMaxGoldenElements = 1024;

std::string Id(const Case& c) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "%012llx",
                static_cast<unsigned long long>(ContentHash(c) & 0xFFFFFFFFFFFFull));
  return "fuzz-" + std::string(hex);
}

// Byte 0: the source of the case.
constexpr char kGenerated = 0, kGolden = 1, kGroup = 2;

// An input of one choice after the source byte (appended byte by byte: GCC 12 warns of a
// string concatenation here that cannot overlap).
std::string SourceInput(char source, uint64_t value, uint64_t n) {
  std::string bytes(1, source);
  for (char b : ChoiceBytes(value, n)) bytes.push_back(b);
  return bytes;
}

std::optional<Case> Generated(ByteChoices& ch, ByteChoices& tail) {
  const auto schemas = AllSchemas();
  const OpSchema& s = schemas[ch.Below(schemas.size())];
  // Half of them invalid where the operator has mutations of its own (mutations.h). Not the
  // registry's for every kind: the mutant plugin's plain kernels do not refuse those (an
  // undefined attribute, a missing input of MatMulIntegerToFloat or GatherBlockQuantized), so its
  // defect-free backend would be an accepted-invalid false alarm in fuzz.differential.
  Case c =
      GeneratesInvalid(s) && ch.Below(2) == 1 ? GenerateInvalid(ch, s).c : GenerateValid(ch, s);
  BoundaryMoves(tail, c);
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
  BoundaryMoves(tail, c);
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
    // QCONFORM_FUZZ_GROUPS=1: a byte 0 of 2 (mod 4) makes a QDQ group (fuzz_groups.h).
    static const bool groups = [] {
      const char* env = std::getenv("QCONFORM_FUZZ_GROUPS");
      return env != nullptr && std::string(env) == "1";
    }();
    if (groups && data[0] % 4 == kGroup) {
      Case c = GroupFromFuzzInput(ch, tail);
      c.id = Id(c);
      return c;
    }
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
    out.emplace_back(label, SourceInput(kGenerated, index, schemas.size()));
  }
  for (const auto& [label, choices] : MinimalGroupChoices()) {
    out.emplace_back(label, std::string(1, kGroup) + choices);
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
  return SourceInput(kGolden, index, FuzzGoldenDirectories().size());
}

}  // namespace qconform
