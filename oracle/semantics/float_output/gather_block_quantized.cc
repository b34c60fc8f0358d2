#include "oracle/semantics/float_output/gather_block_quantized.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/linear/dequantize.h"

namespace qconform {
namespace {

int64_t Product(std::vector<int64_t>::const_iterator begin,
                std::vector<int64_t>::const_iterator end) {
  int64_t n = 1;
  for (auto d = begin; d != end; ++d) n *= *d;
  return n;
}

}  // namespace

GatherBlockSources::GatherBlockSources(const Case& c, const GatherBlockQuantizedPlan& p)
    : data_(*c.input(0)),
      scales_(*c.input(2)),
      zero_points_(p.zero_point_input < 0 ? nullptr
                                          : c.input(static_cast<size_t>(p.zero_point_input))),
      p_(p) {
  const auto& l = p.logical_shape;
  const auto g = static_cast<size_t>(p.gather_axis), q = static_cast<size_t>(p.quantize_axis);
  outer_ = Product(l.begin(), l.begin() + static_cast<ptrdiff_t>(g));
  inner_ = Product(l.begin() + static_cast<ptrdiff_t>(g) + 1, l.end());
  size_ = l[g];
  index_count_ = std::max<int64_t>(1, static_cast<int64_t>(p.indices.size()));
  along_ = l[q];
  z_ = Product(l.begin() + static_cast<ptrdiff_t>(q) + 1, l.end());
  blocks_ = p.scale_shape[q];
  zp_blocks_ = (blocks_ + p.per_byte - 1) / p.per_byte;
  last_ = l.back();
  row_bytes_ = data_.shape.back();
  per_byte_shift_ = std::countr_zero(static_cast<uint64_t>(p.per_byte));
  block_shift_ = std::countr_zero(static_cast<uint64_t>(p.block_size));
  // Absent: 0 in int4 and uint4, 2^(bits - 1) in uint8.
  default_zero_point_ = p.data_type->id == DataType::kUint8 ? 1u << (p.bits - 1) : 0u;
}

GatherSource GatherBlockSources::operator()(int64_t i) const {
  // The output is [outer, indices..., inner]: element i reads data[outer, index, inner].
  const int64_t t = i % inner_, k = (i / inner_) % index_count_,
                outer = i / (inner_ * index_count_);
  const int64_t flat = (outer * size_ + p_.indices[static_cast<size_t>(k)]) * inner_ + t;
  GatherSource s =
      Read({flat, flat / (along_ * z_), flat / z_ % along_, flat % z_, flat / last_, flat % last_});
  s.scale = scale_code(s.scale_index);
  return s;
}

std::vector<int64_t> GatherBlockSources::at(int64_t flat) const {
  std::vector<int64_t> coordinates(p_.logical_shape.size());
  for (size_t d = coordinates.size(); d-- > 0;) {
    coordinates[d] = flat % p_.logical_shape[d];
    flat /= p_.logical_shape[d];
  }
  return coordinates;
}

GatherBlockElement GatherBlockQuantizedElement(const Case& c, const GatherBlockQuantizedPlan& p,
                                               int64_t i) {
  GatherBlockElement e;
  e.source = GatherBlockSources(c, p)(i);
  // uint8 codes of bits < 8 are read as uint8 values (the field's value).
  const DequantizeSteps steps = DequantizeElement(*p.data_type, e.source.code, e.source.zero_point,
                                                  *p.t, e.source.scale, nullptr, *p.t);
  e.value = steps.product;
  e.output = steps.code;
  return e;
}

namespace {

// The double path: (code - zero_point) is an integer of at most 9 bits and a finite scale has at
// most 24 significant bits, so their product is a double exactly, which EncodeDouble rounds once
// (a float32 output: the hardware's conversion, which rounds to nearest even). The scale's block
// is decoded once per run of its elements.
void FastPath(const Case& c, const GatherBlockQuantizedPlan& p, const GatherBlockSources& sources,
              Codes& y) {
  const bool to_float = p.t->id == DataType::kFloat;
  std::array<double, 256> values{};  // every code of data's type (at most 8 bits), decoded once
  for (uint32_t code = 0; code < (1u << p.data_type->bits); ++code) {
    values[code] = DecodeDouble(*p.data_type, code);
  }
  int64_t decoded = -1;
  double scale = 0, zero_point = 0;
  uint32_t zero_point_code = 0;
  sources.ForEach([&](int64_t i, const GatherSource& s) {
    if (s.scale_index != decoded || s.zero_point != zero_point_code) {
      decoded = s.scale_index, zero_point_code = s.zero_point;
      scale = DecodeDouble(*p.t, sources.scale_code(s.scale_index));
      zero_point = values[s.zero_point];
    }
    const auto at = static_cast<size_t>(i);
    if (std::isfinite(scale)) {
      const double product = (values[s.code] - zero_point) * scale;
      if (to_float) {  // four bytes, little-endian as Codes holds them
        const auto code = std::bit_cast<uint32_t>(static_cast<float>(product));
        uint8_t* out = y.data() + 4 * at;
        out[0] = static_cast<uint8_t>(code), out[1] = static_cast<uint8_t>(code >> 8);
        out[2] = static_cast<uint8_t>(code >> 16), out[3] = static_cast<uint8_t>(code >> 24);
        return;
      }
      if (const auto code = EncodeDouble(*p.t, product, Saturation::kNone)) {
        y.set(at, *code);
        return;
      }
    }
    y.set(at, GatherBlockQuantizedElement(c, p, i).output);  // an infinite or NaN scale
  });
}

// The multiprecision path: dyadic integers (DequantizeLinear's DyadicRun), one run per block.
void DyadicPath(const Case& c, const GatherBlockQuantizedPlan& p, const GatherBlockSources& sources,
                Codes& y) {
  std::optional<DyadicRun> run;
  int64_t built = -1;
  uint32_t zero_point_code = 0;
  sources.ForEach([&](int64_t i, const GatherSource& s) {
    if (!run || s.scale_index != built || s.zero_point != zero_point_code) {
      built = s.scale_index, zero_point_code = s.zero_point;
      run.emplace(*p.data_type, s.zero_point, *p.t, sources.scale_code(s.scale_index),
                  std::vector<const ElementType*>{}, *p.t);
    }
    uint32_t code = 0;
    if (!run->Evaluate(s.code, &code)) code = GatherBlockQuantizedElement(c, p, i).output;
    y.set(static_cast<size_t>(i), code);
  });
}

}  // namespace

OutputEvaluation EvaluateGatherBlockQuantized(const Case& c, const OpSchema& schema,
                                              const GatherBlockQuantizedPlan& p,
                                              const EvaluateOptions& options) {
  int64_t count = 1;
  for (int64_t d : p.y_shape) count *= d;
  OutputEvaluation y =
      MakeOutput(schema.op().outputs.at(0), static_cast<int32_t>(p.t->id), p.y_shape,
                 Codes(p.t->bits, static_cast<size_t>(count), Codes::kUninitialized));
  const GatherBlockSources sources(c, p);
  if (options.fast_path) {
    FastPath(c, p, sources, y.exact);
  } else if (!options.reference) {
    DyadicPath(c, p, sources, y.exact);
  } else {
    for (int64_t i = 0; i < count; ++i) {
      y.exact.set(static_cast<size_t>(i), GatherBlockQuantizedElement(c, p, i).output);
    }
  }
  y.describe_inputs = [&c, p](int64_t i) {
    const GatherBlockElement e = GatherBlockQuantizedElement(c, p, i);
    std::string at;
    for (int64_t v : GatherBlockSources(c, p).at(e.source.flat)) {
      at += (at.empty() ? "" : ", ") + std::to_string(v);
    }
    return "data[" + at + "] = " + Decode(*p.data_type, e.source.code).ToString() +
           ", zero point " + Decode(*p.data_type, e.source.zero_point).ToString() + ", scale " +
           Decode(*p.t, e.source.scale).ToString() + " (value " + e.value.ToString() + ")";
  };
  return y;
}

}  // namespace qconform
