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
    assert entries, f"{path.name}: no ':::{{admonition}} Mirrors' box with '- `notes file`, section (lines ...)' lines"
    for entry in entries:
        assert entry["notes"] in NOTES
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
