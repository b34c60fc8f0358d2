// A small JSON reader for the files qconform reads back (a run's journal, its run.json): the
// whole grammar of RFC 8259, nesting bounded, every error naming the byte offset. Hostile input
// gets a JsonError, never a crash (suites/fuzz).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace qconform::report {

class JsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct JsonValue {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;  // a repeated key: the last one

  // Typed access; JsonError naming `key` when absent or of another type.
  const JsonValue& at(const std::string& key) const;
  const std::string& as_string() const;
  double as_number() const;
  // A number that is an integer within [min, max] (JsonError otherwise): converting anything
  // else would be undefined.
  int64_t as_integer(int64_t min, int64_t max) const;
  const std::vector<JsonValue>& as_array() const;
  bool has(const std::string& key) const { return object.count(key) > 0; }
};

// Nesting deeper than this is refused (a stack is not for attackers to size).
constexpr int kMaxJsonDepth = 64;

// One JSON text (surrounding whitespace allowed). Strings must be valid UTF-8.
JsonValue ParseJson(std::string_view text);

}  // namespace qconform::report
