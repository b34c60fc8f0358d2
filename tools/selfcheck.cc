// `qconform selfcheck`: the oracle checks itself before anyone trusts it. Every code of every
// element type of at most 16 bits is decoded and re-encoded through both the exact and the fast
// path; a table shows the counts per type.
#include <cmath>
#include <cstdio>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "tools/commands.h"

namespace qconform::tools {
namespace {

struct TypeTally {
  uint64_t codes = 0, nan = 0, infinite = 0, failures = 0;
};

TypeTally CheckType(const ElementType& t) {
  TypeTally tally;
  const uint64_t count = uint64_t{1} << t.bits;
  for (uint64_t c = 0; c < count; ++c) {
    const auto code = static_cast<uint32_t>(c);
    const Exact v = Decode(t, code);
    const double d = DecodeDouble(t, code);
    ++tally.codes;
    tally.nan += v.is_nan();
    tally.infinite += v.is_infinity();
    const std::optional<uint32_t> back = Encode(t, v, Saturation::kNone);
    const std::optional<uint32_t> fast = EncodeDouble(t, d, Saturation::kNone);
    const bool ok = v.is_nan() ? (back && IsNanCode(t, *back) && std::isnan(d))
                               : (back == code && fast == code && Exact::FromDouble(d) == v);
    tally.failures += !ok;
  }
  return tally;
}

}  // namespace

int RunSelfcheck(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "qconform selfcheck: takes no arguments (see --help)\n");
    return 2;
  }
  std::printf("%-16s %8s %6s %6s %8s  %s\n", "type", "codes", "NaN", "inf", "failures",
              "max finite");
  uint64_t total = 0, failures = 0;
  for (const ElementType& t : AllElementTypes()) {
    if (t.bits > 16) continue;
    const TypeTally tally = CheckType(t);
    total += tally.codes;
    failures += tally.failures;
    const std::string max =
        t.is_float() ? Decode(t, MaxFiniteCode(t)).ToString() : std::to_string(IntegerMax(t));
    std::printf("%-16s %8llu %6llu %6llu %8llu  %s\n", std::string(t.name).c_str(),
                static_cast<unsigned long long>(tally.codes),
                static_cast<unsigned long long>(tally.nan),
                static_cast<unsigned long long>(tally.infinite),
                static_cast<unsigned long long>(tally.failures), max.c_str());
  }
  std::printf("\nselfcheck: %llu codes decoded and re-encoded by both paths, %llu failures\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(failures));
  std::printf("%llu passed, %llu failed\n", static_cast<unsigned long long>(total - failures),
              static_cast<unsigned long long>(failures));
  return failures == 0 ? 0 : 1;
}

}  // namespace qconform::tools
