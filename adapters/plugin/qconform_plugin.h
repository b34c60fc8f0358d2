/* The qconform plugin ABI, version 1: a backend as a shared library.
 *
 * A plugin exports one C function, qconform_plugin_entry, returning a static description of
 * itself and a function that runs one node. qconform loads it in a separate host process
 * (`qconform-plugin-host LIB.so`, which speaks adapters/PROTOCOL.md), so a plugin that crashes or
 * hangs fails only the case it was running.
 *
 * Tensors use ONNX's raw_data layout: little-endian, row-major, sub-byte types packed with the
 * first element in the lowest bits, float16/bfloat16/float8 as their bit patterns, int64 as
 * 8 bytes and bool as one byte (0 or 1) per element. data_type is the ONNX TensorProto number,
 * named by qconform_data_type below.
 *
 * The ABI is plain C so that a plugin can be written in C, C++, Rust or anything with a C FFI.
 * A later version adds fields only at the end of the structs and raises QCONFORM_PLUGIN_ABI.
 */
#ifndef QCONFORM_PLUGIN_H_
#define QCONFORM_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QCONFORM_PLUGIN_ABI 1

/* ONNX TensorProto.DataType numbers (onnx.proto), for the types the quantization operators use.
 * qconform's own registry (oracle/core/element_type.h) is checked against these in a test. */
typedef enum qconform_data_type {
  QCONFORM_UNDEFINED = 0, /* an absent optional input */
  QCONFORM_FLOAT = 1,
  QCONFORM_UINT8 = 2,
  QCONFORM_INT8 = 3,
  QCONFORM_UINT16 = 4,
  QCONFORM_INT16 = 5,
  QCONFORM_INT32 = 6,
  QCONFORM_INT64 = 7, /* an input only: index tensors */
  QCONFORM_BOOL = 9,  /* an input only: QLinearWhere's condition */
  QCONFORM_FLOAT16 = 10,
  QCONFORM_BFLOAT16 = 16,
  QCONFORM_FLOAT8E4M3FN = 17,
  QCONFORM_FLOAT8E4M3FNUZ = 18,
  QCONFORM_FLOAT8E5M2 = 19,
  QCONFORM_FLOAT8E5M2FNUZ = 20,
  QCONFORM_UINT4 = 21,
  QCONFORM_INT4 = 22,
  QCONFORM_FLOAT4E2M1 = 23,
  QCONFORM_FLOAT8E8M0 = 24,
  QCONFORM_UINT2 = 25,
  QCONFORM_INT2 = 26
} qconform_data_type;

typedef struct qconform_tensor {
  int32_t data_type; /* qconform_data_type; QCONFORM_UNDEFINED: the optional input is absent */
  int32_t rank;
  const int64_t* dims;
  const void* data; /* raw_data layout */
  size_t byte_size;
} qconform_tensor;

typedef enum qconform_attribute_kind {
  QCONFORM_ATTR_INT = 1,
  QCONFORM_ATTR_FLOAT = 2,
  QCONFORM_ATTR_STRING = 3,
  QCONFORM_ATTR_INTS = 7,
} qconform_attribute_kind;

typedef struct qconform_attribute {
  const char* name;
  int32_t kind; /* qconform_attribute_kind */
  int64_t i;
  double f;
  const char* s;
  const int64_t* ints;
  int32_t ints_count;
} qconform_attribute;

typedef struct qconform_node {
  const char* op_type; /* "DequantizeLinear" */
  const char* domain;  /* "" for ai.onnx */
  int64_t opset;       /* the model's opset import for the domain */
  const qconform_attribute* attributes;
  int32_t attribute_count;
  const qconform_tensor* inputs; /* in the operator's input order */
  int32_t input_count;
} qconform_node;

/* Allocates output `index` (in the operator's output order) and returns the buffer to fill, of
 * byte_size bytes, owned by the host; NULL when the request is malformed. */
typedef void* (*qconform_alloc_output)(void* context, int32_t index, int32_t data_type,
                                       int32_t rank, const int64_t* dims, size_t byte_size);

typedef enum qconform_status {
  QCONFORM_OK = 0,
  QCONFORM_REJECTED = 1,    /* the node is invalid for this implementation (when it ran) */
  QCONFORM_UNSUPPORTED = 2, /* the harness cannot carry this node at all */
  /* Refused before running, as a runtime refuses a model it cannot load (no kernel). Hosts
   * older than this value report it as a protocol error. */
  QCONFORM_REJECTED_AT_LOAD = 3
} qconform_status;

typedef struct qconform_plugin {
  int32_t abi_version;      /* QCONFORM_PLUGIN_ABI */
  const char* name;         /* no spaces */
  const char* version;      /* no spaces */
  const char* capabilities; /* free text for reports */
  /* Runs one node. On QCONFORM_REJECTED or QCONFORM_UNSUPPORTED, writes a NUL-terminated reason
   * into message (at most message_size bytes). */
  int32_t (*run)(const qconform_node* node, qconform_alloc_output alloc, void* context,
                 char* message, size_t message_size);
} qconform_plugin;

/* The one exported symbol. */
const qconform_plugin* qconform_plugin_entry(void);

/* Optional, for a runtime that loads whole ONNX models: a plugin that also exports
 * qconform_plugin_model_entry runs graph cases (QDQ groups, docs/semantics.md#d32), which a
 * qconform_node cannot say. run_model gets the case's model.onnx as bytes (its initializers
 * inside), the graph's inputs by name, and the names and shapes the host expects of the outputs
 * (each `expected[k]` with data NULL: a runtime whose tensors come back in another rank may give
 * them this shape when the element count agrees). Outputs are allocated by index, in the order
 * of output_names, as run's are; the status and message as run's. */
typedef struct qconform_model_runner {
  int32_t abi_version; /* QCONFORM_PLUGIN_ABI */
  int32_t (*run_model)(const void* model, size_t model_size, const char* const* input_names,
                       const qconform_tensor* inputs, int32_t input_count,
                       const char* const* output_names, const qconform_tensor* expected,
                       int32_t output_count, qconform_alloc_output alloc, void* context,
                       char* message, size_t message_size);
} qconform_model_runner;

const qconform_model_runner* qconform_plugin_model_entry(void);
typedef const qconform_plugin* (*qconform_plugin_entry_fn)(void);
typedef const qconform_model_runner* (*qconform_plugin_model_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* QCONFORM_PLUGIN_H_ */
