// How `qconform explain` prints a code and the backend's beside a strategy's result (explain.cc,
// explain_conv.cc).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "oracle/core/codec.h"

namespace qconform::tools {

// "0x7f = 127 (int8)".
inline std::string Show(const ElementType& t, uint32_t code) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%0*x", (t.bits + 3) / 4, code);
  return std::string(hex) + " = " + Decode(t, code).ToString() + " (" + std::string(t.name) + ")";
}

// The backend's code for the element, when its outputs were given (--observed).
using Observed = std::optional<uint32_t>;

// Beside a strategy's result: whether the backend's code is that one.
inline void PrintBackend(const ElementType& t, const Observed& observed, uint32_t code) {
  if (!observed) return;
  std::printf("    backend                 -> %s  %s\n", Show(t, *observed).c_str(),
              *observed == code ? "(this strategy's result)" : "(differs)");
}

}  // namespace qconform::tools
