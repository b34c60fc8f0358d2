// HTML, self-contained (inline style, no scripts, no external files): colours become classes.
#include <sstream>

#include "report/document.h"
#include "report/text.h"

namespace qconform::tools {
namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:80em}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left}"
    ".green{background:#c8f0c8}.amber{background:#ffe4a8}.red{background:#f5b5b5}"
    "code,pre{background:#f4f4f4}";

class HtmlDocument : public Document {
 public:
  void Title(const std::string& text) override {
    out_ << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << Xml(text)
         << "</title>\n<style>" << kStyle << "</style></head><body>\n<h1>" << Xml(text)
         << "</h1>\n";
  }
  void Heading(const std::string& text) override { out_ << "<h2>" << Xml(text) << "</h2>\n"; }
  void Paragraph(const std::string& text) override { out_ << "<p>" << Xml(text) << "</p>\n"; }
  void Preformatted(const std::string& text) override {
    out_ << "<pre>" << Xml(text) << "</pre>\n";
  }
  void Table(const std::vector<std::string>& header,
             const std::vector<std::vector<TableCell>>& rows) override {
    out_ << "<table><tr>";
    for (const std::string& h : header) out_ << "<th>" << Xml(h) << "</th>";
    out_ << "</tr>\n";
    for (const auto& row : rows) {
      out_ << "<tr>";
      for (const TableCell& c : row) {
        out_ << (c.colour.empty() ? "<td>" : "<td class=\"" + c.colour + "\">") << Xml(c.text)
             << "</td>";
      }
      out_ << "</tr>\n";
    }
    out_ << "</table>\n";
  }
  void List(const std::vector<ListItem>& items) override {
    out_ << "<ul>\n";
    for (const ListItem& i : items) {
      out_ << "<li><code>" << Xml(i.code) << "</code> " << Xml(i.text);
      if (!i.link.empty())
        out_ << " <a href=\"" << Xml(i.link) << "\">" << Xml(i.link_text) << "</a>";
      out_ << "</li>\n";
    }
    out_ << "</ul>\n";
  }
  std::string Text() const override { return out_.str() + "</body></html>\n"; }

 private:
  std::ostringstream out_;
};

}  // namespace

std::unique_ptr<Document> MakeHtmlDocument() {
  return std::make_unique<HtmlDocument>();
}

}  // namespace qconform::tools
