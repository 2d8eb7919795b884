"""The book's tools: deterministic execution and the verify command, on small synthetic notebooks."""

import subprocess
import sys

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


def _verify(path):
    return subprocess.run([sys.executable, str(VERIFY), str(path)], capture_output=True, text=True, timeout=120)


def test_verify_passes_a_true_claim_and_fails_a_false_one(tmp_path):
    setup = "import sympy as sp\nfrom mlnotes.symbolic import claim, equal\na, b = sp.symbols('a b', real=True)"
    good = _notebook(tmp_path / "good.ipynb", setup, "claim('square of a sum', equal((a + b)**2, a**2 + 2*a*b + b**2))")
    bad = _notebook(tmp_path / "bad.ipynb", setup, "claim('a wrong square', equal((a + b)**2, a**2 + b**2))")
    ok = _verify(good)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "square of a sum" in ok.stdout and "symbolic" in ok.stdout and "1 claims verified" in ok.stdout
    failed = _verify(bad)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "FAILED" in failed.stdout and "a wrong square" in failed.stdout
