// QLinearAdd's fixed-point multiplier cases (docs/semantics.md#d35), per T and width: kernels that
// add in integers (XNNPACK's add, ONNX Runtime's QLinearAdd on ARM NEON) round each operand's
// scale ratio to a 21- or 22-bit multiplier below the larger ratio's exponent, and round the sum
// up at ties. With dyadic ratios (every other QLinearAdd case) that is only ties up; here A's
// scale has a long significand, found by search, so that for some pairs of codes the
// multiplier's error moves the sum across a tie and the code differs from the exact one, from
// ties up, and from the other width's. The case holds those pairs (at most 16), and the oracle
// confirms that some of its codes fall outside the admitted range.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "generators/boundaries.h"
#include "generators/catalogue_builder.h"
#include "generators/qlinear_group_codes.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;
using namespace qlinear_codes;

// B's ratio to the output scale 1: dyadic, the smaller one, a fine grid of tie offsets.
constexpr double kBScale = 1.0 / 256;
constexpr int kWidths[] = {21, 22};
constexpr size_t kPerWidth = 16;

// The code a fixed-point add of `bits` gives for centred operands ca, cb: A's ratio rounded
// half to even to bits - 1 - e fraction bits (e: the larger ratio's exponent), B's exact.
double FixedPoint(int bits, float a_scale, double ca, double cb) {
  const int shift = bits - 1 - std::ilogb(std::max(static_cast<double>(a_scale), kBScale));
  const double ma = std::nearbyint(std::ldexp(static_cast<double>(a_scale), shift));
  const double mb = std::ldexp(kBScale, shift);
  return std::floor(std::ldexp(ca * ma + cb * mb, -shift) + 0.5);
}

class AddMultipliers : public CatalogueBuilder {
 public:
  // The case of width kWidths[w] in T's cell.
  void Cell(D t, int w) {
    const int64_t a_zp = Zp(t, -3), b_zp = Zp(t, 5), y_zp = Zp(t, 7);
    const double lo = t == D::kInt8 ? -128 : 0, hi = t == D::kInt8 ? 127 : 255;
    const std::array<double, 256> decoded = CodeValues(t);  // the search reads them 10^8 times
    const auto centred = [&](uint32_t k, int64_t zp) {
      return decoded[k] - static_cast<double>(zp);
    };
    const auto clamp = [&](double r) { return std::clamp(r + static_cast<double>(y_zp), lo, hi); };
    const auto fraction = [](double v) { return v - std::floor(v); };
    const std::string width = std::to_string(kWidths[w]);
    for (int j = 1; j < 4000; ++j) {
      const auto a_scale = static_cast<float>(0.5 * (1 + fraction(j * 0.7548776662466927)));
      std::vector<uint32_t> a, b;
      std::vector<double> fixed;
      for (uint32_t k = 0; k < 65536 && a.size() < kPerWidth; ++k) {
        const double ca = centred(k % 256, a_zp), cb = centred(k / 256, b_zp);
        const double v = ca * a_scale + cb * kBScale;
        const double mine = clamp(FixedPoint(kWidths[w], a_scale, ca, cb));
        if (mine == clamp(std::nearbyint(v)) || mine == clamp(std::floor(v + 0.5)) ||
            mine == clamp(FixedPoint(kWidths[1 - w], a_scale, ca, cb)))
          continue;
        a.push_back(k % 256), b.push_back(k / 256), fixed.push_back(mine);
      }
      if (a.empty()) continue;
      const auto n = static_cast<int64_t>(a.size());
      Case c = MakeCase(
          "QLinearAdd", 1,
          {MakeTensorFromCodes(t, {n}, a), F(a_scale), MakeScalar(t, static_cast<double>(a_zp)),
           MakeTensorFromCodes(t, {n}, b), F(kBScale), MakeScalar(t, static_cast<double>(b_zp)),
           F(1), MakeScalar(t, static_cast<double>(y_zp))},
          {}, "com.microsoft", "qladd1-fixed-point-" + width + "-" + TypeName(t));
      if (!Separated(c, t, fixed)) continue;
      Add(std::move(c),
          "op:QLinearAdd,type:" + TypeName(t) + ",y:" + TypeName(t) + ",boundary:fixed-point-" +
              width,
          "d35");
      return;
    }
    throw std::logic_error("QLinearAdd: no scale separates a " + width +
                           "-bit fixed-point multiplier");
  }

 private:
  // Whether some element's code from `codes` lies outside the oracle's admitted range.
  static bool Separated(const Case& c, D t, const std::vector<double>& codes) {
    const OracleResult r = RunOracle(c);
    const OutputEvaluation& y = r.outputs.at(0);
    const ElementType& type = ElementTypeOf(t);
    for (size_t i = 0; i < codes.size(); ++i) {
      const uint32_t code = IntegerCodes(type, {static_cast<int64_t>(codes[i])}).at(0);
      if (!InRange(type, y.range(i), code)) return true;
    }
    return false;
  }
};

}  // namespace

std::vector<GoldenCase> QLinearAddMultiplierCatalogue(CatalogueParts parts) {
  AddMultipliers b;
  if (parts == CatalogueParts::kAll) {
    for (D t : {D::kInt8, D::kUint8}) {
      for (int w = 0; w < 2; ++w) b.Cell(t, w);
    }
  }
  return b.cases;
}

}  // namespace qconform
