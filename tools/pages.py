"""Regenerate the generated parts of three pages from the chapters themselves.

    python tools/pages.py           # rewrite the pages
    python tools/pages.py --check   # exit 1 if a page is out of date (used by the tests)

- book/back/errata.md   every erratum recorded in any chapter's stored outputs, linked to the
                        chapter's ``(erratum-<id>)=`` label;
- book/back/status.md   execution time of every chapter (book/back/timings.json, written by
                        tools/execute.py) and the versions of the packages the book runs on;
- book/front/sources.md the coverage table: which chapter mirrors which notes (read from each
                        chapter's "Mirrors" box).

Only the text between ``<!-- generated:start -->`` and ``<!-- generated:end -->`` is replaced.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from importlib import metadata

import nbformat

from nbtools import ROOT, chapter_notebooks, records

START, END = "<!-- generated:start -->", "<!-- generated:end -->"
ERRATA = ROOT / "book" / "back" / "errata.md"
STATUS = ROOT / "book" / "back" / "status.md"
SOURCES = ROOT / "book" / "front" / "sources.md"
TIMINGS = ROOT / "book" / "back" / "timings.json"
PACKAGES = ["mlnotes", "numpy", "scipy", "scikit-learn", "sympy", "matplotlib", "ipywidgets", "ipykernel",
            "jupyter-book", "sphinx", "myst-nb", "nbval", "nbclient", "pytest", "playwright"]
MIRROR_LINE = re.compile(r"^- `(?P<notes>\d{3}_[0-9a-f]{16}\.txt)`, (?P<where>.+)$", re.M)


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def mirrors(path) -> list[dict]:
    """The entries of a chapter's "Mirrors" box: ``- `notes file`, section (lines a-b)``."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and ":::{admonition} Mirrors" in cell.source:
            return [m.groupdict() for m in MIRROR_LINE.finditer(cell.source)]
    return []


def _doc(path) -> str:
    return "/" + str(path.relative_to(ROOT).with_suffix(""))


def errata_table() -> str:
    rows = []
    for path in chapter_notebooks():
        for rec in records(nbformat.read(path, as_version=4)):
            if rec["kind"] != "erratum":
                continue
            src = rec["source"]
            where = f"`{src['notes']}` {src['section']}, line(s) {src['lines']}".replace("  ", " ")
            fixed = "; ".join(f"${c['latex']}$" if len(c["latex"]) < 90 else "see chapter"
                              for c in rec["corrections"])
            rows.append(f"| {{ref}}`{rec['id']} <erratum-{rec['id'].lower()}>` | {_escape(rec['title'])} | "
                        f"{_escape(where)} | {_escape(fixed)} | {{doc}}`{_doc(path)}` |")
    if not rows:
        return "No erratum has been recorded yet."
    head = ["| id | what the notes get wrong | where in the notes | corrected, machine-checked | fixed in |",
            "|---|---|---|---|---|"]
    return "\n".join(head + rows) + f"\n\n{len(rows)} errata in total."


def status_table() -> str:
    timings = json.loads(TIMINGS.read_text()) if TIMINGS.exists() else {}
    lines = ["| chapter | execution time (s) | claims | errata |", "|---|---|---|---|"]
    for path in chapter_notebooks():
        rel = str(path.relative_to(ROOT))
        recs = records(nbformat.read(path, as_version=4))
        n_claims = sum(r["kind"] == "claim" for r in recs)
        n_errata = sum(r["kind"] == "erratum" for r in recs)
        seconds = f"{timings[rel]:.1f}" if rel in timings else "not measured"
        lines.append(f"| {{doc}}`{_doc(path)}` | {seconds} | {n_claims} | {n_errata} |")
    lines += ["", "| package | version |", "|---|---|"]
    for name in PACKAGES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "not installed"
        lines.append(f"| {name} | {version} |")
    return "\n".join(lines)


def coverage_table() -> str:
    lines = ["| chapter | notes file | section and lines |", "|---|---|---|"]
    for path in chapter_notebooks():
        for entry in mirrors(path):
            lines.append(f"| {{doc}}`{_doc(path)}` | `{entry['notes']}` | {_escape(entry['where'])} |")
    return "\n".join(lines)


def _replace(page, body: str) -> str:
    text = page.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"{page.relative_to(ROOT)} lacks the {START} / {END} markers")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{body}\n{END}{tail}"


def generated() -> dict:
    """The up-to-date text of each generated page."""
    return {ERRATA: _replace(ERRATA, errata_table()),
            STATUS: _replace(STATUS, status_table()),
            SOURCES: _replace(SOURCES, coverage_table())}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check that the pages are up to date")
    args = parser.parse_args(argv)
    stale = []
    for page, text in generated().items():
        if page.read_text() != text:
            stale.append(str(page.relative_to(ROOT)))
            if not args.check:
                page.write_text(text)
    if args.check and stale:
        print(f"out of date: {stale}; run python tools/pages.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
