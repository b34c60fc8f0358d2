#include "bench/plain_loops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "oracle/core/fast_codec.h"
#include "oracle/core/packing.h"
#include "oracle/core/vector_isa.h"

namespace qconform::bench {
namespace {

using D = DataType;

// A runtime's conversions, written the usual way (round to nearest even, no tables).
uint16_t FloatToHalf(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (x >> 16) & 0x8000u, mag = x & 0x7FFFFFFFu;
  if (mag >= 0x7F800000u)
    return static_cast<uint16_t>(sign | (mag > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (mag >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // >= 65520: inf
  if (mag < 0x38800000u) {                                               // half subnormal
    if (mag < 0x33000000u) return static_cast<uint16_t>(sign);
    const int shift = 126 - static_cast<int>(mag >> 23);
    const uint32_t m = (mag & 0x7FFFFFu) | 0x800000u, q = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    return static_cast<uint16_t>(sign | (q + (rest > half || (rest == half && (q & 1)))));
  }
  const uint32_t h = (mag - 0x38000000u) >> 13, rest = mag & 0x1FFFu;
  return static_cast<uint16_t>(sign | (h + (rest > 0x1000u || (rest == 0x1000u && (h & 1)))));
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0) {
    const float v = static_cast<float>(m) * 0x1p-24f;
    return sign != 0 ? -v : v;
  }
  if (e == 31) return std::bit_cast<float>(sign | 0x7F800000u | (m << 13));
  return std::bit_cast<float>(sign | ((e + 112) << 23) | (m << 13));
}

uint16_t FloatToBfloat16(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

float Bfloat16ToFloat(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

// float -> float8e4m3fn (ONNX Cast): beyond 448 the largest value when saturating, else NaN.
uint8_t FloatToE4M3(float f, bool saturate) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const auto sign = static_cast<uint8_t>((x >> 24) & 0x80u);
  const uint32_t mag = x & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return sign | 0x7Fu;
  if (mag > 0x43E80000u) return sign | (saturate ? 0x7Eu : 0x7Fu);  // beyond 464
  if (mag < 0x3C800000u) {               // below 2^-6: subnormal, units of 2^-9
    if (mag < 0x3A800000u) return sign;  // at most 2^-10, half the smallest: 0
    const int shift = 141 - static_cast<int>(mag >> 23);
    const uint32_t m = (mag & 0x7FFFFFu) | 0x800000u, q = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    return sign | static_cast<uint8_t>(q + (rest > half || (rest == half && (q & 1))));
  }
  const uint32_t e = (mag >> 23) - 120, q = (e << 3) | ((mag >> 20) & 7u);
  const uint32_t rest = mag & 0xFFFFFu;
  return sign | static_cast<uint8_t>(q + (rest > 0x80000u || (rest == 0x80000u && (q & 1))));
}

// The host arrays every kernel reads: x as stored on the wire, scale and zero point as float
// and int per scale element, y in y's storage.
struct Host {
  explicit Host(const Workload& w) : w(w) {
    const Tensor& x_tensor = *w.c.input(0);
    x = PackRaw(ElementTypeOf(static_cast<D>(x_tensor.data_type)), x_tensor.codes);
    if (w.c.inputs.size() > 1) {
      const Tensor& s = *w.c.input(1);
      const ElementType& st = ElementTypeOf(static_cast<D>(s.data_type));
      for (size_t k = 0; k < s.codes.size(); ++k) {
        scale.push_back(static_cast<float>(DecodeDouble(st, s.codes[k])));
      }
      zero_point.assign(scale.size(), 0);
      if (const Tensor* z = w.c.input(2)) {
        const ElementType& zt = ElementTypeOf(static_cast<D>(z->data_type));
        for (size_t k = 0; k < z->codes.size(); ++k) {
          zero_point[k] = static_cast<int>(DecodeDouble(zt, z->codes[k]));
        }
      }
    }
    const ElementType& yt = ElementTypeOf(w.spec.y);
    y.assign(RawDataSize(yt, static_cast<size_t>(w.elements)), 0);
    group = w.spec.layout == Layout::kBlocked ? w.spec.block_size : w.cols;
  }
  const Workload& w;
  std::string x;
  std::vector<float> scale;
  std::vector<int> zero_point;
  std::string y;
  int64_t group;
  const uint8_t* xb() const { return reinterpret_cast<const uint8_t*>(x.data()); }
  uint8_t* yb() { return reinterpret_cast<uint8_t*>(y.data()); }
  uint32_t YCode(int64_t i) const {
    const ElementType& yt = ElementTypeOf(w.spec.y);
    const auto* p = reinterpret_cast<const uint8_t*>(y.data());
    if (yt.bits == 4) return (p[i >> 1] >> ((i & 1) * 4)) & 0xFu;
    uint32_t c = 0;
    std::memcpy(&c, p + i * yt.bytes_per_element(), static_cast<size_t>(yt.bytes_per_element()));
    return c;
  }
  // Calls body(first, last, scale, zero_point) per run of one scale element.
  template <class Body>
  void ForEachGroup(Body body) const {
    for (int64_t r = 0; r < w.rows; ++r) {
      for (int64_t c0 = 0; c0 < w.cols; c0 += group) {
        const int64_t first = r * w.cols + c0, k = ScaleIndexOf(w, first);
        body(first, first + std::min(group, w.cols - c0), scale[static_cast<size_t>(k)],
             zero_point[static_cast<size_t>(k)]);
      }
    }
  }
};

// DequantizeLinear: y = (float)(x - zero_point) * scale, converted to y's type.
template <class ReadX, class StoreY>
class DequantizeLoop : public PlainLoop {
 public:
  DequantizeLoop(const Workload& w, ReadX read, StoreY store) : h_(w), read_(read), store_(store) {}
  // On the same vector path as the oracle's kernels (RunVectorized: AVX2 where the processor
  // has it), so that the ratio compares code, not instruction sets.
  void Run() override {
    RunVectorized([&] {
      const uint8_t* x = h_.xb();
      uint8_t* y = h_.yb();
      h_.ForEachGroup([&](int64_t first, int64_t last, float s, int z) {
        for (int64_t i = first; i < last; ++i)
          store_(y, i, (read_(x, i) - static_cast<float>(z)) * s);
      });
    });
  }
  uint32_t Code(int64_t i) const override { return h_.YCode(i); }

 private:
  Host h_;
  ReadX read_;
  StoreY store_;
};

struct StoreFloat {
  void operator()(uint8_t* y, int64_t i, float v) const { std::memcpy(y + 4 * i, &v, 4); }
};
struct StoreHalf {
  void operator()(uint8_t* y, int64_t i, float v) const {
    const uint16_t h = FloatToHalf(v);
    std::memcpy(y + 2 * i, &h, 2);
  }
};
struct StoreBfloat16 {
  void operator()(uint8_t* y, int64_t i, float v) const {
    const uint16_t b = FloatToBfloat16(v);
    std::memcpy(y + 2 * i, &b, 2);
  }
};

template <class ReadX>
std::unique_ptr<PlainLoop> WithStore(const Workload& w, ReadX read) {
  switch (w.spec.y) {
    case D::kFloat:
      return std::make_unique<DequantizeLoop<ReadX, StoreFloat>>(w, read, StoreFloat{});
    case D::kFloat16:
      return std::make_unique<DequantizeLoop<ReadX, StoreHalf>>(w, read, StoreHalf{});
    default:
      return std::make_unique<DequantizeLoop<ReadX, StoreBfloat16>>(w, read, StoreBfloat16{});
  }
}

// A float8/float4 decoding table, as runtimes keep one.
std::vector<float> DecodingTable(D type) {
  const ElementType& t = ElementTypeOf(type);
  std::vector<float> table(size_t{1} << t.bits);
  for (uint32_t c = 0; c < table.size(); ++c) table[c] = static_cast<float>(DecodeDouble(t, c));
  return table;
}

std::unique_ptr<PlainLoop> Dequantize(const Workload& w) {
  switch (w.spec.x) {
    case D::kInt8:
      return WithStore(w, [](const uint8_t* x, int64_t i) {
        return static_cast<float>(static_cast<int8_t>(x[i]));
      });
    case D::kUint8:
      return WithStore(w, [](const uint8_t* x, int64_t i) { return static_cast<float>(x[i]); });
    case D::kInt16:
      return WithStore(w, [](const uint8_t* x, int64_t i) {
        int16_t v;
        std::memcpy(&v, x + 2 * i, 2);
        return static_cast<float>(v);
      });
    case D::kInt32:
      return WithStore(w, [](const uint8_t* x, int64_t i) {
        int32_t v;
        std::memcpy(&v, x + 4 * i, 4);
        return static_cast<float>(v);
      });
    case D::kInt4:
      return WithStore(w, [](const uint8_t* x, int64_t i) {
        const int v = (x[i >> 1] >> ((i & 1) * 4)) & 0xF;
        return static_cast<float>((v ^ 8) - 8);
      });
    case D::kUint4:
      return WithStore(w, [](const uint8_t* x, int64_t i) {
        return static_cast<float>((x[i >> 1] >> ((i & 1) * 4)) & 0xF);
      });
    case D::kInt2:
      return WithStore(w, [](const uint8_t* x, int64_t i) {
        const int v = (x[i >> 2] >> ((i & 3) * 2)) & 3;
        return static_cast<float>((v ^ 2) - 2);
      });
    case D::kFloat4E2M1: {
      static const std::vector<float> table = DecodingTable(D::kFloat4E2M1);
      return WithStore(
          w, [](const uint8_t* x, int64_t i) { return table[(x[i >> 1] >> ((i & 1) * 4)) & 0xF]; });
    }
    default: {  // the float8 types
      static std::vector<float> tables[32];
      std::vector<float>& table = tables[static_cast<int>(w.spec.x)];
      if (table.empty()) table = DecodingTable(w.spec.x);
      const float* t = table.data();
      return WithStore(w, [t](const uint8_t* x, int64_t i) { return t[x[i]]; });
    }
  }
}

// QuantizeLinear: q = x / scale, then round half to even, add the zero point and clamp, or
// convert to float8. DynamicQuantizeLinear first finds the range and derives the parameters.
template <D X>
class QuantizeLoop : public PlainLoop {
 public:
  explicit QuantizeLoop(const Workload& w) : h_(w) {}
  void Run() override {
    RunVectorized([&] { Loops(); });
  }
  uint32_t Code(int64_t i) const override { return h_.YCode(i); }

 private:
  void Loops() {
    const uint8_t* x = h_.xb();
    uint8_t* y = h_.yb();
    const D yt = h_.w.spec.y;
    const auto read = [x](int64_t i) {
      if constexpr (X == D::kFloat) {
        float v;
        std::memcpy(&v, x + 4 * i, 4);
        return v;
      } else {
        uint16_t b;
        std::memcpy(&b, x + 2 * i, 2);
        return X == D::kFloat16 ? HalfToFloat(b) : Bfloat16ToFloat(b);
      }
    };
    if (h_.w.spec.op_type == std::string("DynamicQuantizeLinear")) {
      float lo = 0, hi = 0;
      for (int64_t i = 0; i < h_.w.elements; ++i) {
        lo = std::min(lo, read(i));
        hi = std::max(hi, read(i));
      }
      const float s = (hi - lo) / 255.0f;
      const int z = static_cast<int>(std::clamp(std::nearbyint(-lo / s), 0.0f, 255.0f));
      for (int64_t i = 0; i < h_.w.elements; ++i) {
        y[i] = static_cast<uint8_t>(std::clamp(std::nearbyint(read(i) / s) + z, 0.0f, 255.0f));
      }
      return;
    }
    const bool saturate = h_.w.spec.saturate != 0;
    h_.ForEachGroup([&](int64_t first, int64_t last, float s, int z) {
      switch (yt) {
        case D::kInt8:
          for (int64_t i = first; i < last; ++i) {
            y[i] = static_cast<uint8_t>(
                static_cast<int8_t>(std::clamp(std::nearbyint(read(i) / s) + z, -128.0f, 127.0f)));
          }
          break;
        case D::kUint8:
          for (int64_t i = first; i < last; ++i) {
            y[i] = static_cast<uint8_t>(std::clamp(std::nearbyint(read(i) / s) + z, 0.0f, 255.0f));
          }
          break;
        case D::kInt4:  // two per byte, the first in the low bits
          for (int64_t i = first; i < last; i += 2) {
            const auto lo4 =
                static_cast<int>(std::clamp(std::nearbyint(read(i) / s) + z, -8.0f, 7.0f));
            const auto hi4 =
                static_cast<int>(std::clamp(std::nearbyint(read(i + 1) / s) + z, -8.0f, 7.0f));
            y[i >> 1] = static_cast<uint8_t>((lo4 & 0xF) | ((hi4 & 0xF) << 4));
          }
          break;
        default:  // float8e4m3fn, zero point 0
          for (int64_t i = first; i < last; ++i) y[i] = FloatToE4M3(read(i) / s, saturate);
          break;
      }
    });
  }

  Host h_;
};

}  // namespace

std::unique_ptr<PlainLoop> MakePlainLoop(const Workload& w) {
  if (w.spec.op_type == std::string("DequantizeLinear")) return Dequantize(w);
  switch (w.spec.x) {
    case D::kFloat:
      return std::make_unique<QuantizeLoop<D::kFloat>>(w);
    case D::kFloat16:
      return std::make_unique<QuantizeLoop<D::kFloat16>>(w);
    case D::kBfloat16:
      return std::make_unique<QuantizeLoop<D::kBfloat16>>(w);
    default:
      throw std::invalid_argument(std::string("no plain loop for ") + w.spec.name);
  }
}

}  // namespace qconform::bench
