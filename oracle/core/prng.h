// qconform's own pseudo-random generator: SplitMix64 (Steele, Lea, Flood 2014). A seed gives the
// same sequence on every machine and compiler, which std:: distributions do not promise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace qconform {

class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t Next32() { return static_cast<uint32_t>(Next() >> 32); }
  // Uniform in [0, n) by rejection, n > 0.
  uint64_t Below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do r = Next();
    while (r >= limit);
    return r % n;
  }

 private:
  uint64_t state_;
};

// FNV-1a, 64-bit (Fowler, Noll, Vo): the stable hash behind seeds from names and ids, content
// ids of generated cases and shards of a run. The same bytes give the same value on any machine.
class Fnv1a {
 public:
  Fnv1a& Bytes(const void* data, size_t n) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ b[i]) * 0x100000001b3ull;
    return *this;
  }
  Fnv1a& Text(std::string_view s) { return Bytes(s.data(), s.size()); }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};

inline uint64_t Fnv1aOf(std::string_view s) {
  return Fnv1a().Text(s).value();
}

}  // namespace qconform
