// The report as a document, written once against this interface and rendered by each format
// (markdown_document.cc, html_document.cc): the two reports can never drift apart.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace qconform::report {

struct TableCell {
  std::string text;
  std::string css_class;  // HTML's colour class ("cat-wrong-values"), "" for none
  std::string mark;       // Markdown's colour mark ("🔴"), "" for none
  std::string link;       // relative link ("#cell-3"), "" for none
};

struct ListItem {
  std::string code;  // shown as code (a case id)
  std::string text;
  std::string link;  // relative link, "" for none
  std::string link_text;
};

struct LegendEntry {
  std::string css_class, mark, text;
};

class Document {
 public:
  virtual ~Document() = default;
  virtual void Title(const std::string& text) = 0;
  // The verdict, first on the page: good (green) or not (red).
  virtual void Banner(const std::string& text, bool good) = 0;
  virtual void Heading(const std::string& text, const std::string& anchor = "") = 0;
  virtual void Paragraph(const std::string& text) = 0;
  virtual void Preformatted(const std::string& text) = 0;
  virtual void Table(const std::vector<std::string>& header,
                     const std::vector<std::vector<TableCell>>& rows) = 0;
  virtual void List(const std::vector<ListItem>& items) = 0;
  virtual void Legend(const std::vector<LegendEntry>& entries) = 0;
  // A collapsible group (HTML <details>): its summary line, then what follows until EndGroup.
  virtual void BeginGroup(const std::string& summary, const std::string& anchor) = 0;
  virtual void EndGroup() = 0;
  // The whole document so far.
  virtual std::string Text() const = 0;
};

std::unique_ptr<Document> MakeMarkdownDocument();
std::unique_ptr<Document> MakeHtmlDocument();

}  // namespace qconform::report
