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


def test_a_display_of_identical_sides_fails():
    # "1 = 1" under a check of sin^2 + cos^2 = 1 shows nothing of what was checked: before, it was "compared"
    with pytest.raises(ClaimError, match="display disagrees"):
        claim("Pythagoras", equal(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1, latex=r"1 = 1"))


@pytest.mark.parametrize("typed", [
    r"(x + 1)^2 = x^2 + 2x + 1 \quad \text{so } (x + 1)^2 \ge 0",     # a further claim after \quad
    r"(x + 1)^2 = x^2 + 2x + 1, \ \text{and } x^2 \ge 1",             # a further claim in a comment
    r"(x + 1)^2 = x^2 + 2x + 1 \qquad x^2 = 1",                        # a second formula
])
def test_a_display_that_states_more_than_was_checked_is_not_compared(typed):
    # the extra statement is not checked: before, the part before \quad was compared and the display "compared"
    from mlnotes.symbolic._display import compare_display

    status, why = compare_display(typed, (x + 1) ** 2, "=", x**2 + 2 * x + 1)
    assert status == "not compared" and "states more" in why


@pytest.mark.parametrize("typed", [
    r"(x + 1)^2 = x^2 + 2x + 1 \quad (x \in \mathbb{R})",              # a qualifier in parentheses
    r"(x + 1)^2 = x^2 + 2x + 1 \quad \text{for } x > 0",               # a condition
    r"(x + 1)^2 = x^2 + 2x + 1",
])
def test_a_display_with_a_condition_is_still_compared(typed):
    from mlnotes.symbolic._display import compare_display

    assert compare_display(typed, (x + 1) ** 2, "=", x**2 + 2 * x + 1)[0] == "compared"


def test_an_erratum_box_keeps_a_long_unread_checked_form_in_its_details(capsys):
    # a matrix of derivatives (hundreds of characters of LaTeX) stayed visible in the box, 800+ px wide
    y = sp.Symbol("y", real=True)
    M = sp.Matrix([[sp.Derivative(x**3 * y**2, x), sp.Derivative(x**3 * y**2, y)],
                   [sp.Derivative(x**2 * y**3, x), sp.Derivative(x**2 * y**3, y)]])
    right = sp.Matrix([[3 * x**2 * y**2, 2 * x**3 * y], [2 * x * y**3, 3 * x**2 * y**2]])
    wrong = sp.Matrix([[3 * x**2 * y**2, 2 * x**3 * y], [2 * x * y**3, 3 * x**2 * y]])
    erratum("TST-9", Source("002", "1-2", "§0"), "A Jacobian",
            notes=equal(M, wrong, latex=r"\nabla f = \text{the notes' matrix}"),
            correction=equal(M, right, latex=r"J_f = \begin{pmatrix} f_x & f_y \\ g_x & g_y \end{pmatrix}"))
    shown = capsys.readouterr().out
    visible, details = shown.split(":::{dropdown}", 1)
    assert r"J_f = \begin{pmatrix}" in visible and "(as typed; not compared" in visible
    assert r"\frac{\partial}{\partial x}" not in visible and r"\frac{\partial}{\partial x}" in details


def _long_identity(n=8):
    """sum_k (x + k)^2 = its expansion: more than TYPESET_CHECKED_CHARS characters of LaTeX once checked."""
    ks = sp.symbols(f"k1:{n + 1}", real=True)
    lhs = sum((x + k) ** 2 for k in ks)
    rhs = sum(x**2 + 2 * x * k + k**2 for k in ks)
    return lhs, rhs, ks


def test_a_long_checked_form_is_shown_as_sympy_text_that_parses_back(capsys):
    from mlnotes.symbolic._prove import TYPESET_CHECKED_CHARS

    lhs, rhs, ks = _long_identity()
    v = equal(lhs, rhs, latex=r"\lVert \text{a display the parser does not read} \rVert")
    assert len(v.checked) > TYPESET_CHECKED_CHARS and v.checked_text
    claim("Long checked form", v)
    shown = capsys.readouterr().out
    block = shown[shown.index("*Checked:*"):shown.index("*As typed")]
    assert "```text\n" in block and "$$" not in block          # a code block, not a typeset formula
    text = block.split("```text\n")[1].split("\n```")[0]
    left, right = text.split(" == ")
    names = {str(s): s for s in (x, *ks)}
    assert sp.sympify(left, locals=names) == lhs and sp.sympify(right, locals=names) == rhs


def test_a_short_checked_form_stays_typeset(capsys):
    A = sp.MatrixSymbol("A", 2, 2)
    v = equal((A.T).T, A, latex=r"\lVert A^{\top\top} \rVert = \lVert A \rVert")
    assert not v.checked_text
    claim("Short checked form", v)
    shown = capsys.readouterr().out
    block = shown[shown.index("*Checked:*"):shown.index("*As typed")]
    assert "$$" in block and "```" not in block
