#include "onnx_io/file_bytes.h"

#include <google/protobuf/message_lite.h>

#include <fstream>
#include <sstream>

#include "onnx_io/tensor_proto.h"

namespace qconform {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseIoError(path + ": cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw CaseIoError(path + ": cannot write");
}

std::string Serialize(const google::protobuf::MessageLite& m) {
  std::string bytes;
  if (!m.SerializeToString(&bytes)) throw CaseIoError("cannot serialize " + m.GetTypeName());
  return bytes;
}

}  // namespace qconform
