#include "verdict/observation.h"

namespace qconform {
namespace {

struct KindName {
  ErrorKind kind;
  std::string_view name;
};
constexpr KindName kKindNames[] = {
    {ErrorKind::kRejectedAtLoad, "rejected-at-load"},
    {ErrorKind::kRejectedAtRun, "rejected-at-run"},
    {ErrorKind::kUnsupported, "unsupported"},
    {ErrorKind::kCrash, "crash"},
    {ErrorKind::kTimeout, "timeout"},
    {ErrorKind::kProtocolError, "protocol-error"},
};

}  // namespace

std::string_view ErrorKindName(ErrorKind k) {
  for (const KindName& n : kKindNames) {
    if (n.kind == k) return n.name;
  }
  return "?";
}

std::optional<ErrorKind> ErrorKindFromName(std::string_view name) {
  for (const KindName& n : kKindNames) {
    if (n.name == name) return n.kind;
  }
  return std::nullopt;
}

}  // namespace qconform
