#include "oracle/semantics/linear/dequantize_fast.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "oracle/core/fast_codec.h"
#include "oracle/semantics/common/strategy_writer.h"
#include "oracle/semantics/linear/dequantize_kernel.h"

namespace qconform {
namespace {

// out[i] = table[x[i] & mask] for i in [b, e): x one byte per code, table and out T per code.
template <class T>
void Gather(const uint8_t* x, int64_t b, int64_t e, const uint8_t* table, uint32_t mask,
            uint8_t* out) {
  for (int64_t i = b; i < e; ++i) {
    std::memcpy(out + i * static_cast<int64_t>(sizeof(T)), table + (x[i] & mask) * sizeof(T),
                sizeof(T));
  }
}

// out's element i - offset = table[x[i]] for i in [b, e).
void GatherRun(const Codes& x, int64_t b, int64_t e, const Codes& table, uint32_t mask, Codes& out,
               int64_t offset = 0) {
  static_assert(std::endian::native == std::endian::little, "Codes are little-endian");
  uint8_t* const o = out.data() - offset * out.width();
  if (out.width() == 2) return Gather<uint16_t>(x.data(), b, e, table.data(), mask, o);
  return Gather<uint32_t>(x.data(), b, e, table.data(), mask, o);
}

}  // namespace

void DequantizeFast(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                    const ElementType& out, const ScaleIndex& index,
                    const std::vector<const ElementType*>& working, OutputEvaluation& result) {
  const ElementType& xt = *FindElementType(x.data_type);
  const ElementType& st = *FindElementType(scale.data_type);
  const int64_t n = x.element_count();
  const size_t strategies = 1 + working.size();
  const DequantizeKernel kernel(xt, out, working);
  StrategyWriter writer(result, out.bits);

  // Every scale element's value and zero point, decoded once, and the plan they all allow.
  const size_t scales = scale.codes.size();
  std::vector<double> scale_values(scales), zero_point_values(scales, 0.0);
  for (size_t k = 0; k < scales; ++k) {
    scale_values[k] = DecodeDouble(st, scale.codes[k]);
    if (zero_point != nullptr) zero_point_values[k] = DecodeDouble(xt, zero_point->codes[k]);
  }
  const DequantizeKernel::Plan plan = kernel.PlanTensor(zero_point_values, scale_values);

  constexpr int64_t kPiece = 4096;
  const size_t table_size = size_t{1} << (xt.bits <= 8 ? xt.bits : 0);
  std::vector<Codes> scratch;  // per strategy: a piece's codes, or a run's table
  for (size_t j = 0; j < strategies; ++j) {
    scratch.emplace_back(out.bits, static_cast<size_t>(std::max<int64_t>(kPiece, 256)),
                         Codes::kUninitialized);
  }
  Codes gathered(out.bits, static_cast<size_t>(kPiece), Codes::kUninitialized);
  Codes iota(8, table_size);
  for (size_t code = 0; code < table_size; ++code) iota.set(code, static_cast<uint32_t>(code));
  std::vector<uint8_t*> outputs(strategies);
  std::vector<DequantizeKernel::Span> spans;
  const int x_width = x.codes.width(), out_width = result.exact.width();
  // Runs the kernel on `spans` of the codes at `codes` into `exact_target` and the scratch.
  const auto evaluate = [&](const uint8_t* codes, int width, uint8_t* exact_target) {
    outputs[0] = exact_target;
    for (size_t j = 1; j < strategies; ++j) outputs[j] = scratch[j].data();
    kernel.RunSpans(plan, codes, width, spans, outputs.data());
  };
  // A piece: the exact codes in place, and an alternative that already holds its own codes in
  // place too (no copy through scratch: its first difference has been found), or its offsets
  // from the exact codes where the kernel writes them (until one does not fit: then codes).
  const int offsets_alternative = kernel.OffsetsAlternative(plan);
  const auto evaluate_piece = [&](int64_t first, int64_t count) {
    outputs[0] = result.exact.data() + first * out_width;
    for (size_t j = 1; j < strategies; ++j) {
      StrategyOutput& a = result.alternatives[j - 1];
      outputs[j] = plan.computed[j - 1] && a.dense() ? a.codes.data() + first * out_width
                                                     : scratch[j].data();
    }
    const auto run = [&](uint8_t* offsets) {
      return kernel.RunSpans(plan, x.codes.data() + first * x_width, x_width, spans, outputs.data(),
                             offsets);
    };
    bool written_as_offsets = false;
    if (offsets_alternative >= 0 && result.alternatives[offsets_alternative].near) {
      const auto j = static_cast<size_t>(offsets_alternative);
      written_as_offsets = run(result.alternatives[j].offsets.data() + first);
      if (!written_as_offsets) {  // codes from this piece on
        writer.Materialize(j, first);
        outputs[1 + j] = result.alternatives[j].codes.data() + first * out_width;
        run(nullptr);
      }
    } else {
      run(nullptr);
    }
    for (size_t j = 0; j + 1 < strategies; ++j) {
      if (!plan.computed[j]) {
        writer.PutSameAsExact(j, first, count);
      } else if (written_as_offsets && static_cast<int>(j) == offsets_alternative) {
        continue;
      } else if (outputs[1 + j] == scratch[1 + j].data()) {
        writer.PutChunk(j, first, count, scratch[1 + j].data());
      }
    }
  };
  // A table per run pays for narrow x when the kernel cannot run vectorized over x itself
  // (float x read through a table anyway, or the double path) and the run is long.
  const bool tables = xt.bits <= 8 && (xt.is_float() || !plan.float_path);
  for (int64_t b = 0; b < n;) {
    int64_t run_end = n, k = 0;
    index.ForEachRun(b, n, [&](int64_t, int64_t e, int64_t scale_element) {
      run_end = e;
      k = scale_element;
      return false;
    });
    // (A table per short run costs more than the piece's loop: at least 1024 elements.)
    if (tables && static_cast<size_t>(run_end - b) >= std::max<size_t>(2 * table_size, 1024)) {
      spans.assign(1, {0, static_cast<int64_t>(table_size), zero_point_values[k], scale_values[k]});
      evaluate(iota.data(), 1, scratch[0].data());
      const auto mask = static_cast<uint32_t>(table_size - 1);
      GatherRun(x.codes, b, run_end, scratch[0], mask, result.exact);
      for (size_t j = 0; j + 1 < strategies; ++j) {
        const Codes& t = plan.computed[j] ? scratch[1 + j] : scratch[0];
        const size_t bytes = table_size * static_cast<size_t>(out_width);
        if (result.alternatives[j].dense()) {
          GatherRun(x.codes, b, run_end, t, mask, result.alternatives[j].codes);
        } else if (std::memcmp(t.data(), scratch[0].data(), bytes) != 0) {
          // Piece by piece through `gathered`: the writer keeps only what differs.
          for (int64_t first = b; first < run_end; first += kPiece) {
            const int64_t count = std::min(kPiece, run_end - first);
            GatherRun(x.codes, first, first + count, t, mask, gathered, first);
            writer.PutChunk(j, first, count, gathered.data());
          }
        } else {
          writer.PutSameAsExact(j, b, run_end - b);
        }
      }
      b = run_end;
      continue;
    }
    // A piece: consecutive runs (or part of a long one) up to kPiece elements.
    const int64_t first = b;
    spans.clear();
    index.ForEachRun(b, n, [&](int64_t begin, int64_t e, int64_t scale_element) {
      const int64_t end = std::min(e, first + kPiece);
      spans.push_back({begin - first, end - first, zero_point_values[scale_element],
                       scale_values[scale_element]});
      b = end;
      return end == e && end - first < kPiece;
    });
    evaluate_piece(first, b - first);
  }
}

}  // namespace qconform
