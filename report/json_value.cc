#include "report/json_value.h"

#include <cmath>
#include <cstdlib>

#include "oracle/core/utf8.h"

namespace qconform::report {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  JsonValue Document() {
    JsonValue v = Value(0);
    Space();
    if (i_ != s_.size()) Fail("text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw JsonError("JSON: " + what + " at byte " + std::to_string(i_));
  }
  void Space() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool Eat(char ch) {
    Space();
    if (i_ < s_.size() && s_[i_] == ch) {
      ++i_;
      return true;
    }
    return false;
  }
  void Expect(char ch) {
    if (!Eat(ch)) Fail(std::string("expected '") + ch + "'");
  }
  void Word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) Fail("unknown literal");
    i_ += w.size();
  }

  JsonValue Value(int depth) {
    if (depth > kMaxJsonDepth) Fail("nesting deeper than " + std::to_string(kMaxJsonDepth));
    Space();
    if (i_ >= s_.size()) Fail("unexpected end");
    JsonValue v;
    switch (s_[i_]) {
      case '{':
        ++i_;
        v.type = JsonValue::Type::kObject;
        if (Eat('}')) return v;
        do {
          Space();
          std::string key = String();
          Expect(':');
          v.object[std::move(key)] = Value(depth + 1);
        } while (Eat(','));
        Expect('}');
        return v;
      case '[':
        ++i_;
        v.type = JsonValue::Type::kArray;
        if (Eat(']')) return v;
        do {
          v.array.push_back(Value(depth + 1));
        } while (Eat(','));
        Expect(']');
        return v;
      case '"':
        v.type = JsonValue::Type::kString;
        v.string = String();
        return v;
      case 't':
        Word("true");
        v.type = JsonValue::Type::kBool;
        v.boolean = true;
        return v;
      case 'f':
        Word("false");
        v.type = JsonValue::Type::kBool;
        return v;
      case 'n':
        Word("null");
        return v;
      default:
        v.type = JsonValue::Type::kNumber;
        v.number = Number();
        return v;
    }
  }

  double Number() {
    const size_t start = i_;
    const auto digits = [&] {
      const size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == from) Fail("a digit expected");
    };
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else {
      digits();
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      digits();
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      digits();
    }
    const std::string text(s_.substr(start, i_ - start));
    const double d = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(d)) Fail("a number out of range");
    return d;
  }

  unsigned Hex4() {
    if (i_ + 4 > s_.size()) Fail("a short \\u escape");
    unsigned u = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      u <<= 4;
      if (c >= '0' && c <= '9') {
        u |= static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        u |= static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        u |= static_cast<unsigned>(c - 'A' + 10);
      } else {
        Fail("a bad \\u escape");
      }
    }
    return u;
  }

  static void AppendUtf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string String() {
    if (i_ >= s_.size() || s_[i_] != '"') Fail("a string expected");
    ++i_;
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) Fail("an unterminated string");
      const char c = s_[i_++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) Fail("a control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) Fail("an unterminated escape");
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = Hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair
            if (s_.substr(i_, 2) != "\\u") Fail("a lone surrogate");
            i_ += 2;
            const unsigned lo = Hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) Fail("a lone surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            Fail("a lone surrogate");
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          Fail("an unknown escape");
      }
    }
    if (ValidUtf8(out) != out) Fail("a string that is not UTF-8");
    return out;
  }

  std::string_view s_;
  size_t i_ = 0;
};

const JsonValue& Typed(const JsonValue& v, JsonValue::Type t, const char* what) {
  if (v.type != t) throw JsonError(std::string("JSON: ") + what + " expected");
  return v;
}

}  // namespace

const JsonValue& JsonValue::at(const std::string& key) const {
  Typed(*this, Type::kObject, "an object");
  const auto it = object.find(key);
  if (it == object.end()) throw JsonError("JSON: no \"" + key + "\"");
  return it->second;
}
const std::string& JsonValue::as_string() const {
  return Typed(*this, Type::kString, "a string").string;
}
double JsonValue::as_number() const {
  return Typed(*this, Type::kNumber, "a number").number;
}
int64_t JsonValue::as_integer(int64_t min, int64_t max) const {
  const double d = as_number();
  // Bounds as doubles first: min and max may not be exact doubles, the comparisons still hold.
  if (!(d >= static_cast<double>(min) && d <= static_cast<double>(max)) || d != std::floor(d)) {
    throw JsonError("JSON: an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                    "] expected");
  }
  const int64_t i = d >= 9.2e18 ? max : static_cast<int64_t>(d);
  return i < min ? min : i > max ? max : i;
}

const std::vector<JsonValue>& JsonValue::as_array() const {
  return Typed(*this, Type::kArray, "an array").array;
}

JsonValue ParseJson(std::string_view text) {
  return Parser(text).Document();
}

}  // namespace qconform::report
