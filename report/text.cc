#include "report/text.h"

#include <algorithm>
#include <cstdio>

#include "oracle/core/utf8.h"

namespace qconform::report {

std::string Json(const std::string& text) {
  // Printable ASCII with nothing to escape (ids, most messages) is quoted as it is.
  if (std::all_of(text.begin(), text.end(), [](unsigned char ch) {
        return ch >= 0x20 && ch < 0x7F && ch != '"' && ch != '\\';
      })) {
    std::string out;
    out.reserve(text.size() + 2);
    return out.append(1, '"').append(text).append(1, '"');
  }
  const std::string s = ValidUtf8(text);  // JSON is UTF-8: a backend's bytes may not be
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out + "\"";
}

std::string Xml(const std::string& text) {
  const std::string s = ValidUtf8(text);
  std::string out;
  for (unsigned char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        out += ch < 0x20 && ch != '\n' && ch != '\t' ? ' ' : static_cast<char>(ch);
    }
  }
  return out;
}

std::string Join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string ShellWord(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
                                       "qrstuvwxyz0123456789_./:=+-@,") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string Truncate(const std::string& s, size_t n) {
  return s.size() <= n ? s : s.substr(0, n - 3) + "...";
}

}  // namespace qconform::report
