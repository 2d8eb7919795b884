"""mlnotes.book.setup: the first-cell call of every chapter."""

import sys
import types

import matplotlib as mpl
import numpy as np

import mlnotes.book
from mlnotes.plotting._style import STYLE


def test_setup_sets_print_options_and_style():
    np.set_printoptions(precision=8, suppress=False)
    mpl.rcParams["figure.dpi"] = 123
    try:
        mlnotes.book.setup()
        options = np.get_printoptions()
        assert options["precision"] == 4 and options["suppress"] is True
        assert mpl.rcParams["figure.dpi"] == STYLE["figure.dpi"] != 123
    finally:
        np.set_printoptions(precision=8, suppress=False)
        mpl.rcdefaults()


def test_setup_resets_an_imported_checker(monkeypatch):
    calls = []
    fake = types.ModuleType("mlnotes.symbolic")
    fake.reset = lambda: calls.append("reset")
    monkeypatch.setitem(sys.modules, "mlnotes.symbolic", fake)
    mlnotes.book.setup()
    assert calls == ["reset"]


def test_setup_does_not_import_the_checker(monkeypatch):
    # a chapter that never imports the checker must not pay for sympy in its first cell
    monkeypatch.delitem(sys.modules, "mlnotes.symbolic", raising=False)
    mlnotes.book.setup()
    assert "mlnotes.symbolic" not in sys.modules
