// com.microsoft MatMulNBits' golden cases (docs/semantics.md#d30, #d36), built from the
// boundaries:
//   cells     every bits value (2, 4, 8) x A's type (float, float16, bfloat16) x the zero points'
//             form (default 2^(bits-1), packed uint8, unpacked of A's type) x accuracy_level
//             0 and 4: K = 37 (three blocks of 16, the last partial), probe rows (one +-2^j per
//             row, so each element is one dequantized weight, plus bias), two dense dyadic rows
//             and one int8-separating row per column and block (64 and 0.25); every step is
//             exact there or nearly (B = 0 or tiny), so a swapped nibble, a default zero point of
//             0, a scale per column or int8 activations at level 0 is a wrong value; at level 4
//             three more with exact ties of the int8 codes of A (l4-ties: half away is wrong);
//   inexact   scales and A no powers of two: the bound straddles several values;
//   outliers  a block of A holding one large value: the block-int8 function and the float result
//             part by far more than either bound (level 0 rejects it, level 4 admits it);
//   large-k   K = 4096 with cancelling terms: a wide bound around a small value;
//   shapes    A 1-D, A 3-D, scales and zero points 1-D (ONNX Runtime's older models), g_idx;
// and one must-reject case per rule of its own.
#include <algorithm>
#include <cmath>
#include <utility>

#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;

// One case's description; the tensors follow from it.
struct Spec {
  std::string id;
  int64_t bits = 4, block = 16, k = 37, n = 3;
  D t = D::kFloat;
  enum class ZP { kDefault, kPacked, kFloat } zp = ZP::kPacked;
  int64_t level = 0;
  bool bias = true, dyadic = true, flat_parameters = false, g_idx = false;
  bool constants = true;         // B and its parameters initializers, as in a model
  std::vector<int64_t> a_shape;  // empty: probe rows and two dense rows
  double outlier = 0;            // nonzero: A's first entry of each row
  bool zero_first_row = false;   // A's first row all zeros: every term 0, Y = bias exactly
  // Scales odd multiples of t's smallest subnormal (1 to 15 of them); with unpacked zero points
  // of a half (odd blocks), every weight (q - zero_point) * scale is a tie on the subnormal grid.
  bool subnormal_scales = false;
  bool sparse = false;     // A's row r: `outlier` * (1 + 0.37 r) at k = r, zeros elsewhere
  int a_exponent = 0;      // dense rows of A times 2^a_exponent
  int scale_exponent = 0;  // scales times 2^scale_exponent
  // A's rows exact ties of the block-int8 function: per column n, block b and j in {0, 2, 4},
  // a row zero but in block b: 127 2^a_exponent (the block's maxabs: a_scale 2^a_exponent) where
  // column n's weight is nearest its zero point, +-(j + 1/2) 2^a_exponent where farthest.
  bool int8_ties = false;
  // TOSA's dot-product data set (d41), by kind: 1, positive (A in [0, 1), weights >= 0); 5,
  // signed (A in [-1, 1), weights of both signs); scales in [2^-8, 2^-7). -1: none.
  int data_set = -1;
};

int64_t Blocks(const Spec& s) {
  return (s.k + s.block - 1) / s.block;
}

// Codes of [N, K], packed as B: [N, k_blocks, blob_size], low bits first, blocks padded.
Tensor PackWeights(const Spec& s, const std::vector<int64_t>& q) {
  const int64_t kb = Blocks(s), blob = s.block * s.bits / 8;
  std::vector<double> bytes(static_cast<size_t>(s.n * kb * blob), 0);
  for (int64_t n = 0; n < s.n; ++n) {
    for (int64_t k = 0; k < s.k; ++k) {
      const int64_t bit = (k % s.block) * s.bits;
      double& byte = bytes[static_cast<size_t>((n * kb + k / s.block) * blob + bit / 8)];
      byte += static_cast<double>(q[static_cast<size_t>(n * s.k + k)] << (bit % 8));
    }
  }
  return MakeTensor(D::kUint8, {s.n, kb, blob}, bytes);
}

// Zero points [N, k_blocks] packed like B along the blocks: [N, ceil(k_blocks * bits / 8)].
Tensor PackZeroPoints(const Spec& s, const std::vector<int64_t>& zp) {
  const int64_t kb = Blocks(s), row = (kb * s.bits + 7) / 8;
  std::vector<double> bytes(static_cast<size_t>(s.n * row), 0);
  for (int64_t n = 0; n < s.n; ++n) {
    for (int64_t b = 0; b < kb; ++b) {
      const int64_t bit = b * s.bits;
      bytes[static_cast<size_t>(n * row + bit / 8)] +=
          static_cast<double>(zp[static_cast<size_t>(n * kb + b)] << (bit % 8));
    }
  }
  return s.flat_parameters ? MakeTensor(D::kUint8, {s.n * row}, bytes)
                           : MakeTensor(D::kUint8, {s.n, row}, bytes);
}

// Where column n's weights in block b are nearest and farthest from their zero point.
std::pair<int64_t, int64_t> NearestFarthest(const Spec& s, const std::vector<double>& d, int64_t n,
                                            int64_t b) {
  int64_t nearest = b * s.block, farthest = nearest;
  for (int64_t k = b * s.block; k < std::min(s.k, (b + 1) * s.block); ++k) {
    const double x = std::fabs(d[static_cast<size_t>(n * s.k + k)]);
    if (x < std::fabs(d[static_cast<size_t>(n * s.k + nearest)])) nearest = k;
    if (x > std::fabs(d[static_cast<size_t>(n * s.k + farthest)])) farthest = k;
  }
  return {nearest, farthest};
}

// Spec::int8_ties' rows: each ties the int8 code of its farthest entry (j + 1/2, half to even j,
// half away j + 1), which moves the row's value by half a code times that weight, the largest of
// the block, against a maxabs entry on the smallest.
Tensor TieRows(const Spec& s, Prng& p, const std::vector<double>& d) {
  const int64_t kb = Blocks(s), rows = s.n * kb * 3;
  std::vector<double> v(static_cast<size_t>(rows * s.k), 0);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t n = r / (kb * 3), b = r / 3 % kb, j = 2 * (r % 3);
    const auto [nearest, farthest] = NearestFarthest(s, d, n, b);
    double* row = v.data() + r * s.k;
    row[nearest] = std::ldexp(127.0, s.a_exponent);
    if (farthest != nearest) {
      row[farthest] =
          std::ldexp((p.Below(2) ? -1 : 1) * (static_cast<double>(j) + 0.5), s.a_exponent);
    }
  }
  return MakeRoundedTensor(s.t, {rows, s.k}, v);
}

// A: probe rows (row r holds +-2^(r % 3) at k = r), two dense rows of small multiples of 1/8
// (dyadic) or of values no power of two divides (inexact), `outlier` at each row's start; then,
// for the cells, one int8-separating row per column and block: 64 where the block's weight is
// nearest its zero point, 0.25 where it is farthest. Quantized to int8 per block (scale 64/127)
// the 0.25 becomes 0, so the row's value loses 0.25 w: far beyond float16's and bfloat16's
// bounds too. `d` holds q - zero_point per (n, k).
Tensor MakeA(const Spec& s, Prng& p, const std::vector<double>& d) {
  std::vector<int64_t> shape = s.a_shape;
  const int64_t kb = Blocks(s);
  if (s.int8_ties) return TieRows(s, p, d);
  if (s.data_set >= 0) {  // uniform over [0, 1) or [-1, 1), on a 2^-16 grid
    std::vector<double> v(static_cast<size_t>(ShapeElements(shape)));
    for (double& x : v) {
      x = std::ldexp(static_cast<double>(p.Below(s.data_set == 1 ? 65536 : 131072)), -16) -
          (s.data_set == 1 ? 0 : 1);
    }
    return MakeRoundedTensor(s.t, shape, v);
  }
  if (shape.empty()) shape = {s.k + 2 + s.n * kb, s.k};
  std::vector<double> v(static_cast<size_t>(ShapeElements(shape)), 0);
  const int64_t rows = static_cast<int64_t>(v.size()) / s.k;
  for (int64_t r = 0; r < rows; ++r) {
    double* row = v.data() + r * s.k;
    const bool cell = s.a_shape.empty();
    if (cell && r < s.k) {
      row[r] = std::ldexp(r % 2 == 0 ? 1.0 : -1.0, static_cast<int>(r % 3));
      continue;
    }
    if (cell && r >= s.k + 2) {
      const auto [nearest, farthest] =
          NearestFarthest(s, d, (r - s.k - 2) / kb, (r - s.k - 2) % kb);
      row[nearest] = 64;
      if (farthest != nearest) row[farthest] = 0.25;
      continue;
    }
    if (s.sparse) {
      row[r % s.k] = s.outlier * (1 + 0.37 * static_cast<double>(r));
      continue;
    }
    for (int64_t k = 0; k < s.k; ++k) {
      row[k] = std::ldexp(s.dyadic ? (static_cast<double>(p.Below(17)) - 8) / 8
                                   : (static_cast<double>(p.Below(20001)) - 10000) / 3001.7,
                          s.a_exponent);
    }
    if (s.outlier != 0) row[0] = s.outlier;
    if (s.zero_first_row && r == 0) std::fill(row, row + s.k, 0.0);
  }
  return MakeRoundedTensor(s.t, shape, v);
}

class NBitsCatalogue : public CatalogueBuilder {
 public:
  Case Build(const Spec& s) {
    Prng p(CaseSeed(s.id));
    const int64_t kb = Blocks(s), levels = int64_t{1} << s.bits;
    std::vector<int64_t> q(static_cast<size_t>(s.n * s.k)), zp(static_cast<size_t>(s.n * kb));
    for (int64_t& x : q) x = static_cast<int64_t>(p.Below(static_cast<uint64_t>(levels)));
    // Data set 1's weights >= 0: codes at or above the default zero point.
    if (s.data_set == 1) {
      for (int64_t& x : q) x = levels / 2 + x % (levels / 2);
    }
    // Zero points that are no 2^(bits-1) and differ between blocks and columns.
    for (int64_t& x : zp) x = static_cast<int64_t>(p.Below(static_cast<uint64_t>(levels)));
    std::vector<double> scales(static_cast<size_t>(s.n * kb));
    const ElementType& type = ElementTypeOf(s.t);
    const double subnormal = std::ldexp(1.0, -(type.fp.bias + type.fp.mantissa_bits - 1));
    for (double& x : scales) {
      x = s.data_set >= 0      ? std::ldexp(1 + static_cast<double>(p.Below(1024)) / 1024, -8)
          : s.subnormal_scales ? static_cast<double>(2 * p.Below(8) + 1) * subnormal
          : s.dyadic           ? std::ldexp(1.0, -static_cast<int>(p.Below(4)))
                               : 0.001 + static_cast<double>(p.Below(100000)) / 1e6;
      x = std::ldexp(x, s.scale_exponent);
    }
    std::vector<double> d(q.size());  // q - zero_point, as the oracle reads it
    for (int64_t n = 0; n < s.n; ++n) {
      for (int64_t k = 0; k < s.k; ++k) {
        const auto b = static_cast<size_t>(n * kb + k / s.block);
        const double z = s.zp == Spec::ZP::kDefault ? static_cast<double>(levels / 2)
                         : s.zp == Spec::ZP::kFloat ? static_cast<double>(zp[b]) + (b % 2 ? 0.5 : 0)
                                                    : static_cast<double>(zp[b]);
        d[static_cast<size_t>(n * s.k + k)] =
            static_cast<double>(q[static_cast<size_t>(n * s.k + k)]) - z;
      }
    }
    std::vector<std::optional<Tensor>> in = {MakeA(s, p, d), PackWeights(s, q),
                                             s.flat_parameters
                                                 ? MakeRoundedTensor(s.t, {s.n * kb}, scales)
                                                 : MakeRoundedTensor(s.t, {s.n, kb}, scales)};
    if (s.zp == Spec::ZP::kPacked) {
      in.push_back(PackZeroPoints(s, zp));
    } else if (s.zp == Spec::ZP::kFloat) {
      std::vector<double> z(zp.size());
      for (size_t i = 0; i < z.size(); ++i) z[i] = static_cast<double>(zp[i]) + (i % 2 ? 0.5 : 0);
      in.push_back(MakeRoundedTensor(s.t, {s.n, kb}, z));
    } else {
      in.push_back(std::nullopt);
    }
    if (s.g_idx) {
      std::vector<double> g(static_cast<size_t>(s.k));
      for (int64_t k = 0; k < s.k; ++k)
        g[static_cast<size_t>(k)] = static_cast<double>((kb - 1 - k / s.block + k) % kb);
      in.push_back(MakeTensor(D::kInt32, {s.k}, g));
    } else {
      in.push_back(std::nullopt);
    }
    if (s.bias) {
      std::vector<double> b(static_cast<size_t>(s.n));
      for (double& x : b) x = s.dyadic ? static_cast<double>(p.Below(9)) - 4 : 0.37;
      in.push_back(MakeRoundedTensor(s.t, {s.n}, b));
    }
    while (!in.back()) in.pop_back();
    // The weights and their parameters are constants, as in a model (ONNX Runtime prepacks them).
    for (size_t k = 1; k < std::min<size_t>(in.size(), 5); ++k) {
      if (in[k]) in[k]->is_initializer = s.constants;
    }
    Case c = MakeCase("MatMulNBits", 1, std::move(in), {}, "com.microsoft", s.id);
    c.attributes["K"] = Attribute::Int(s.k);
    c.attributes["N"] = Attribute::Int(s.n);
    c.attributes["bits"] = Attribute::Int(s.bits);
    c.attributes["block_size"] = Attribute::Int(s.block);
    if (s.level != 0) c.attributes["accuracy_level"] = Attribute::Int(s.level);
    if (s.data_set >= 0) c.data_set = "tosa-dot-product-" + std::to_string(s.data_set);
    return c;
  }

  static const char* ZPName(Spec::ZP z) {
    return z == Spec::ZP::kPacked ? "packed" : z == Spec::ZP::kFloat ? "unpacked" : "default";
  }
  void Put(const Spec& s, const std::string& boundary, const std::string& decision) {
    Add(Build(s),
        "type:" + TypeName(s.t) + ",bits:" + std::to_string(s.bits) + ",zero_point:" +
            ZPName(s.zp) + ",accuracy_level:" + std::to_string(s.level) + ",boundary:" + boundary,
        decision);
  }

  void Cells() {
    for (const int64_t bits : {2, 4, 8}) {
      for (const D t : {D::kFloat, D::kFloat16, D::kBfloat16}) {
        for (const Spec::ZP zp : {Spec::ZP::kDefault, Spec::ZP::kPacked, Spec::ZP::kFloat}) {
          for (const int64_t level : {0, 4}) {
            Spec s;
            s.bits = bits, s.t = t, s.zp = zp, s.level = level;
            s.id = "mnb1-cell-" + std::to_string(bits) + "bit-" + TypeName(t) + "-" + ZPName(zp) +
                   "-level" + std::to_string(level);
            Put(s, "exact-probes", "d30,d36,d39");
            if (level != 4) continue;
            // Three cases of exact int8 ties per level-4 cell, at a_scale 2^-3, 2^0 and 2^3.
            for (int k = 1; k <= 3; ++k) {
              Spec ties = s;
              ties.int8_ties = true, ties.a_exponent = k == 1 ? -3 : k == 2 ? 0 : 3;
              ties.id = "mnb1-l4-ties-" + std::to_string(k) + "-" + std::to_string(bits) + "bit-" +
                        TypeName(t) + "-" + ZPName(zp);
              Put(ties, "int8-ties", "d36,d39");
            }
          }
        }
      }
    }
  }

  // d41: the long low-precision reductions of 4-bit language models, where the per-element
  // interval is vacuous or nearly so, judged as TOSA judges a dot product over the tensor.
  // Positive sets (1) where every admitted order in A's type passes (float16 to K = 1280,
  // bfloat16 to 256; past that the sequential sum of positive terms stagnates beyond TOSA's
  // bound): an accumulator that rounds to bfloat16 or truncates fails them. Signed sets (5)
  // at the language models' K, where every order passes and only gross errors fail.
  void DataSets() {
    struct Shape {
      D t;
      int set;
      int64_t k, m;
    };
    const Shape shapes[] = {
        {D::kFloat16, 1, 1024, 16}, {D::kFloat16, 1, 1024, 1}, {D::kFloat16, 1, 1280, 16},
        {D::kBfloat16, 1, 128, 16}, {D::kBfloat16, 1, 256, 1}, {D::kBfloat16, 1, 256, 16},
        {D::kFloat16, 5, 4096, 16}, {D::kFloat16, 5, 8192, 1}, {D::kBfloat16, 5, 2048, 16},
        {D::kBfloat16, 5, 4096, 1},
    };
    for (const Shape& shape : shapes) {
      Spec s;
      s.t = shape.t, s.k = shape.k, s.n = 16, s.block = 32, s.zp = Spec::ZP::kDefault;
      s.a_shape = {shape.m, shape.k}, s.data_set = shape.set, s.dyadic = false;
      s.id = "mnb1-tosa-dp" + std::to_string(shape.set) + "-k" + std::to_string(shape.k) + "-m" +
             std::to_string(shape.m) + "-" + TypeName(shape.t);
      Put(s, "tosa-dot-product", "d30,d36,d41");
    }
  }

  void Boundaries() {
    for (const D t : {D::kFloat, D::kFloat16}) {
      Spec s;
      s.t = t, s.dyadic = false, s.a_shape = {3, s.k};
      s.id = "mnb1-inexact-" + TypeName(t);
      Put(s, "bound-straddles", "d30,d36");
    }
    // d40: accuracy_level's least precise evaluation, where its interval differs from level
    // 0's: float16 A at level 1 (float32 asked: narrower), at 3 (bfloat16: wider); float32 A at
    // 2 and 3 (A, the scales and the bias rounded into float16, bfloat16); bfloat16 A at 1
    // (float32) and 2 (float16: its range and subnormals too), and at 0 for comparison.
    const std::pair<D, int64_t> levels[] = {{D::kFloat16, 1}, {D::kFloat16, 3},  {D::kFloat, 2},
                                            {D::kFloat, 3},   {D::kBfloat16, 0}, {D::kBfloat16, 1},
                                            {D::kBfloat16, 2}};
    for (const auto& [t, level] : levels) {
      Spec s;
      s.t = t, s.dyadic = false, s.a_shape = {3, s.k}, s.level = level;
      s.id = "mnb1-level" + std::to_string(level) + "-" + TypeName(t);
      Put(s, "accuracy-level", "d36,d40");
    }
    for (const D t : {D::kFloat, D::kFloat16}) {
      // Row 0 of A all zeros beside weights that are no values of t: every term is an exact 0 in
      // every form, so Y = bias with B = 0 (before: B = gamma_2 |bias| + 4 half-subnormals).
      Spec s;
      s.t = t, s.dyadic = false, s.a_shape = {2, s.k}, s.zero_first_row = true;
      s.id = "mnb1-zero-row-" + TypeName(t);
      Put(s, "exact-zeros", "d30,d36");
    }
    // Issue 68's class 3: weights that round to a subnormal of A's type (ties on its grid:
    // zero points of a half times odd subnormal scales), times |A| near 1,000, lose up to
    // 1,000 half-subnormals each; the old bound allowed 7 (it rejected the dequantize-first value).
    // (bfloat16's u = 2^-8 makes its gamma part as wide as that loss: no case separates there.)
    for (const D t : {D::kFloat, D::kFloat16}) {
      Spec s;
      s.t = t, s.zp = Spec::ZP::kFloat, s.k = 16, s.block = 16, s.n = 2, s.a_shape = {4, 16};
      s.subnormal_scales = true, s.sparse = true, s.outlier = 997, s.bias = false;
      s.id = "mnb1-subnormal-weights-" + TypeName(t);
      Put(s, "subnormal-weights", "d30,d36");
    }
    // Class 2: at level 4 the combined scale a_scale * scale (2^-47 * 2^-93) is a float32
    // subnormal; MLAS forms it first and multiplies the integer dot product by it, so its loss
    // of up to half a subnormal is scaled by that sum (thousands); the old bound allowed 8.
    // (A bfloat16 Y's own rounding, 2^-8 relative, hides that loss.)
    for (const D t : {D::kFloat}) {
      Spec s;
      s.t = t, s.level = 4, s.k = 32, s.block = 32, s.n = 2, s.a_shape = {2, 32};
      s.dyadic = false, s.a_exponent = -40, s.scale_exponent = -84, s.bias = false;
      s.id = "mnb1-level4-subnormal-combined-scale-" + TypeName(t);
      Put(s, "subnormal-combined-scale", "d30,d36");
    }
    for (const int64_t level : {0, 4}) {
      Spec s;
      s.a_shape = {2, 64}, s.k = 64, s.block = 32, s.outlier = 1000, s.level = level;
      s.dyadic = false;
      s.id = "mnb1-outlier-level" + std::to_string(level);
      Put(s, "int8-activations", "d36");
    }
    Spec large;
    large.k = 4096, large.block = 32, large.n = 2, large.a_shape = {1, 4096};
    large.dyadic = false, large.zp = Spec::ZP::kDefault;
    large.id = "mnb1-k4096";
    Put(large, "large-k", "d30,d36");
    DataSets();
    Spec flat;
    flat.flat_parameters = true, flat.a_shape = {flat.k};
    flat.id = "mnb1-flat-parameters-a-1d";
    Put(flat, "legacy-shapes", "d36");
    Spec three;
    three.a_shape = {2, 2, three.k}, three.id = "mnb1-a-3d";
    Put(three, "shapes", "d36");
    Spec g;
    g.g_idx = true, g.id = "mnb1-g-idx";
    Put(g, "g_idx", "d36");
    g.constants = false, g.id = "mnb1-g-idx-graph-inputs";
    Put(g, "g_idx", "d36");
    Spec even;
    even.k = 64, even.block = 64, even.bits = 8, even.bias = false, even.zp = Spec::ZP::kDefault;
    even.id = "mnb1-one-block-no-bias";
    Put(even, "defaults", "d36");
  }
};

}  // namespace

std::vector<GoldenCase> MatMulNBitsGoldenCatalogue(CatalogueParts parts) {
  NBitsCatalogue c;
  if (parts == CatalogueParts::kAll) {
    c.Cells();
    c.Boundaries();
  }
  for (GoldenCase& g : MatMulNBitsRejectCases()) c.cases.push_back(std::move(g));
  return std::move(c.cases);
}

}  // namespace qconform
