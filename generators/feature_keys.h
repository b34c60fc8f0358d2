// The golden manifest's feature keys (golden/manifest.tsv, column `features`): one registry, as
// test262 keeps its features.txt, so that a case is found by one spelling. Every tag a catalogue
// writes is key:value with a key of this table, once per case, and a value of the key's kind;
// suites/io/feature_keys_test.cc lints the whole catalogue against it and fails on a new key
// or value that is not here, and on a key no case uses.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace qconform {

enum class FeatureValue {
  kElementType,  // an element type's name as `qconform types` prints it: int8, float8e4m3fn
  kRule,         // a rule id of oracle/registry/rules.cc: dq.inputs.count
  kListed,       // one of `values`
  kName,  // a name the catalogue gives (a layout, a boundary class, an op type): [A-Za-z0-9._>^-]
};

struct FeatureKey {
  std::string_view key;
  FeatureValue value;
  std::vector<std::string_view> values;  // kListed only
  std::string_view meaning;
};

std::span<const FeatureKey> AllFeatureKeys();

// The problems of one case's features, each naming the tag and why ("output:float: the key
// `output` is not registered"); empty when they are clean.
std::vector<std::string> LintFeatures(std::string_view features);

// The manifest's word for a granularity the catalogues abbreviate in case ids ("pt" ->
// "per-tensor", "pc" -> "per-channel"); any other name as it is.
std::string GranularityFeature(std::string_view id_part);

}  // namespace qconform
