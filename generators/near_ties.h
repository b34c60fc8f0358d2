// Accumulators that separate the requantizations runtimes ship (docs/semantics.md#d21), shared by
// the compute operators' catalogues (QLinearMatMul, QLinearConv): random strategies almost never
// disagree, so the cases are built near the ties of acc * M (NearTieIntegers), where each named
// strategy gives neither the exact nor the f32 result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oracle/core/element_type.h"
#include "oracle/core/prng.h"
#include "oracle/core/requantize_strategies.h"

namespace qconform {

using RequantizeFn = std::optional<int64_t> (*)(const RequantizeOperands&);
struct NamedRequantization {
  std::string name;
  RequantizeFn fn;
};
// f32 (admitted, but where it parts from exact a backend's fingerprint says which it computes)
// and the named strategies with an integer formula of their own.
const std::vector<NamedRequantization>& SeparatedRequantizations();

// A float32 scale in [2^lo, 2^(lo + span)).
float RandomFloatScale(Prng& p, int lo, int span);

// acc as a sum of products a * b, a in [0, a_max] (uint8: 255, int8: 127), b in
// [-b_max, b_max] carrying acc's sign: whole chunks of a_max * b_max, then q * b_max + r * 1.
std::vector<std::pair<int, int>> Products(int64_t acc, int a_max, int b_max = 127);

// Up to `count` accumulators (|acc| <= 10^6; positive only unless `signed_acc`) near the ties of
// acc * M under o's scales, zero point and range, where `fn` gives neither the exact nor the f32
// code (f32 itself: not the exact one).
std::vector<int64_t> SearchSeparating(RequantizeFn fn, RequantizeOperands o, bool signed_acc,
                                      size_t count, Prng& p);

// Up to 8 accumulators (|acc| <= 10^6) and the per-tensor parameters under which `fn` gives
// neither the exact nor the f32 code (f32 itself: not the exact one), found over up to 3000
// scale triples with multipliers from 2^-12 to 2^-1; nullopt when none is found.
struct SeparatingAccumulators {
  std::vector<int64_t> accs;
  float a_scale = 0, b_scale = 0, y_scale = 0;
  int64_t zero_point = 0;
};
std::optional<SeparatingAccumulators> FindSeparating(RequantizeFn fn, DataType y_type, Prng& p);

}  // namespace qconform
