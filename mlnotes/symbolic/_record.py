"""Recording claims and errata in a chapter: render, record, raise on failure.

:func:`claim` and :func:`erratum` take :class:`~mlnotes.symbolic.Verdict` objects from the deciders
(:func:`~mlnotes.symbolic.equal`, :func:`~mlnotes.symbolic.holds`, :func:`~mlnotes.symbolic.agree`,
:func:`~mlnotes.symbolic.measured`, ...), display them in the notebook as a compact verdict (a
headline with the proof kinds, the details one click away) and attach a machine-readable record
to the output's metadata (key ``"mlnotes"``). Each record is also appended, as one JSON line, to
the file named by the environment variable :data:`VERDICT_LOG_ENV` when it is set: the verify
command reads the verdicts of *this* execution from there, never from stored outputs. A false
claim, a notes' claim that turns out true, or a correction that fails raises :class:`ClaimError`,
so nbval and the verify command fail.
"""

from __future__ import annotations

import json
import os
import sys
import re
from dataclasses import dataclass
from typing import NamedTuple

from ._layout import LINE_CHARS, break_lines
from ._prove import KINDS, MAX_CHECKED_TEXT, PROOF_KINDS, Verdict, forget_integrals

__all__ = ["ClaimError", "Source", "NOTES", "NotesFile", "claim", "erratum", "summary", "reset", "records",
           "RECORD_KEY", "VERDICT_LOG_ENV"]

RECORD_KEY = "mlnotes"

#: Environment variable naming a JSON-lines file to which every record is appended as it is made.
VERDICT_LOG_ENV = "MLNOTES_VERDICT_LOG"

#: The records shown in this execution, as ``(key, cell run, record)`` with ``key = (kind, label)``:
#: a record made again in a *later* cell run (a cell re-run, a second Run All) replaces the earlier
#: ones with its key, while several records with one key in the same cell run (a loop) all count
#: (read by :func:`summary`, emptied by :func:`reset`).
_REGISTRY: list[tuple] = []


def reset() -> None:
    """Forget the claims and errata recorded so far (the first cell of a chapter calls it, through
    ``mlnotes.book.setup()``, so that :func:`summary` counts one execution), and the integrals
    evaluated so far (kept within one execution only)."""
    _REGISTRY.clear()
    forget_integrals()


def records() -> list[dict]:
    """The claim and erratum records of this execution, in the order they were first made."""
    return [record for _, _, record in _REGISTRY]


def _cell_run():
    """An id of the current cell execution (IPython's execution count; None outside IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency
        return None
    shell = get_ipython()
    return getattr(shell, "execution_count", None) if shell is not None else None


class NotesFile(NamedTuple):
    """One of the lecture-notes files the book mirrors."""

    number: str
    file: str
    name: str


class _NotesCatalog(dict):
    """``number -> NotesFile``; lookups (``in``, ``[]``) also accept the file name."""

    def resolve(self, key: str) -> NotesFile:
        """The notes for a number (``"001"``) or a file name (``"001_7bc1f8d3beba6b55.txt"``)."""
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        for entry in self.values():
            if key == entry.file:
                return entry
        raise KeyError(key)

    def __contains__(self, key):
        try:
            self.resolve(key)
        except (KeyError, TypeError):
            return False
        return True

    def __getitem__(self, key):
        return self.resolve(key)


#: The five lecture notes the book mirrors: number -> (number, file, name). ``in`` and ``[]``
#: accept the file name too.
NOTES = _NotesCatalog({n.number: n for n in [
    NotesFile("000", "000_6a806602d44e058a.txt", "Probabilistic ML and kernels notes"),
    NotesFile("001", "001_7bc1f8d3beba6b55.txt", "Foundations course notes"),
    NotesFile("002", "002_53f6686a3b2305d8.txt", "Exam summary"),
    NotesFile("003", "003_677d8baa3ec0d3c2.txt", "Handwritten kernel and SVM notes"),
    NotesFile("004", "004_3913f9fd1e29819c.txt", "Scribed lectures 11-22"),
]})


class _ShownAlready:
    """Mixin for return values of :func:`claim` and :func:`erratum`: they have displayed themselves,
    so a notebook cell ending with the call shows nothing more (and nothing run-dependent)."""

    def _ipython_display_(self):
        pass


class ClaimVerdicts(_ShownAlready, tuple):
    """The verdicts of a recorded claim (a tuple of :class:`Verdict`)."""


class ErratumRecord(_ShownAlready, dict):
    """The record of an erratum (a dict, as stored in the notebook)."""


class SummaryCounts(_ShownAlready, dict):
    """The counts shown by :func:`summary`."""


class ClaimError(AssertionError):
    """A claim of the book failed (or an erratum did not behave as recorded)."""


@dataclass(frozen=True)
class Source:
    """Where in the notes a statement comes from.

    Parameters
    ----------
    notes : str
        The notes' number (``"001"``) or file name (``"001_7bc1f8d3beba6b55.txt"``), see
        :data:`NOTES`. Stored as the file name.
    lines : str
        Line or line range in that file, e.g. ``"281"`` or ``"269-299"``.
    section : str
        The section or question, e.g. ``"§16 conditional probability models"``.

    Examples
    --------
    >>> str(Source("001", "1291-1293", "§16 models"))
    'Foundations course notes (`001`), §16 models (lines 1291-1293)'
    """

    notes: str
    lines: str
    section: str = ""

    def __post_init__(self):
        if not isinstance(self.notes, str) or self.notes not in NOTES:
            raise ValueError(f"unknown notes {self.notes!r}; expected a number {sorted(NOTES)} "
                             f"or a file name {[n.file for n in NOTES.values()]}")
        object.__setattr__(self, "notes", NOTES[self.notes].file)
        if not isinstance(self.lines, str) or not re.fullmatch(r"\d+(-\d+)?(, ?\d+(-\d+)?)*", self.lines):
            raise ValueError(f"lines must look like '281' or '269-299', got {self.lines!r}")

    @property
    def number(self) -> str:
        return NOTES[self.notes].number

    @property
    def name(self) -> str:
        return NOTES[self.notes].name

    def __str__(self):
        lines = f"line{'s' if '-' in self.lines or ',' in self.lines else ''} {self.lines}"
        where = f"{self.section} ({lines})" if self.section else lines
        return f"{self.name} (`{self.number}`), {where}"

    def as_dict(self):
        return {"notes": self.notes, "number": self.number, "name": self.name, "lines": self.lines,
                "section": self.section}


_MARK = {True: "✔", False: "✘"}
_WARN = "⚠"

#: What each kind says in a verdict's details.
_KIND_WORDS = {
    "proved": "proved (sympy, symbolic)",
    "exact computation": "exact computation (exact arithmetic, no symbols)",
    "numeric evidence": "numeric evidence (high-precision evaluation at random points; not a proof)",
    "counterexample": "counterexample",
    "implementation agrees": "implementation agrees (derived formula against the mlnotes code)",
    "measured": "measured (floating-point results of running code)",
    "trivial": "trivial (the two sides were identical when built: no proof)",
    "undecided": "undecided",
}

#: MyST labels that ``proves=`` may name (as written in ``$$ ... $$ (label)``).
_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_:.\-]*")


def _counterexample_md(cex: dict | None) -> str:
    if not cex:
        return ""
    parts = [f"${k} = {v}$" for k, v in cex.items() if v is not True]
    return "Counterexample: " + ", ".join(parts) + "."


def _record(v: Verdict) -> dict:
    rec = {"latex": v.latex, "checked": v.checked, "display": v.display, "display_check": v.display_check,
           "holds": v.holds, "kind": v.kind, "method": v.method, "detail": v.detail, "trivial": v.trivial}
    if v.counterexample:
        rec["counterexample"] = {k: (val if isinstance(val, (str, bool)) else str(val))
                                 for k, val in v.counterexample.items()}
    if os.environ.get("MLNOTES_RECORD_TIME") or os.environ.get(VERDICT_LOG_ENV):
        rec["seconds"] = round(v.seconds, 4)
    return rec


# The book's TeX macros (``_config.yml``, sphinx.config.mathjax3_config.tex.macros; a test keeps the two equal).
# A verdict is an output of its own: JupyterLab renders it without the notebook's macro cell, so the
# macros are expanded before it is shown.
BOOK_MACROS = {
    "R": r"\mathbb{R}",
    "E": r"\mathbb{E}",
    "argmin": r"\operatorname*{arg\,min}",
    "argmax": r"\operatorname*{arg\,max}",
    "diag": r"\operatorname{diag}",
    "rank": r"\operatorname{rank}",
    "tr": r"\operatorname{tr}",
    "T": r"\top",
}
_MACRO = re.compile(r"(?<!\\)\\(" + "|".join(sorted(BOOK_MACROS, key=len, reverse=True)) + r")(?![A-Za-z])")


def expand_macros(text: str) -> str:
    """``text`` with every book macro (``\\rank``, ``\\R``, ...) replaced by its definition."""
    return _MACRO.sub(lambda m: BOOK_MACROS[m.group(1)], text)


def _show(markdown: str, metadata: dict | None = None):
    """Show ``markdown`` in a notebook (printed outside IPython), with the book's macros expanded.
    ``text/plain`` carries the same text, so that nbval compares what a reader sees."""
    from IPython import get_ipython
    from IPython.display import display

    markdown = expand_macros(markdown)
    if get_ipython() is None:
        print(markdown)
        return
    display({"text/markdown": markdown, "text/plain": markdown}, raw=True, metadata=metadata)


def _log(record: dict) -> None:
    """Append ``record`` to the side-channel log named by :data:`VERDICT_LOG_ENV`, if set."""
    path = os.environ.get(VERDICT_LOG_ENV)
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, default=str, ensure_ascii=False) + "\n")


def _display(markdown: str, record: dict, key: tuple):
    """Show ``markdown``, attach ``record`` to the output metadata, keep it in the registry of this
    execution (replacing an earlier record with the same key) and log it."""
    run = _cell_run()
    _REGISTRY[:] = [entry for entry in _REGISTRY if entry[0] != key or (run is not None and entry[1] == run)]
    _REGISTRY.append((key, run, record))
    _log(record)
    _show(markdown, {RECORD_KEY: record if os.environ.get("MLNOTES_RECORD_TIME") else _strip_seconds(record)})


def _strip_seconds(record):
    if isinstance(record, dict):
        return {k: _strip_seconds(v) for k, v in record.items() if k != "seconds"}
    if isinstance(record, list):
        return [_strip_seconds(v) for v in record]
    return record


def _math_block(latex: str) -> str:
    """A display block; a formula longer than :data:`LINE_CHARS` characters of LaTeX is broken into lines at
    its top-level break points (``_layout.break_lines``) so that it fits the text column."""
    if not latex:
        return ""
    return f"$$\n{break_lines(latex) if len(latex) > LINE_CHARS else latex}\n$$"


def _checked_block(v: Verdict) -> str:
    """The checked form of ``v`` in its details: typeset, or, when its LaTeX is longer than
    ``TYPESET_CHECKED_CHARS``, sympy's text of the checked objects as a code block (``v.checked_text``;
    one text node where the typeset form is hundreds of elements per line, and a reader can paste it into
    sympy). Text beyond ``MAX_CHECKED_TEXT`` characters gives way to the summary that ``v.checked`` holds."""
    if not v.checked_text or len(v.checked_text) > MAX_CHECKED_TEXT:
        return _math_block(v.checked)
    return f"```text\n{v.checked_text}\n```"


def _badges(kinds) -> str:
    """The proof kinds as small badges (inline literals, styled by book/_assets/claims.css)."""
    seen = []
    for k in kinds:
        if k not in seen:
            seen.append(k)
    return " ".join(f"`{k}`" for k in seen)


def _statement_md(v: Verdict) -> list[str]:
    """One statement in the details: the display, its status, and what was checked."""
    status = _MARK[v.holds] if not v.trivial else _WARN
    words = _KIND_WORDS.get(v.kind, v.kind) if v.holds else f"fails ({_KIND_WORDS.get(v.kind, v.kind)})"
    line = f"{status} *{words}*: {v.detail}."
    if v.display_check == "not compared":
        # what the reader sees first is what was checked; the typed form follows, labelled as such
        return ["*Checked:*", "", _checked_block(v), "", line, "",
                "*As typed (display not compared with the checked expressions):*", "", _math_block(v.latex), ""] + (
            [_counterexample_md(v.counterexample), ""] if v.counterexample and not v.holds else [])
    lines = [_math_block(v.latex), ""]
    named = ["*The display's names stand for:*", "", _math_block(v.names), ""] if v.names else []
    if v.display_check == "compared":
        line += (" The display was parsed back and agrees with the checked expressions"
                 + (", its names read as below." if v.names else "."))
        lines += [line, ""] + named
    elif v.display_check == "rendered":
        lines += [line, ""]
    else:
        lead = {"disagrees": "**The display disagrees with what was checked**, which is:",
                "description": "The numbers compared:"}[v.display_check]
        lines += [line, "", lead, "", _checked_block(v), ""] + named
    if v.counterexample and not v.holds:
        lines += [_counterexample_md(v.counterexample), ""]
    return lines


def _shown(v: Verdict) -> str:
    """The formula to show for ``v``: its typed display if it was compared (or none was typed), else the checked form."""
    return v.checked if v.display_check == "not compared" else v.latex


#: A checked form longer than this (characters of LaTeX) is too wide to stay visible in an erratum's box (a
#: matrix of unevaluated derivatives): the box shows the typed form, labelled, and the details the checked one.
VISIBLE_CHECKED_CHARS = 110


def _visible(v: Verdict) -> list[str]:
    """The always-visible lines of a statement in an erratum's box: what was checked, unless that is a long
    machine form next to a typed display that was not compared; then the typed display, said to be one."""
    if v.display_check == "not compared" and len(v.checked) > VISIBLE_CHECKED_CHARS and v.latex:
        return [_math_block(v.latex), "", "*(as typed; not compared with the checked form, which is in the "
                                          "details below)*", ""]
    return [_math_block(_shown(v)), ""]


def _not_compared_badge(verdicts) -> str:
    """A headline badge counting the typed displays that were not compared with what was checked."""
    n = sum(v.display_check == "not compared" for v in verdicts)
    return f" `{n} display{'s' if n > 1 else ''} not compared`" if n else ""


def _verdict_class(ok: bool, trivial: bool) -> str:
    return "mlnotes-verdict-fail" if not ok else ("mlnotes-verdict-trivial" if trivial else "mlnotes-verdict-ok")


def _box(css: str, headline: str, visible: list[str], details_title: str, details: list[str], open_: bool) -> str:
    """A verdict as MyST: a div with the headline (and any always-visible lines), the details in a
    dropdown (open when something failed)."""
    body = "\n".join(details).strip()
    dropdown = [f":::{{dropdown}} {details_title}"] + ([":open:"] if open_ else []) + ["", body, ":::"]
    parts = [f"::::{{div}} {css}", headline, ""] + visible + dropdown + ["::::"]
    return "\n".join(parts)


def _labels(proves) -> list[str]:
    if proves is None:
        return []
    labels = [proves] if isinstance(proves, str) else (list(proves) if isinstance(proves, (tuple, list)) else [proves])
    for label in labels:
        if not isinstance(label, str) or not _LABEL.fullmatch(label):
            raise ValueError(f"proves must name equation labels such as 'lr-normal-equations' "
                             f"(letters, digits, '-', '_', ':', '.'), got {label!r}")
    return labels


def claim(title: str, *verdicts: Verdict, proves=None, exercise=None, label: str | None = None) -> "ClaimVerdicts":
    """State a claim of the book: show it with its status, record it, raise if it fails.

    Parameters
    ----------
    title : str
        A short name of the claim, e.g. ``"Normal equations"``.
    *verdicts : Verdict
        One or more decided statements that together make up the claim.
    proves : str or sequence of str, optional
        Labels of the markdown display equations (written ``$$ ... $$ (label)``) that this claim
        proves; the verdict links to them with ``{eq}`` and the statements table counts them as
        checked.
    exercise : str or int, optional
        The exercise whose solution this claim checks (e.g. ``"3"``); the cell goes right after
        the exercise's solution dropdown.
    label : str, optional
        A stable identifier of the record (defaults to the title); a second claim with the same
        label in one execution replaces the first (re-running a cell does not count it twice).

    Returns
    -------
    tuple of Verdict

    Raises
    ------
    ClaimError
        If any statement does not hold; the message shows what was checked.
    TypeError
        If no verdict is given or an argument is not a Verdict.
    ValueError
        If a ``proves`` label is not a valid label.
    """
    if not verdicts:
        raise TypeError("claim() needs at least one Verdict")
    bad = [type(v).__name__ for v in verdicts if not isinstance(v, Verdict)]
    if bad:
        raise TypeError(f"claim() takes Verdicts (from equal, holds, agree, measured, ...), got {bad}")
    labels = _labels(proves)
    exercise = None if exercise is None else str(exercise)
    ok = all(v.holds for v in verdicts)
    trivial = any(v.trivial for v in verdicts)
    mark = _MARK[False] if not ok else (_WARN if trivial else _MARK[True])
    links = (" · proves " + ", ".join(f"{{eq}}`{lab}`" for lab in labels)) if labels else ""
    ex = f" · checks the solution of exercise {exercise}" if exercise else ""
    headline = f"**{mark} {title}** {_badges(v.kind for v in verdicts)}{_not_compared_badge(verdicts)}{links}{ex}"
    if trivial:
        headline += f" · {_WARN} {sum(v.trivial for v in verdicts)} trivial check(s): no proof"
    details = []
    for v in verdicts:
        details += _statement_md(v)
    n = len(verdicts)
    record = {"kind": "claim", "title": title, "label": label or title, "proves": labels, "exercise": exercise,
              "holds": ok, "trivial": trivial, "statements": [_record(v) for v in verdicts]}
    markdown = _box(f"mlnotes-claim {_verdict_class(ok, trivial)}", headline, [],
                    f"{n} statement{'s' if n > 1 else ''}: what was checked", details, open_=not ok)
    _display(markdown, record, ("claim", label or title))
    if not ok:
        failed = [v for v in verdicts if not v.holds]
        _fail(f"claim {title!r} fails: " + "; ".join(_failure(v) for v in failed))
    return ClaimVerdicts(verdicts)


def _fail(message: str) -> None:
    """Raise :class:`ClaimError` with ``message``; under the verify command (:data:`VERDICT_LOG_ENV` set), where
    the failure is already in the verdict log, say it on stderr instead and go on, so the claims after it in
    the same cell still get verdicts of their own."""
    if os.environ.get(VERDICT_LOG_ENV):
        print(f"ClaimError (recorded in the verdict log; execution goes on): {message}", file=sys.stderr)
        return
    raise ClaimError(message)


def _failure(v: Verdict) -> str:
    """A failed statement for an error message: what was checked, the display, why it failed."""
    text = f"checked {v.checked}"
    if v.display is not None and v.display != v.checked:
        text += f" (displayed as {v.display})"
    text += f": {v.detail}"
    if v.counterexample:
        text += f"; counterexample {v.counterexample}"
    return text


def erratum(id: str, source: Source, title: str, *, notes: Verdict, correction: Verdict | tuple,
            explanation: str = "") -> dict:
    """Record an error in the notes: the notes' claim fails, the correction holds.

    Parameters
    ----------
    id : str
        Stable identifier, e.g. ``"LR-1"`` (letters, digits and dashes). The chapter must carry a
        MyST label ``(erratum-<id in lower case>)=`` where the erratum is discussed; the errata page
        links to it.
    source : Source
        Where the notes say it.
    title : str
        One line: what is wrong.
    notes : Verdict
        The notes' claim, decided. It must fail (with a counterexample where one exists).
    correction : Verdict or tuple of Verdict
        The corrected statement(s). Each must hold.
    explanation : str, optional
        Markdown shown under the title.

    Returns
    -------
    dict
        The record attached to the notebook output.

    Raises
    ------
    ClaimError
        If the notes' claim holds (then it is no erratum) or a correction fails.
    """
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]*(-[A-Za-z0-9]+)+", id):
        raise ValueError(f"erratum id must look like 'LR-1', got {id!r}")
    if not isinstance(source, Source):
        raise TypeError("source must be a mlnotes.symbolic.Source")
    corrections = correction if isinstance(correction, tuple) else (correction,)
    if not all(isinstance(v, Verdict) for v in (notes, *corrections)):
        raise TypeError("notes and correction must be Verdicts (from equal, holds, differs, ...)")
    # a typed display that disagrees with what was checked makes a verdict fail; for the notes' claim
    # that failure is no refutation of the notes (what was shown is not what was checked)
    display_wrong = [v for v in (notes, *corrections) if v.display_check == "disagrees"]
    refuted = not notes.holds and notes.display_check != "disagrees"
    fixed = all(c.holds for c in corrections)
    ok = refuted and fixed
    trivial = any(c.trivial for c in corrections)
    refuted_kind = notes.kind if notes.kind != "trivial" else "counterexample"
    headline = (f"**{_WARN if ok else _MARK[False]} Erratum {id}: {title}** "
                f"{_badges([f'refuted: {refuted_kind}'] + [c.kind for c in corrections])}"
                f"{_not_compared_badge((notes, *corrections))} · "
                f"{str(source).replace('`', '')}")
    if trivial:
        headline += f" · {_WARN} trivial correction check(s): no proof"
    visible = [explanation, ""] if explanation else []
    # what stays visible is what was checked: a typed display that was not compared gives way to the checked form
    visible += ["*The notes claim:*", ""] + _visible(notes) + ["*Correction:*", ""]
    for c in corrections:
        visible += _visible(c)
    details = ["*The notes' claim:*", ""]
    if refuted:
        details += [f"{_MARK[False]} refuted (*{_KIND_WORDS.get(notes.kind, notes.kind)}*: {notes.detail}). "
                    f"{_counterexample_md(notes.counterexample)}", ""]
        if notes.display_check in ("not compared", "disagrees", "description"):
            details += ["What was checked:", "", _checked_block(notes), ""]
    elif notes.display_check == "disagrees":
        details += [f"{_MARK[False]} the display of the notes' claim disagrees with what was checked "
                    f"({notes.detail}), which is:", "", _checked_block(notes), ""]
    else:
        details += [f"{_MARK[True]} unexpectedly holds ({notes.detail}): this is not an erratum.", ""]
    details += ["*Correction:*", ""]
    for c in corrections:
        details += _statement_md(c)
    record = {"kind": "erratum", "id": id, "title": title, "source": source.as_dict(), "holds": ok,
              "trivial": trivial, "explanation": explanation, "notes_claim": _record(notes),
              "corrections": [_record(c) for c in corrections]}
    markdown = _box(f"mlnotes-erratum {_verdict_class(ok, trivial)}", headline, visible,
                    "How the notes' claim was refuted and the correction checked", details, open_=not ok)
    _display(markdown, record, ("erratum", id))
    if display_wrong:
        _fail(f"erratum {id}: a typed display disagrees with what was checked: " + "; ".join(
            _failure(v) for v in display_wrong))
    elif not refuted:
        _fail(f"erratum {id}: the notes' claim holds ({_failure(notes)}), so it is no erratum")
    elif not fixed:
        _fail(f"erratum {id}: a correction fails: " + "; ".join(_failure(c) for c in corrections if not c.holds))
    return ErratumRecord(record)


def count(recs: list[dict]) -> dict:
    """Counts of claim/erratum records: ``claims``, ``errata``, ``statements`` by kind, ``trivial``
    (statements), ``not_compared`` (typed displays not compared with the checked objects),
    ``proves`` (labels), ``exercises`` (exercise numbers checked) and ``failed`` (titles or ids)."""
    claims = [r for r in recs if r["kind"] == "claim"]
    errata = [r for r in recs if r["kind"] == "erratum"]
    statements = [s for r in claims for s in r["statements"]]
    statements += [s for r in errata for s in [r["notes_claim"], *r["corrections"]]]
    by_kind: dict[str, int] = {}
    for st in statements:
        kind = st.get("kind") or st.get("method")
        by_kind[kind] = by_kind.get(kind, 0) + 1
    return {"claims": len(claims), "errata": [r["id"] for r in errata],
            "statements": {k: by_kind[k] for k in sorted(by_kind, key=lambda k: (KINDS.index(k) if k in KINDS else 99, k))},
            "trivial": sum(bool(st.get("trivial")) for st in statements),
            "not_compared": sum(st.get("display_check") == "not compared" for st in statements),
            "proves": [lab for r in claims for lab in r.get("proves", [])],
            "exercises": [r["exercise"] for r in claims if r.get("exercise")],
            "failed": [r.get("title", r.get("id")) for r in recs if not r["holds"]]}


def summary() -> dict:
    """Show and return the counts of the claims and errata recorded in this execution.

    Returns
    -------
    dict
        See :func:`count`: ``claims``, ``errata`` (ids), ``statements`` (by proof kind),
        ``trivial``, ``not_compared``, ``proves``, ``exercises`` and ``failed``.
    """
    counts = count(records())
    kinds = ", ".join(f"{n} {k}" for k, n in counts["statements"].items())
    proofs = sum(n for k, n in counts["statements"].items() if k in PROOF_KINDS)
    errata = counts["errata"]
    text = (f"**{counts['claims']} claims** and **{len(errata)} errata** checked in this chapter "
            f"({sum(counts['statements'].values())} statements: {kinds}; {proofs} of them proofs, "
            "counterexamples or checks of the implementation). ")
    if counts["exercises"]:
        text += f"Exercise solutions checked: {', '.join(counts['exercises'])}. "
    if counts["trivial"]:
        text += f"{_WARN} {counts['trivial']} trivial check(s), not counted as proofs. "
    if counts["not_compared"]:
        text += f"{counts['not_compared']} typed display(s) not compared with the checked expressions. "
    if errata:
        text += "Errata: " + ", ".join("{ref}`" + e + " <erratum-" + e.lower() + ">`" for e in errata) + ". "
    text += f"**Failed: {counts['failed']}**" if counts["failed"] else "All hold."
    _show(f"::::{{div}} mlnotes-summary\n{text}\n::::")
    return SummaryCounts(counts)
