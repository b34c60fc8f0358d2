// Cases on disk, in ONNX's backend test-data layout: the reader, the writer and TensorProto
// conversion (each in its own file), for code that uses all three.
#pragma once

#include "onnx_io/case_reader.h"
#include "onnx_io/case_writer.h"
#include "onnx_io/tensor_proto.h"
