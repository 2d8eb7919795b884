"""Verify every derivation of the book (or of some chapters) without building the site.

    python tools/verify.py                  # every chapter
    python tools/verify.py 09               # chapters whose path contains "09"

Executes each chapter notebook (nothing is written back), collects the claims and errata that
``mlnotes.symbolic`` records, and prints a table: chapter, claim, kind of proof, result, time.
Exits with status 1 if any claim or erratum fails or any cell raises.
"""

import argparse
import sys
import time

from nbtools import chapter_notebooks, execute, records


def _rows(chapter, recs):
    for rec in recs:
        if rec["kind"] == "claim":
            kinds = "+".join(sorted({s["method"] for s in rec["statements"]}))
            seconds = sum(s.get("seconds", 0.0) for s in rec["statements"])
            yield chapter, rec["title"], kinds, "verified" if rec["holds"] else "FAILED", seconds
        else:
            notes = rec["notes_claim"]
            fixed = "+".join(sorted({c["method"] for c in rec["corrections"]}))
            seconds = notes.get("seconds", 0.0) + sum(c.get("seconds", 0.0) for c in rec["corrections"])
            kind = f"refuted:{notes['method']}, fixed:{fixed}"
            yield chapter, f"erratum {rec['id']}: {rec['title']}", kind, "verified" if rec["holds"] else "FAILED", seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("selectors", nargs="*", help="substrings of chapter paths (default: all)")
    args = parser.parse_args(argv)
    rows, errors = [], []
    start = time.perf_counter()
    for path in chapter_notebooks(args.selectors):
        chapter = path.stem[:24]
        nb, seconds, error = execute(path, extra_env={"MLNOTES_RECORD_TIME": "1"})
        rows.extend(_rows(chapter, records(nb)))
        if error is not None:
            errors.append((chapter, str(error).strip().splitlines()[-1]))
            rows.append((chapter, "(cell raised; see below)", "-", "FAILED", 0.0))
    width = min(70, max((len(r[1]) for r in rows), default=10))
    print(f"{'chapter':<24} {'claim':<{width}} {'proof':<34} {'result':<8} {'time':>7}")
    print("-" * (24 + width + 34 + 8 + 7 + 4))
    for chapter, claim, kind, result, seconds in rows:
        claim = claim if len(claim) <= width else claim[: width - 1] + "…"
        print(f"{chapter:<24} {claim:<{width}} {kind:<34} {result:<8} {seconds:6.2f}s")
    n_claims = sum(1 for r in rows if not r[1].startswith("erratum") and r[3] == "verified")
    n_errata = sum(1 for r in rows if r[1].startswith("erratum") and r[3] == "verified")
    n_failed = sum(1 for r in rows if r[3] == "FAILED")
    for chapter, message in errors:
        print(f"\n{chapter}: {message}", file=sys.stderr)
    print(f"\n{n_claims} claims verified, {n_errata} errata verified, {n_failed} failed "
          f"({time.perf_counter() - start:.1f} s)")
    return 1 if n_failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
