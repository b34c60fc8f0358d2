#include "tools/expectations.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace qconform::tools {

Expectations LoadExpectations(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the expectations file");
  Expectations out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Expectation e;
    fields >> e.id >> e.kind;
    std::getline(fields >> std::ws, e.reason);
    if (e.id.empty() || e.kind.empty() || e.reason.empty()) {
      throw std::runtime_error(path + ":" + std::to_string(number) +
                               ": expected '<case-id> <KIND> <reason>'");
    }
    out.push_back(std::move(e));
  }
  return out;
}

const Expectation* FindExpectation(const Expectations& e, const std::string& id) {
  for (const Expectation& x : e) {
    if (x.id == id) return &x;
  }
  return nullptr;
}

}  // namespace qconform::tools
