"""Measure the built site's layout at 1280 px and 390 px (issue 9, "read on any screen") with the same code
the browser test uses (tests/site/test_browser.py: measure_site), and write the numbers as JSON.

    .venv/bin/python tests/site/measure.py --out _build/measure-after.json --shots _build/screenshots/after
    .venv/bin/python tests/site/measure.py --overwide /work/coord/overwide.md   # the list for chapter owners

Per page and width: page height, visible code lines, code lines cut off on the right, pixels of code and
output, display equations wider than their room (column minus equation number), whether those scroll and
have a cue, tables wider than the column, figures (CSS px per figure inch), widgets (disabled, note).
Starts a local server and Chromium, and stops both before it exits.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import test_browser as tb  # noqa: E402  (the measuring code lives in the browser test module)


def overwide_markdown(result: dict, width: int = 1280) -> str:
    """The over-wide display equations per chapter at ``width``, as a Markdown list for chapter owners."""
    lines = [f"# Display equations wider than the text column at {width} px",
             "",
             f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on the built site by "
             "`tests/site/measure.py --overwide` (room = column minus the equation number; widths in CSS px).",
             "Break each with `\\begin{aligned} ... \\end{aligned}` (or split the display) so that it fits; keep "
             "the label. Entries marked *output* come from a code cell's output (a claim's `latex=` string).",
             ""]
    total = 0
    for path, by_width in result.items():
        detail = by_width[str(width)]["detail"]
        eqs = [e for e in detail.get("equations_all", detail["equations"]) if e["overwide"] and tb.must_fit(e)]
        if not eqs:
            continue
        total += len(eqs)
        lines += [f"## {path.removesuffix('.html')} ({len(eqs)})", ""]
        for e in eqs:
            name = f"`{e['label']}` {e['number'] or ''}".strip() if e["label"] else f"`{e['tex']}`"
            where = " *output*" if e["inOutput"] else ""
            lines.append(f"- {name}{where}: {e['width']} px in {e['room']} px"
                         + (f" (TeX: `{e['tex']}`)" if e["label"] else ""))
        lines.append("")
    lines.insert(2, f"Total: {total}.")
    lines.insert(3, "")
    return "\n".join(lines) + "\n"


def figures_markdown(result: dict) -> str:
    """The figures whose text would be shown below the legible size (tb.MIN_FIGURE_TEXT_PX), per chapter."""
    from mlnotes.plotting._style import STYLE

    font_pt = STYLE["font.size"]
    column = {w: max((by_w[str(w)]["summary"]["column_px"] for by_w in result.values()), default=0)
              for w in tb.MEASURE_WIDTHS}
    max_in = {w: column[w] / (tb.MIN_FIGURE_TEXT_PX[w] * 72 / font_pt) for w in tb.MEASURE_WIDTHS}
    lines = ["# Figures scaled below a legible size",
             "",
             f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC by `tests/site/measure.py --figures`. "
             f"The book's style (mlnotes/plotting/_style.py) draws {font_pt} pt text and shows a figure at 96 CSS px "
             "per inch (high-density PNG). A figure wider than the column is shrunk, and its text with it; the "
             f"browser test wants text >= {tb.MIN_FIGURE_TEXT_PX[1280]} CSS px at 1280 px (column "
             f"{column[1280]} px: figures up to {max_in[1280]:.1f} in wide) and >= {tb.MIN_FIGURE_TEXT_PX[390]} "
             f"CSS px on a 390 px phone (column {column[390]} px: figures up to {max_in[390]:.1f} in wide).",
             "",
             f"Rule of thumb: `figsize` width <= {min(max_in.values()):.1f} in; multi-panel figures as a grid "
             "(2 x 2 at `figsize=(7, 5.5)`, `layout=\"constrained\"`) rather than one long row; no `fontsize=` "
             "smaller than the default. Old figures (80 dpi, before the style change) are listed by their size "
             "in inches; re-executing the chapter redraws them at the new style.",
             ""]
    for path, by_width in result.items():
        rows = []
        for width in tb.MEASURE_WIDTHS:
            for i, f in enumerate(by_width[str(width)]["detail"]["figures"]):
                ppi = f.get("css_px_per_inch")
                if ppi and font_pt / 72 * ppi < tb.MIN_FIGURE_TEXT_PX[width]:
                    rows.append(f"- at {width} px: figure {i + 1} in section \"{f['section']}\", "
                                f"{f['natural'] / f['dpi']:.1f} in wide, shown {f['rendered']:.0f} px: "
                                f"text {font_pt / 72 * ppi:.1f} px")
        if rows:
            lines += [f"## {path.removesuffix('.html')}", ""] + rows + [""]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=tb.site_dir(), help="built site (default _build/html)")
    ap.add_argument("--out", type=Path, help="JSON file for the measurements")
    ap.add_argument("--shots", type=Path, help="folder for screenshots of the closing-note pages")
    ap.add_argument("--overwide", type=Path, help="Markdown file for the list of over-wide equations")
    ap.add_argument("--figures", type=Path, help="Markdown file for the list of figures below a legible size")
    ap.add_argument("--pages", nargs="*", help="pages relative to the site (default: every _toc.yml page)")
    args = ap.parse_args(argv)

    site = args.site.resolve()
    if not (site / "index.html").is_file():
        ap.error(f"no built site at {site}")
    pages = args.pages or [p for p in tb.toc_pages() if (site / p).is_file()]
    chromium = tb.find_chromium()
    if chromium is None:
        ap.error("Chromium not found (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with tb.serve(site) as origin, sync_playwright() as pw:
        browser = tb.launch(pw, chromium)
        try:
            result = tb.measure_site(browser, site, origin, pages, shot_dir=args.shots)
        finally:
            browser.close()

    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"site": str(site), "widths": list(tb.MEASURE_WIDTHS), "pages": result},
                                       indent=1) + "\n")
    if args.overwide:
        args.overwide.write_text(overwide_markdown(result))
    if args.figures:
        args.figures.write_text(figures_markdown(result))
    keys = ("height_px", "code_lines_visible", "code_lines_cut", "overwide_equations", "overwide_without_cue",
            "widest_table_px", "min_figure_css_px_per_inch", "widgets_honest", "widgets")
    print("page @width: " + " ".join(keys))
    for path, by_width in result.items():
        for width, data in by_width.items():
            print(f"{path} @{width}: " + " ".join(str(data["summary"][k]) for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
