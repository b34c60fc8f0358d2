#include "onnx_io/npy.h"

#include <onnx/onnx_pb.h>

#include <regex>

#include "onnx_io/file_bytes.h"
#include "onnx_io/tensor_proto.h"

namespace qconform {
namespace {

// NumPy's type strings (without the byte order) and ONNX's data_type numbers.
struct NpyType {
  const char* descr;
  int32_t data_type;
};
constexpr NpyType kNpyTypes[] = {
    {"f4", 1}, {"u1", 2}, {"i1", 3},  {"u2", 4},  {"i2", 5},  {"i4", 6},
    {"i8", 7}, {"b1", 9}, {"f2", 10}, {"f8", 11}, {"u4", 12}, {"u8", 13},
};

std::string Field(const std::string& header, const std::string& key, const std::string& pattern,
                  const std::string& path) {
  std::smatch m;
  const std::regex re("'" + key + "'\\s*:\\s*" + pattern);
  if (!std::regex_search(header, m, re)) {
    throw CaseIoError(path + ": .npy header has no readable '" + key + "': " + header);
  }
  return m[1].str();
}

}  // namespace

Tensor ReadNpyFile(const std::string& path) {
  const std::string bytes = ReadFile(path);
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    throw CaseIoError(path + ": not a .npy file (no \\x93NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3) {
    throw CaseIoError(path + ": .npy format version " + std::to_string(major) + " is not 1-3");
  }
  const auto byte = [&](size_t i) {
    return static_cast<size_t>(static_cast<unsigned char>(bytes[i]));
  };
  const size_t prefix = major == 1 ? 10 : 12;
  if (bytes.size() < prefix) throw CaseIoError(path + ": .npy header is cut short");
  const size_t length = major == 1 ? byte(8) | byte(9) << 8
                                   : byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
  if (bytes.size() < prefix + length) throw CaseIoError(path + ": .npy header is cut short");
  const std::string header = bytes.substr(prefix, length);
  const std::string descr = Field(header, "descr", "'([^']*)'", path);
  if (Field(header, "fortran_order", "(True|False)", path) == "True") {
    throw CaseIoError(path + ": fortran_order True: write the array in C order");
  }
  const std::string shape = Field(header, "shape", "\\(([^)]*)\\)", path);
  onnx::TensorProto p;
  const std::regex digits("\\d+");
  for (std::sregex_iterator it(shape.begin(), shape.end(), digits), end; it != end; ++it) {
    p.add_dims(std::stoll(it->str()));
  }
  const char order = descr.empty() ? '?' : descr[0];
  const std::string kind = descr.size() > 1 ? descr.substr(1) : "";
  int32_t data_type = 0;
  for (const NpyType& t : kNpyTypes) {
    if (kind == t.descr) data_type = t.data_type;
  }
  const bool one_byte = kind.size() == 2 && kind[1] == '1';
  if (data_type == 0 || order == '>' || (order == '|' && !one_byte)) {
    throw CaseIoError(path + ": descr '" + descr +
                      "' is not a little-endian number or bool type qconform reads");
  }
  p.set_data_type(data_type);
  p.set_raw_data(bytes.substr(prefix + length));
  return TensorFromProto(p, path);
}

}  // namespace qconform
