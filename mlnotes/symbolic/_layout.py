"""Line breaks for long formulas: a display wider than the text column is cut at its top-level break points
(a side condition after ``\\quad``, a clause, an implication, a phrase of text; then, for a line still too
long, before its relations) into the lines of a ``gathered`` block. Used for the checker's verdicts and the
errata page (``tools/pages.py``)."""

from __future__ import annotations

import re

__all__ = ["break_lines", "LINE_CHARS"]

# Where a long formula may break (outside braces, environments and \\left...\\right): at a side condition
# (\\quad), after a clause (":\\ ", ",\\ "), before an implication or a phrase of text (\\text{ ...}).
_BREAK = re.compile(r"\\q?quad(?![a-zA-Z])|(?<=[:,])\\ |(?=\\(?:implies|iff)(?![a-zA-Z]))|(?=\\text\{[ ,:(])")


#: A line of a broken formula longer than this (characters of LaTeX) is broken again: before its top-level
#: relations, then (a phrase of text) after a colon inside the text.
LINE_CHARS = 75
_RELATION_BREAK = re.compile(r"(?<![:!<>\\])(?==)|(?=\\(?:le|ge|leq|geq|approx|equiv)(?![a-zA-Z]))")


def _split_top_level(latex: str, pattern: re.Pattern) -> list[str]:
    """``latex`` cut at the matches of ``pattern`` outside braces, brackets, parentheses, environments and
    \\left...\\right; a
    lookahead match starts the next piece, a consuming one (\\quad) is dropped."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(latex):
        opening = re.match(r"\\begin\{[^}]*\}|\\left(?![a-zA-Z])|\{|\(|\[", latex[i:])
        closing = re.match(r"\\end\{[^}]*\}|\\right(?![a-zA-Z])|\}|\)|\]", latex[i:])
        if opening:
            depth += 1
            i += opening.end()
            continue
        if closing:
            depth -= 1
            i += closing.end()
            continue
        if depth == 0 and i > start and (m := pattern.match(latex, i)):
            parts.append(latex[start:i])
            start = i = m.end() if m.end() > i else i
            if m.end() == i:  # a lookahead break: the operator starts the next line
                i += 1
            continue
        i += 2 if latex[i] == "\\" else 1
    parts.append(latex[start:])
    return [p.strip() for p in parts if p.strip()]


def _split_text(part: str) -> list[str]:
    """A line that is one long phrase of text, ``\\text{a: b}``, as ``\\text{a:}`` and ``\\text{b}``."""
    m = re.fullmatch(r"\\text\{([^{}]*?):\s+([^{}]*)\}", part)
    return [f"\\text{{{m.group(1)}:}}", f"\\text{{{m.group(2)}}}"] if m else [part]


def break_lines(latex: str) -> str:
    """A long formula as lines of a ``gathered`` block, split at its top-level break points (see
    ``_BREAK``), and lines still longer than ``LINE_CHARS`` split before their relations and inside a long
    phrase of text; unchanged when it has no break point."""
    parts = _split_top_level(latex, _BREAK)
    parts = [q for p in parts for q in (_split_top_level(p, _RELATION_BREAK) if len(p) > LINE_CHARS else [p])]
    parts = [q for p in parts for q in (_split_text(p) if len(p) > LINE_CHARS else [p])]
    if len(parts) < 2:
        return latex
    return "\\begin{gathered}\n" + " \\\\\n".join(parts) + "\n\\end{gathered}"
