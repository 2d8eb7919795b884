"""Collapse the checking code on the website: tag checking cells ``hide-input``.

    python tools/tags.py 09 12        # tag the checking cells of the chapters whose path contains 09 or 12
    python tools/tags.py --check      # list untagged checking cells of every chapter, exit 1 if any

A *checking cell* is a code cell that calls ``claim(...)`` or ``erratum(...)``, or a check-only cell: every
top-level statement is a call of a checker function (``equal``, ``agree``, ``measured``, ``summary``, ...),
possibly assigned to a name. On the site, Jupyter Book shows such a cell's output (the verdict) and puts its
code behind a "Show code cell source" toggle; the code is never removed, and JupyterLab shows it as usual.
Only the cell's ``metadata.tags`` change: the source, outputs, ids and every other cell stay as they were, and
a notebook with nothing to tag is not rewritten (running the tool twice changes nothing).
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nbtools import ROOT, chapter_notebooks  # noqa: E402

HIDE_TAG = "hide-input"
# tags that already keep the code out of the reader's way without removing it
HIDDEN_TAGS = frozenset({HIDE_TAG, "hide-cell"})
# a call of one of these makes a cell a checking cell
CLAIM_CALLS = frozenset({"claim", "erratum"})
# a cell made only of calls of these is check-only (the checker's deciders and reports, mlnotes.symbolic)
CHECK_CALLS = CLAIM_CALLS | frozenset({
    "equal", "holds", "differs", "agree", "measured", "bounded", "summary",
    "check_gradient", "agree_gradient",
})


def _called_name(node: ast.AST) -> str | None:
    """``f`` for ``f(...)`` and ``mod.f(...)``; None for anything else."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


_TIMED = re.compile(r"^(\s*)%(?:time|timeit|prun)\s+(?!-)")


def _python_source(source: str) -> str:
    """The cell source with IPython magics and shell lines blanked (line numbers kept); the statement of a
    ``%time``/``%timeit``/``%prun`` line is kept."""
    lines = [_TIMED.sub(r"\1", line) for line in source.splitlines()]
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)


def _calls_without_ast(source: str) -> set[str]:
    """Names followed by ``(`` outside strings and comments (fallback for code ast cannot parse)."""
    names: set[str] = set()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        stripped = re.sub(r"#.*", "", source)
        return set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", stripped))
    for tok, nxt in zip(tokens, tokens[1:]):
        if tok.type == tokenize.NAME and nxt.type == tokenize.OP and nxt.string == "(":
            names.add(tok.string)
    return names


def is_checking_cell(cell) -> bool:
    """True for a code cell that calls claim/erratum anywhere, or whose every top-level statement is a
    (possibly assigned) call of a checker function. Raises TypeError for something that is not a cell."""
    if not hasattr(cell, "get") or "cell_type" not in cell:
        raise TypeError(f"is_checking_cell expects a notebook cell (a dict with 'cell_type'), got {type(cell).__name__}")
    if cell["cell_type"] != "code":
        return False
    source = cell.get("source", "")
    if isinstance(source, list):
        source = "".join(source)
    if not source.strip():
        return False
    code = _python_source(source)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return bool(_calls_without_ast(code) & CLAIM_CALLS)
    if any(_called_name(node) in CLAIM_CALLS for node in ast.walk(tree)):
        return True
    statements = tree.body
    if not statements:
        return False
    for stmt in statements:
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
        if _called_name(value) not in CHECK_CALLS:
            return False
    return True


def is_tagged(cell) -> bool:
    return bool(HIDDEN_TAGS & set(cell.get("metadata", {}).get("tags", [])))


def untagged_checking_cells(nb) -> list[int]:
    """Indices (in ``nb.cells``) of checking cells without ``hide-input``/``hide-cell``."""
    return [i for i, cell in enumerate(nb.cells) if is_checking_cell(cell) and not is_tagged(cell)]


def tag_notebook(nb) -> list[int]:
    """Add ``hide-input`` to every untagged checking cell of ``nb`` (in place); return their indices."""
    todo = untagged_checking_cells(nb)
    for i in todo:
        metadata = nb.cells[i].setdefault("metadata", {})
        metadata["tags"] = list(metadata.get("tags", [])) + [HIDE_TAG]
    return todo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("selectors", nargs="*", help="substrings of notebook paths (default: every chapter)")
    parser.add_argument("--check", action="store_true", help="only list untagged checking cells; exit 1 if any")
    args = parser.parse_args(argv)
    missing = 0
    for path in chapter_notebooks(args.selectors):
        rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        nb = nbformat.read(path, as_version=4)
        if args.check:
            todo = untagged_checking_cells(nb)
            missing += len(todo)
            status = "ok" if not todo else f"{len(todo)} untagged checking cells: {todo}"
        else:
            todo = tag_notebook(nb)
            if todo:
                nbformat.write(nb, path)
            status = f"tagged {len(todo)} cells" if todo else "nothing to tag"
        checking = sum(is_checking_cell(c) for c in nb.cells)
        print(f"{rel}: {checking} checking cells, {status}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
