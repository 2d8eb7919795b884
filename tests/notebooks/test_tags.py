"""Checking code is collapsed on the site: every checking cell carries ``hide-input`` (tools/tags.py)."""

import nbformat
import pytest

import nbtools
import tags

NOTEBOOKS = nbtools.chapter_notebooks()


def code_cell(source, tags_=None):
    cell = nbformat.v4.new_code_cell(source)
    if tags_ is not None:
        cell.metadata["tags"] = list(tags_)
    return cell


@pytest.mark.parametrize("source", [
    'claim("Gram-Schmidt", equal(Q.T * Q, sp.eye(3)))',
    'x = np.arange(3)\nplt.plot(x)\nclaim("t", measured(run.n_iter_, "<=", 15))',
    'erratum("E3", "sign of the gradient", equal(a, b))',
    'from mlnotes.symbolic import claim as c\nsymbolic.claim("t", agree(a, b))',
    "summary()",
    'agree(w, w_sklearn, rtol=1e-8)\nequal(a, b)',
    'res = check_gradient(f, grad, x0)',
    '%time claim("t", equal(a, b))',
])
def test_checking_cells_are_recognised(source):
    assert tags.is_checking_cell(code_cell(source))


@pytest.mark.parametrize("source", [
    "",
    'x = np.linspace(0, 1)\nplt.plot(x, x**2)\nplt.show()',
    '# claim("commented out", equal(a, b))\nprint("claim(")',
    'agree(w, v)\nplt.plot(w)',          # a check among other code is not check-only
    'def claim_like(a):\n    return a',
    'widget = interactive(f, eta=(0.1, 2.0))',
])
def test_other_cells_are_not(source):
    assert not tags.is_checking_cell(code_cell(source))


def test_markdown_is_never_a_checking_cell_and_bad_input_is_named():
    assert not tags.is_checking_cell(nbformat.v4.new_markdown_cell('claim("x", equal(a, b))'))
    with pytest.raises(TypeError, match="notebook cell"):
        tags.is_checking_cell('claim("x")')


def test_tagging_adds_hide_input_only_and_is_idempotent(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Title"),
        code_cell('claim("a", equal(x, x + 0))', ["nbval-ignore-output"]),
        code_cell("plt.plot([1, 2])\nplt.show()"),
        code_cell("summary()", ["hide-input"]),
        code_cell('claim("b", equal(y, y))', ["hide-cell"]),
    ]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    before = nbformat.read(path, as_version=4)
    assert tags.untagged_checking_cells(before) == [1]

    assert tags.main([str(path)]) == 0
    once = path.read_bytes()
    after = nbformat.read(path, as_version=4)
    assert after.cells[1].metadata["tags"] == ["nbval-ignore-output", "hide-input"]
    for old, new in zip(before.cells, after.cells):  # nothing else changed: sources, ids, other metadata
        assert (old.source, old.get("id")) == (new.source, new.get("id"))
        if old is not before.cells[1]:
            assert old.metadata == new.metadata
    assert tags.untagged_checking_cells(after) == []
    assert tags.main([str(path), "--check"]) == 0

    tags.main([str(path)])
    assert path.read_bytes() == once  # a second run rewrites nothing


def test_check_mode_reports_untagged_cells(tmp_path, capsys):
    nb = nbformat.v4.new_notebook()
    nb.cells = [code_cell('claim("a", equal(x, x + 0))')]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    assert tags.main([str(path), "--check"]) == 1
    assert "1 untagged checking cells: [0]" in capsys.readouterr().out
    assert nbformat.read(path, as_version=4).cells[0].metadata == {}  # --check never writes


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_checking_cell_of_the_chapters_is_collapsed(path):
    nb = nbformat.read(path, as_version=4)
    missing = tags.untagged_checking_cells(nb)
    assert not missing, (
        f"{path.name}: checking cells {missing} lack the hide-input tag; run: "
        f".venv/bin/python tools/tags.py {path.stem[:2]}")
