// The golden catalogue's boundary-built DynamicQuantizeLinear cases. Its float32 procedure
// (docs/semantics.md#d12) rounds four times; each rounding is decided at ties that random inputs
// almost never reach, so the builders search for inputs (deterministically, PRNG seeded by the
// case id) where:
//   zero-point-tie   the intermediate zero point -x_min / y_scale is exactly k + 1/2, k even;
//   odd-zero-point   the zero point is odd and its quotient's fraction above 1/2;
//   scale-rounding   float32's x_max - x_min is inexact and changes y_scale's rounding;
//   saturating       x_max's y reaches 256 before saturation;
// and every case holds y quotients RN32(x / y_scale) exactly on half-integers, both parities.
#include <cmath>
#include <optional>

#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

// The procedure's steps, each rounded once in float32.
struct Procedure {
  float x_min, x_max, scale, zero_point_quotient;
  int zero_point;
  explicit Procedure(float lo, float hi) : x_min(std::fmin(0.0f, lo)), x_max(std::fmax(0.0f, hi)) {
    scale = (x_max - x_min) / 255.0f;
    zero_point_quotient = -x_min / scale;
    zero_point =
        static_cast<int>(std::fmin(255.0f, std::fmax(0.0f, std::nearbyint(zero_point_quotient))));
  }
  float Quotient(float x) const { return x / scale; }
  int Unsaturated(float x) const {
    return static_cast<int>(std::nearbyint(Quotient(x))) + zero_point;
  }
};

// A candidate's x_min from a scale s and an integer k: -(k + fraction) * s, exact in float32
// (s has a short significand).
using Accept = bool (*)(const Procedure&, float hi);
struct SearchClass {
  std::string name;
  bool k_even;
  float fraction;  // of -x_min / s; negative: random in (0.5, 1)
  Accept accept;
  std::string decision;
  // Draw x_min and x_max of far-apart magnitudes instead, so that float32's x_max - x_min is
  // inexact: y_scale's first rounding then matters.
  bool wide = false;
};

// Values inside [x_min, x_max] whose quotient is exactly m + 1/2, for m of both parities and
// both signs. y_scale has a short significand, so (m + 1/2) * y_scale is exact and the exact
// quotient is on the tie too; y_scale * RN32(1 / y_scale) is not 1, so the reciprocal's product
// falls beside the tie, below it on one side of zero.
std::vector<float> YTies(const Procedure& p) {
  std::vector<float> out;
  for (int m = -p.zero_point; m + p.zero_point < 255 && out.size() < 40; m += 7) {
    const float target = static_cast<float>(m) + 0.5f;
    float x = target * p.scale;
    for (float candidate : {x, std::nextafter(x, -INFINITY), std::nextafter(x, INFINITY)}) {
      if (candidate > p.x_min && candidate < p.x_max && p.Quotient(candidate) == target) {
        out.push_back(candidate);
        break;
      }
    }
  }
  return out;
}

class DynamicBoundaries : public CatalogueBuilder {
 public:
  // Searches for `count` inputs of the class and adds a case for each. x_min is built so that
  // -x_min / y_scale is the wanted quotient exactly; x_max walks a few float32 steps up from
  // 255 * s + x_min until the procedure's y_scale is s and the class accepts it.
  void Search(const SearchClass& c, int count) {
    Prng prng(CaseSeed("dynql11-" + c.name));
    int found = 0;
    for (int attempt = 0; attempt < 200000 && found < count; ++attempt) {
      const float s =
          std::ldexp(1.0f + static_cast<float>(1 + prng.Below((1u << 11) - 1)) / (1u << 11),
                     -static_cast<int>(prng.Below(16)));
      const int k = 2 * static_cast<int>(prng.Below(120)) + 4 + (c.k_even ? 0 : 1);
      const float fraction =
          c.fraction >= 0 ? c.fraction : 0.5f + static_cast<float>(1 + prng.Below(127)) / 256;
      float lo = -(static_cast<float>(k) + fraction) * s;
      float hi = 255.0f * s + lo;
      if (c.wide) {
        lo = -std::ldexp(1.0f + static_cast<float>(prng.Below(1u << 23)) / (1u << 23), -10 - k % 9);
        hi = std::ldexp(1.0f + static_cast<float>(prng.Below(1u << 23)) / (1u << 23), k % 7);
      }
      for (int step = 0; step < 8; ++step, hi = std::nextafter(hi, INFINITY)) {
        const Procedure p(lo, hi);
        if ((!c.wide && p.scale != s) || !c.accept(p, hi)) continue;
        std::vector<double> values = {lo, hi, 0.0};
        for (float v : YTies(p)) values.push_back(v);
        const std::string id = "dynql11-" + c.name + "-" + std::to_string(found++);
        Add(MakeCase("DynamicQuantizeLinear", 11,
                     {MakeTensor(DataType::kFloat, {static_cast<int64_t>(values.size())}, values)},
                     {}, "", id),
            "type:float,y:uint8,granularity:per-tensor,boundary:" + c.name, c.decision);
        break;
      }
    }
  }
};

bool Always(const Procedure&, float) {
  return true;
}

bool ScaleRounding(const Procedure& p, float) {
  const auto in_double = static_cast<float>((static_cast<double>(p.x_max) - p.x_min) / 255.0);
  return in_double != p.scale;
}

// At least three of y's ties where adding the zero point before rounding (a defect) gives
// neither the procedure's result nor the reciprocal strategy's (RN32(x * RN32(1 / y_scale)) plus
// the zero point, then rounded, docs/semantics.md#d12): a golden case then tells them apart.
bool SeparatesZeroPointOrder(const Procedure& p, float) {
  const float reciprocal = 1.0f / p.scale;
  int separating = 0;
  for (float x : YTies(p)) {
    const double zp = p.zero_point;
    const double procedure = std::nearbyint(p.Quotient(x)) + zp;
    const double before = std::nearbyint(p.Quotient(x) + static_cast<float>(zp));
    const double by_reciprocal = std::nearbyint(static_cast<double>(x * reciprocal) + zp);
    separating += before != procedure && before != by_reciprocal ? 1 : 0;
  }
  return separating >= 3;
}

// x_max's quotient rounds up too: with the zero point's tie rounding up, y reaches 256.
bool Saturating(const Procedure& p, float hi) {
  return p.Unsaturated(hi) > 255;
}

}  // namespace

std::vector<GoldenCase> DynamicBoundaryCatalogue() {
  DynamicBoundaries b;
  const SearchClass classes[] = {
      {"zero-point-tie", true, 0.5f, Always,
       "docs/semantics.md#d12: -x_min / y_scale exactly k + 1/2, k even: half to even"},
      {"odd-zero-point", true, -1, SeparatesZeroPointOrder,
       "docs/semantics.md#d12: an odd zero point (its quotient's fraction above 1/2) beside y's "
       "ties"},
      {"saturating", false, 0.5f, Saturating,
       "docs/semantics.md#d12: round(x_max / y_scale) + y_zero_point is 256 and saturates to 255"},
      {"scale-rounding", true, 0.5f, ScaleRounding,
       "docs/semantics.md#d12: y_scale = RN32(RN32(x_max - x_min) / 255), two roundings", true},
  };
  for (const SearchClass& c : classes) b.Search(c, 4);
  return b.cases;
}

}  // namespace qconform
