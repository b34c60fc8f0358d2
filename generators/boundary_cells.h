// What the boundary catalogues share: the cells of an operator (version x input type x output
// type x granularity, as each version's schema allows them), each cell's layout (shape, scale
// shape, a negative axis, a partial last block), and the filling of a case's elements parameter
// by parameter from per-parameter lists of boundary codes.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "generators/catalogue_builder.h"
#include "oracle/registry/schema.h"

namespace qconform {

struct CellLayout {
  Granularity granularity;
  std::string name;  // "pt", "axis", "blocked": in case ids
  std::vector<int64_t> x_shape, scale_shape;
  std::map<std::string, int64_t> attributes;  // axis (negative: counted from the back), block_size
  int64_t parameters() const;
  // The parameter (scale and zero point element) of x element i.
  int64_t ParameterOf(int64_t i) const;
};

// The layouts a schema row allows: per-tensor over `n` elements; per-axis along axis -2 of
// (3, n/3); blocked along axis -2 of (5, n/5) with block size 2 (blocks of 2, 2 and a partial 1).
std::vector<CellLayout> CellLayouts(const OpSchema& s, int64_t n);

// x codes element by element: the elements of parameter p take, in order, the codes of
// `codes_for(p)` (cycled when there are fewer codes than elements).
std::vector<uint32_t> FillByParameter(
    const CellLayout& layout, const std::function<std::vector<uint32_t>(int64_t)>& codes_for);

// The manifest's feature tags of a cell's case: "type:int8,scale:float,y:float,
// granularity:per-axis,boundary:specials".
std::string CellFeatures(DataType x, DataType scale, DataType y, const CellLayout& layout,
                         const std::string& boundary);

}  // namespace qconform
