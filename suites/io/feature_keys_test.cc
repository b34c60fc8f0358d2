// The manifest's feature keys (generators/feature_keys.h): every tag of every golden case is a
// registered key with a value of its kind, once per case, as golden/manifest.tsv holds it (which
// golden.drift keeps equal to what the catalogue builds); every registered key is used; and the
// lint itself names the mistakes it exists for (a synonym, a value of the wrong kind, a key twice).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "generators/feature_keys.h"
#include "onnx_io/manifest.h"

namespace qconform {
namespace {

TEST(FeatureKeys, TheCheckedInManifestIsClean) {
  Manifest manifest;
  MergeManifest(manifest, QCONFORM_GOLDEN_DIR);
  ASSERT_GT(manifest.size(), 1000u);
  int problems = 0;
  std::map<std::string, int> uses;
  for (const auto& [id, e] : manifest) {
    for (const std::string& p : LintFeatures(e.features)) {
      if (++problems <= 20) ADD_FAILURE() << "golden/manifest.tsv " << id << ": " << p;
    }
    for (const FeatureKey& k : AllFeatureKeys()) {
      const std::string key = std::string(k.key) + ":";
      uses[std::string(k.key)] +=
          e.features.starts_with(key) || e.features.find("," + key) != std::string::npos;
    }
  }
  EXPECT_EQ(problems, 0) << "tags that are not in generators/feature_keys.cc";
  for (const auto& [key, n] : uses) EXPECT_GT(n, 0) << "no golden case uses the key " << key;
}

TEST(FeatureKeys, TheLintNamesEachMistake) {
  EXPECT_TRUE(LintFeatures("type:int8,y:float,granularity:per-tensor,zero_point:yes").empty());
  const auto one = [](const char* features) {
    const std::vector<std::string> p = LintFeatures(features);
    return p.size() == 1 ? p[0] : "(" + std::to_string(p.size()) + " problems)";
  };
  EXPECT_EQ(one("type:int8,output:float"),
            "output:float: the key `output` is not registered (generators/feature_keys.cc)");
  EXPECT_EQ(one("type:int9"), "type:int9: not an element type's name");
  EXPECT_EQ(one("granularity:pt"), "granularity:pt: not one of the key's values");
  EXPECT_EQ(one("negative:dq.no.such_rule"), "negative:dq.no.such_rule: not a rule id");
  EXPECT_EQ(one("layout:3x3 s1"), "layout:3x3 s1: not a name ([A-Za-z0-9._>^-])");
  EXPECT_EQ(one("y:int8,y:uint8"), "y:uint8: the key appears twice");
  EXPECT_EQ(one("edges"), "edges: not key:value");
}

}  // namespace
}  // namespace qconform
