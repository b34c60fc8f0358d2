#include "generators/boundary_cells.h"

namespace qconform {

int64_t CellLayout::parameters() const {
  int64_t n = 1;
  for (int64_t d : scale_shape) n *= d;
  return n;
}

int64_t CellLayout::ParameterOf(int64_t i) const {
  if (granularity == Granularity::kPerTensor) return 0;
  const int64_t columns = x_shape[1];
  const int64_t row = i / columns, column = i % columns;
  if (granularity == Granularity::kPerAxis) return row;  // axis -2 of (rows, columns)
  return (row / attributes.at("block_size")) * columns + column;
}

std::vector<CellLayout> CellLayouts(const OpSchema& s, int64_t n) {
  std::vector<CellLayout> out;
  out.push_back({Granularity::kPerTensor, "pt", {n}, {}, {}});
  if (s.allows(Granularity::kPerAxis)) {
    // axis -2 (= 0): a reader that takes a negative axis as the default 1 uses the columns.
    out.push_back({Granularity::kPerAxis, "axis", {3, n / 3}, {3}, {{"axis", -2}}});
  }
  if (s.allows(Granularity::kBlocked)) {
    // Along the first (not the last) axis, rows 0-1, 2-3 and the partial block of row 4.
    out.push_back({Granularity::kBlocked,
                   "blocked",
                   {5, n / 5},
                   {3, n / 5},
                   {{"axis", -2}, {"block_size", 2}}});
  }
  return out;
}

std::vector<uint32_t> FillByParameter(
    const CellLayout& layout, const std::function<std::vector<uint32_t>(int64_t)>& codes_for) {
  int64_t count = 1;
  for (int64_t d : layout.x_shape) count *= d;
  std::map<int64_t, std::vector<uint32_t>> lists;
  std::map<int64_t, size_t> used;
  std::vector<uint32_t> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t p = layout.ParameterOf(i);
    auto it = lists.find(p);
    if (it == lists.end()) it = lists.emplace(p, codes_for(p)).first;
    const std::vector<uint32_t>& codes = it->second;
    out[static_cast<size_t>(i)] = codes.empty() ? 0 : codes[used[p]++ % codes.size()];
  }
  return out;
}

std::string CellFeatures(DataType x, DataType scale, DataType y, const CellLayout& layout,
                         const std::string& boundary) {
  return "type:" + TypeName(x) + ",scale:" + TypeName(scale) + ",y:" + TypeName(y) +
         ",granularity:" + std::string(GranularityName(layout.granularity)) +
         ",boundary:" + boundary;
}

}  // namespace qconform
