#include "report/journal.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "onnx_io/tensor_proto.h"
#include "report/json_value.h"
#include "report/text.h"

namespace qconform::report {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Base64(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

std::string FromBase64(const std::string& text) {
  std::array<int, 256> value;
  value.fill(-1);
  for (size_t k = 0; k < kAlphabet.size(); ++k) value[static_cast<uint8_t>(kAlphabet[k])] = int(k);
  if (text.size() % 4 != 0) throw JsonError("base64 of a length not a multiple of 4");
  std::string out;
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      const bool last_group = i + 4 == text.size();
      if (c == '=' && last_group && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++pad;
        v <<= 6;
        continue;
      }
      const int d = value[static_cast<uint8_t>(c)];
      if (d < 0 || pad) throw JsonError("not base64");
      v = (v << 6) | static_cast<uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 255);
    if (pad < 2) out += static_cast<char>((v >> 8) & 255);
    if (pad < 1) out += static_cast<char>(v & 255);
  }
  return out;
}

RecordedResult Record(const JsonValue& line, const std::string& where) {
  RecordedResult r;
  r.seconds = line.at("seconds").as_number();
  if (line.has("error")) {
    const JsonValue& e = line.at("error");
    const std::optional<ErrorKind> kind = ErrorKindFromName(e.at("kind").as_string());
    if (!kind) throw JsonError("unknown error kind '" + e.at("kind").as_string() + "'");
    r.observed.error = BackendError{*kind, e.at("message").as_string()};
    return r;
  }
  if (line.has("widened")) {
    for (const JsonValue& w : line.at("widened").as_array()) {
      const std::vector<JsonValue>& f = w.as_array();
      if (f.size() != 3) throw JsonError("a widening is [output, original type, carried type]");
      r.observed.widened.push_back({static_cast<size_t>(f[0].as_integer(0, 1 << 20)),
                                    static_cast<int32_t>(f[1].as_integer(0, 1 << 20)),
                                    static_cast<int32_t>(f[2].as_integer(0, 1 << 20))});
    }
  }
  for (const JsonValue& o : line.at("outputs").as_array()) {
    r.observed.outputs.push_back(TensorFromBytes(FromBase64(o.as_string()), where));
  }
  if (line.has("ran")) r.observed.ran = line.at("ran").as_string();
  return r;
}

}  // namespace

std::string JournalLine(const std::string& id, const BackendResult& observed, double seconds) {
  char s[32];
  std::snprintf(s, sizeof s, "%.9g", seconds);
  std::string line = "{\"id\": " + Json(id) + ", \"seconds\": " + s;
  if (observed.error) {
    line += ", \"error\": {\"kind\": " + Json(std::string(ErrorKindName(observed.error->kind))) +
            ", \"message\": " + Json(observed.error->message) + "}";
  } else {
    line += ", \"outputs\": [";
    for (size_t k = 0; k < observed.outputs.size(); ++k) {
      const std::string bytes = TensorBytes(observed.outputs[k], "output_" + std::to_string(k));
      line += (k ? ", \"" : "\"") + Base64(bytes) + "\"";
    }
    line += "]";
    if (!observed.widened.empty()) {
      line += ", \"widened\": [";
      for (size_t k = 0; k < observed.widened.size(); ++k) {
        const Widening& w = observed.widened[k];
        line += (k ? ", [" : "[") + std::to_string(w.output) + ", " +
                std::to_string(w.original_type) + ", " + std::to_string(w.carried_type) + "]";
      }
      line += "]";
    }
    if (!observed.ran.empty()) line += ", \"ran\": " + Json(observed.ran);
  }
  return line + "}";
}

std::map<std::string, RecordedResult> ParseJournal(std::string_view text,
                                                   const std::string& where) {
  std::map<std::string, RecordedResult> records;
  size_t number = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t eol = text.find('\n', start);
    if (eol == std::string_view::npos) break;  // cut off while it was written
    const std::string_view line = text.substr(start, eol - start);
    start = eol + 1;
    const std::string at = where + ":" + std::to_string(++number);
    if (line.empty()) continue;
    try {
      const JsonValue v = ParseJson(line);
      records[v.at("id").as_string()] = Record(v, at);
    } catch (const JsonError& e) {
      throw JsonError(at + ": " + e.what());
    }
  }
  return records;
}

std::map<std::string, RecordedResult> ReadJournal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JsonError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseJournal(text.str(), path);
}

}  // namespace qconform::report
