// The admitted ranges a case directory stores (golden/INTERPRETING.md, contract version 3):
// test_data_set_N/range/lo/output_K.pb and range/hi/output_K.pb, present together, of output K's
// element type and shape, with lo <= hi element by element in the order of the type's values
// (oracle/core/admitted_range.h). Anything else is a CaseIoError naming the file, the output and
// the element: a judge never reads a broken range silently.
#pragma once

#include <optional>
#include <string>

#include "oracle/core/case.h"

namespace qconform {

struct StoredRange {
  Tensor lo, hi;
};

// Output k's stored range in the data set directory `set`, or nullopt when it stores none.
// `output` is output_K.pb as read (nullptr when absent), `name` the graph output's name.
std::optional<StoredRange> ReadStoredRange(const std::string& set, size_t k, const Tensor* output,
                                           const std::string& name);

}  // namespace qconform
