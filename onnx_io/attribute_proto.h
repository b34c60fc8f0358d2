// An ONNX AttributeProto as a case's Attribute: INT, FLOAT, STRING and INTS by value, any other
// type (a graph, tensors, floats) as Kind::kOther, which the oracle's rules name.
#pragma once

#include "oracle/core/case.h"

namespace onnx {
class AttributeProto;
}  // namespace onnx

namespace qconform {

Attribute AttributeFromProto(const onnx::AttributeProto& a);

}  // namespace qconform
