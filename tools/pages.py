"""Regenerate the generated parts of the book's pages from the chapters themselves.

    python tools/pages.py           # rewrite the pages
    python tools/pages.py --check   # exit 1 if a page is out of date (used by the tests)

- book/back/errata.md   every erratum recorded in any chapter's stored outputs, linked to the
                        chapter's ``(erratum-<id>)=`` label;
- book/back/status.md   execution time of every chapter (book/back/timings.json, written by
                        tools/execute.py) and the versions of the packages the book runs on;
- book/front/sources.md the five notes by name (``mlnotes.symbolic.NOTES``) with what they are and
                        which chapters mirror them, and the coverage table (read from each
                        chapter's "Mirrors" box);
- book/intro.md         the plan of the book: every part and chapter of the course, marking which
                        chapters exist (those in _toc.yml);
- book/back/glossary.md a MyST ``{glossary}`` of the terms in book/back/glossary/*.yml.

Only the text between ``<!-- generated:start -->`` and ``<!-- generated:end -->`` is replaced.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from importlib import metadata
from pathlib import Path

import nbformat
import yaml

from mlnotes.symbolic._layout import break_lines   # the one line breaker of the verdicts and this page
from nbtools import ROOT, chapter_notebooks, records, title

try:  # the statement counter of the checker (tools/statements.py); the status page says if it is missing
    import statements
except ImportError:  # pragma: no cover - only before tools/statements.py lands
    statements = None

START, END = "<!-- generated:start -->", "<!-- generated:end -->"
ERRATA = ROOT / "book" / "back" / "errata.md"
STATUS = ROOT / "book" / "back" / "status.md"
SOURCES = ROOT / "book" / "front" / "sources.md"
TIMINGS = ROOT / "book" / "back" / "timings.json"
INTRO = ROOT / "book" / "intro.md"
GLOSSARY = ROOT / "book" / "back" / "glossary.md"
GLOSSARY_DIR = ROOT / "book" / "back" / "glossary"
STATEMENTS_FUNCTION = "chapter_statements"  # tools/statements.py: path -> ChapterStatements
PACKAGES = ["mlnotes", "numpy", "scipy", "scikit-learn", "sympy", "matplotlib", "ipywidgets", "ipykernel",
            "jupyter-book", "sphinx", "myst-nb", "nbval", "nbclient", "pytest", "playwright"]
# Mirrors lines: the named format of PLAN.md and the old one with the file name.
#   - Foundations course notes (`001`), §17 conditional probability models (lines 1305-1395)
#   - `001_7bc1f8d3beba6b55.txt`, §17 conditional probability models (lines 1305-1395)
MIRROR_LINES = [re.compile(r"^- (?P<name>[^`\n]+?) \(`(?P<number>\d{3})`\), (?P<where>.+)$", re.M),
                re.compile(r"^- `(?P<notes>\d{3}_[0-9a-f]{16}\.txt)`, (?P<where>.+)$", re.M)]


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def _notes_catalog():
    from mlnotes.symbolic import NOTES

    return NOTES


def mirrors(path) -> list[dict]:
    """The entries of a chapter's "Mirrors" box, in order: ``notes`` (file), ``number``, ``name``
    (as in ``mlnotes.symbolic.NOTES``), ``where`` (section and lines) and ``named`` (whether the line
    names the notes, the new format). An unknown number or file gives ``notes=None``."""
    nb = nbformat.read(path, as_version=4)
    notes_catalog = _notes_catalog()
    for cell in nb.cells:
        if cell.cell_type == "markdown" and ":::{admonition} Mirrors" in cell.source:
            found = []
            for pattern in MIRROR_LINES:
                for m in pattern.finditer(cell.source):
                    key = m.groupdict().get("number") or m.group("notes")
                    entry = notes_catalog[key] if key in notes_catalog else None
                    found.append((m.start(), {
                        "notes": entry.file if entry else None, "number": entry.number if entry else key,
                        "name": entry.name if entry else m.groupdict().get("name"), "where": m.group("where"),
                        "named": "number" in m.groupdict(), "line_name": m.groupdict().get("name")}))
            return [entry for _, entry in sorted(found, key=lambda t: t[0])]
    return []


def _doc(path) -> str:
    return "/" + str(path.relative_to(ROOT).with_suffix(""))


def _chapter_number(path) -> int | None:
    match = re.match(r"(\d+)_", Path(path).stem)
    return int(match.group(1)) if match else None


def _natural_key(erratum_id: str):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", erratum_id)]


# Why an id of a chapter's erratum series is not in the book (ids are never reused, so a withdrawn one
# leaves a gap). Add an entry when a chapter withdraws an erratum (e.g. re-checking shows the notes right).
RETIRED: dict[str, str] = {}

# Plain-text mathematics in an erratum title (outside $...$ and `...`): the errata page shows titles as
# written, so such a title must be rewritten with MyST math by its chapter (test_hygiene checks it).
PLAIN_MATH = re.compile(
    r"\b\w+\^[\w{(+-]|\b[A-Za-z]+_[\w{]|\b(?:lambda|sigma|Sigma|mu|theta|thetahat|epsilon|eta|pi|rho|alpha|"
    r"gamma|delta|omega|phi|psi|tau|nabla)\b|(?<![<>!=])(?:>=|<=|!=|->)(?![=>])|\b(?:sqrt|exp|ln|det)\(|"
    r"\|\||\b[a-zA-Z]\([a-zA-Z0-9, ]+\)(?= *[=<>]| is| +as)")


#: More plain-text math that a claim's or an erratum's title must not hold: fractions with a letter or
#: bracket (1/L, (p+1)/n, not 60/40), one-letter equations and inequalities (f = 0), starred optima (f*)
TITLE_PLAIN_MATH = re.compile(
    r"\b\d+/[A-Za-z(]|\b[A-Za-z]/[\w(]|\)/[\w(]|(?<![\w'])[A-Za-z] ?(?:=|<|>)(?!=)|\b[A-Za-z]\*(?!\w)")


def _prose(text: str) -> str:
    """``text`` with its math (``$...$``, ``$$...$$``) and code spans blanked out."""
    return re.sub(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`", " ", text, flags=re.S)


def plain_math(text: str) -> list[str]:
    """The pieces of ``text`` that look like mathematics typed as plain text (outside ``$...$`` and code)."""
    return [m.group(0) for m in PLAIN_MATH.finditer(_prose(text))]


def title_plain_math(title: str) -> list[str]:
    """The pieces of a claim's or an erratum's ``title`` that look like mathematics typed as plain text."""
    return plain_math(title) + [m.group(0) for m in TITLE_PLAIN_MATH.finditer(_prose(title))]


SHORT_MATH = 70  # characters of LaTeX that fit inline in the 688 px column; longer goes on its own line


def _math_item(latex: str, indent: str = "") -> str:
    """A list item with one formula: inline when short, a display block (broken at its side conditions)
    when long."""
    latex = latex.strip()
    if len(latex) <= SHORT_MATH and "\n" not in latex:
        return f"{indent}- ${latex}$"
    body = "\n".join(f"{indent}  {line}" for line in break_lines(latex).splitlines())
    return f"{indent}- $$\n{body}\n{indent}  $$"


def _where(source: dict) -> str:
    notes = _notes_catalog()
    key = source.get("number") or source.get("notes")
    entry = notes[key] if key in notes else None
    name = f"{entry.name} (`{entry.number}`)" if entry else f"`{source.get('notes')}`"
    lines = str(source.get("lines", ""))
    plural = "s" if "-" in lines or "," in lines else ""
    section = f", {source['section']}" if source.get("section") else ""
    return f"{name}{section}, line{plural} {lines}"


def errata() -> list[tuple[Path, dict]]:
    """Every erratum record of the book as ``(chapter, record)``, chapters in order, ids sorted naturally."""
    found = []
    for path in chapter_notebooks():
        recs = [r for r in records(nbformat.read(path, as_version=4)) if r["kind"] == "erratum"]
        found += [(path, r) for r in sorted(recs, key=lambda r: _natural_key(r["id"]))]
    return found


def id_gaps(ids: list[str]) -> list[str]:
    """The missing numbers of each series of ids (``LA-1, LA-3`` -> ``LA-2``), in natural order."""
    series: dict[str, list[int]] = {}
    for erratum_id in ids:
        match = re.fullmatch(r"(.*?)(\d+)", erratum_id)
        if match:
            series.setdefault(match.group(1), []).append(int(match.group(2)))
    return [f"{prefix}{n}" for prefix, numbers in series.items() for n in range(1, max(numbers) + 1)
            if n not in numbers]


def _formulas(head: str, latexes: list[str]) -> list[str]:
    """A list item ``head`` with its formulas: on the same line when there is one short formula,
    else one sub-item each."""
    if len(latexes) == 1 and len(latexes[0].strip()) <= SHORT_MATH and "\n" not in latexes[0]:
        return [f"- {head} ${latexes[0].strip()}$"]
    return [f"- {head}"] + [_math_item(latex, "  ") for latex in latexes]


def _erratum_block(rec: dict) -> str:
    label = rec["id"].lower()
    lines = [f"**{{ref}}`{rec['id']} <erratum-{label}>`**: {rec['title'].strip()}", "",
             f"- *where in the notes:* {_where(rec['source'])}"]
    notes_claim = rec.get("notes_claim") or {}
    if notes_claim.get("latex"):
        lines += _formulas("*the notes' claim, refuted:*", [notes_claim["latex"]])
    corrections = [c["latex"] for c in rec.get("corrections", []) if c.get("latex")]
    if corrections:
        lines += _formulas("*corrected, machine-checked:*", corrections)
    return "\n".join(lines) + "\n"


def errata_table() -> str:
    """The errata page: one block per erratum, grouped by chapter (narrow enough for the text column)."""
    found = errata()
    if not found:
        return "No erratum has been recorded yet."
    out = []
    chapter = None
    for path, rec in found:
        if path != chapter:
            chapter = path
            out.append(f"## {title(path)}\n\nFixed in {{doc}}`{_doc(path)}`.\n")
        out.append(_erratum_block(rec))
    ids = [rec["id"] for _, rec in found]
    out.append(f"{len(ids)} errata in total.")
    gaps = id_gaps(ids)
    if gaps:
        unknown = [gap for gap in gaps if gap not in RETIRED]
        out.append("\n**Gaps in the ids.** Each chapter numbers its errata in one series and never reuses an id, "
                   f"so a missing number is an id that is not in the book: {', '.join(gaps)}.")
        out += [f"{gap}: {RETIRED[gap]}." for gap in gaps if gap in RETIRED]
        if unknown:
            out.append(f"For {', '.join(unknown)}, neither the chapters nor the repository's history record why "
                       "the number is missing (the chapters were first committed without them). A chapter that "
                       "withdraws an erratum (because re-checking shows the notes right) says so in its prose and in "
                       "`RETIRED` of `tools/pages.py`, and the reason is shown here.")
    return "\n".join(out)


def statements_table() -> str:
    """Per chapter, in five columns that fit the text column: displayed statements (checked / definitions /
    not machine-checked / unmarked), exercise solutions checked, trivial checks and checked displays not
    tied to their check, counted by the
    checker's ``tools/statements.py`` (``chapter_statements``); then the reasons given for the displays
    that are not machine-checked."""
    count = getattr(statements, STATEMENTS_FUNCTION, None) if statements else None
    if count is None:
        return ("*Displayed statements: not counted in this checkout (the checker's `tools/statements.py` "
                f"with `{STATEMENTS_FUNCTION}` is missing).*")
    lines = ["| chapter | displayed statements: checked / definitions / not machine-checked / unmarked "
             "| exercise solutions checked | trivial checks | checked displays: not tied to their check / compared "
             "with the checked expressions |", "|---|---|---|---|---|"]
    reasons = []
    for path in chapter_notebooks():
        c = count(path)
        split = " / ".join(str(c.count(k)) for k in ("checked", "definition", "unchecked", "unmarked"))
        lines.append(f"| {_short_doc(path)} | {len(c.displays)}: {split} | {len(c.exercises_checked)} of "
                     f"{len(c.exercises)} | {c.trivial} | {len(c.untied)} / {c.compared} |")
        reasons += [f"- {_short_doc(path)}, " + (f"{{eq}}`{d.label}`" if d.label else "an unlabelled display")
                    + f": {d.reason}" for d in c.displays if d.category == "unchecked"]
    if reasons:
        lines += ["", "Displayed statements marked as not machine-checked, with the reason given (chapter, "
                  "equation, reason):", ""] + reasons
    return "\n".join(lines)


def status_table() -> str:
    timings = json.loads(TIMINGS.read_text()) if TIMINGS.exists() else {}
    lines = ["| chapter | execution time (s) | claims | errata |", "|---|---|---|---|"]
    for path in chapter_notebooks():
        rel = str(path.relative_to(ROOT))
        recs = records(nbformat.read(path, as_version=4))
        n_claims = sum(r["kind"] == "claim" for r in recs)
        n_errata = sum(r["kind"] == "erratum" for r in recs)
        seconds = f"{timings[rel]:.1f}" if rel in timings else "not measured"
        lines.append(f"| {{doc}}`{_doc(path)}` | {seconds} | {n_claims} | {n_errata} |")
    lines += ["", "What the chapters display and how much of it is checked (a *trivial* check compares two "
              "sides that were identical when it was built, so it proves nothing; chapters must have none; a checked "
              "display is *tied* to its check when each of its steps is a step of the formula shown with the check; it "
              "is *compared* when, moreover, the checker parsed that formula back and found it equal to the checked "
              "expressions; the other checked displays are tied to the typed formula only, because sympy's parser "
              "cannot read it (vectors, norms, matrices), and their verdicts show the checked form first):", "",
              statements_table()]
    lines += ["", "| package | version |", "|---|---|"]
    for name in PACKAGES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "not installed"
        lines.append(f"| {name} | {version} |")
    return "\n".join(lines)


def _short_doc(path) -> str:
    number = _chapter_number(path)
    return f"{{doc}}`{number} <{_doc(path)}>`" if number is not None else f"{{doc}}`{_doc(path)}`"


# What each set of notes is (their names are mlnotes.symbolic.NOTES, the one list of the five notes).
NOTES_TOPICS = {
    "000": ("lecture notes of a course on probabilistic machine learning and kernel methods",
            "probabilistic regression, MAP, Bayesian learning, generative models, Gaussian mixtures and EM, mixed "
            "regression, generative classification, kernels, kernel SVM, ridge and k-means, linear algebra, PCA, "
            "deep learning, recommender systems"),
    "001": ("notes of a foundations course in machine learning, sections 3-29",
            "learning theory, SGD, excess risk, L1/L2, elastic net, losses, duality, SVM, subgradients, features, "
            "kernels, evaluation, a case study, MLE, GLMs, Bayesian methods, trees, bootstrap, bagging and random "
            "forests, boosting, multiclass, k-means, GMM, EM, neural networks, backpropagation"),
    "002": ("a student's exam summary of a machine-learning course",
            "math toolbox, kNN, trees, probabilistic inference, linear regression and classification, "
            "optimisation, deep learning, SVM and kernels, PCA and SVD, matrix factorisation, t-SNE, autoencoders, "
            "clustering, differential privacy, fairness, adversarial robustness"),
    "003": ("handwritten notes on kernels and support vector machines",
            "kernelised gradient descent, kernels, Mercer's theorem, SVM"),
    "004": ("scribed lectures 11-22 of a machine-learning course",
            "a tutorial of 13 questions on losses, classification and regression; convexity and duals; similarity "
            "and random features; kernel methods; Gaussian processes; interpolation vs regression; deep learning; "
            "transformers; a deep-learning training tutorial"),
}


def notes_table() -> str:
    """The five notes by name: what each is, its topics, and which chapters mirror it."""
    notes = _notes_catalog()
    mirrored: dict[str, list[Path]] = {number: [] for number in notes}
    for path in chapter_notebooks():
        for entry in mirrors(path):
            if entry["number"] in mirrored and path not in mirrored[entry["number"]]:
                mirrored[entry["number"]].append(path)
    lines = ["| notes | what they are | topics | mirrored in chapters |", "|---|---|---|---|"]
    for number, entry in sorted(notes.items()):
        what, topics = NOTES_TOPICS.get(number, ("", ""))
        chapters = ", ".join(_short_doc(p) for p in mirrored[number]) or "none yet"
        lines.append(f"| **{entry.name}** (`{number}`, file `{entry.file}`) | {what} | {topics} | {chapters} |")
    return "\n".join(lines)


def coverage_table() -> str:
    lines = ["| chapter | notes | section and lines |", "|---|---|---|"]
    for path in chapter_notebooks():
        for entry in mirrors(path):
            notes = f"{entry['name']} (`{entry['number']}`)" if entry["notes"] else f"unknown `{entry['number']}`"
            lines.append(f"| {_short_doc(path)} | {notes} | {_escape(entry['where'])} |")
    return "\n".join(lines)


def sources_page() -> str:
    return (notes_table() + "\n\n## Coverage: which chapter mirrors which notes\n\n"
            "Generated from the \"Mirrors\" box at the top of each chapter (by `tools/pages.py`), so it stays "
            "true as chapters land; the test suite fails when it is out of date.\n\n" + coverage_table())


# The plan of the course (../shared/COURSE.md): parts and chapters by number. A chapter links to its page
# when it is in _toc.yml; the others are marked as planned.
PLAN = [
    ("Part I - Mathematical toolbox", {1: "Linear algebra", 2: "Matrix calculus", 3: "Probability and Gaussians"}),
    ("Part II - Learning as optimisation", {4: "Statistical learning theory", 5: "Loss functions",
                                            6: "Gradient methods", 7: "Convexity and Lagrangian duality",
                                            8: "Subgradient methods"}),
    ("Part III - Linear models", {9: "Linear regression", 10: "Regularisation", 11: "Probabilistic regression",
                                  12: "Linear classification", 13: "Generative classifiers"}),
    ("Part IV - Margins and kernels", {14: "Support vector machines", 15: "Feature maps and kernels",
                                       16: "Kernel methods", 17: "Gaussian processes"}),
    ("Part V - Neighbours, evaluation, trees and ensembles", {18: "Nearest neighbours and evaluation",
                                                              19: "Decision trees",
                                                              20: "Bootstrap, bagging and random forests",
                                                              21: "Boosting"}),
    ("Part VI - Unsupervised learning", {22: "k-means and hierarchical clustering", 23: "Mixture models and EM",
                                         24: "PCA and the SVD",
                                         25: "Matrix factorisation and recommender systems", 26: "Embeddings"}),
    ("Part VII - Neural networks", {27: "Neural networks", 28: "Backpropagation and automatic differentiation",
                                    29: "Training deep networks", 30: "Sequences and transformers"}),
    ("Part VIII - Trustworthy machine learning", {31: "Differential privacy", 32: "Algorithmic fairness",
                                                  33: "Adversarial examples and robustness"}),
]


def toc_chapters() -> dict[int, Path]:
    """The chapters in the table of contents, by number (from the ``NN_`` of their file names)."""
    return {n: p for p in chapter_notebooks() if (n := _chapter_number(p)) is not None}


def plan_list() -> str:
    existing = toc_chapters()
    n_total = sum(len(chapters) for _, chapters in PLAN)
    out = [f"{len(existing)} of the {n_total} planned chapters are written; the others are planned and not "
           "yet in the book (no page links to them).", ""]
    for part, chapters in PLAN:
        written = [n for n in chapters if n in existing]
        state = "written" if len(written) == len(chapters) else ("planned" if not written else "in progress")
        out.append(f"- **{part}** ({state})")
        for number, name in chapters.items():
            if number in existing:
                out.append(f"  {number}. {{doc}}`{name} <{_doc(existing[number])}>`")
            else:
                out.append(f"  {number}. {name} *(planned)*")
    return "\n".join(out)


def glossary_entries() -> list[dict]:
    """Every term of book/back/glossary/*.yml, checked: term, definition and an existing chapter."""
    entries = []
    chapters = {_doc(p).lstrip("/"): p for p in chapter_notebooks()}
    for path in sorted(GLOSSARY_DIR.glob("*.yml")):
        data = yaml.safe_load(path.read_text()) or []
        if not isinstance(data, list):
            raise ValueError(f"{path.relative_to(ROOT)}: expected a list of terms, got {type(data).__name__}")
        for item in data:
            if not isinstance(item, dict) or set(item) != {"term", "definition", "chapter"}:
                raise ValueError(f"{path.relative_to(ROOT)}: each entry needs exactly term, definition and chapter: "
                                 f"{item!r}")
            chapter = str(item["chapter"]).strip().lstrip("/").removesuffix(".ipynb")
            if chapter not in chapters:
                raise ValueError(f"{path.relative_to(ROOT)}: term {item['term']!r} names chapter {chapter!r}, "
                                 "which is not in _toc.yml")
            entries.append({"term": " ".join(str(item["term"]).split()),
                            "definition": " ".join(str(item["definition"]).split()), "chapter": chapters[chapter],
                            "file": path.name})
    seen: dict[str, str] = {}
    for entry in entries:
        key = entry["term"].lower()
        if key in seen:
            raise ValueError(f"glossary term {entry['term']!r} is defined twice ({seen[key]} and {entry['file']})")
        seen[key] = entry["file"]
    return sorted(entries, key=lambda e: e["term"].lower())


def glossary_body() -> str:
    entries = glossary_entries()
    if not entries:
        return "No term has been defined yet."
    out = [f"{len(entries)} terms.", "", "```{glossary}", ":sorted:", ""]
    for entry in entries:
        number = _chapter_number(entry["chapter"])
        out += [entry["term"], f"  {entry['definition']} *Defined in {{doc}}`chapter {number} "
                               f"<{_doc(entry['chapter'])}>`.*", ""]
    return "\n".join(out).rstrip() + "\n```"


def _replace(page, body: str) -> str:
    text = page.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"{page.relative_to(ROOT)} lacks the {START} / {END} markers")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{body}\n{END}{tail}"


def generated() -> dict:
    """The up-to-date text of each generated page."""
    return {ERRATA: _replace(ERRATA, errata_table()),
            STATUS: _replace(STATUS, status_table()),
            SOURCES: _replace(SOURCES, sources_page()),
            INTRO: _replace(INTRO, plan_list()),
            GLOSSARY: _replace(GLOSSARY, glossary_body())}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check that the pages are up to date")
    args = parser.parse_args(argv)
    stale = []
    for page, text in generated().items():
        if page.read_text() != text:
            stale.append(str(page.relative_to(ROOT)))
            if not args.check:
                page.write_text(text)
    if args.check and stale:
        print(f"out of date: {stale}; run python tools/pages.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
