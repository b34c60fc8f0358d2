// What a plugin hands back through alloc_output is checked before it is trusted: these are the
// requests a broken or hostile plugin can make, each refused with its reason before anything is
// allocated (suites/fuzz/fuzz_plugin_outputs.cc tries the rest).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_outputs.h"

namespace qconform {
namespace {

constexpr int32_t kFloat = 1, kInt4 = 22;

std::string Refusal(int32_t index, int32_t type, std::vector<int64_t> dims, size_t bytes) {
  PluginOutputs outputs(1);
  EXPECT_EQ(outputs.Alloc(index, type, static_cast<int32_t>(dims.size()), dims.data(), bytes),
            nullptr);
  std::string error;
  EXPECT_TRUE(outputs.Collect(error).empty());
  return error;
}

TEST(PluginOutputs, GrantsWhatTheTypeAndShapeCallFor) {
  PluginOutputs outputs(2);
  const int64_t dims[] = {2, 3};
  auto* y = static_cast<float*>(outputs.Alloc(0, kFloat, 2, dims, 24));
  ASSERT_NE(y, nullptr);
  for (int i = 0; i < 6; ++i) y[i] = 0.5f * static_cast<float>(i);
  const int64_t five[] = {5};
  ASSERT_NE(outputs.Alloc(1, kInt4, 1, five, 3), nullptr);  // 5 int4 codes pack into 3 bytes
  std::string error;
  const std::vector<Tensor> t = outputs.Collect(error);
  ASSERT_EQ(error, "");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t[1].codes.size(), 5u);
}

TEST(PluginOutputs, RefusesEachBadRequestWithItsReason) {
  EXPECT_NE(Refusal(1, kFloat, {2}, 8).find("output index 1 (the node has 1)"), std::string::npos);
  EXPECT_NE(Refusal(0, 999, {2}, 8).find("unknown data_type 999"), std::string::npos);
  EXPECT_NE(Refusal(0, kFloat, {-1, 4}, 0).find("dimension -1"), std::string::npos);
  EXPECT_NE(Refusal(0, kFloat, {2}, 7).find("7 bytes for 2 elements of float"), std::string::npos);
  // Dimensions whose product overflows int64 (here 2^62 * 8), or exceeds the element bound,
  // never reach an allocation.
  const int64_t huge = int64_t{1} << 62;
  EXPECT_NE(Refusal(0, kFloat, {huge, 8}, 0).find("more than"), std::string::npos);
  EXPECT_NE(Refusal(0, kFloat, {std::numeric_limits<int64_t>::max()}, 0).find("more than"),
            std::string::npos);
}

TEST(PluginOutputs, AnOutputNeverAllocatedIsAnError) {
  PluginOutputs outputs(2);
  const int64_t one[] = {1};
  ASSERT_NE(outputs.Alloc(0, kFloat, 1, one, 4), nullptr);
  std::string error;
  EXPECT_TRUE(outputs.Collect(error).empty());
  EXPECT_EQ(error, "the plugin returned OK without output 1");
}

}  // namespace
}  // namespace qconform
