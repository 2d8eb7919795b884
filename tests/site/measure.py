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
        eqs = [e for e in detail.get("equations_all", detail["equations"]) if e["overwide"]]
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=tb.site_dir(), help="built site (default _build/html)")
    ap.add_argument("--out", type=Path, help="JSON file for the measurements")
    ap.add_argument("--shots", type=Path, help="folder for screenshots of the closing-note pages")
    ap.add_argument("--overwide", type=Path, help="Markdown file for the list of over-wide equations")
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
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=tb.CHROMIUM_FLAGS)
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
    keys = ("height_px", "code_lines_visible", "code_lines_cut", "overwide_equations", "overwide_without_cue",
            "widest_table_px", "min_figure_css_px_per_inch", "widgets_honest", "widgets")
    print("page @width: " + " ".join(keys))
    for path, by_width in result.items():
        for width, data in by_width.items():
            print(f"{path} @{width}: " + " ".join(str(data["summary"][k]) for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
