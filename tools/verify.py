"""Verify every derivation of the book (or of some chapters) without building the site.

    python tools/verify.py                  # every chapter, two at a time
    python tools/verify.py 09 12            # chapters whose path contains "09" or "12"
    python tools/verify.py -j 1 path/to/notebook.ipynb

Executes each chapter notebook (nothing is written back) and reports what ran in *this*
execution, never what the stored outputs say: ``mlnotes.symbolic`` appends every claim and
erratum record, as it is made, to a JSON-lines log named by the environment variable
``MLNOTES_VERDICT_LOG``, one log per chapter. Execution goes on after a failing cell, so a failed
check does not hide the later ones: every claim gets its own verdict, and cells that raised for
another reason than a failed claim are listed. Chapters run in parallel, one per core (``-j``).

Prints a table (chapter, claim, proof kinds, result, displays compared, time) and the totals;
exits with status 1 if any claim or erratum fails or any cell raises (with ``--strict`` also on
trivial checks and on typed displays that were not compared).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from nbtools import cell_errors, chapter_notebooks, execute, read_verdict_log

VERDICT_LOG_ENV = "MLNOTES_VERDICT_LOG"   # the same name as mlnotes.symbolic.VERDICT_LOG_ENV


def _statements(rec: dict) -> list[dict]:
    return rec["statements"] if rec["kind"] == "claim" else [rec["notes_claim"], *rec["corrections"]]


def _row(chapter: str, rec: dict) -> dict:
    """One line of the table for a claim or erratum record."""
    statements = _statements(rec)
    kinds = []
    for s in statements:
        kind = s.get("kind") or s.get("method")
        if kind not in kinds:
            kinds.append(kind)
    typed = [s for s in statements if s.get("display_check") in ("compared", "not compared", "disagrees")]
    trivial = sum(bool(s.get("trivial")) for s in statements)
    if rec["kind"] == "claim":
        name = rec["title"]
        proof = "+".join(kinds)
    else:
        name = f"erratum {rec['id']}: {rec['title']}"
        notes_kind = rec["notes_claim"].get("kind") or rec["notes_claim"].get("method")
        proof = f"refuted:{notes_kind}, fixed:" + "+".join(
            dict.fromkeys(c.get("kind") or c.get("method") for c in rec["corrections"]))
    result = "FAILED" if not rec["holds"] else ("TRIVIAL" if trivial else "verified")
    compared = sum(s.get("display_check") == "compared" for s in typed)
    return {"chapter": chapter, "claim": name, "proof": proof, "result": result, "kind": rec["kind"],
            "displays": f"{compared}/{len(typed)}" if typed else "-", "trivial": trivial,
            "not_compared": sum(s.get("display_check") == "not compared" for s in statements),
            "seconds": sum(s.get("seconds", 0.0) for s in statements)}


def verify_chapter(path: Path, timeout: int = 300) -> dict:
    """Execute one notebook and collect what ran: ``{"chapter", "rows", "errors", "seconds"}``.

    ``errors`` are the cells that raised for another reason than a failed claim or erratum
    (``(cell index, exception, message)``); ``rows`` come from this execution's verdict log only.
    """
    chapter = Path(path).stem[:24]
    with tempfile.TemporaryDirectory(prefix="mlnotes-verify-") as tmp:
        log = Path(tmp) / "verdicts.jsonl"
        log.touch()
        nb, seconds, _ = execute(Path(path), timeout=timeout, allow_errors=True,
                                 extra_env={VERDICT_LOG_ENV: str(log), "MLNOTES_RECORD_TIME": ""})
        recs = read_verdict_log(log)
    errors = [(i, name, message) for i, name, message in cell_errors(nb) if name != "ClaimError"]
    return {"chapter": chapter, "rows": [_row(chapter, r) for r in recs], "errors": errors, "seconds": seconds}


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


def totals(results: list[dict]) -> dict:
    """Counts over the chapters: verified claims and errata, failed records, trivial checks (and the
    records that contain them), typed displays not compared, cells that raised."""
    rows = [r for res in results for r in res["rows"]]
    return {"claims": sum(r["kind"] == "claim" and r["result"] != "FAILED" for r in rows),
            "errata": sum(r["kind"] == "erratum" and r["result"] != "FAILED" for r in rows),
            "failed": sum(r["result"] == "FAILED" for r in rows),
            "trivial": sum(r["trivial"] for r in rows),
            "trivial_records": sum(r["result"] == "TRIVIAL" for r in rows),
            "not_compared": sum(r["not_compared"] for r in rows),
            "cell_errors": sum(len(res["errors"]) for res in results)}


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
        with ProcessPoolExecutor(max_workers=min(args.jobs, len(paths))) as pool:
            results = list(pool.map(verify_chapter, paths, [args.timeout] * len(paths)))
    _print_table(results)
    for res in results:
        for i, name, message in res["errors"]:
            print(f"\n{res['chapter']}, cell {i}: {name}: {message}", file=sys.stderr)
    t = totals(results)
    print(f"\n{t['claims']} claims verified, {t['errata']} errata verified, {t['failed']} failed, "
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
