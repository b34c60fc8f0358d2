#include "oracle/core/broadcast.h"

#include <algorithm>

namespace qconform {

std::optional<std::vector<int64_t>> BroadcastShape(const std::vector<int64_t>& a,
                                                   const std::vector<int64_t>& b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t k = 0; k < out.size(); ++k) {
    const int64_t da = k < out.size() - a.size() ? 1 : a[k - (out.size() - a.size())];
    const int64_t db = k < out.size() - b.size() ? 1 : b[k - (out.size() - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[k] = da == 1 ? db : da;
  }
  return out;
}

size_t BroadcastIndex(const std::vector<int64_t>& shape, const std::vector<int64_t>& out,
                      size_t i) {
  size_t index = 0, stride = 1;
  auto rest = static_cast<int64_t>(i);
  for (size_t k = out.size(); k-- > 0;) {
    const int64_t coordinate = rest % out[k];
    rest /= out[k];
    const size_t j = k + shape.size();
    if (j < out.size()) continue;  // a leading dimension shape does not have
    const int64_t d = shape[j - out.size()];
    index += static_cast<size_t>(d == 1 ? 0 : coordinate) * stride;
    stride *= static_cast<size_t>(d);
  }
  return index;
}

}  // namespace qconform
