"""Where the test command's time goes: per stage, per chapter, and projected to the whole course.

    python tools/stages.py                      # reads _build/test-report.xml and _build/test-report-unit.xml
    python tools/stages.py a.xml b.xml --chapters 33 --workers 2 --alongside 55 --wall 600

Reads the JUnit XML reports of pytest runs (per test: setup + call + teardown seconds) and sums the time of
each stage: the library's unit tests, nbval over the chapter notebooks, the browser test of the built site,
the JupyterLab test, and the rest. A chapter's share is the time of every test that names its notebook or
its page (nbval, the browser tests of its page); the projection to ``--chapters`` chapters is, with the
measured ``--wall`` seconds of the run (tools/test.sh passes them),

    wall + (chapters - chapters now) x (mean time of a chapter / workers + alongside / chapters now),

with ``--alongside`` the seconds of the strict build, which grows with the chapters and which the main
pytest run waits for. Without ``--wall`` the wall time now is estimated from the sums,

    (stage time that does not grow with chapters + chapters x mean time of a chapter + alongside) / workers
    + fixed,

with ``--fixed`` the seconds of the serial setup. That estimate overstates: while the unit tests run beside
the main run, three processes share two cores, so their durations count twice over the same core time
(measured on 2026-11-27: 7.7 min estimated for a run of 6.8 min). Both are projections from measured times,
not measurements. The first one was checked against a measurement (2026-11-27, one fresh clone each, the
same commit): from a run of chapters 1-13 alone (330 s; ``-k "not part4 and not part5"``) it projected all
21 chapters at 436 s, and they took 409 s. It overstates by 7% there because chapters 14-21 are lighter
than 1-13 (19.1 s against 26.6 s a chapter); with their own mean it gives 406 s. The unit tests are
assumed not to grow.
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = re.compile(r"book/part\d+/(\d\d)_\w+")


def stage_of(classname: str, name: str, file: str) -> str:
    """The stage of one test, from the file pytest reports for it."""
    path = (file or classname.replace(".", "/")).replace("\\", "/")
    if path.endswith(".ipynb") or path.startswith("book/"):
        return "nbval"
    if path.startswith("tests/site"):
        return "browser"
    if path.startswith("tests/lab"):
        return "jupyterlab"
    if path.startswith("tests/unit") or path.startswith("tests/test_layers"):
        return "unit"
    return "other (notebook hygiene, tools, checker must-fail tests)"


def read_report(path: Path) -> list[dict]:
    """[{stage, chapter, seconds, id}] for every test case of the JUnit XML report at ``path``."""
    cases = []
    for case in ET.parse(path).getroot().iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        file = case.get("file", "")
        test_id = f"{file or classname}::{name}"
        # a notebook's classname is its path with dots (book.part1.01_linear_algebra.ipynb), a page's test
        # names the page in its parameters (test_page[book/part1/01_linear_algebra.html])
        chapter = CHAPTER.search(classname.replace(".", "/") + "::" + name)
        cases.append({"stage": stage_of(classname, name, file), "chapter": chapter.group(1) if chapter else None,
                      "seconds": float(case.get("time", 0.0)), "id": test_id})
    return cases


def summarise(cases: list[dict], chapters: int, workers: int, fixed: float, alongside: float = 0.0,
              wall: float | None = None) -> str:
    """The table of stages, the mean chapter and the projection (see the module docstring)."""
    if not cases:
        raise ValueError("the report has no test cases")
    if chapters < 1 or workers < 1 or fixed < 0 or alongside < 0 or (wall is not None and wall <= 0):
        raise ValueError("--chapters and --workers must be >= 1, --fixed and --alongside >= 0, --wall > 0")
    by_stage: dict[str, list[float]] = defaultdict(list)
    per_chapter: dict[str, float] = defaultdict(float)
    for c in cases:
        by_stage[c["stage"]].append(c["seconds"])
        if c["chapter"] and c["stage"] != "unit":
            per_chapter[c["chapter"]] += c["seconds"]
    tests_total = sum(c["seconds"] for c in cases)
    total = tests_total + alongside
    rows = [(stage, str(len(times)), sum(times)) for stage, times in by_stage.items()]
    if alongside:
        rows.append(("strict build (beside the tests)", "-", alongside))
    lines = ["| stage | tests | seconds (sum over cores) | share |", "|---|---|---|---|"]
    for stage, n_tests, seconds in sorted(rows, key=lambda row: -row[2]):
        lines.append(f"| {stage} | {n_tests} | {seconds:.0f} | {seconds / total:.0%} |")
    lines.append(f"| **total** | {len(cases)} | {total:.0f} | |")
    n_now = len(per_chapter)
    if n_now:
        mean = sum(per_chapter.values()) / n_now
        grows = sum(per_chapter.values())
        rest = tests_total - grows
        estimate = (rest + grows + alongside) / workers + fixed
        slowest = sorted(per_chapter.items(), key=lambda kv: -kv[1])[:3]
        lines += ["", f"{n_now} chapters: their notebooks and pages {grows:.0f} s, mean {mean:.1f} s a chapter "
                  "(slowest: " + ", ".join(f"{ch} {s:.0f} s" for ch, s in slowest) + f"); the rest {rest:.0f} s."]
        if wall is not None:
            projected = wall + (chapters - n_now) * (mean / workers + alongside / n_now)
            lines.append(
                f"Measured now: {wall / 60:.1f} min (estimated from the sums: {estimate / 60:.1f} min); "
                f"projected at {chapters} chapters: {projected / 60:.1f} min ({workers} workers, "
                f"the build {alongside:.0f} s now).")
        else:
            projected = (rest + chapters * mean + alongside * chapters / n_now) / workers + fixed
            lines.append(
                f"Estimate now: {estimate / 60:.1f} min; projected at {chapters} chapters: {projected / 60:.1f} min "
                f"({workers} workers, {fixed:.0f} s setup"
                + (f", the build {alongside:.0f} s now beside the tests)." if alongside else " and build)."))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="*", type=Path, help="JUnit XML reports (default: the two that "
                        "tools/test.sh writes, _build/test-report.xml and _build/test-report-unit.xml)")
    parser.add_argument("--chapters", type=int, default=33, help="chapters to project to (default 33)")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (default 2)")
    parser.add_argument("--fixed", type=float, default=0.0, help="seconds of the serial setup (default 0)")
    parser.add_argument("--alongside", type=float, default=0.0,
                        help="seconds of the strict build run beside the tests (default 0)")
    parser.add_argument("--wall", type=float, default=None,
                        help="measured seconds of the whole run (setup, build and tests): the projection "
                             "adds the chapters to come to it")
    args = parser.parse_args(argv)
    reports = args.reports or [ROOT / "_build" / "test-report.xml", ROOT / "_build" / "test-report-unit.xml"]
    missing = [str(r) for r in reports if not r.is_file()]
    if missing:
        print(f"stages: no report at {', '.join(missing)} (run the tests with --junitxml=<report>)", file=sys.stderr)
        return 2
    try:
        cases = [case for report in reports for case in read_report(report)]
        print(summarise(cases, args.chapters, args.workers, args.fixed, args.alongside, args.wall))
    except ValueError as exc:
        print(f"stages: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
