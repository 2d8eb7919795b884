"""Verify every derivation of the book (or of some chapters) without building the site.

    python tools/verify.py                  # every chapter, two at a time
    python tools/verify.py 09 12            # chapters whose path contains "09" or "12"
    python tools/verify.py -j 1 path/to/notebook.ipynb

Executes each chapter notebook (nothing is written back) and reports what ran in *this*
execution, never what the stored outputs say: ``mlnotes.symbolic`` appends every claim and
erratum record, as it is made, to a JSON-lines log named by the environment variable
``MLNOTES_VERDICT_LOG``, one log per chapter. Execution goes on after a failing cell, and under the
log a failed claim does not raise at all (it is recorded, and said on stderr), so a failed check
hides neither the later cells nor the rest of its own cell: every claim gets its own verdict, and cells that raised for
another reason than a failed claim are listed. A claim or erratum that the notebook's source makes
(``claim("title", ...)``, ``erratum("ID", ...)`` with a literal first argument) but that left no
verdict in this execution (its cell raised before it) is listed "NOT RUN" and counts as a failure.
Chapters run in parallel, one per core (``-j``).

Prints a table (chapter, claim, proof kinds, result, displays compared, time), then why each
failed claim or erratum failed (the checked form, the detail and the counterexample of each failing
statement, from the verdict log), then the totals; exits with status 1 if any claim or erratum
fails or did not run or any cell raises (with ``--strict`` also on trivial checks and on typed
displays that were not compared).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import tempfile
import time
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from nbtools import ROOT, cell_errors, chapter_notebooks, execute, read_verdict_log
from pages import TIMINGS

VERDICT_LOG_ENV = "MLNOTES_VERDICT_LOG"   # the same name as mlnotes.symbolic.VERDICT_LOG_ENV


def _statements(rec: dict) -> list[dict]:
    return rec["statements"] if rec["kind"] == "claim" else [rec["notes_claim"], *rec["corrections"]]


def _kind(statement: dict) -> str:
    return statement.get("kind") or statement.get("method")


def _notes_verdict(notes_claim: dict) -> str:
    """What became of an erratum's notes' claim: ``"refuted"``, ``"not refuted"`` (it holds) or
    ``"display disagrees"`` (its typed display is not what was checked: no refutation either)."""
    if notes_claim.get("display_check") == "disagrees":
        return "display disagrees"
    return "not refuted" if notes_claim["holds"] else "refuted"


def _statement_reason(statement: dict, lead: str = "") -> list[str]:
    """Why one statement failed, as indented lines: the checked form, the display if it differs,
    the detail and the counterexample."""
    lines = [f"    {lead}checked: {statement.get('checked') or statement.get('latex')}"]
    display = statement.get("display")
    if display and display != statement.get("checked"):
        lines.append(f"      displayed as: {display}")
    lines.append(f"      detail: {statement.get('detail')}")
    cex = statement.get("counterexample")
    if cex:
        lines.append("      counterexample: " + ", ".join(f"{k} = {v}" for k, v in cex.items()))
    return lines


def _reasons(rec: dict) -> list[str]:
    """The failing statements of a failed claim or erratum record, as lines (empty if it holds)."""
    if rec["holds"]:
        return []
    if rec["kind"] == "claim":
        return [line for s in rec["statements"] if not s["holds"] for line in _statement_reason(s)]
    lines = []
    notes = _notes_verdict(rec["notes_claim"])
    if notes == "not refuted":
        lines += _statement_reason(rec["notes_claim"], "the notes' claim holds, so it is no erratum; ")
    elif notes == "display disagrees":
        lines += _statement_reason(rec["notes_claim"], "the notes' display disagrees with what was checked; ")
    for c in rec["corrections"]:
        if not c["holds"]:
            lines += _statement_reason(c, "a correction fails; ")
    return lines


def _row(chapter: str, rec: dict) -> dict:
    """One line of the table for a claim or erratum record."""
    statements = _statements(rec)
    kinds = list(dict.fromkeys(_kind(s) for s in statements))
    typed = [s for s in statements if s.get("display_check") in ("compared", "not compared", "disagrees")]
    trivial = sum(bool(s.get("trivial")) for s in statements)
    if rec["kind"] == "claim":
        name = rec["title"]
        proof = "+".join(kinds)
    else:
        name = f"erratum {rec['id']}: {rec['title']}"
        fixed = "fixed" if all(c["holds"] for c in rec["corrections"]) else "fix fails"
        proof = f"{_notes_verdict(rec['notes_claim'])}:{_kind(rec['notes_claim'])}, {fixed}:" + "+".join(
            dict.fromkeys(_kind(c) for c in rec["corrections"]))
    result = "FAILED" if not rec["holds"] else ("TRIVIAL" if trivial else "verified")
    compared = sum(s.get("display_check") == "compared" for s in typed)
    return {"chapter": chapter, "claim": name, "proof": proof, "result": result, "kind": rec["kind"],
            "displays": f"{compared}/{len(typed)}" if typed else "-", "trivial": trivial,
            "not_compared": sum(s.get("display_check") == "not compared" for s in statements),
            "seconds": sum(s.get("seconds", 0.0) for s in statements), "why": _reasons(rec)}


def _code(source: str) -> str:
    """A cell's source as Python: IPython magics and shell lines become ``pass``."""
    return "\n".join(line[: len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


_CALL = re.compile(r"""\b(claim|erratum)\(\s*(["'])((?:(?!\2).)+)\2""")


def source_claims(nb) -> list[dict]:
    """The claims and errata a notebook's source makes with a literal first argument, in order:
    ``{"cell", "kind", "key", "title"}`` (``key`` is a claim's title or an erratum's id; an
    erratum's ``title`` is its third argument when that is a literal too). Titles built at run time
    (f-strings) cannot be known before running and are left out."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(_code(cell.source))
        except SyntaxError:   # the cell cannot run at all: its literal calls, found by pattern
            found += [{"cell": i, "kind": m[0], "key": m[2], "title": m[2] if m[0] == "claim" else f"erratum {m[2]}"}
                      for m in _CALL.findall(cell.source)]
            continue
        calls = sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call)),
                       key=lambda node: (node.lineno, node.col_offset))
        for node in calls:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in ("claim", "erratum") or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            title = first.value
            if name == "erratum":
                third = node.args[2] if len(node.args) > 2 else None
                literal = isinstance(third, ast.Constant) and isinstance(third.value, str)
                title = f"erratum {first.value}" + (f": {third.value}" if literal else "")
            found.append({"cell": i, "kind": name, "key": first.value, "title": title})
    return found


def _first_line(message: str, width: int = 120) -> str:
    line = message.splitlines()[0] if message else ""
    return line if len(line) <= width else line[: width - 1] + "…"


def _not_run_rows(chapter: str, nb, recs: list[dict], errors: list[tuple[int, str, str]]) -> list[dict]:
    """A "NOT RUN" row for each claim or erratum of the source that left no verdict in this execution."""
    ran = {("claim", r["title"]) if r["kind"] == "claim" else ("erratum", r["id"]) for r in recs}
    rows, seen = [], set()
    for c in source_claims(nb):
        key = (c["kind"], c["key"])
        if key in ran or key in seen:
            continue
        seen.add(key)
        raised = [f"cell {i} raised {name} before it: {_first_line(message)}"
                  for i, name, message in errors if i == c["cell"]]
        why = raised[0] if raised else f"its call in cell {c['cell']} was never reached"
        rows.append({"chapter": chapter, "claim": c["title"], "proof": f"(cell {c['cell']})", "result": "NOT RUN",
                     "kind": c["kind"], "displays": "-", "trivial": 0, "not_compared": 0, "seconds": 0.0,
                     "why": [f"    never ran: {why}"]})
    return rows


def verify_chapter(path: Path, timeout: int = 300) -> dict:
    """Execute one notebook and collect what ran: ``{"chapter", "rows", "errors", "seconds"}``.

    ``errors`` are the cells that raised for another reason than a failed claim or erratum
    (``(cell index, exception, message)``); ``rows`` come from this execution's verdict log only,
    followed by a "NOT RUN" row for each claim or erratum of the source that left no verdict.
    """
    chapter = Path(path).stem[:24]
    with tempfile.TemporaryDirectory(prefix="mlnotes-verify-") as tmp:
        log = Path(tmp) / "verdicts.jsonl"
        log.touch()
        nb, seconds, stopped = execute(Path(path), timeout=timeout, allow_errors=True,
                                       extra_env={VERDICT_LOG_ENV: str(log), "MLNOTES_RECORD_TIME": ""})
        recs = read_verdict_log(log)
    raised = cell_errors(nb)
    errors = [(i, name, message) for i, name, message in raised if name != "ClaimError"]
    if stopped is not None:
        # with allow_errors only a timeout stops the execution: the cell that ran last never finished
        started = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code" and cell.get("execution_count")]
        errors.append((started[-1] if started else -1, type(stopped).__name__,
                       f"did not finish within {timeout} s; the cells after it did not run"))
    rows = [_row(chapter, r) for r in recs] + _not_run_rows(chapter, nb, recs, raised)
    return {"chapter": chapter, "rows": rows, "errors": errors, "seconds": seconds}


def _print_table(results: list[dict]) -> None:
    rows = [r for res in results for r in res["rows"]]
    rows += [{"chapter": res["chapter"], "claim": f"(cell {i} raised {name}: {message.splitlines()[0] if message else ''})",
              "proof": "-", "result": "FAILED", "displays": "-", "seconds": 0.0}
             for res in results for i, name, message in res["errors"]]
    width = min(64, max((len(r["claim"]) for r in rows), default=10))
    proof_width = min(44, max((len(r["proof"]) for r in rows), default=10))
    print(f"{'chapter':<24} {'claim':<{width}} {'proof':<{proof_width}} {'result':<8} {'display':>7} {'time':>7}")
    print("-" * (24 + width + proof_width + 8 + 7 + 7 + 5))
    for r in rows:
        claim = r["claim"] if len(r["claim"]) <= width else r["claim"][: width - 1] + "…"
        proof = r["proof"] if len(r["proof"]) <= proof_width else r["proof"][: proof_width - 1] + "…"
        print(f"{r['chapter']:<24} {claim:<{width}} {proof:<{proof_width}} {r['result']:<8} {r['displays']:>7} "
              f"{r['seconds']:6.2f}s")


def _print_reasons(results: list[dict]) -> None:
    """After the table: for each failed or unrun claim or erratum, why (its failing statements)."""
    failed = [r for res in results for r in res["rows"] if r["result"] in ("FAILED", "NOT RUN") and r.get("why")]
    if not failed:
        return
    print("\nWhy they failed:")
    for r in failed:
        print(f"  {r['chapter']}: {r['claim']} ({r['result']})")
        print("\n".join(r["why"]))


def totals(results: list[dict]) -> dict:
    """Counts over the chapters: verified claims and errata, failed records (those that did not run
    included, and counted apart as ``not_run``), trivial checks (and the records that contain them),
    typed displays not compared, cells that raised."""
    rows = [r for res in results for r in res["rows"]]
    bad = ("FAILED", "NOT RUN")
    return {"claims": sum(r["kind"] == "claim" and r["result"] not in bad for r in rows),
            "errata": sum(r["kind"] == "erratum" and r["result"] not in bad for r in rows),
            "failed": sum(r["result"] in bad for r in rows),
            "not_run": sum(r["result"] == "NOT RUN" for r in rows),
            "trivial": sum(r["trivial"] for r in rows),
            "trivial_records": sum(r["result"] == "TRIVIAL" for r in rows),
            "not_compared": sum(r["not_compared"] for r in rows),
            "cell_errors": sum(len(res["errors"]) for res in results)}


def longest_first(paths: list[Path]) -> list[Path]:
    """``paths`` ordered by their last execution time (book/back/timings.json), longest first; a chapter
    without a time first of all (it may be long)."""
    try:
        timings = json.loads(TIMINGS.read_text())
    except (OSError, ValueError):
        timings = {}

    def seconds(path: Path) -> float:
        try:
            return timings[str(Path(path).resolve().relative_to(ROOT))]
        except (KeyError, ValueError):
            return float("inf")
    return sorted(paths, key=seconds, reverse=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("selectors", nargs="*", help="substrings of chapter paths or notebook files (default: all)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="chapters run in parallel (default 2)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds allowed per cell (default 300)")
    parser.add_argument("--strict", action="store_true",
                        help="also fail on trivial checks and on typed displays that were not compared")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    paths = chapter_notebooks(args.selectors)
    start = time.perf_counter()
    if args.jobs == 1 or len(paths) == 1:
        results = [verify_chapter(p, args.timeout) for p in paths]
    else:
        # spawn, not fork: verify may run inside a threaded process (a pytest worker), where a forked child can
        # deadlock on a lock another thread held at the fork
        # the longest chapters first (their last run time, a hint only for the order), so that the chapter
        # a worker starts last is a short one; the table keeps the book's order
        with ProcessPoolExecutor(max_workers=min(args.jobs, len(paths)),
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {p: pool.submit(verify_chapter, p, args.timeout) for p in longest_first(paths)}
            results = [futures[p].result() for p in paths]
    _print_table(results)
    _print_reasons(results)
    for res in results:
        for i, name, message in res["errors"]:
            print(f"\n{res['chapter']}, cell {i}: {name}: {message}", file=sys.stderr)
    t = totals(results)
    print(f"\n{t['claims']} claims verified, {t['errata']} errata verified, {t['failed']} failed ({t['not_run']} not run), "
          f"{t['cell_errors']} cells raised; {t['trivial']} trivial checks (in {t['trivial_records']} claims or errata, "
          f"not proofs), {t['not_compared']} typed displays not compared "
          f"({len(results)} notebooks, {time.perf_counter() - start:.1f} s with -j {args.jobs})")
    if t["failed"] or t["cell_errors"]:
        return 1
    if args.strict and (t["trivial"] or t["not_compared"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
