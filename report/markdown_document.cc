// Markdown, for CI logs and pull-request comments: colours become coloured marks, groups become
// <details> (GitHub and GitLab fold them; a log shows them as text).
#include <sstream>

#include "report/document.h"
#include "report/text.h"

namespace qconform::report {
namespace {

// Table cells and list items are one line each.
std::string Inline(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '|') ch = ' ';
  }
  return s;
}

class MarkdownDocument : public Document {
 public:
  void Title(const std::string& text) override { out_ << "# " << text << "\n\n"; }
  void Banner(const std::string& text, bool good) override {
    out_ << "> " << (good ? "✅ " : "❌ ") << "**" << text << "**\n\n";
  }
  void Heading(const std::string& text, const std::string& anchor) override {
    if (!anchor.empty()) out_ << "<a id=\"" << anchor << "\"></a>\n";
    out_ << "## " << text << "\n\n";
  }
  void Paragraph(const std::string& text) override { out_ << text << "\n\n"; }
  void Preformatted(const std::string& text) override {
    out_ << "```\n" << text << (text.empty() || text.back() == '\n' ? "" : "\n") << "```\n\n";
  }
  void Table(const std::vector<std::string>& header,
             const std::vector<std::vector<TableCell>>& rows) override {
    out_ << "| " << Join(header, " | ") << " |\n|";
    for (size_t k = 0; k < header.size(); ++k) out_ << "---|";
    out_ << "\n";
    for (const auto& row : rows) {
      out_ << "|";
      for (const TableCell& c : row) {
        if (!c.text.empty()) {
          out_ << " ";
          if (!c.mark.empty()) out_ << c.mark << " ";
          if (c.link.empty()) {
            out_ << Inline(c.text);
          } else {
            out_ << "[" << Inline(c.text) << "](" << c.link << ")";
          }
        }
        out_ << " |";
      }
      out_ << "\n";
    }
    out_ << "\n";
  }
  void List(const std::vector<ListItem>& items) override {
    for (const ListItem& i : items) {
      out_ << "- `" << i.code << "` " << Inline(i.text);
      if (!i.link.empty()) out_ << " [" << i.link_text << "](" << i.link << ")";
      out_ << "\n";
    }
    out_ << "\n";
  }
  void Legend(const std::vector<LegendEntry>& entries) override {
    std::vector<std::string> parts;
    for (const LegendEntry& e : entries)
      parts.push_back(std::string(e.mark).append(" ").append(e.text));
    out_ << "Legend: " << Join(parts, " · ") << "\n\n";
  }
  void BeginGroup(const std::string& summary, const std::string& anchor) override {
    out_ << "<details";
    if (!anchor.empty()) out_ << " id=\"" << anchor << "\"";
    out_ << "><summary>" << Xml(summary) << "</summary>\n\n";
  }
  void EndGroup() override { out_ << "</details>\n\n"; }
  std::string Text() const override { return out_.str(); }

 private:
  std::ostringstream out_;
};

}  // namespace

std::unique_ptr<Document> MakeMarkdownDocument() {
  return std::make_unique<MarkdownDocument>();
}

}  // namespace qconform::report
