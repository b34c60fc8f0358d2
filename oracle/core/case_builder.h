// Building cases by hand, from values rather than codes: what tests and the golden catalogue use.
// A value that the element type cannot hold exactly is an error, never silently rounded.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform {

// A tensor of `type` holding exactly these values (std::invalid_argument otherwise).
Tensor MakeTensor(DataType type, std::vector<int64_t> shape, const std::vector<double>& values);
Tensor MakeScalar(DataType type, double value);
// A tensor of a float `type` holding each value rounded to the type once (to nearest, ties to
// even): for building cases from values that need not be the type's.
Tensor MakeRoundedTensor(DataType type, std::vector<int64_t> shape,
                         const std::vector<double>& values);
Tensor MakeTensorFromCodes(DataType type, std::vector<int64_t> shape,
                           const std::vector<uint32_t>& codes);

// A single-node case. `attributes` are set on the node (absent ones are left absent).
Case MakeCase(std::string op_type, int64_t opset, std::vector<std::optional<Tensor>> inputs,
              const std::map<std::string, int64_t>& attributes = {}, std::string domain = "",
              std::string id = "");

}  // namespace qconform
