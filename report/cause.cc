#include "report/cause.h"

#include <array>
#include <cctype>

namespace qconform::report {
namespace {

constexpr std::array<CategoryStyle, kCategories> kStyles = {{
    {"cat-pass", "#c8f0c8", "🟢", "conformant (or refused as the specification requires)"},
    {"cat-harness-limit", "#dddddd", "⚪", "harness limit: the adapter cannot carry the case"},
    {"cat-valid-refused", "#ffd27f", "🟠", "valid case refused (no kernel, or a wrong refusal)"},
    {"cat-invalid-accepted", "#d7b8f5", "🟣", "must-reject case accepted"},
    {"cat-wrong-values", "#f28b82", "🔴", "wrong values"},
    {"cat-no-answer", "#6b1010", "⚫", "crash, timeout or protocol error"},
}};

}  // namespace

std::string Types(const CaseRecord& r) {
  return r.y_type.empty() ? r.x_type : r.x_type + " -> " + r.y_type;
}

std::string CellAnchor(const CaseRecord& r) {
  const int64_t version = r.schema_version();
  const std::string key =
      version ? r.op + " " + std::to_string(version) + " " + Types(r) + " " + r.granularity
              : r.op + " not in opset";
  std::string anchor = "cell-";
  for (const char ch : key) {  // runs of anything but letters, digits and dots become one '-'
    const bool kept = std::isalnum(static_cast<unsigned char>(ch)) || ch == '.';
    if (kept) {
      anchor += ch;
    } else if (anchor.back() != '-') {
      anchor += '-';
    }
  }
  return anchor;
}

Category CategoryOf(Kind k) {
  switch (OutcomeOf(k)) {
    case Outcome::kPass:
      return Category::kPass;
    case Outcome::kSkip:
      return Category::kHarnessLimit;
    case Outcome::kFail:
      break;
  }
  switch (k) {
    case Kind::kRejectedValid:
      return Category::kValidRefused;
    case Kind::kAcceptedInvalid:
      return Category::kInvalidAccepted;
    case Kind::kWrongOutputs:
    case Kind::kAggregateError:  // wrong values in aggregate
      return Category::kWrongValues;
    default:
      return Category::kNoAnswer;
  }
}

const CategoryStyle& StyleOf(Category c) {
  return kStyles[static_cast<size_t>(c)];
}

std::vector<LegendEntry> CategoryLegend() {
  std::vector<LegendEntry> legend;
  for (const CategoryStyle& s : kStyles) {
    legend.push_back({std::string(s.css_class), std::string(s.mark), std::string(s.legend)});
  }
  return legend;
}

namespace {

// A message that starts with the runtime's source location and function, as ONNX Runtime's do
// ("/onnxruntime_src/.../quantize_linear.cc:560 onnxruntime::common::Status
// onnxruntime::DequantizeLinear<T>::Compute(...) const [with T = signed char] x_scale must be
// ..."): the words after them, which are the runtime's message.
// OpenCV's cv::Exception: "OpenCV(4.6.0) <file>:<line>: error: (-210:<category>) <message> in
// function '<f>'", the message sometimes after a "> ... parse error: " of the importer's.
std::string OpenCvMessage(const std::string& detail) {
  size_t at = detail.find(": error: ");
  if (at == std::string::npos) return detail;
  std::string message = detail.substr(at + 9);
  if (!message.empty() && message[0] == '(') {
    const size_t close = message.find(')');
    message = close == std::string::npos ? message : message.substr(close + 1);
  }
  if (const size_t parse = message.find("parse error: "); parse != std::string::npos) {
    message = message.substr(parse + 13);
    if (message.rfind("OpenCV(", 0) == 0) return OpenCvMessage(message);  // nested
  } else if (const size_t in = message.find(" in function "); in != std::string::npos) {
    message = message.substr(0, in);
  }
  at = message.find_first_not_of(' ');
  return at == std::string::npos ? detail : message.substr(at);
}

std::string WithoutSourceLocation(const std::string& detail) {
  if (detail.rfind("OpenCV(", 0) == 0) return OpenCvMessage(detail);
  if (detail.empty() || detail[0] != '/') return detail;
  size_t at = detail.find(' ');
  const size_t colon = detail.rfind(':', at);
  if (at == std::string::npos || colon == std::string::npos) return detail;
  // The function's signature: to the end of its "[with ...]", else of its parameter list.
  const size_t with = detail.find(" [with ", at);
  size_t end = std::string::npos;
  if (with != std::string::npos) {
    end = detail.find(']', with);
  } else if (const size_t open = detail.find('(', at); open != std::string::npos) {
    int depth = 0;
    for (size_t i = open; i < detail.size(); ++i) {
      depth += detail[i] == '(' ? 1 : detail[i] == ')' ? -1 : 0;
      if (depth == 0) {
        end = detail.compare(i + 1, 6, " const") == 0 ? i + 6 : i;
        break;
      }
    }
  }
  if (end == std::string::npos || end + 1 >= detail.size()) return detail;
  at = detail.find_first_not_of(' ', end + 1);
  return at == std::string::npos ? detail : detail.substr(at);
}

// A refusal's words without what differs from case to case: the answer kind before them, and
// everything from the first parenthesis or digit-bearing detail on ("QuantizeLinear(24) node
// with name ..." and "QuantizeLinear(25) ..." are one refusal).
std::string RefusalWords(std::string detail) {
  for (const char* prefix : {"rejected-at-load: ", "rejected-at-run: "}) {
    if (detail.rfind(prefix, 0) == 0) detail = detail.substr(std::string(prefix).size());
  }
  // A runtime's wrapper around its own message ("Non-zero status code ... Status Message: X").
  for (const char* marker : {"Status Message: ", "ERROR_MESSAGE: "}) {
    if (const size_t at = detail.rfind(marker); at != std::string::npos) {
      detail = detail.substr(at + std::string(marker).size());
    }
  }
  detail = WithoutSourceLocation(detail);
  detail = detail.substr(0, detail.find('('));
  if (detail.size() > 100) detail = detail.substr(0, 100) + "...";
  while (!detail.empty() && (detail.back() == ' ' || detail.back() == ',')) detail.pop_back();
  return detail;
}

}  // namespace

// One cause is one behaviour of the backend, whatever versions and x types it spans: the
// groups list those (report/compose.cc), so that one defect reads as one group.
std::string CauseOf(const CaseRecord& r) {
  switch (CategoryOf(r.kind)) {
    case Category::kPass:
      return "";
    case Category::kHarnessLimit: {
      // The adapter's own words, up to their first detail.
      std::string why = r.detail.substr(0, r.detail.find_first_of(";("));
      while (!why.empty() && why.back() == ' ') why.pop_back();
      return "harness limit: " + (why.empty() ? std::string("unsupported") : why);
    }
    case Category::kValidRefused: {
      const std::string why = RefusalWords(r.detail);
      return "refused valid " + r.op +
             (why.empty() ? ": no kernel, or a wrong refusal" : ": " + why);
    }
    case Category::kInvalidAccepted:
      return "accepted must-reject: rule " +
             (r.expected.rfind("reject:", 0) == 0 ? r.expected.substr(7) : r.expected);
    case Category::kWrongValues:
      // A named deviation says how the backend computed; else the nearest admitted strategy hints.
      return "wrong values: " + r.op + " -> " + (r.y_type.empty() ? r.x_type : r.y_type) +
             (!r.deviation.empty() ? ", " + r.deviation
              : r.nearest.empty()  ? ""
                                   : ", nearest strategy " + r.nearest);
    case Category::kNoAnswer:
      return std::string(KindName(r.kind)) + ": " + r.op;
  }
  return "";
}

}  // namespace qconform::report
