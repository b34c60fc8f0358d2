#include "oracle/semantics/qlinear_group/qlinear_pool_windows.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>

#include "oracle/core/conv_shape.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/quotient.h"
#include "oracle/semantics/graph/float_op_kernels.h"
#include "oracle/semantics/linear/quantize_range.h"
#include "oracle/semantics/qlinear_group/qlinear_group_strategies.h"

namespace qconform {
namespace {

std::array<int64_t, 5> Strides(const ConvDims& dims, int64_t c, bool channels_last) {
  const int64_t spatial = dims[0] * dims[1] * dims[2];
  if (channels_last) return {spatial * c, 1, dims[1] * dims[2] * c, dims[2] * c, c};
  return {c * spatial, spatial, dims[1] * dims[2], dims[2], 1};
}

std::optional<Pool> PoolOf(const Case& c, const OpSchema& schema) {
  const Operator& op = schema.op();
  if (op.body.size() != 3) return std::nullopt;
  const bool global = op.body[1].op_type == "GlobalAveragePool";
  if (!global && op.body[1].op_type != "AveragePool") return std::nullopt;
  std::optional<UnaryInputs> inputs = ReadUnaryInputs(c);
  if (!inputs) return std::nullopt;
  Pool p;
  static_cast<UnaryInputs&>(p) = *inputs;
  p.global = global;
  const bool channels_last = ChannelsLastOf(c);
  std::vector<int64_t> shape = p.x->shape;
  ConvGeometryResult geometry;
  if (p.global) {
    if (channels_last) shape = ChannelsFirstShape(shape);
    if (shape.size() < 3) return std::nullopt;
    ConvAttributes a;
    a.kernel_shape = std::vector<int64_t>(shape.begin() + 2, shape.end());
    geometry = MakePoolGeometry(shape, a);
  } else {
    geometry = CasePoolGeometry(c, shape);
    const Attribute* include = c.attribute("count_include_pad");
    p.include_pad = include != nullptr && include->i != 0;
  }
  if (!geometry.geometry) return std::nullopt;
  p.g = *geometry.geometry;
  if (p.g.kernel_size() >= (int64_t{1} << 20)) return std::nullopt;
  p.x_strides = Strides(p.g.in, p.g.c, channels_last);
  p.y_strides = Strides(p.g.out, p.g.c, channels_last);
  // The table: each term m 2^(top - 23), m an integer below 2^24; e the lowest set bit's.
  int e = std::numeric_limits<int>::max();
  double largest = 0;
  for (float term : p.dequantized) {
    largest = std::max(largest, std::fabs(static_cast<double>(term)));
    if (term == 0) continue;
    const int top = std::ilogb(term);
    const auto m =
        static_cast<uint64_t>(std::fabs(std::ldexp(static_cast<double>(term), 23 - top)));
    e = std::min(e, top - 23 + std::countr_zero(m));
  }
  p.e = e == std::numeric_limits<int>::max() ? 0 : e;
  p.unit = std::ldexp(1.0, p.e);
  // Every window's sums exact in a double, and finite in float32.
  const auto window = static_cast<double>(p.g.kernel_size());
  if (std::ldexp(largest, -p.e) * window >= 0x1p53 ||
      largest * window >= static_cast<double>(std::numeric_limits<float>::max())) {
    return std::nullopt;
  }
  const Dyadic ys =
      *DecodeDyadic(ElementTypeOf(DataType::kFloat), std::bit_cast<uint32_t>(p.y_scale));
  p.y_scale_m = ys.m, p.y_scale_e = ys.e;
  p.roundings = RoundingShortcutOf(schema.named_strategies, static_cast<double>(p.y_scale),
                                   static_cast<double>(p.y_zero_point), *p.t);
  for (int64_t k = 0; k <= p.g.kernel_size(); ++k) {
    const auto d = static_cast<double>(k);
    p.per_quotient.push_back(1 / (d * static_cast<double>(p.y_scale)));
    p.per_gap.push_back(1 / (0x1p24 - d));
    p.per_terms.push_back(d * p.unit / (0x1p24 - d) * (1 + 0x1p-19));
    p.per_sum.push_back(p.unit * p.per_quotient.back());  // exact: a power of two
  }
  p.radius_floor = 0x1p-139 * p.per_quotient.at(1) + 0x1p-100;
  for (float term : p.dequantized) {
    p.term.push_back(static_cast<int64_t>(std::ldexp(static_cast<double>(term), -p.e)));
    p.value.push_back(Exact::FromDouble(static_cast<double>(term)));
  }
  for (uint32_t code = 0; code < p.dequantized.size(); ++code) {
    p.centered.push_back(static_cast<int64_t>(DecodeDouble(*p.t, code)) - p.x_zero_point);
  }
  return p;
}

// Output element (n, m, o) of the pool: its window's taps inside X, by X's flat index.
struct Taps {
  std::array<int64_t, 3> begin, end;
  int64_t base, inside;
};
Taps TapsOf(const Pool& p, int64_t n, int64_t m, const ConvDims& o) {
  Taps t{};
  t.base = n * p.x_strides[0] + m * p.x_strides[1];
  t.inside = 1;
  for (size_t d = 0; d < kConvDims; ++d) {
    const int64_t origin = p.g.origin(static_cast<int>(d), o[d]);
    t.begin[d] = std::max<int64_t>(origin, 0);
    t.end[d] = std::min(origin + p.g.kernel[d], p.g.in[d]);
    t.inside *= std::max<int64_t>(t.end[d] - t.begin[d], 0);
  }
  return t;
}
template <class Visit>
void ForEachCode(const Pool& p, const Taps& t, Visit visit) {
  const uint8_t* codes = p.x->codes.data();
  for (int64_t a = t.begin[0]; a < t.end[0]; ++a) {
    for (int64_t b = t.begin[1]; b < t.end[1]; ++b) {
      const int64_t row = t.base + a * p.x_strides[2] + b * p.x_strides[3];
      for (int64_t k = t.begin[2]; k < t.end[2]; ++k) visit(codes[row + k * p.x_strides[4]]);
    }
  }
}

// Every element of the pool in Y's order (`ends`: L and H found for every element, the
// shortcut of FarFromTies not taken), and (where `counted` is given) the elements whose exact
// code with every tap of the kernel counted is another. False where a window lies wholly in
// the padding.
// The window's three integer sums, in locals (a function of its own, so that the loop keeps
// them in registers).
[[gnu::noinline]] Window SumWindow(const Pool& p, const Taps& t) {
  const uint8_t* codes = p.x->codes.data();
  const int64_t* term = p.term.data();
  const std::array<int64_t, 5>& stride = p.x_strides;
  int64_t sum = 0, magnitudes = 0;
  uint64_t bits = 0;
  for (int64_t a = t.begin[0]; a < t.end[0]; ++a) {
    for (int64_t b = t.begin[1]; b < t.end[1]; ++b) {
      const uint8_t* row = codes + t.base + a * stride[2] + b * stride[3];
      for (int64_t k = t.begin[2]; k < t.end[2]; ++k) {
        const uint8_t code = row[k * stride[4]];
        const int64_t v = term[code], m = v < 0 ? -v : v;
        sum += v, magnitudes += m, bits |= static_cast<uint64_t>(m);
      }
    }
  }
  Window w;
  w.sum = sum, w.magnitude = magnitudes, w.bits = bits, w.terms = t.inside;
  return w;
}

std::vector<uint32_t> CodesOf(const Pool& p, const Taps& t) {
  std::vector<uint32_t> codes;
  ForEachCode(p, t, [&](uint32_t k) { codes.push_back(k); });
  return codes;
}

// The sums over the first two spatial dimensions of a row of windows, prefix-summed along the
// third: a window's sum of terms and of their magnitudes is a difference of two entries.
struct RowSums {
  std::vector<int64_t> sum, magnitude;  // [k]: over the row's columns before k
  std::vector<int64_t> centered;        // [k]: the codes less x_zero_point, likewise
  void Fill(const Pool& p, const Taps& t) {
    const auto in = static_cast<size_t>(p.g.in[2]);
    sum.assign(in + 1, 0), magnitude.assign(in + 1, 0), centered.assign(in + 1, 0);
    const uint8_t* codes = p.x->codes.data();
    const int64_t* term = p.term.data();
    const std::array<int64_t, 5>& stride = p.x_strides;
    for (int64_t a = t.begin[0]; a < t.end[0]; ++a) {
      for (int64_t b = t.begin[1]; b < t.end[1]; ++b) {
        const uint8_t* row = codes + t.base + a * stride[2] + b * stride[3];
        for (size_t k = 0; k < in; ++k) {
          const uint8_t code = row[static_cast<int64_t>(k) * stride[4]];
          const int64_t v = term[code];
          sum[k + 1] += v, magnitude[k + 1] += v < 0 ? -v : v;
          centered[k + 1] += p.centered[code];
        }
      }
    }
    for (size_t k = 0; k < in; ++k) {
      sum[k + 1] += sum[k], magnitude[k + 1] += magnitude[k], centered[k + 1] += centered[k];
    }
  }
};

// A finite double as a Dyadic (exactly: 53 significant bits).
Dyadic DyadicOf(double v) {
  int e = 0;
  const double f = std::frexp(std::fabs(v), &e);
  return Dyadic{std::signbit(v), static_cast<uint64_t>(std::ldexp(f, 53)), e - 53};
}

// The chain in exact arithmetic (exact_chain.h): the window's codes less the zero point, summed,
// times x_scale over count * y_scale, rounded once half to even; e's range widened to hold it,
// and it is e's exact code (d42).
// The sum times x_scale is exact in a double (20 by 24 bits), count * y_scale too; their
// quotient through the table of reciprocals is within 2^-51 of the exact one: away from a half
// it rounds as that does, and near one the 128-bit integer quotient decides.
int64_t RealValueCode(const Pool& p, int64_t sum, int64_t count) {
  const double num = static_cast<double>(sum) * p.x_scale;
  const double den = static_cast<double>(count) * static_cast<double>(p.y_scale);
  // per_quotient[count] is 1 / (count * y_scale) rounded once: q is within 2^-51 of num / den.
  const double q = num * p.per_quotient[static_cast<size_t>(count)], nearest = std::nearbyint(q);
  const double gap = std::fabs(std::fabs(q - nearest) - 0.5);
  return gap > 0x1p-30 * std::max(1.0, std::fabs(q))
             ? p.Code(nearest)
             : p.Code(RoundQuotientToInteger(DyadicOf(num), DyadicOf(den)));
}

void AdmitExactChain(const Pool& p, int64_t sum, int64_t count, PoolElement& e) {
  const int64_t code = RealValueCode(p, sum, count);
  e.lo = std::min(e.lo, code), e.hi = std::max(e.hi, code);
  e.exact = code;  // d42: the exact code is the real value's
}

template <class Store>
bool Evaluate(const Pool& p, WindowArithmetic arithmetic, bool ends, Store store,
              std::vector<std::pair<int64_t, uint32_t>>* counted) {
  const ConvGeometry& g = p.g;
  RowSums rows;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t m = 0; m < g.m; ++m) {
      for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
        for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
          Taps taps = TapsOf(p, n, m, {o0, o1, 0});
          const int64_t plane = (taps.end[0] - taps.begin[0]) * (taps.end[1] - taps.begin[1]);
          if (!ends) rows.Fill(p, taps);
          for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
            const int64_t origin = g.origin(2, o2);
            taps.begin[2] = std::max<int64_t>(origin, 0);
            taps.end[2] = std::min(origin + g.kernel[2], g.in[2]);
            taps.inside =
                std::max<int64_t>(plane, 0) * std::max<int64_t>(taps.end[2] - taps.begin[2], 0);
            if (taps.inside == 0) return false;  // the graph says what it makes of it
            const int64_t padded = g.padded_taps({o0, o1, o2});  // ceil_mode's last: fewer
            const int64_t count = p.include_pad ? padded : taps.inside;
            std::optional<PoolElement> e;
            Window w;
            if (!ends) {  // the far-from-tie shortcuts read no grid
              const auto from = static_cast<size_t>(taps.begin[2]),
                         to = static_cast<size_t>(taps.end[2]);
              w.sum = rows.sum[to] - rows.sum[from];
              w.magnitude = rows.magnitude[to] - rows.magnitude[from];
              w.terms = taps.inside, w.count = count;
              if (arithmetic == WindowArithmetic::kDouble) e = FarFromTies(p, w);
              if (arithmetic == WindowArithmetic::kInteger) e = FarFromTiesByRemainder(p, w);
            }
            if (!e) {
              w = SumWindow(p, taps);
              w.count = count;
            }
            if (!e && arithmetic == WindowArithmetic::kDouble) e = DoubleElement(p, w);
            if (!e && arithmetic != WindowArithmetic::kExact) e = IntegerElement(p, w);
            if (!e) e = ByExact(p, w.count, CodesOf(p, taps)).element;
            int64_t centered = 0;  // the codes less the zero point, summed (the real chain)
            if (!p.dequantize_exact) {
              if (ends) {
                ForEachCode(p, taps, [&](uint32_t k) { centered += p.centered[k]; });
              } else {
                centered = rows.centered[static_cast<size_t>(taps.end[2])] -
                           rows.centered[static_cast<size_t>(taps.begin[2])];
              }
              AdmitExactChain(p, centered, w.count, *e);
            }
            const auto i =
                static_cast<size_t>(n * p.y_strides[0] + m * p.y_strides[1] + o0 * p.y_strides[2] +
                                    o1 * p.y_strides[3] + o2 * p.y_strides[4]);
            store(i, *e);
            if (counted == nullptr || w.count == padded) continue;
            // Padding counted: the exact code of the sum over the window's padded taps.
            const int64_t code =
                p.dequantize_exact ? CountedCode(p, w, padded) : RealValueCode(p, centered, padded);
            if (code != e->exact) counted->emplace_back(i, static_cast<uint32_t>(code) & 0xFFu);
          }
        }
      }
    }
  }
  return true;
}

}  // namespace

WindowArithmetic WindowArithmeticOf(const EvaluateOptions& options) {
  return options.fast_path ? WindowArithmetic::kDouble : WindowArithmetic::kInteger;
}

std::optional<std::vector<PoolElement>> PoolWindowElements(const Case& c, const OpSchema& schema,
                                                           WindowArithmetic arithmetic) {
  const std::optional<Pool> p = PoolOf(c, schema);
  std::vector<PoolElement> out;
  if (!p) return std::nullopt;
  out.resize(static_cast<size_t>(p->g.n * p->g.m * p->g.out_size()));
  const auto store = [&](size_t i, const PoolElement& e) { out[i] = e; };
  if (!Evaluate(*p, arithmetic, true, store, nullptr)) return std::nullopt;
  return out;
}

std::optional<OutputEvaluation> EvaluatePoolWindows(const Case& c, const OpSchema& schema,
                                                    const EvaluateOptions& options,
                                                    WindowArithmetic arithmetic) {
  std::optional<Pool> pool = PoolOf(c, schema);
  if (!pool) return std::nullopt;
  const auto p = std::make_shared<const Pool>(std::move(*pool));
  const ConvGeometry& g = p->g;
  const auto size = static_cast<size_t>(g.n * g.m * g.out_size());
  const bool pad_counted = !p->include_pad && !p->global;
  std::vector<std::pair<int64_t, uint32_t>> counted;
  Codes exact(8, size, Codes::kUninitialized), lo(8, size, Codes::kUninitialized),
      hi(8, size, Codes::kUninitialized);
  IndexedValues means;  // the elements whose named roundings need their mean
  bool wider = false;
  const auto store = [&](size_t i, const PoolElement& e) {
    exact.data()[i] = static_cast<uint8_t>(e.exact);  // one byte per code: T is 8 bits
    lo.data()[i] = static_cast<uint8_t>(e.lo);
    hi.data()[i] = static_cast<uint8_t>(e.hi);
    wider = wider || e.lo != e.hi;
    if (!std::isnan(e.mean)) means.emplace_back(static_cast<int64_t>(i), e.mean);
  };
  if (!Evaluate(*p, arithmetic, false, store, pad_counted ? &counted : nullptr)) {
    return std::nullopt;
  }
  OutputEvaluation y = MakeOutput(
      std::string(schema.op().outputs.at(0)), p->x->data_type,
      ChannelsLastOf(c) ? ChannelsLastShape(g.output_shape) : g.output_shape, std::move(exact));
  if (wider) y.range_lo = std::move(lo), y.range_hi = std::move(hi);
  y.describe_range = [p](int64_t i) {
    // Element i's window, found again from its flat index in Y.
    const ConvGeometry& g = p->g;
    const std::array<int64_t, 5> extent{g.n, g.m, g.out[0], g.out[1], g.out[2]};
    std::array<int64_t, 5> at{};
    for (size_t d = 0; d < 5; ++d) at[d] = (i / p->y_strides[d]) % extent[d];
    const Taps taps = TapsOf(*p, at[0], at[1], {at[2], at[3], at[4]});
    std::string rule =
        ByExact(*p, p->include_pad ? g.padded_taps({at[2], at[3], at[4]}) : taps.inside,
                CodesOf(*p, taps))
            .rule;
    if (!p->dequantize_exact) {
      rule +=
          "; the code of the chain in exact arithmetic, every DequantizeLinear unrounded, is "
          "admitted too (a kernel that computes more exactly, d30, d32)";
    }
    return rule;
  };
  std::vector<KnownStrategy> known;
  if (pad_counted) known.push_back({Strategy::kPaddingCounted, std::move(counted)});
  AppendNamedStrategies(c, schema, options, means, p->y_scale, static_cast<double>(p->y_zero_point),
                        y, known);
  return y;
}

}  // namespace qconform
