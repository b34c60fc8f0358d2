#include "generators/choices.h"

namespace qconform {
namespace {

// The default fork: the same source under another name (RapidCheck shrinks one sequence).
class SameSource : public Choices {
 public:
  explicit SameSource(Choices& source) : source_(source) {}
  uint64_t Below(uint64_t n) override { return source_.Below(n); }

 private:
  Choices& source_;
};

}  // namespace

std::unique_ptr<Choices> Choices::Fork(std::string_view) {
  return std::make_unique<SameSource>(*this);
}

std::unique_ptr<Choices> PrngChoices::Fork(std::string_view name) {
  return std::make_unique<PrngChoices>(StreamSeed(seed_, name));
}

uint64_t StreamSeed(uint64_t seed, std::string_view name) {
  const uint64_t h = Fnv1aOf(name);
  // One SplitMix64 step over the pair, so that near seeds and near names give far streams.
  return Prng(seed ^ (h * 0x9E3779B97F4A7C15ull)).Next();
}

size_t PickByName(Choices& ch, std::string_view prefix, const std::vector<std::string>& names) {
  size_t best = names.size();
  uint64_t best_weight = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const uint64_t w = ch.Fork(std::string(prefix) + names[i])->Below(uint64_t{1} << 62);
    if (best == names.size() || w > best_weight) best = i, best_weight = w;
  }
  return best;
}

}  // namespace qconform
