// A sequence of element codes of one type, stored at the narrowest byte width that holds the
// type (1, 2 or 4 bytes per element; sub-byte types use one byte per element here and are packed
// only on the wire). Tensors hold codes, never host floats, so every type is first-class.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <span>
#include <utility>
#include <vector>

namespace qconform {

// std::allocator, except that a value-less construct leaves the byte unset (so that
// vector(n) does not zero-fill; vector(n, 0) still does).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

class Codes {
 public:
  Codes() = default;
  // n zero codes of an element type `bits` wide.
  Codes(int bits, size_t n) : width_(WidthFor(bits)), bytes_(n * width_, uint8_t{0}) {}
  // n codes left unset, for a producer that writes every one (no zero-filling pass over a
  // large output).
  enum Uninitialized { kUninitialized };
  Codes(int bits, size_t n, Uninitialized) : width_(WidthFor(bits)), bytes_(n * width_) {}
  Codes(int bits, std::initializer_list<uint32_t> codes) : Codes(bits, codes.size()) {
    size_t i = 0;
    for (uint32_t c : codes) set(i++, c);
  }
  Codes(int bits, std::span<const uint32_t> codes) : Codes(bits, codes.size()) {
    for (size_t i = 0; i < codes.size(); ++i) set(i, codes[i]);
  }

  size_t size() const { return bytes_.size() / width_; }
  bool empty() const { return bytes_.empty(); }

  // Little-endian within an element, whatever the host's order.
  uint32_t operator[](size_t i) const {
    const uint8_t* p = bytes_.data() + i * width_;
    uint32_t v = p[0];
    for (int b = 1; b < width_; ++b) v |= uint32_t{p[b]} << (8 * b);
    return v;
  }

  void set(size_t i, uint32_t code) {
    uint8_t* p = bytes_.data() + i * width_;
    for (int b = 0; b < width_; ++b) p[b] = static_cast<uint8_t>(code >> (8 * b));
  }

  // The storage: width() bytes per element, little-endian (for bulk kernels).
  int width() const { return width_; }
  uint8_t* data() { return bytes_.data(); }
  const uint8_t* data() const { return bytes_.data(); }

  std::vector<uint32_t> ToVector() const {
    std::vector<uint32_t> out(size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = (*this)[i];
    return out;
  }

  friend bool operator==(const Codes& a, const Codes& b) = default;

 private:
  static uint8_t WidthFor(int bits) { return bits <= 8 ? 1 : bits <= 16 ? 2 : 4; }

  uint8_t width_ = 4;
  std::vector<uint8_t, DefaultInitAllocator<uint8_t>> bytes_;
};

}  // namespace qconform
