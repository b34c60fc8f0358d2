// Whole files as bytes, and protobuf messages to bytes: the three steps every reader and writer
// of onnx_io takes. Failures raise CaseIoError naming the file.
#pragma once

#include <string>

namespace google::protobuf {
class MessageLite;
}  // namespace google::protobuf

namespace qconform {

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& bytes);
std::string Serialize(const google::protobuf::MessageLite& m);

}  // namespace qconform
