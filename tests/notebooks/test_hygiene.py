"""Notebook hygiene: what nbval cannot see for itself (it skips unexecuted cells and widget views)."""

import re

import nbformat
import pytest

import nbtools
import pages
from mlnotes.symbolic import NOTES

ROOT = nbtools.ROOT
NOTEBOOKS = nbtools.chapter_notebooks()
IDS = [p.stem for p in NOTEBOOKS]


def test_every_notebook_is_in_the_toc_and_every_toc_entry_exists():
    on_disk = {p for p in (ROOT / "book").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts}
    assert on_disk == set(NOTEBOOKS), f"notebooks missing from _toc.yml: {on_disk - set(NOTEBOOKS)}"
    assert NOTEBOOKS, "the book has no chapter notebook"


@pytest.fixture(params=NOTEBOOKS, ids=IDS)
def nb(request):
    return request.param, nbformat.read(request.param, as_version=4)


def test_kernelspec_is_python3(nb):
    _, notebook = nb
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    assert notebook.metadata["language_info"]["name"] == "python"


def test_every_code_cell_was_executed_without_error(nb):
    path, notebook = nb
    code = [c for c in notebook.cells if c.cell_type == "code" and c.source.strip()]
    assert code, f"{path.name} has no code"
    unexecuted = [i for i, c in enumerate(code) if c.execution_count is None]
    assert not unexecuted, f"{path.name}: code cells {unexecuted} were never executed (nbval would skip them)"
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: cells were not run top to bottom in one kernel"
    errors = [i for i, c in enumerate(code) for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name}: stored error output in code cells {errors}"


def test_every_widget_view_has_saved_state(nb):
    path, notebook = nb
    state = notebook.metadata.get("widgets", {}).get(nbtools.WIDGET_STATE, {}).get("state", {})
    views = [o["data"][nbtools.WIDGET_VIEW]["model_id"] for c in notebook.cells if c.cell_type == "code"
             for o in c.outputs if nbtools.WIDGET_VIEW in o.get("data", {})]
    missing = [v for v in views if v not in state]
    assert not missing, f"{path.name}: widget views without saved state (blank on the site): {missing}"


def test_output_ignore_tags_only_on_widget_cells(nb):
    path, notebook = nb
    for cell in notebook.cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if "nbval-ignore-output" in tags or "nbval-skip" in tags:
            assert any(nbtools.WIDGET_VIEW in o.get("data", {}) for o in cell.outputs), (
                f"{path.name}: an output-ignore tag on a cell that shows no widget hides a real difference:\n"
                f"{cell.source[:200]}")


def test_figures_have_alt_text(nb):
    path, notebook = nb
    n_figures = 0
    for cell in notebook.cells:
        if cell.cell_type != "code" or nbtools.WIDGET_VIEW in str(cell.outputs):
            continue
        if any("image/png" in o.get("data", {}) for o in cell.outputs):
            n_figures += 1
            alt = cell.metadata.get("mystnb", {}).get("image", {}).get("alt", "")
            assert len(alt) > 20, f"{path.name}: figure without alt text in cell:\n{cell.source[:200]}"
    assert n_figures >= 2, f"{path.name}: a chapter needs at least two figures, found {n_figures}"


def test_no_unstable_reprs_in_outputs(nb):
    path, notebook = nb
    for cell in notebook.cells:
        for o in cell.get("outputs", []):
            text = o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))
            assert not re.search(r"at 0x[0-9a-f]+>", text), f"{path.name}: memory address in output: {text[:120]}"


def test_chapter_names_the_notes_it_mirrors(nb):
    path, _ = nb
    entries = pages.mirrors(path)
    assert entries, f"{path.name}: no ':::{{admonition}} Mirrors' box with '- Name (`NNN`), section (lines ...)' lines"
    for entry in entries:
        assert entry["notes"] in NOTES, f"{path.name}: unknown notes {entry['number']!r}"
        assert entry["named"] and entry["line_name"] == NOTES[entry["notes"]].name, (
            f"{path.name}: name the notes as '- {NOTES[entry['notes']].name} (`{entry['number']}`), section "
            f"(lines a-b)', not {entry['line_name'] or entry['notes']!r}")
        assert re.search(r"lines? \d+", entry["where"]), f"{path.name}: mirror entry without line numbers: {entry}"


def test_every_erratum_has_its_label_and_every_record_holds(nb):
    path, notebook = nb
    markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    records = nbtools.records(notebook)
    assert records, f"{path.name}: no checked claim"
    for rec in records:
        assert rec["holds"], f"{path.name}: stored record fails: {rec}"
        if rec["kind"] == "erratum":
            label = f"(erratum-{rec['id'].lower()})="
            assert label in markdown, f"{path.name}: erratum {rec['id']} has no '{label}' label for the errata page"


def test_generated_pages_are_up_to_date():
    stale = [str(page.relative_to(ROOT)) for page, text in pages.generated().items() if page.read_text() != text]
    assert not stale, f"out of date: {stale}; run python tools/pages.py"


title_plain_math = pages.title_plain_math


def test_title_plain_math_catches_plain_math_and_passes_typeset_math():
    must_catch = {
        "falls short of sigma^2 by as much": ["sigma^2"],
        "1/L is an upper bound on the step size": ["1/L"],
        "the penalty lambda w^2 is convex": ["w^2", "lambda"],
        "on a x^2 / 2 the step 1/f'' is Newton's": ["x^2", "1/f"],
        "the risk of f = 0, and of f*": ["f =", "f*"],
        "meets the O(1/k) bound; sigma^2/N (n - N)/(n - 1)": ["sigma^2", "1/k", "2/N", ")/("],
        "0-1 loss: predicting class k costs 1 - P(Y = k)": ["Y ="],
        "with x1 + x2 <= 4, t in (0, 1], x* = (1/2, 3/2)": ["<=", "x*"],
        "gradient_descent multiplies the iterate by 1 - eta L": ["gradient_d", "eta"],  # code name, not `code`
    }
    for title, expected in must_catch.items():
        assert sorted(title_plain_math(title)) == sorted(expected), (title, title_plain_math(title))
    must_pass = [
        r"ERM's training risk falls short of $\sigma^2$ by $\sigma^2 (p+1)/n$; for large $n$ it exceeds $\sigma^2$",
        r"$1/L$ is an upper bound on the step size, with $C = 1/(n \lambda)$ and $\lambda^* = 1/\lVert a\rVert^2$",
        "`gradient_descent`'s stopping rule; `fit_linear` with `delta = epsilon * scale_`; `Ridge(alpha = n lambda)`",
        "0-1 loss on a 60/40 test set: Robbins-Monro, one-vs-rest, the Crammer-Singer minimum (to 1e-6)",
        "Exercise 1: the Bayes risk, and a median of four equally likely values",
    ]
    for title in must_pass:
        assert title_plain_math(title) == [], (title, title_plain_math(title))




def test_titles_typeset_their_math(nb):
    """The site shows each claim's and erratum's title as written, and the errata page each erratum's:
    mathematics in a title must be MyST math ($...$), code names code (`...`)."""
    path, notebook = nb
    plain = {(rec.get("id") or rec["title"]): title_plain_math(rec["title"]) for rec in nbtools.records(notebook)}
    plain = {k: v for k, v in plain.items() if v}
    assert not plain, f"{path.name}: claim or erratum titles with plain-text math (write it as $...$): {plain}"


# ---------------------------------------------------------------------------------------------
# No reference to a chapter that is not in the book, no link to nowhere
# ---------------------------------------------------------------------------------------------

CHAPTER_MENTION = re.compile(r"\b[Cc]hapters?\s+(\d+(?:\s*(?:,|and|or|-|–|to)\s*\d+)*)")
# "{cite}`key`, chapter 14" is a chapter of the cited book, not of this one
CITED_BOOK = re.compile(r"\{cite(?::\w+)?\}`[^`]+`,?\s*$")


def chapter_mentions(text: str) -> list[tuple[int, str]]:
    """``(number, mention)`` for each "chapter N" / "chapters N and M" / "Chapter N-M" in ``text``
    (ranges give both ends), except chapters of a cited book."""
    found = []
    for m in CHAPTER_MENTION.finditer(text):
        if CITED_BOOK.search(text[max(0, m.start() - 120):m.start()]):
            continue
        found += [(int(n), m.group(0)) for n in re.findall(r"\d+", m.group(1))]
    return found


def test_chapter_mentions_are_found():
    text = "see chapter 3, Chapters 14 and 18, chapters 4-23; {cite}`shalev2014understanding`, chapter 14 is theirs"
    assert [n for n, _ in chapter_mentions(text)] == [3, 14, 18, 4, 23]


def _readable_texts():
    """(where, text) for every markdown cell, code cell and stored output of the chapters, and every page."""
    for path in nbtools.toc_files():
        rel = path.relative_to(ROOT)
        if path.suffix != ".ipynb":
            yield str(rel), path.read_text()
            continue
        for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
            yield f"{rel} cell {i}", cell.source
            for o in cell.get("outputs", []):
                yield f"{rel} cell {i} output", str(o.get("text", "")) + str(o.get("data", {}).get("text/markdown", ""))


def test_no_reference_to_a_chapter_not_in_the_toc():
    existing = set(pages.toc_chapters())
    bad = [f"{where}: '{mention}'" for where, text in _readable_texts()
           for number, mention in chapter_mentions(text) if number not in existing]
    assert not bad, ("references to chapters that are not in _toc.yml (name the topic instead, e.g. 'the "
                     "support vector machines chapter (planned)', or drop the reference):\n" + "\n".join(bad))


PLACEHOLDER_LINKS = re.compile(r"github\.com/mlnotes/mlnotes|github\.com/executablebooks/jupyter-book|"
                               r"example\.(?:com|org)|<owner>|%7Bowner%7D|/your-?(?:org|name|repo)")


def test_no_built_page_links_nowhere():
    """No page of the built site links to a placeholder repository (run after tools/build.sh)."""
    html = ROOT / "_build" / "html"
    pages_html = sorted(html.rglob("*.html")) if html.exists() else []
    if not pages_html:
        pytest.skip("no built site in _build/html (tools/build.sh builds it)")
    from macros import repository_url

    url = repository_url()
    bad = []
    for page in pages_html:
        text = page.read_text(errors="replace")
        bad += [f"{page.relative_to(html)}: {m.group(0)}" for m in PLACEHOLDER_LINKS.finditer(text)]
        if not url:
            bad += [f"{page.relative_to(html)}: {label} without a repository" for label in
                    ("source-repository-button", "source-issues-button", "launch-binder-button", "launch-colab-button")
                    if label in text]
    assert not bad, "links to nowhere in the built site:\n" + "\n".join(bad[:20])


def test_glossary_terms_are_valid_and_every_term_role_has_an_entry():
    terms = {e["term"].lower() for e in pages.glossary_entries()}  # raises on a malformed file or chapter
    used = {(where, m.group(1)) for where, text in _readable_texts()
            for m in re.finditer(r"\{term\}`(?:[^`<]*<)?([^`<>]+)>?`", text)}
    missing = sorted({f"{where}: {term}" for where, term in used if " ".join(term.split()).lower() not in terms})
    assert not missing, "{term} roles without a glossary entry (add it to book/back/glossary/partN.yml):\n" + \
        "\n".join(missing)


def test_every_cited_key_is_in_the_bibliography():
    bib = (ROOT / "book" / "references.bib").read_text()
    keys = re.findall(r"^@\w+\{([^,\s]+),", bib, flags=re.M)
    assert len(keys) == len(set(keys)), "duplicate bibliography keys"
    dois = re.findall(r"doi\s*=\s*\{([^}]*)\}", bib)
    assert all(re.fullmatch(r"10\.\d{4,9}/\S+", d) for d in dois), f"malformed DOI among {dois}"
    cited = {(where, key.strip()) for where, text in _readable_texts()
             for m in re.finditer(r"\{cite(?::\w+)?\}`([^`]+)`", text) for key in m.group(1).split(",")}
    missing = sorted(f"{where}: {key}" for where, key in cited if key not in keys)
    assert not missing, "citations of keys missing from book/references.bib:\n" + "\n".join(missing)


# ---------------------------------------------------------------------------------------------
# Honest proof kinds (issue 10 §3): a number that came out of a run is measured, however it is wrapped
# ---------------------------------------------------------------------------------------------

#: Attributes that hold what a run produced: scikit-learn's fitted attributes (``coef_``, ``n_iter_``) and
#: scipy's result fields.
RUN_ATTRIBUTES = {"nit", "nfev", "njev", "n_iter", "iterations", "fun", "success"}
#: Deciders that label exact inputs "exact computation" or "proved", and the sympy constructors that make a
#: run's number look exact.
EXACT_DECIDERS = {"equal", "holds", "differs"}
EXACT_WRAPPERS = {"Integer", "Float", "Rational", "nsimplify", "S", "sympify"}


def _is_run_attribute(node) -> bool:
    import ast

    return isinstance(node, ast.Attribute) and (
        (node.attr.endswith("_") and not node.attr.startswith("_")) or node.attr in RUN_ATTRIBUTES)


def _is_comparison(node) -> bool:
    """``a > b``, or a comparison converted to a number (``float(a > b)``, ``np.float64(...)``, ``int(...)``)."""
    import ast

    while isinstance(node, ast.Call) and len(node.args) == 1:
        node = node.args[0]
    return isinstance(node, ast.Compare)


def run_numbers_as_exact(source: str) -> list[str]:
    """The calls in ``source`` that hand a number a run produced to an exact decider (``equal``, ``holds``,
    ``differs``) or wrap it as an exact sympy number: a fitted attribute, a scipy result field, or a name
    assigned from one earlier in the cell (``k = run.n_iter_; holds(k, ...)``), also inside ``len``,
    ``int``, ``float``, indexing or arithmetic. Such numbers must go through ``measured``, ``bounded`` or
    ``agree(kind="measured")``; ``agree(float(a > b), 1.0)`` (a comparison dressed as an agreement) too."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    tainted: set[str] = set()

    def carries_run(node) -> bool:
        return any(_is_run_attribute(n) or (isinstance(n, ast.Name) and n.id in tainted) for n in ast.walk(node))

    found = []
    for node in ast.walk(tree):          # assignments first: names bound from a run's numbers
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and carries_run(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            tainted |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        args = [*node.args, *(k.value for k in node.keywords if k.arg not in ("latex", "title"))]
        if name in EXACT_DECIDERS | EXACT_WRAPPERS and any(carries_run(a) for a in args):
            found.append(ast.get_source_segment(source, node) or name)
        if name == "agree" and any(_is_comparison(a) for a in node.args):
            found.append(ast.get_source_segment(source, node) or name)
    return found


@pytest.mark.parametrize("source", [
    "holds(sp.Integer(run.n_iter_), '<=', 15)",
    "equal(sp.Float(model.coef_[0]), 1)",
    "holds(Integer(int(result.nit)), '<', 50)",
    "sp.nsimplify(clf.intercept_)",
    "sp.Rational(round(fit.objective_))",
    "holds(run.n_iter_, '<=', 15)",                                   # unwrapped: an int from a run is not exact
    "k = run.n_iter_\nclaim('t', holds(k, '<=', 15))",                # through a name
    "sp.Integer(len(m.support_))",
    "sp.sympify(res.fun)",
    "holds(x**2 + sp.Integer( run . n_iter_), '>=', 0)",
    "agree(float(kappa > 0), 1.0)",                                   # a comparison dressed as agreement
])
def test_run_numbers_as_exact_is_caught(source):
    assert run_numbers_as_exact(source)


@pytest.mark.parametrize("source", ["measured(run.n_iter_, '<=', 15)", "sp.Integer(n_samples)",
                                    "sp.Rational(1, 3)", "sp.Float(x.evalf())", "agree(model.coef_, w_formula)",
                                    "bounded(np.abs(run.coef_), upper=1)", "equal(lhs, rhs, latex=r'w_')"])
def test_honest_numbers_are_not_flagged(source):
    assert not run_numbers_as_exact(source)


def test_no_run_number_is_wrapped_as_exact(nb):
    path, notebook = nb
    found = [f"cell {i}: {hit}" for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"
             for hit in run_numbers_as_exact(cell.source.replace("%", "#"))]
    assert not found, (f"{path.name}: numbers from a run wrapped as exact sympy numbers (use measured(), bounded() "
                       "or agree(kind='measured')):\n" + "\n".join(found))
