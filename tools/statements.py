r"""Displayed statements of the chapters: which are checked, which are definitions, which are not
machine-checked (and why), and which are unmarked.

    python tools/statements.py              # the table for every chapter
    python tools/statements.py 07 --list    # chapter 7, every display block with its category

Every ``$$`` display block of a chapter's markdown is one of

- *checked*: it carries a label, ``$$ ... $$ (label)``, and some claim of the chapter names that
  label in ``claim(..., proves=...)``;
- a *definition*: the line directly above its opening ``$$`` (blank lines aside) is the MyST
  comment ``% definition``;
- *not machine-checked*: the line directly above is ``% unchecked: <reason>``;
- *unmarked*: none of these (a test fails on it).

A checked display is also *tied* to its check: every step of it (each ``lhs REL rhs`` of a chain
``a = b \le c``, across ``aligned`` lines) must be a step, as text up to spacing and sizing commands,
of the typed display (``latex=``) of a statement of a claim that proves it. The checker compares that
typed display with the checked expressions where sympy can parse it, so a changed markdown equation
no longer matches its check, and a test fails (:func:`untied_steps`). Where every step is tied to a
typed display that the checker compared, the display is counted as *compared*; the others are tied
to the typed text only (its comparison was not possible: matrices, norms, notation the parser does
not read), and the status page says how many.

The claims are read from the notebook's stored records (which nbval keeps equal to a fresh run).
Also counted per chapter: exercises (``**N.**`` paragraphs after the ``Exercises`` heading),
exercise solutions checked (``claim(..., exercise=...)``), trivial checks, typed displays not
compared, and claims by proof kind. :func:`statements_table` gives the markdown table of the
status page.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from nbtools import ROOT, chapter_notebooks, records

CATEGORIES = ("checked", "definition", "unchecked", "unmarked")

#: An opening ``$$`` at the start of a line; the block runs to the next ``$$`` (possibly on the same
#: line), optionally followed by a label in parentheses.
_BLOCK = re.compile(r"^[ \t]*\$\$(?P<body>.*?)\$\$[ \t]*(?:\((?P<label>[^()\s]+)\))?[ \t]*$", re.M | re.S)
_MARK = re.compile(r"^[ \t]*%[ \t]*(?P<kind>definition|unchecked)\b[ \t]*(?::[ \t]*(?P<reason>.*\S))?[ \t]*$")
_FENCE = re.compile(r"^(```|~~~)")


@dataclass
class Display:
    """One ``$$`` display block of a chapter."""

    cell: int
    latex: str
    label: str | None
    category: str
    reason: str = ""


@dataclass
class ChapterStatements:
    """What :func:`chapter_statements` finds in one chapter."""

    path: Path
    displays: list[Display] = field(default_factory=list)
    exercises: list[str] = field(default_factory=list)
    exercises_checked: list[str] = field(default_factory=list)
    trivial: int = 0
    not_compared: int = 0
    kinds: dict = field(default_factory=dict)
    claims: int = 0
    errata: int = 0
    dangling: list[str] = field(default_factory=list)   # proves= labels that no display carries
    untied: list[tuple[str, list[str]]] = field(default_factory=list)   # (label, steps not in its checks)
    hidden: list[str] = field(default_factory=list)   # display math outside top-level $$ blocks
    compared: int = 0   # checked displays whose every step is a step of a typed display compared with its check

    def count(self, category: str) -> int:
        return sum(d.category == category for d in self.displays)

    @property
    def unmarked(self) -> list[Display]:
        return [d for d in self.displays if d.category == "unmarked"]


#: Fenced directives whose body is not markdown (code, or math that must be written as a $$ block).
_CODE_DIRECTIVES = {"code", "code-block", "code-cell", "sourcecode", "literalinclude", "eval-rst", "raw"}
_FENCE_LINE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,}|:{3,})[ \t]*(?:\{(?P<directive>[\w-]+)\})?(?P<info>.*)$")


def _without_code_fences(text: str) -> str:
    """``text`` with fenced code blocks blanked (line numbers kept), so ``$$`` in code is not math; the bodies
    of fenced directives that hold markdown (````{dropdown}``, ``:::{admonition}``) are kept."""
    out, stack = [], []          # stack of (fence char, length, is code)
    for line in text.splitlines():
        m = _FENCE_LINE.match(line)
        in_code = any(code for _, _, code in stack)
        if m:
            fence = m.group("fence")
            top = stack[-1] if stack else None
            if top and fence[0] == top[0] and len(fence) >= top[1] and not m.group("directive") \
                    and not m.group("info").strip():
                stack.pop()                                   # a closing fence
                out.append("")
                continue
            if not in_code:
                directive = m.group("directive")
                code = fence[0] != ":" and (directive is None or directive in _CODE_DIRECTIVES)
                stack.append((fence[0], len(fence), code))
                out.append("" if code else line)
                continue
        out.append("" if in_code else line)
    return "\n".join(out)


_HIDDEN = re.compile(r"\\begin\{(?:equation|align|alignat|gather|multline|eqnarray|flalign|displaymath)\*?\}"
                     r"|^[ \t]*(?:`{3,}|~{3,}|:{3,})[ \t]*\{math\}", re.M)


def hidden_displays(text: str) -> list[str]:
    """Display math of a markdown text that is not a top-level ``$$ ... $$`` block (an ``equation`` or
    ``align`` environment, a ``{math}`` directive, a ``$$`` inside a paragraph, a quote or a table, or one
    followed by text): such math would escape the classification, so it is refused."""
    text = _without_code_fences(text)
    blocks = list(_BLOCK.finditer(text))
    outside = text
    for m in reversed(blocks):
        outside = outside[:m.start()] + outside[m.end():]
    found = [m.group(0).strip() for m in _HIDDEN.finditer(outside)]
    found += [line.strip()[:60] for line in outside.splitlines() if "$$" in line]
    return found


def _marker(text: str, start: int):
    """The ``% definition`` / ``% unchecked: reason`` comment directly above position ``start``
    (blank lines allowed in between), or None."""
    for line in reversed(text[:start].splitlines()):
        if not line.strip():
            continue
        return _MARK.match(line)
    return None


def displays_of_markdown(text: str, proven: set[str], cell: int = 0) -> list[Display]:
    """The display blocks of one markdown text, classified; ``proven`` are the labels named by
    the chapter's claims."""
    text = _without_code_fences(text)
    out = []
    for m in _BLOCK.finditer(text):
        label = m.group("label")
        mark = _marker(text, m.start())
        if label and label in proven:
            category, reason = "checked", ""
        elif mark and mark.group("kind") == "definition":
            category, reason = "definition", ""
        elif mark and mark.group("kind") == "unchecked":
            reason = (mark.group("reason") or "").strip()
            category = "unchecked" if reason else "unmarked"     # a reason is required
        else:
            category, reason = "unmarked", ""
        out.append(Display(cell, m.group("body").strip(), label, category, reason))
    return out


#: Environments and commands that only align, space or size a formula: dropped before comparing.
_LAYOUT = re.compile(r"\\(?:begin|end)\{(?:aligned|align\*?|split|gathered|equation\*?)\}"
                     r"|\\(?:left|right|[bB]igg?[lr]?|displaystyle|textstyle)(?![a-zA-Z])")
_MATRIX = re.compile(r"\\begin\{(?P<env>[pbBvV]?matrix|smallmatrix|cases|array)\}.*?\\end\{(?P=env)\}", re.S)
_SPACE = re.compile(r"\\[,;:! ]|~|&|\s+")
#: Relations at which a statement is cut into steps, and separators between statements on one line.
_RELATION = re.compile(r"=|<|>|\\(?:le|ge|leq|geq|ne|neq|approx|propto|equiv|iff|implies|Rightarrow|"
                       r"Longrightarrow|sim|in|subseteq|preceq|succeq)(?![a-zA-Z])")
_SEPARATOR = re.compile(r"(?<!\\)[,;]|\\q?quad(?![a-zA-Z])")


_OPEN = re.compile(r"[(\[{]|\\(?:langle|lVert|lvert|lfloor|lceil)(?![a-zA-Z])")
_CLOSE = re.compile(r"[)\]}]|\\(?:rangle|rVert|rvert|rfloor|rceil)(?![a-zA-Z])")


def _squeeze(latex: str) -> str:
    """``latex`` without spacing, each control word ended by ``·`` (so ``\\tan h`` stays apart from ``\\tanh``
    while ``\\Sigma A`` and ``\\Sigma\\,A`` agree)."""
    return _SPACE.sub("", re.sub(r"(\\[A-Za-z]+)", "\\1·", latex)).strip(".")


def _top_level(text: str, pattern: re.Pattern) -> list[re.Match]:
    """Matches of ``pattern`` in ``text`` outside every (), [], {}, angle-bracket and norm group."""
    found = []
    for m in pattern.finditer(text):
        before = text[:m.start()]
        if len(_OPEN.findall(before)) == len(_CLOSE.findall(before)):
            found.append(m)
    return found


def _split(text: str, pattern: re.Pattern, keep: bool = False) -> list[str]:
    cuts = _top_level(text, pattern)
    pieces, start = [], 0
    for m in cuts:
        pieces.append(text[start:m.start()] + (m.group(0) if keep else ""))
        start = m.end()
    return pieces + [text[start:]]


def display_steps(latex: str) -> list[str]:
    """The steps of a display: its statements (lines of an ``aligned`` block not continuing a chain,
    and parts separated by ``,``/``;``/``\\quad``), each cut at its relations into ``lhs REL rhs``
    steps; spacing, sizing and alignment dropped. ``a &= b \\\\ &\\le c`` gives ``["a=b", "b\\lec"]``;
    a statement without a relation is one step."""
    # inside matrices, cases and arrays, & and \\\\ separate entries: keep them (as tokens no split sees)
    text = _MATRIX.sub(lambda m: m.group(0).replace("&", " \\cellsep ").replace("\\\\", " \\rowsep "), latex)
    text = _LAYOUT.sub("", text)
    lines = []
    for line in re.split(r"\\\\", text):
        line = line.strip().lstrip("&").strip()
        if lines and _RELATION.match(line):
            lines[-1] += " " + line        # a continued chain: &= c on its own line
        elif line:
            lines.append(line)
    steps = []
    for statement in (part for line in lines for part in _split(line, _SEPARATOR)):
        cuts = _top_level(statement, _RELATION)
        sides = [_squeeze(side) for side in _split(statement, _RELATION)]
        if not cuts:
            steps += [sides[0]] if sides[0] else []
            continue
        steps += [sides[i] + _squeeze(cut.group(0)) + sides[i + 1] for i, cut in enumerate(cuts)]
    return steps


def untied_steps(display: str, typed: list[str]) -> list[str]:
    """The steps of a markdown ``display`` that appear in none of the ``typed`` displays of the
    statements that prove it (an empty list: the display is tied to its checks).

    Parameters
    ----------
    display : str
        The LaTeX body of a ``$$`` block.
    typed : list of str
        The typed displays (``latex=``) of the statements of every claim naming its label.
    """
    shown = {step for t in typed if t for step in display_steps(t)}
    return [step for step in display_steps(display) if step not in shown]


def _exercises(markdown: str) -> list[str]:
    heading = re.search(r"^#+\s+Exercises\b.*$", markdown, re.M)
    if not heading:
        return []
    return re.findall(r"^\*\*(\d+)\.\*\*", markdown[heading.end():], re.M)


def chapter_statements(nb_or_path) -> ChapterStatements:
    """Classify the display blocks of a chapter and count its exercises and checks.

    Parameters
    ----------
    nb_or_path : path or notebook
        A chapter notebook (its stored records say which labels the claims prove).
    """
    path = Path(nb_or_path) if isinstance(nb_or_path, (str, Path)) else Path("<notebook>")
    nb = nbformat.read(path, as_version=4) if isinstance(nb_or_path, (str, Path)) else nb_or_path
    recs = records(nb)
    claims = [r for r in recs if r["kind"] == "claim"]
    proven = {label for r in claims for label in r.get("proves", []) or []}
    result = ChapterStatements(path)
    markdown = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            result.displays += displays_of_markdown(cell.source, proven, i)
            result.hidden += [f"cell {i}: {h}" for h in hidden_displays(cell.source)]
            markdown.append(cell.source)
    labels = {d.label for d in result.displays if d.label}
    result.dangling = sorted(proven - labels)
    typed, compared = {}, {}
    for r in claims:
        for label in r.get("proves", []) or []:
            typed.setdefault(label, []).extend(st.get("latex") or "" for st in r["statements"])
            compared.setdefault(label, []).extend(st.get("latex") or "" for st in r["statements"]
                                                  if st.get("display_check") == "compared")
    for d in result.displays:
        if d.category == "checked":
            missing = untied_steps(d.latex, typed[d.label])
            if missing:
                result.untied.append((d.label, missing))
            elif not untied_steps(d.latex, compared[d.label]):
                result.compared += 1
    result.exercises = _exercises("\n\n".join(markdown))
    result.exercises_checked = sorted({str(r["exercise"]) for r in claims if r.get("exercise")},
                                      key=lambda e: (len(e), e))
    result.claims = len(claims)
    result.errata = sum(r["kind"] == "erratum" for r in recs)
    for r in recs:
        statements = r["statements"] if r["kind"] == "claim" else [r["notes_claim"], *r["corrections"]]
        for s in statements:
            kind = s.get("kind") or s.get("method")
            result.kinds[kind] = result.kinds.get(kind, 0) + 1
            result.trivial += bool(s.get("trivial"))
            result.not_compared += s.get("display_check") == "not compared"
    return result


def _relative(path: Path) -> Path:
    try:
        return path.resolve().relative_to(ROOT)
    except ValueError:       # a notebook outside the book (tests)
        return Path(path.name)


def _doc(path: Path) -> str:
    return "/" + str(_relative(path).with_suffix(""))


def statements_table(paths=None) -> str:
    """The status page's table: per chapter, displayed statements checked / definitions / marked
    not machine-checked / unmarked, exercise solutions checked, trivial checks, typed displays not
    compared, and the statements by proof kind; then the reasons given for unchecked displays.

    Parameters
    ----------
    paths : list of Path, optional
        The chapter notebooks (default: every chapter in the table of contents).

    Returns
    -------
    str
        MyST markdown.
    """
    paths = chapter_notebooks() if paths is None else paths
    lines = ["| chapter | displayed statements | checked | definitions | not machine-checked | unmarked "
             "| exercise solutions checked | trivial checks | displays not compared | checked displays not tied "
             "to their check | checked displays compared with the checked expressions | statements by proof kind |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    reasons = []
    totals = dict.fromkeys(["displays", *CATEGORIES, "exercises", "checked_ex", "trivial", "not_compared",
                            "untied", "compared"], 0)
    for path in paths:
        s = chapter_statements(path)
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(s.kinds.items(), key=lambda kv: -kv[1]))
        lines.append(f"| {{doc}}`{_doc(path)}` | {len(s.displays)} | {s.count('checked')} | {s.count('definition')} "
                     f"| {s.count('unchecked')} | {s.count('unmarked')} | {len(s.exercises_checked)} of "
                     f"{len(s.exercises)} | {s.trivial} | {s.not_compared} | {len(s.untied)} | {s.compared} | {kinds or '-'} |")
        for d in s.displays:
            if d.category == "unchecked":
                reasons.append(f"| {{doc}}`{_doc(path)}` | {d.label and '{eq}`' + d.label + '`' or '(no label)'} "
                               f"| {d.reason.replace('|', '/')} |")
        totals["displays"] += len(s.displays)
        for c in CATEGORIES:
            totals[c] += s.count(c)
        totals["exercises"] += len(s.exercises)
        totals["checked_ex"] += len(s.exercises_checked)
        totals["trivial"] += s.trivial
        totals["not_compared"] += s.not_compared
        totals["untied"] += len(s.untied)
        totals["compared"] += s.compared
    lines.append(f"| **total** | {totals['displays']} | {totals['checked']} | {totals['definition']} "
                 f"| {totals['unchecked']} | {totals['unmarked']} | {totals['checked_ex']} of {totals['exercises']} "
                 f"| {totals['trivial']} | {totals['not_compared']} | {totals['untied']} | {totals['compared']} | |")
    if reasons:
        lines += ["", "Displayed statements marked as not machine-checked, with the reason given:", "",
                  "| chapter | equation | why it is not machine-checked |", "|---|---|---|"] + reasons
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("selectors", nargs="*", help="substrings of chapter paths (default: all)")
    parser.add_argument("--list", action="store_true", help="list every display block with its category")
    args = parser.parse_args(argv)
    paths = chapter_notebooks(args.selectors)
    print(statements_table(paths))
    status = 0
    for path in paths:
        s = chapter_statements(path)
        if args.list:
            print(f"\n{_relative(path)}")
            for d in s.displays:
                first = d.latex.splitlines()[0][:70] if d.latex else ""
                print(f"  cell {d.cell:3d}  {d.category:<10} {d.label or '-':<28} {first}")
        if s.unmarked or s.dangling:
            status = 1
            for d in s.unmarked:
                print(f"{path.name}: cell {d.cell}: unmarked display {d.label or ''} {d.latex[:60]!r}", file=sys.stderr)
            for label in s.dangling:
                print(f"{path.name}: proves={label!r} but no display carries that label", file=sys.stderr)
        for h in s.hidden:
            status = 1
            print(f"{path.name}: display math outside a $$ block (write it as one): {h}", file=sys.stderr)
        if s.untied:
            status = 1
            for label, missing in s.untied:
                print(f"{path.name}: display ({label}) has steps in no typed display of its checks: "
                      + "; ".join(missing), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
