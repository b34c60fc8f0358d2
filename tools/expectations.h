// Expectation files (test262 style): the known failures of a backend or a test-data source, each
// with its kind and the reason. A listed case that fails with the same kind is an expected
// failure; a different kind, or a pass, is news and fails the run.
//   # comment
//   <case-id> <KIND> <reason, to the end of the line>
#pragma once

#include <string>
#include <vector>

namespace qconform::tools {

struct Expectation {
  std::string id;
  std::string kind;
  std::string reason;
};
using Expectations = std::vector<Expectation>;

// Throws std::runtime_error naming the file and line on a malformed line.
Expectations LoadExpectations(const std::string& path);
const Expectation* FindExpectation(const Expectations& e, const std::string& id);

}  // namespace qconform::tools
