// A small command-line parser for the subcommands: flags (--strict), options with a value
// (--out DIR or --out=DIR) and positional arguments. Unknown options are usage errors.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace qconform::tools {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  Args(const std::vector<std::string>& args, std::set<std::string> flags,
       std::set<std::string> options) {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      // Short options with a value, as make and ctest spell them: -j 4 or -j4.
      if (a.size() >= 2 && a[0] == '-' && a[1] != '-' && options.count(a.substr(0, 2))) {
        const std::string name = a.substr(0, 2);
        if (a.size() > 2) {
          values_[name].push_back(a.substr(2));
        } else if (i + 1 < args.size()) {
          values_[name].push_back(args[++i]);
        } else {
          throw UsageError(name + " needs a value");
        }
        continue;
      }
      if (a.rfind("--", 0) != 0) {
        positional_.push_back(a);
        continue;
      }
      const size_t eq = a.find('=');
      const std::string name = a.substr(0, eq);
      if (flags.count(name) && eq == std::string::npos) {
        flags_.insert(name);
      } else if (options.count(name)) {
        if (eq != std::string::npos) {
          values_[name].push_back(a.substr(eq + 1));
        } else if (i + 1 < args.size()) {
          values_[name].push_back(args[++i]);
        } else {
          throw UsageError(name + " needs a value");
        }
      } else {
        throw UsageError("unknown option " + a);
      }
    }
  }

  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string value(const std::string& name, const std::string& fallback = "") const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second.back();
  }
  std::vector<std::string> values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
  }
  int64_t integer(const std::string& name, int64_t fallback) const {
    if (!has(name)) return fallback;
    try {
      size_t used = 0;
      const int64_t v = std::stoll(value(name), &used);
      if (used != value(name).size()) throw std::invalid_argument("trailing");
      return v;
    } catch (const std::exception&) {
      throw UsageError(name + " takes a whole number, not '" + value(name) + "'");
    }
  }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::set<std::string> flags_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

}  // namespace qconform::tools
