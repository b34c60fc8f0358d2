// A plugin's optional model runner (qconform_plugin_model_entry, adapters/plugin/qconform_plugin.h)
// gets a graph case as the runtime's users give it a model: the model's bytes, the graph inputs
// by name (initializers stay inside the model), and the shapes the host expects of the outputs;
// its outputs and statuses come back as a plugin's do.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_call.h"
#include "oracle/core/case_builder.h"

namespace qconform {
namespace {

struct Seen {
  std::string model;
  std::vector<std::string> inputs, outputs;
  std::vector<int64_t> expected;
};
Seen seen;
int32_t status = QCONFORM_OK;

// Records what it was given; answers output 0 as a uint8 copy of the first input.
int32_t Record(const void* model, size_t size, const char* const* input_names,
               const qconform_tensor* inputs, int32_t input_count, const char* const* output_names,
               const qconform_tensor* expected, int32_t output_count, qconform_alloc_output alloc,
               void* context, char* message, size_t message_size) {
  seen.model.assign(static_cast<const char*>(model), size);
  seen.inputs.clear();
  seen.outputs.clear();
  for (int32_t k = 0; k < input_count; ++k) seen.inputs.push_back(input_names[k]);
  for (int32_t k = 0; k < output_count; ++k) seen.outputs.push_back(output_names[k]);
  seen.expected.assign(expected[0].dims, expected[0].dims + expected[0].rank);
  if (status != QCONFORM_OK) {
    std::snprintf(message, message_size, "%s", "the importer refused it");
    return status;
  }
  void* y = alloc(context, 0, QCONFORM_UINT8, inputs[0].rank, inputs[0].dims, inputs[0].byte_size);
  std::memcpy(y, inputs[0].data, inputs[0].byte_size);
  return QCONFORM_OK;
}
const std::string kModel = "the model's bytes";
const qconform_model_runner kRunner = {QCONFORM_PLUGIN_ABI, Record};

Case Group() {
  Case c;
  c.id = std::string(kGraphOpType) + "-case";
  c.op_type = kGraphOpType;
  c.input_names = {"x", "x_scale", "x_zero_point"};
  c.inputs = {MakeTensor(DataType::kUint8, {3}, {1, 2, 3}), MakeScalar(DataType::kFloat, 0.5),
              MakeScalar(DataType::kUint8, 1)};
  c.inputs[1]->is_initializer = c.inputs[2]->is_initializer = true;
  return c;
}

TEST(PluginModel, GetsTheModelTheGraphInputsByNameAndTheExpectedShapes) {
  status = QCONFORM_OK;
  const BackendResult r = CallModelRunner(kRunner, kModel, Group(), {"y"}, {{3}});
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(seen.model, kModel);
  EXPECT_EQ(seen.inputs, std::vector<std::string>{"x"}) << "initializers stay in the model";
  EXPECT_EQ(seen.outputs, std::vector<std::string>{"y"});
  EXPECT_EQ(seen.expected, std::vector<int64_t>{3});
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0], MakeTensor(DataType::kUint8, {3}, {1, 2, 3}));
}

TEST(PluginModel, ARefusalAtLoadIsOne) {
  status = QCONFORM_REJECTED_AT_LOAD;
  const BackendResult r = CallModelRunner(kRunner, kModel, Group(), {"y"}, {{3}});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kRejectedAtLoad);
  EXPECT_EQ(r.error->message, "the importer refused it");
}

}  // namespace
}  // namespace qconform
