// NumPy's .npy files (format versions 1 to 3: the magic, a header dict, then the data), as
// tensors: little-endian or byte-sized numbers and bool, C order. What `qconform audit --inputs`
// reads beside TensorProto files. Bad input raises CaseIoError naming the file and the field.
#pragma once

#include <string>

#include "oracle/core/case.h"

namespace qconform {

Tensor ReadNpyFile(const std::string& path);

}  // namespace qconform
