"""Recording claims and errata in a chapter: render, record, raise on failure.

:func:`claim` and :func:`erratum` take :class:`~mlnotes.symbolic.Verdict` objects from the deciders
(:func:`~mlnotes.symbolic.equal`, :func:`~mlnotes.symbolic.holds`, :func:`~mlnotes.symbolic.agree`),
display them in the notebook as an equation with its status, and attach a machine-readable record
to the output's metadata (key ``"mlnotes"``). The verify command and the errata page read those
records back from the notebooks. A false claim, a notes' claim that turns out true, or a
correction that fails raises :class:`ClaimError`, so nbval and the verify command fail.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ._prove import Verdict

__all__ = ["ClaimError", "Source", "NOTES", "claim", "erratum", "summary", "RECORD_KEY", "SESSION"]

#: Every record shown in this Python session, in order (read by :func:`summary`).
SESSION: list[dict] = []

RECORD_KEY = "mlnotes"

#: The five lecture-notes files the book mirrors, and what each one is.
NOTES = {
    "000_6a806602d44e058a.txt": "Probabilistic ML and kernels",
    "001_7bc1f8d3beba6b55.txt": "Foundations course, sections 3-29",
    "002_53f6686a3b2305d8.txt": "Exam summary",
    "003_677d8baa3ec0d3c2.txt": "Handwritten notes on kernels and SVMs",
    "004_3913f9fd1e29819c.txt": "Scribed lectures 11-22",
}


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
        One of the five notes files (see :data:`NOTES`).
    lines : str
        Line or line range in that file, e.g. ``"281"`` or ``"269-299"``.
    section : str
        The section or question, e.g. ``"L11, question 9"``.
    """

    notes: str
    lines: str
    section: str = ""

    def __post_init__(self):
        if self.notes not in NOTES:
            raise ValueError(f"unknown notes file {self.notes!r}; expected one of {sorted(NOTES)}")
        if not re.fullmatch(r"\d+(-\d+)?(, ?\d+(-\d+)?)*", self.lines):
            raise ValueError(f"lines must look like '281' or '269-299', got {self.lines!r}")

    def __str__(self):
        where = f"{self.section}, " if self.section else ""
        return f"{self.notes} ({where}line{'s' if '-' in self.lines or ',' in self.lines else ''} {self.lines})"

    def as_dict(self):
        return {"notes": self.notes, "lines": self.lines, "section": self.section}


_MARK = {True: "✔", False: "✘"}
_METHOD_WORDS = {
    "symbolic": "proved symbolically",
    "exact": "proved by exact computation",
    "numeric": "checked numerically",
    "implementation": "derivation matches the mlnotes code",
    "counterexample": "disproved by a counterexample",
}


def _status(v: Verdict) -> str:
    if v.holds:
        return f"{_MARK[True]} {_METHOD_WORDS[v.method]} ({v.detail})"
    return f"{_MARK[False]} fails ({v.detail})"


def _counterexample_md(cex: dict | None) -> str:
    if not cex:
        return ""
    parts = [f"${k} = {v}$" for k, v in cex.items()]
    return "Counterexample: " + ", ".join(parts) + "."


def _record(v: Verdict) -> dict:
    rec = {"latex": v.latex, "holds": v.holds, "method": v.method, "detail": v.detail}
    if v.counterexample:
        rec["counterexample"] = v.counterexample
    if os.environ.get("MLNOTES_RECORD_TIME"):
        rec["seconds"] = round(v.seconds, 4)
    return rec


def _show(markdown: str, metadata: dict | None = None):
    """Show ``markdown`` in a notebook (printed outside IPython). ``text/plain`` carries the same
    text, so that nbval compares what a reader sees."""
    from IPython import get_ipython
    from IPython.display import display

    if get_ipython() is None:
        print(markdown)
        return
    display({"text/markdown": markdown, "text/plain": markdown}, raw=True, metadata=metadata)


def _display(markdown: str, record: dict):
    """Show ``markdown``, attach ``record`` to the output metadata, and keep it in :data:`SESSION`."""
    SESSION.append(record)
    _show(markdown, {RECORD_KEY: record})


def _math_block(latex: str) -> str:
    return f"$$\n{latex}\n$$" if latex else ""


def claim(title: str, *verdicts: Verdict, label: str | None = None) -> "ClaimVerdicts":
    """State a claim of the book: show it with its status, record it, raise if it fails.

    Parameters
    ----------
    title : str
        A short name of the claim, e.g. ``"Normal equations"``.
    *verdicts : Verdict
        One or more decided statements that together make up the claim.
    label : str, optional
        A stable identifier (defaults to the title).

    Returns
    -------
    tuple of Verdict

    Raises
    ------
    ClaimError
        If any statement does not hold.
    """
    if not verdicts:
        raise TypeError("claim() needs at least one Verdict")
    ok = all(v.holds for v in verdicts)
    lines = [f"**{_MARK[ok]} Claim: {title}**", ""]
    for v in verdicts:
        lines += [_math_block(v.latex), "", _status(v), ""]
        if v.counterexample:
            lines += [_counterexample_md(v.counterexample), ""]
    record = {"kind": "claim", "title": title, "label": label or title, "holds": ok,
              "statements": [_record(v) for v in verdicts]}
    _display("\n".join(lines).strip(), record)
    if not ok:
        failed = [v for v in verdicts if not v.holds]
        raise ClaimError(f"claim {title!r} fails: " + "; ".join(
            f"{v.latex} ({v.detail}; counterexample {v.counterexample})" for v in failed))
    return ClaimVerdicts(verdicts)


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
    refuted = not notes.holds
    fixed = all(c.holds for c in corrections)
    ok = refuted and fixed
    lines = [f"**{'⚠' if ok else _MARK[False]} Erratum {id}: {title}**", "",
             f"Source: `{source.notes}`, {source.section + ', ' if source.section else ''}line(s) {source.lines}.", ""]
    if explanation:
        lines += [explanation, ""]
    lines += ["*The notes claim:*", "", _math_block(notes.latex), ""]
    if refuted:
        lines += [f"{_MARK[False]} refuted ({notes.method}: {notes.detail}). {_counterexample_md(notes.counterexample)}", ""]
    else:
        lines += [f"{_MARK[True]} unexpectedly holds ({notes.detail}): this is not an erratum.", ""]
    lines += ["*Correction:*", ""]
    for c in corrections:
        lines += [_math_block(c.latex), "", _status(c), ""]
        if not c.holds:
            lines += [_counterexample_md(c.counterexample), ""]
    record = {"kind": "erratum", "id": id, "title": title, "source": source.as_dict(), "holds": ok,
              "explanation": explanation, "notes_claim": _record(notes),
              "corrections": [_record(c) for c in corrections]}
    _display("\n".join(lines).strip(), record)
    if not refuted:
        raise ClaimError(f"erratum {id}: the notes' claim {notes.latex} holds ({notes.detail}), so it is no erratum")
    if not fixed:
        raise ClaimError(f"erratum {id}: a correction fails: " + "; ".join(
            f"{c.latex} ({c.detail})" for c in corrections if not c.holds))
    return ErratumRecord(record)


def summary() -> dict:
    """Show and return the counts of the claims and errata recorded in this session.

    Returns
    -------
    dict
        ``claims`` (number of claims), ``statements`` (checked statements by method), ``errata``
        (their ids) and ``failed`` (titles of failed records; a failure has already raised).
    """
    claims = [r for r in SESSION if r["kind"] == "claim"]
    errata = [r for r in SESSION if r["kind"] == "erratum"]
    by_method: dict[str, int] = {}
    for r in claims:
        for s in r["statements"]:
            by_method[s["method"]] = by_method.get(s["method"], 0) + 1
    for r in errata:
        for s in [r["notes_claim"], *r["corrections"]]:
            by_method[s["method"]] = by_method.get(s["method"], 0) + 1
    failed = [r.get("title", r.get("id")) for r in SESSION if not r["holds"]]
    methods = ", ".join(f"{count} {_METHOD_WORDS.get(m, m).split(' (')[0]}" for m, count in sorted(by_method.items()))
    text = (f"**{len(claims)} claims** and **{len(errata)} errata** checked in this chapter "
            f"({sum(by_method.values())} statements: {methods}). "
            + (f"Errata: {', '.join('{ref}`' + r['id'] + ' <erratum-' + r['id'].lower() + '>`' for r in errata)}. " if errata else "")
            + (f"**Failed: {failed}**" if failed else "All hold."))
    _show(text)
    return SummaryCounts(claims=len(claims), statements=by_method, errata=[r["id"] for r in errata], failed=failed)
