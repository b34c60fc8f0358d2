// Text helpers of the report writers: escaping for JSON and XML/HTML, joining, truncating.
#pragma once

#include <string>
#include <vector>

namespace qconform::report {

// s as a JSON string literal, quotes included.
std::string Json(const std::string& s);
// s escaped for XML and HTML text and attribute values.
std::string Xml(const std::string& s);
std::string Join(const std::vector<std::string>& v, const std::string& sep);
// s as one word of a shell command: unchanged when it is plain (letters, digits, _ . / : = + -
// @ ,), else single-quoted.
std::string ShellWord(const std::string& s);
// s cut to n characters, ending in "..." when cut.
std::string Truncate(const std::string& s, size_t n);

}  // namespace qconform::report
