// The legal float evaluations the soundness properties try (float_soundness_test.cc,
// nbits_soundness_test.cc): each step rounded once into a type, exactly (Exact, IEEE specials and
// all), and the sums of a list of products in each order: sequential, reversed, pairwise,
// blocked by 4, 8, 16 and 32, with FMA steps (each product's multiplication fused into the
// addition that takes it), and a start value (a bias added first). And what the oracle admits
// of a value: its one judge, written once.
#pragma once

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

using Round = std::function<Exact(const Exact&)>;

inline Round RoundingTo(const ElementType& t) {
  return [&t](const Exact& v) { return Decode(t, *Encode(t, v, Saturation::kNone)); };
}

// Sequential, reversed, pairwise, and blocked: consecutive blocks of 4, 8, 16 or 32 products
// summed each (as a vector kernel's lanes or a tiled loop do), then the blocks' sums in turn.
enum class Order {
  kSequential,
  kReversed,
  kPairwise,
  kBlocked4,
  kBlocked8,
  kBlocked16,
  kBlocked32
};
inline constexpr Order kOrders[] = {Order::kSequential, Order::kReversed, Order::kPairwise,
                                    Order::kBlocked4,   Order::kBlocked8, Order::kBlocked16,
                                    Order::kBlocked32};

// The block length of each order, by its number (0: not blocked).
inline constexpr size_t kBlockOf[] = {0, 0, 0, 4, 8, 16, 32};
static_assert(std::size(kBlockOf) == std::size(kOrders));
inline size_t BlockOf(Order order) {
  return kBlockOf[static_cast<size_t>(order)];
}

// The sum of the products l * r of `factors`, each product and addition rounded by R, in
// `order`, from `start` when given; with `fma`, sequentially (or reversed; a blocked order's fma
// is the sequential one), each step one rounding of l * r + sum. +0 for nothing at all.
inline Exact SumInOrder(std::vector<std::pair<Exact, Exact>> factors, const Round& R, Order order,
                        bool fma, const std::optional<Exact>& start = std::nullopt) {
  if (order == Order::kReversed) std::reverse(factors.begin(), factors.end());
  std::optional<Exact> sum = start;
  if (fma) {
    for (const auto& [l, r] : factors) sum = sum ? R(l * r + *sum) : R(l * r);
    return sum.value_or(Exact());
  }
  std::vector<Exact> p;
  for (const auto& [l, r] : factors) p.push_back(R(l * r));
  if (const size_t block = BlockOf(order); block != 0 && !p.empty()) {
    for (size_t first = 0; first < p.size(); first += block) {
      Exact part = p[first];
      for (size_t k = first + 1; k < std::min(p.size(), first + block); ++k) part = R(part + p[k]);
      sum = sum ? R(*sum + part) : part;
    }
    return *sum;
  }
  if (order == Order::kPairwise && !p.empty()) {
    std::function<Exact(size_t, size_t)> pairwise = [&](size_t lo, size_t hi) -> Exact {
      if (hi - lo == 1) return p[lo];
      const size_t mid = lo + (hi - lo) / 2;
      return R(pairwise(lo, mid) + pairwise(mid, hi));
    };
    const Exact s = pairwise(0, p.size());
    return sum ? R(*sum + s) : s;
  }
  for (const Exact& x : p) sum = sum ? R(*sum + x) : x;
  return sum.value_or(Exact());
}

// Whether the oracle admits the value v (of y's type t) at element e: a free element, a zero of
// either sign where the exact value is a zero (the order's sign of a zero sum), the exact code,
// the admitted range, or an admitted alternative.
inline bool AdmittedAt(const OutputEvaluation& y, const ElementType& t, size_t e, const Exact& v) {
  if (y.is_free(e)) return true;
  if (v.is_zero() && Decode(t, y.exact[e]).is_zero()) return true;
  const uint32_t code = *Encode(t, v, Saturation::kNone);
  if (code == y.exact[e] || InRange(t, y.range(e), code)) return true;
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    if (y.alternatives[j].admitted && y.alternative(j, e) == code) return true;
  }
  return false;
}

}  // namespace qconform
