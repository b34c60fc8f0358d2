// HTML, self-contained (inline style, no scripts, no external files, works offline): colours
// are classes, groups are <details>, anchors are ids.
#include <sstream>

#include "report/cause.h"
#include "report/document.h"
#include "report/text.h"

namespace qconform::report {
namespace {

std::string Style() {
  std::string css =
      "body{font-family:system-ui,sans-serif;margin:1.5em;max-width:90em;color:#222}"
      "h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.6em}"
      "table{border-collapse:collapse;margin:.6em 0}"
      "td,th{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}"
      "th{background:#f0f0f0}td a{color:inherit}"
      ".verdict{font-size:1.3em;font-weight:bold;padding:.6em 1em;border-radius:.3em;margin:.8em 0}"
      ".good{background:#c8f0c8;border:2px solid #2e7d32}"
      ".bad{background:#f9d0cc;border:2px solid #b71c1c}"
      ".legend span{display:inline-block;padding:.15em .6em;margin:.1em .4em .1em 0;"
      "border:1px solid #999}"
      "details{margin:.3em 0;padding:.2em .6em;border-left:4px solid #ccc}"
      "summary{cursor:pointer;font-weight:bold}"
      "code,pre{background:#f4f4f4}pre{padding:.4em;overflow-x:auto;white-space:pre-wrap}";
  for (int k = 0; k < kCategories; ++k) {
    const CategoryStyle& s = StyleOf(static_cast<Category>(k));
    css.append(".").append(s.css_class).append("{background:").append(s.colour);
    css.append(static_cast<Category>(k) == Category::kNoAnswer ? ";color:#fff}" : "}");
  }
  return css;
}

std::string Anchor(const std::string& anchor) {
  return anchor.empty() ? std::string() : std::string(" id=\"").append(Xml(anchor)).append("\"");
}

class HtmlDocument : public Document {
 public:
  void Title(const std::string& text) override {
    out_ << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << Xml(text)
         << "</title>\n<style>" << Style() << "</style></head><body>\n<h1>" << Xml(text)
         << "</h1>\n";
  }
  void Banner(const std::string& text, bool good) override {
    out_ << "<div class=\"verdict " << (good ? "good" : "bad") << "\" id=\"verdict\">" << Xml(text)
         << "</div>\n";
  }
  void Heading(const std::string& text, const std::string& anchor) override {
    out_ << "<h2" << Anchor(anchor) << ">" << Xml(text) << "</h2>\n";
  }
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
        if (c.css_class.empty()) {
          out_ << "<td>";
        } else {
          out_ << "<td class=\"" << c.css_class << "\">";
        }
        if (c.link.empty()) {
          out_ << Xml(c.text);
        } else {
          out_ << "<a href=\"" << Xml(c.link) << "\">" << Xml(c.text) << "</a>";
        }
        out_ << "</td>";
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
  void Legend(const std::vector<LegendEntry>& entries) override {
    out_ << "<p class=\"legend\" id=\"legend\">";
    for (const LegendEntry& e : entries) {
      out_ << "<span class=\"" << e.css_class << "\">" << Xml(e.text) << "</span>";
    }
    out_ << "</p>\n";
  }
  void BeginGroup(const std::string& summary, const std::string& anchor) override {
    out_ << "<details" << Anchor(anchor) << "><summary>" << Xml(summary) << "</summary>\n";
  }
  void EndGroup() override { out_ << "</details>\n"; }
  std::string Text() const override { return out_.str() + "</body></html>\n"; }

 private:
  std::ostringstream out_;
};

}  // namespace

std::unique_ptr<Document> MakeHtmlDocument() {
  return std::make_unique<HtmlDocument>();
}

}  // namespace qconform::report
