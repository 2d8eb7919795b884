"""Regenerate the stored outputs of the chapter notebooks, deterministically.

    python tools/execute.py                 # every notebook in _toc.yml
    python tools/execute.py 09 kernels      # those whose path contains 09 or kernels

Runs each notebook in a kernel of this interpreter (no timing metadata, saved widget state,
PYTHONHASHSEED=0, widget ids renumbered), writes it back in place, records the execution time in
book/back/timings.json and regenerates the generated pages (errata, status, sources coverage).
Re-running leaves the notebooks byte-identical.
"""

import argparse
import json
import sys

import nbformat

import pages
from nbtools import ROOT, chapter_notebooks, describe, execute, make_deterministic
from pages import TIMINGS


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("selectors", nargs="*", help="substrings of notebook paths (default: all)")
    args = parser.parse_args(argv)
    timings = json.loads(TIMINGS.read_text()) if TIMINGS.exists() else {}
    failed = []
    for path in chapter_notebooks(args.selectors):
        rel = str(path.relative_to(ROOT))
        nb, seconds, error = execute(path)
        if error is not None:
            failed.append(rel)
            print(f"FAILED  {rel}:\n{describe(error)}", file=sys.stderr)
            continue
        make_deterministic(nb)
        nbformat.write(nb, path)
        timings[rel] = round(seconds, 1)
        print(f"ok      {rel}  ({seconds:.1f} s)")
    known = {str(p.relative_to(ROOT)) for p in chapter_notebooks()}
    timings = {k: v for k, v in sorted(timings.items()) if k in known}
    TIMINGS.write_text(json.dumps(timings, indent=1) + "\n")
    pages.main([])
    if failed:
        print(f"{len(failed)} notebook(s) failed and were not written: {failed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
