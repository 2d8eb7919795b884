"""What the reader sees is what was checked (issue 10 §1): a typed display that disagrees with its checked
expressions fails, also inside an erratum, and one that was not compared gives way to the checked form."""

import pytest
import sympy as sp

from mlnotes.symbolic import ClaimError, Source, claim, equal, erratum

x = sp.Symbol("x", real=True)


def test_erratum_whose_notes_display_disagrees_is_not_a_refutation():
    # the notes' claim is true; only its typed display is wrong: before, the failing display counted as "refuted"
    with pytest.raises(ClaimError, match="display disagrees"):
        erratum("TST-1", Source("002", "1-2", "§0"), "A true claim under a mistyped display",
                notes=equal((x + 1) ** 2, x**2 + 2 * x + 1, latex=r"(x + 1)^2 = x^2 + 1"),
                correction=equal((x - 1) ** 2, x**2 - 2 * x + 1, latex=r"(x - 1)^2 = x^2 - 2 x + 1"))


def test_erratum_with_a_wrong_correction_display_fails():
    with pytest.raises(ClaimError):
        erratum("TST-2", Source("002", "1-2", "§0"), "A correction shown wrongly",
                notes=equal((x + 1) ** 2, x**2 + 1, latex=r"(x + 1)^2 = x^2 + 1"),
                correction=equal((x + 1) ** 2, x**2 + 2 * x + 1, latex=r"(x + 1)^2 = x^2 + 3 x + 1"))


def test_a_correct_erratum_still_passes():
    record = erratum("TST-3", Source("002", "1-2", "§0"), "The square of a sum",
                     notes=equal((x + 1) ** 2, x**2 + 1, latex=r"(x + 1)^2 = x^2 + 1"),
                     correction=equal((x + 1) ** 2, x**2 + 2 * x + 1, latex=r"(x + 1)^2 = x^2 + 2 x + 1"))
    assert record["holds"]


def test_a_display_not_compared_shows_the_checked_form_first(capsys):
    A = sp.MatrixSymbol("A", 2, 2)
    # \lVert ... \rVert is not read back by the parser, so this display is not compared
    claim("Not compared", equal((A.T).T, A, latex=r"\lVert A^{\top\top} \rVert = \lVert A \rVert"))
    shown = capsys.readouterr().out
    assert "1 display not compared" in shown.split("\n")[1]                  # the headline says so
    checked_at = shown.index("*Checked:*")
    typed_at = shown.index("*As typed (display not compared")
    assert checked_at < typed_at and r"\lVert A^{\top\top}" in shown[typed_at:]
