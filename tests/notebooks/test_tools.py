"""The book's tools: deterministic execution and the verify command, on small synthetic notebooks."""

import os
import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

import nbtools

VERIFY = nbtools.ROOT / "tools" / "verify.py"


def _notebook(path, *sources):
    nb = new_notebook(cells=[new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = dict(nbtools.KERNELSPEC)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nbformat.write(nb, path)
    return path


def test_execution_is_byte_identical_with_widgets_and_figures(tmp_path):
    path = _notebook(
        tmp_path / "demo.ipynb",
        "import numpy as np, matplotlib.pyplot as plt, ipywidgets as w\nimport mlnotes.plotting\nmlnotes.plotting.setup()",
        "plt.plot(np.random.default_rng(0).normal(size=20)); plt.show()",
        "w.interactive(lambda a: print(a * 2), a=w.IntSlider(3))",
    )
    texts = []
    for _ in range(2):
        nb, _, error = nbtools.execute(path)
        assert error is None
        nbtools.make_deterministic(nb)
        texts.append(nbformat.writes(nb))
    assert texts[0] == texts[1]
    state = nb.metadata["widgets"][nbtools.WIDGET_STATE]["state"]
    assert sorted(state) == [f"{i:032x}" for i in range(1, len(state) + 1)]


def test_the_tools_kernel_talks_over_ipc_and_leaves_no_socket_file(tmp_path, capfd, monkeypatch):
    import shutil
    import tempfile

    import zmq

    if not zmq.has("ipc"):
        pytest.skip("this ZeroMQ has no IPC transport: the tools' kernels use TCP here")
    # a folder of this test's own for the socket files (other workers' kernels use the shared temp folder),
    # with a short path: a socket's path may not exceed about 100 characters
    sockets = tempfile.mkdtemp(prefix="mlk")
    path = _notebook(tmp_path / "where.ipynb", "import os\nprint(os.getcwd())")
    try:
        with monkeypatch.context() as patch:
            patch.setattr(tempfile, "tempdir", sockets)
            nb, _, error = nbtools.execute(path)
        assert error is None and nb.cells[0].outputs[0]["text"].strip() == str(tmp_path)
        assert os.listdir(sockets) == []                           # jupyter_client removed the socket files
        assert "without encryption" not in capfd.readouterr().err  # ipykernel's warning for a TCP kernel
    finally:
        shutil.rmtree(sockets, ignore_errors=True)


def _verify(path):
    return subprocess.run([sys.executable, str(VERIFY), str(path)], capture_output=True, text=True, timeout=120)


def test_verify_passes_a_true_claim_and_fails_a_false_one(tmp_path):
    setup = "import sympy as sp\nfrom mlnotes.symbolic import claim, equal\na, b = sp.symbols('a b', real=True)"
    good = _notebook(tmp_path / "good.ipynb", setup, "claim('square of a sum', equal((a + b)**2, a**2 + 2*a*b + b**2))")
    bad = _notebook(tmp_path / "bad.ipynb", setup, "claim('a wrong square', equal((a + b)**2, a**2 + b**2))")
    ok = _verify(good)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "square of a sum" in ok.stdout and "proved" in ok.stdout and "1 claims verified" in ok.stdout
    failed = _verify(bad)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "FAILED" in failed.stdout and "a wrong square" in failed.stdout


# ---------------------------------------------------------------------------------------------
# tools/macros.py: the macro cell (and the launch cell) every chapter needs outside the website
# ---------------------------------------------------------------------------------------------

import macros  # noqa: E402
import pytest  # noqa: E402
import repository_links  # noqa: E402
from nbformat.v4 import new_markdown_cell  # noqa: E402

CONFIG = {"sphinx": {"config": {"mathjax3_config": {"tex": {"macros": {"R": "\\mathbb{R}", "pair": ["(#1, #2)", 2]}}}}},
          "repository": {"url": ""}}


def _chapter_like():
    nb = new_notebook(cells=[new_markdown_cell("# Title\n\n$x \\in \\R$"), new_code_cell("import mlnotes"),
                             new_markdown_cell("text"), new_code_cell("1 + 1")])
    return nb


def test_macro_cell_is_inserted_first_once_and_follows_the_config():
    nb = _chapter_like()
    assert macros.stale_cells(nb, CONFIG), "a notebook without the macro cell must be reported"
    assert macros.update_notebook(nb, CONFIG)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "remove-cell" in first.metadata["tags"]
    assert first.metadata["mlnotes"] == {"cell": "macros"}
    assert "'\\R': '\\mathbb{R}'" in first.source and "'\\pair': '(#1, #2)'" in first.source
    assert "\\def\\R{\\mathbb{R}}\\def\\pair#1#2{(#1, #2)}" in first.source
    assert "$$" not in first.source, "a display block would count as a statement"
    assert not macros.stale_cells(nb, CONFIG) and not macros.update_notebook(nb, CONFIG), "not idempotent"
    assert [c.source for c in nb.cells[1:]] == [c.source for c in _chapter_like().cells]
    changed = {**CONFIG, "sphinx": {"config": {"mathjax3_config": {"tex": {"macros": {"R": "\\mathbf{R}"}}}}}}
    assert macros.stale_cells(nb, changed) == ["the macro cell differs from _config.yml's macros"]
    assert macros.update_notebook(nb, changed) and "\\mathbf{R}" in nb.cells[0].source
    assert sum(macros._kind(c) == "macros" for c in nb.cells) == 1


def test_launch_cell_exists_only_with_a_repository_url():
    nb = _chapter_like()
    with_url = {**CONFIG, "repository": {"url": "https://example.org/owner/book/"}}
    macros.update_notebook(nb, with_url)
    kinds = [macros._kind(c) for c in nb.cells]
    assert kinds == ["macros", None, "launch", None, None, None], kinds
    launch = nb.cells[2]
    assert launch.cell_type == "code" and 'find_spec("mlnotes") is None' in launch.source
    assert '%pip install --quiet "mlnotes @ git+https://example.org/owner/book"' in launch.source
    assert not macros.update_notebook(nb, with_url)
    assert macros.stale_cells(nb, CONFIG) == ["a launch cell is present but repository.url is not set"]
    macros.update_notebook(nb, CONFIG)
    assert [macros._kind(c) for c in nb.cells] == ["macros", None, None, None, None]


def test_macro_tool_rejects_bad_macros():
    with pytest.raises(ValueError, match="mathjax3_config"):
        macros.config_macros({"sphinx": {}})
    with pytest.raises(TypeError, match="expected a string"):
        macros.macro_source({"R": 3})
    with pytest.raises(ValueError, match="letters only"):
        macros.macro_source({"R2": "x"})


@pytest.mark.parametrize("path", nbtools.chapter_notebooks(), ids=lambda p: p.stem[:2])
def test_every_chapter_has_the_macro_cell_in_sync_with_config(path):
    problems = macros.stale_cells(nbformat.read(path, as_version=4))
    assert not problems, (f"{path.name}: {'; '.join(problems)}. Run: .venv/bin/python tools/macros.py "
                          f"{path.stem[:2]} && .venv/bin/python tools/execute.py {path.stem[:2]}")


def test_repository_buttons_only_when_the_url_is_set():
    off = repository_links.link_options({"repository_url": "", "use_repository_button": True,
                                         "launch_buttons": {"notebook_interface": "jupyterlab",
                                                            "colab_url": "https://colab.research.google.com"}})
    assert not off["use_repository_button"] and not off["use_issues_button"]
    assert off["launch_buttons"] == {"notebook_interface": "jupyterlab"}
    on = repository_links.link_options({"repository_url": "https://github.com/o/r/",
                                        "launch_buttons": {"notebook_interface": "jupyterlab"}})
    assert on["repository_url"] == "https://github.com/o/r" and on["use_repository_button"] and on["use_issues_button"]
    assert on["launch_buttons"]["binderhub_url"] and on["launch_buttons"]["colab_url"]
    with pytest.raises(TypeError):
        repository_links.link_options(None)


def test_mirrors_parser_reads_the_named_and_the_old_format(tmp_path):
    import pages

    box = ("# T\n\n:::{admonition} Mirrors\n:class: note\n"
           "- Foundations course notes (`001`), §17 conditional probability models (lines 1305-1395)\n"
           "- `002_53f6686a3b2305d8.txt`, §0.1 linear algebra (lines 3-43)\n"
           "- Nonexistent notes (`009`), §1 (line 4)\n:::")
    path = tmp_path / "m.ipynb"
    nbformat.write(new_notebook(cells=[new_markdown_cell(box)]), path)
    entries = pages.mirrors(path)
    assert [(e["number"], e["name"], e["named"]) for e in entries] == [
        ("001", "Foundations course notes", True), ("002", "Exam summary", False), ("009", "Nonexistent notes", True)]
    assert entries[0]["notes"] == "001_7bc1f8d3beba6b55.txt" and entries[2]["notes"] is None
    assert entries[0]["where"] == "§17 conditional probability models (lines 1305-1395)"


def test_break_lines_splits_long_formulas_at_top_level_quads_only():
    import pages

    assert pages.break_lines(r"a = b \quad (n = 2)") == "\\begin{gathered}\na = b \\\\\n(n = 2)\n\\end{gathered}"
    assert pages.break_lines(r"\text{a \quad b} = \begin{bmatrix}1 \quad 2\end{bmatrix}") == \
        r"\text{a \quad b} = \begin{bmatrix}1 \quad 2\end{bmatrix}"
    long_chain = r"\sum_{i=1}^{N} \max\{0, 1 - y_i(w^\top x_i + b)\} = N \cdot \texttt{hinge(margin(y, Xw + b)).mean()}"
    assert pages.break_lines(long_chain) == ("\\begin{gathered}\n\\sum_{i=1}^{N} \\max\\{0, 1 - y_i(w^\\top x_i + b)\\} \\\\\n"
                                             "= N \\cdot \\texttt{hinge(margin(y, Xw + b)).mean()}\n\\end{gathered}")
    assert pages.break_lines(r"x := y \le z") == r"x := y \le z"           # short: kept on one line
    phrase = r"\text{logistic regression: the 2000 test predictions are the same with and without the outlier}"
    assert pages.break_lines(phrase).splitlines()[1:3] == [r"\text{logistic regression:} \\",
                                                          r"\text{the 2000 test predictions are the same with and without the outlier}"]
    assert pages.plain_math("x^T A y with lambda >= 0") == ["x^T", "lambda", ">="]
    assert pages.plain_math("$x^\\top A y$ with `lambda` and $\\lambda \\ge 0$") == []
    assert pages.id_gaps(["LA-1", "LA-3", "GC-2"]) == ["LA-2", "GC-1"]


def test_title_is_the_chapter_heading_not_a_comment_of_the_macros_cell(tmp_path):
    # the errata page once headed every chapter with the macros cell's "# ..." YAML comment
    nb = new_notebook(cells=[nbformat.v4.new_markdown_cell("---\n# a YAML comment\nmath: {}\n---\n$x$"),
                             nbformat.v4.new_markdown_cell("Some text.\n\n# The real title\n\n## A section")])
    nbformat.write(nb, tmp_path / "c.ipynb")
    assert nbtools.title(tmp_path / "c.ipynb") == "The real title"
    (tmp_path / "p.md").write_text("---\n# comment\n---\n# Page title\n")
    assert nbtools.title(tmp_path / "p.md") == "Page title"


def test_every_chapter_has_its_own_title():
    chapters = sorted((nbtools.ROOT / "book").glob("part*/*.ipynb"))
    titles = [nbtools.title(path) for path in chapters]
    assert len(set(titles)) == len(titles), titles
    assert all(path.stem not in titles for path in chapters)   # the fallback: no level-1 heading found
