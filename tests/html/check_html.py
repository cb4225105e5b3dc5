#!/usr/bin/env python3
"""Structure checks of a page written by `gpuscope report --html` (standard library only).

Always: the page parses with every element closed in order (void elements aside); there is no
<script>, no event handler attribute, no reference to another resource (src, href other than
#anchors, url(), @import, http(s):// outside text); a Content-Security-Policy forbids the rest;
the sections of the report are there; every chart is an <svg class="chart"> with an accessible name.

Options add what a known trace must give:
  --svgs N            exactly N charts
  --step-bars N       the first step chart has N bars (one hover rectangle per bar)
  --max-step-bars N   no step chart has more than N bars
  --max-bytes N       the file is smaller than N bytes
  --has-class C       some element has class C (e.g. nvml: the NVML utilization line)
  --section ID        a section with this id (repeatable; the usual ones are always checked)
  --text T            T appears in the page's text (after unescaping; repeatable)
usage: check_html.py FILE [options]   exit 0 when every check passes, 1 otherwise"""
import argparse
import html.parser
import os
import re
import sys

VOID = {"meta", "link", "br", "hr", "img", "input", "col", "area", "base", "wbr", "source",
        # SVG elements the report writes self-closed
        "line", "path", "circle", "rect"}
SECTIONS = ["verdict", "profiled", "steps", "gpu", "memory", "idle", "kernels", "ops", "copies",
            "rules"]


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.text = [], [], []
        self.ids, self.classes = set(), {}
        self.charts = []  # one dict per <svg class="chart">: aria-label, hover rects
        self.in_style = False
        self.style = ""

    def handle_starttag(self, tag, attrs):
        self._open(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._open(tag, attrs)

    def _open(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.errors.append("a <script> element")
        for k, v in attrs:
            if k.startswith("on"):
                self.errors.append("an event handler attribute %s on <%s>" % (k, tag))
            if k == "src" or (k == "href" and not (v or "").startswith("#")):
                self.errors.append("a reference %s=%r on <%s>" % (k, v, tag))
        if "id" in a:
            self.ids.add(a["id"])
        for c in (a.get("class") or "").split():
            self.classes[c] = self.classes.get(c, 0) + 1
        if tag == "svg":
            if "chart" in (a.get("class") or "").split():
                self.charts.append({"label": a.get("aria-label", ""), "hovers": 0})
            else:
                self.errors.append("an <svg> without class chart")
        if tag == "rect" and a.get("class") == "hover" and self.charts:
            self.charts[-1]["hovers"] += 1
        if tag == "style":
            self.in_style = True

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if tag == "style":
            self.in_style = False
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s> at line %d" %
                               (tag, self.stack[-1] if self.stack else "nothing",
                                self.getpos()[0]))
            return
        self.stack.pop()

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        else:
            self.text.append(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--svgs", type=int)
    ap.add_argument("--step-bars", type=int)
    ap.add_argument("--max-step-bars", type=int)
    ap.add_argument("--max-bytes", type=int)
    ap.add_argument("--has-class", action="append", default=[])
    ap.add_argument("--section", action="append", default=[])
    ap.add_argument("--text", action="append", default=[])
    a = ap.parse_args()

    raw = open(a.file, "rb").read()
    errors = []
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        print("FAIL %s: not UTF-8 (%s)" % (a.file, e))
        return 1
    if not source.startswith("<!DOCTYPE html>"):
        errors.append("no <!DOCTYPE html> first")
    p = Page()
    p.feed(source)
    p.close()
    errors += p.errors
    if p.stack:
        errors.append("unclosed elements at the end: %s" % p.stack)
    if "Content-Security-Policy" not in source or "default-src 'none'" not in source:
        errors.append("no Content-Security-Policy forbidding scripts and requests")
    if re.search(r"url\(|@import", p.style):
        errors.append("the style loads something (url() or @import)")
    # http(s):// may appear in text (a trace's own strings), never in markup.
    markup = re.sub(r">[^<]*<", "><", source)
    if re.search(r"https?://", markup):
        errors.append("an http(s):// reference in the markup")
    for sid in SECTIONS + a.section:
        if sid not in p.ids:
            errors.append("no section with id %r" % sid)
    for i, c in enumerate(p.charts):
        if not c["label"]:
            errors.append("chart %d has no aria-label" % i)
    step_charts = [c for c in p.charts if c["label"].startswith("step time per step")]
    if a.svgs is not None and len(p.charts) != a.svgs:
        errors.append("%d charts, expected %d (%s)" %
                      (len(p.charts), a.svgs, [c["label"] for c in p.charts]))
    if a.step_bars is not None:
        got = step_charts[0]["hovers"] if step_charts else None
        if got != a.step_bars:
            errors.append("the step chart has %s bars, expected %d" % (got, a.step_bars))
    if a.max_step_bars is not None:
        for c in step_charts:
            if c["hovers"] > a.max_step_bars:
                errors.append("a step chart has %d bars (> %d)" % (c["hovers"], a.max_step_bars))
    if a.max_bytes is not None and len(raw) >= a.max_bytes:
        errors.append("%d bytes (>= %d)" % (len(raw), a.max_bytes))
    for c in a.has_class:
        if c not in p.classes:
            errors.append("no element of class %r" % c)
    text = "".join(p.text)
    for t in a.text:
        if t not in text:
            errors.append("the text %r is not in the page" % t)
    for e in errors:
        print("FAIL %s: %s" % (os.path.basename(a.file), e))
    if not errors:
        print("ok %s: %d bytes, %d charts %s" % (os.path.basename(a.file), len(raw), len(p.charts),
                                                 [(c["label"][:24], c["hovers"])
                                                  for c in p.charts]))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
