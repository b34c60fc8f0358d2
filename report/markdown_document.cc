// Markdown, for CI logs and pull-request comments: colours become coloured marks.
#include <sstream>

#include "report/document.h"
#include "report/text.h"

namespace qconform::tools {
namespace {

std::string Mark(const std::string& colour) {
  if (colour == "green") return "🟢 ";
  if (colour == "amber") return "🟠 ";
  if (colour == "red") return "🔴 ";
  return "";
}

class MarkdownDocument : public Document {
 public:
  void Title(const std::string& text) override { out_ << "# " << text << "\n\n"; }
  void Heading(const std::string& text) override { out_ << "## " << text << "\n\n"; }
  void Paragraph(const std::string& text) override { out_ << text << "\n\n"; }
  void Preformatted(const std::string& text) override { out_ << "```\n" << text << "```\n\n"; }
  void Table(const std::vector<std::string>& header,
             const std::vector<std::vector<TableCell>>& rows) override {
    out_ << "| " << Join(header, " | ") << " |\n|";
    for (size_t k = 0; k < header.size(); ++k) out_ << "---|";
    out_ << "\n";
    for (const auto& row : rows) {
      out_ << "|";
      for (const TableCell& c : row) {
        if (!c.text.empty()) out_ << " " << Mark(c.colour) << c.text;
        out_ << " |";
      }
      out_ << "\n";
    }
    out_ << "\n";
  }
  void List(const std::vector<ListItem>& items) override {
    for (const ListItem& i : items) {
      out_ << "- `" << i.code << "` " << i.text;
      if (!i.link.empty()) out_ << " [" << i.link_text << "](" << i.link << ")";
      out_ << "\n";
    }
    out_ << "\n";
  }
  std::string Text() const override { return out_.str(); }

 private:
  std::ostringstream out_;
};

}  // namespace

std::unique_ptr<Document> MakeMarkdownDocument() {
  return std::make_unique<MarkdownDocument>();
}

}  // namespace qconform::tools
