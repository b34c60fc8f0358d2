#!/usr/bin/env python3
"""Checks a report.html as Chromium rendered it (the DOM from --dump-dom), standard library only.

  check_dom.py DOM_FILE REPORT_DIR VERDICT_TEXT CAUSE_TEXT FORBIDDEN...

Asserts: an element id=verdict whose text contains VERDICT_TEXT; a failure group
(<details id=cause-N>) whose summary contains CAUSE_TEXT; the legend (id=legend) with one entry
per outcome category; every in-page link (#x) leads to an element with that id and every
relative link to a file that exists under REPORT_DIR; and none of the FORBIDDEN strings (the
machine's absolute paths) anywhere in the DOM. Prints each check; exits 1 on the first failure.
"""
import html.parser
import os
import sys


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = {}          # id -> tag
        self.hrefs = []
        self.text_of = {}      # id -> text inside it
        self.open_ids = []     # (id, tag) being collected
        self.summaries = {}    # details id -> summary text
        self.details = None
        self.in_summary = False
        self.legend_entries = 0
        self.in_legend = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids[a["id"]] = tag
            self.open_ids.append((a["id"], tag))
            self.text_of[a["id"]] = ""
            if tag == "details":
                self.details = a["id"]
            if a["id"] == "legend":
                self.in_legend = True
        if tag == "summary":
            self.in_summary = True
        if tag == "span" and self.in_legend:
            self.legend_entries += 1
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])

    def handle_endtag(self, tag):
        if tag == "summary":
            self.in_summary = False
        if self.open_ids and self.open_ids[-1][1] == tag:
            ident, _ = self.open_ids.pop()
            if ident == "legend":
                self.in_legend = False

    def handle_data(self, data):
        for ident, _ in self.open_ids:
            self.text_of[ident] += data
        if self.in_summary and self.details:
            self.summaries[self.details] = self.summaries.get(self.details, "") + data


def main(argv):
    if len(argv) < 5:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    dom_file, report_dir, verdict, cause = argv[1:5]
    forbidden = argv[5:]
    text = open(dom_file, encoding="utf-8").read()
    dom = Dom()
    dom.feed(text)

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            sys.exit(1)

    check("verdict" in dom.ids and verdict in dom.text_of["verdict"],
          f"the verdict says '{verdict}': {dom.text_of.get('verdict', '(no #verdict)')[:100]!r}")
    groups = {k: v for k, v in dom.summaries.items() if k.startswith("cause-")}
    check(any(cause in s for s in groups.values()),
          f"a failure group names '{cause}' ({len(groups)} groups)")
    check(dom.legend_entries >= 6, f"the legend has {dom.legend_entries} entries (6 categories)")
    local = [h for h in dom.hrefs if h.startswith("#")]
    missing = [h for h in local if h[1:] not in dom.ids]
    check(local and not missing, f"{len(local)} in-page links, all resolve (missing: {missing[:5]})")
    files = [h for h in dom.hrefs if not h.startswith("#") and "://" not in h]
    absent = [h for h in files if not os.path.exists(os.path.join(report_dir, h))]
    check(files and not absent, f"{len(files)} links to files, all exist (absent: {absent[:5]})")
    found = [f for f in forbidden if f and f in text]
    check(not found, f"no absolute path of this machine in the page (found: {found})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
