// `qconform types [--json]`: the element-type registry (oracle/core/element_type.h) as a table
// for people, or as data for the other languages' copies of it: the Python kit's and the
// contract judge's tables and the ONNX Runtime adapter's are tested against this output.
#include <cstdio>
#include <string>

#include "oracle/core/codec.h"
#include "tools/args.h"
#include "tools/commands.h"

namespace qconform::tools {
namespace {

std::string_view NanName(const ElementType& t) {
  if (!t.is_float()) return "none";
  switch (t.fp.nan) {
    case NanEncoding::kNone:
      return "none";
    case NanEncoding::kIeee:
      return "ieee";
    case NanEncoding::kAllOnes:
      return "all-ones";
    case NanEncoding::kNegativeZero:
      return "negative-zero";
  }
  return "?";
}

// A type has -0 when its sign bit applies to zero: signed floats other than the fnuz types.
bool HasNegativeZero(const ElementType& t) {
  return t.is_float() && t.fp.has_sign && t.fp.nan != NanEncoding::kNegativeZero;
}

// The largest finite value (floats), or the range (integers).
std::string Largest(const ElementType& t) {
  if (t.is_integer()) return std::to_string(IntegerMax(t));
  return Decode(t, MaxFiniteCode(t)).ToString();
}

std::string Json(const ElementType& t) {
  char buf[720];
  const std::string max = Largest(t);
  std::snprintf(
      buf, sizeof buf,
      "{\"data_type\": %d, \"name\": \"%s\", \"bits\": %d, \"kind\": \"%s\", \"signed\": %s, "
      "\"exponent_bits\": %d, \"mantissa_bits\": %d, \"bias\": %d, \"has_infinity\": %s, "
      "\"has_subnormals\": %s, \"negative_zero\": %s, \"nan\": \"%s\", \"canonical_nan\": %u, "
      "\"min\": \"%s\", \"max_finite_code\": %u, \"max_finite\": \"%s\"}",
      static_cast<int>(t.id), std::string(t.name).c_str(), t.bits,
      t.is_integer() ? "integer" : "float",
      (t.is_integer() ? t.integer.is_signed : t.fp.has_sign) ? "true" : "false",
      t.is_float() ? t.fp.exponent_bits : 0, t.is_float() ? t.fp.mantissa_bits : 0,
      t.is_float() ? t.fp.bias : 0, t.has_infinity() ? "true" : "false",
      t.is_float() && t.fp.has_subnormals ? "true" : "false", HasNegativeZero(t) ? "true" : "false",
      std::string(NanName(t)).c_str(), t.has_nan() ? t.canonical_nan : 0u,
      t.is_integer()  ? std::to_string(IntegerMin(t)).c_str()
      : t.fp.has_sign ? ("-" + max).c_str()
                      : Decode(t, 0).ToString().c_str(),  // e8m0: 2^-127
      t.is_integer()
          ? (IntegerMax(t) < 0 ? 0u : static_cast<uint32_t>(IntegerMax(t)) & t.code_mask())
          : MaxFiniteCode(t),
      max.c_str());
  return buf;
}

}  // namespace

int RunTypes(const std::vector<std::string>& argv) {
  const Args args(argv, {"--json"}, {});
  if (!args.positional().empty()) throw UsageError("unexpected argument " + args.positional()[0]);
  if (args.flag("--json")) {
    std::printf("{\"schema_version\": 1,\n \"types\": [\n");
    const auto all = AllElementTypes();
    for (size_t i = 0; i < all.size(); ++i) {
      std::printf("  %s%s\n", Json(all[i]).c_str(), i + 1 < all.size() ? "," : "");
    }
    // ONNX's names for every data_type number, the ones the oracle does not compute with too.
    std::printf(" ],\n \"onnx_names\": {");
    for (int n = 1; n <= 26; ++n) {
      std::printf("%s\"%d\": \"%s\"", n > 1 ? ", " : "", n, DataTypeName(n).c_str());
    }
    std::printf("}\n}\n");
    return 0;
  }
  std::printf("%-4s %-15s %4s  %-7s %-6s %3s %3s %4s %-4s %-13s %s\n", "num", "name", "bits",
              "kind", "signed", "exp", "man", "bias", "inf", "nan", "max finite");
  for (const ElementType& t : AllElementTypes()) {
    const bool f = t.is_float();
    std::printf("%-4d %-15s %4d  %-7s %-6s %3d %3d %4d %-4s %-13s %s\n", static_cast<int>(t.id),
                std::string(t.name).c_str(), t.bits, f ? "float" : "integer",
                (f ? t.fp.has_sign : t.integer.is_signed) ? "yes" : "no",
                f ? t.fp.exponent_bits : 0, f ? t.fp.mantissa_bits : 0, f ? t.fp.bias : 0,
                t.has_infinity() ? "yes" : "no", std::string(NanName(t)).c_str(),
                Largest(t).c_str());
  }
  return 0;
}

}  // namespace qconform::tools
