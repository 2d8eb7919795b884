"""The checker's cheap exact routes: rational-function arithmetic before cancel/simplify, and matrix
expressions evaluated with DomainMatrix. Each route must prove what is true and never accept what
is false (and say nothing where it cannot decide)."""

import pytest
import sympy as sp

from mlnotes.symbolic import equal
from mlnotes.symbolic._prove import _domain_zero, _nonzero, _rational_zero, _simplify_is_zero, explicit_matrix

x, y = sp.symbols("x y", real=True)
w = sp.IndexedBase("w", positive=True)


@pytest.mark.parametrize("expr", [
    (x + y) ** 2 - x**2 - 2 * x * y - y**2,
    1 / (x + 1) + x / (x * (x + 1)) - 2 / (x + 1),
    w[0, 1] / (w[0, 1] + w[1, 0]) + w[1, 0] / (w[0, 1] + w[1, 0]) - 1,
])
def test_rational_route_proves_true_identities(expr):
    assert _rational_zero(expr) is True
    assert _simplify_is_zero(expr, 5)


@pytest.mark.parametrize("expr", [
    (x + y) ** 2 - x**2 - y**2,
    1 / (x + 1) - 1 / x,
    w[0, 1] - w[1, 0],
    sp.Rational(1, 10**30),
])
def test_rational_route_refutes_false_identities_of_independent_symbols(expr):
    assert _rational_zero(expr) is False
    assert not _simplify_is_zero(expr, 5)
    assert _nonzero(expr)


@pytest.mark.parametrize("expr", [
    sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1,        # true, but not as a rational function of sin(x), cos(x)
    sp.log(x * y) - sp.log(x) - sp.log(y),       # its atoms are related: no decision either way
    sp.Float(0.1) * x - x / 10 + y * sp.Float(1e-20),
    w[x] - w[1],                                  # an Indexed with a symbolic index is no independent unknown
])
def test_rational_route_leaves_related_atoms_and_floats_undecided(expr):
    assert _rational_zero(expr) is None


@pytest.mark.parametrize("expr", [
    sp.exp(x) * (x + 1) - sp.exp(x) * x - sp.exp(x),
    sp.exp(-x) * (sp.exp(x) + y) - 1 - y * sp.exp(-x),
    sp.exp(x) / (1 + sp.exp(x)) ** 2 - 1 / (1 + sp.exp(-x)) * (1 - 1 / (1 + sp.exp(-x))),   # exp(-x) = 1/exp(x)
])
def test_other_atoms_go_to_cancel_at_once_which_proves_them(expr):
    import time

    start = time.process_time()
    assert _rational_zero(expr) is None
    assert time.process_time() - start < 0.05            # declined at the first such atom, no field built
    assert _simplify_is_zero(expr, 5)


def test_a_true_trig_identity_is_still_proved_by_simplify_and_a_false_one_is_not():
    assert _simplify_is_zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1, 5)
    assert not _simplify_is_zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1 + x * 0 + sp.Rational(1, 10**9), 5)
    assert not equal(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1 + sp.Rational(1, 10**12)).holds


def test_domain_route_on_matrix_expressions():
    n, d = sp.symbols("n d", integer=True, positive=True)
    X = sp.MatrixSymbol("X", n, d)
    H = X * (X.T * X).I * X.T
    concrete = (H * H - H).xreplace({n: 3, d: 2})
    Xc = sp.MatrixSymbol("X", 3, 2)
    assert _domain_zero(concrete, {Xc: explicit_matrix("X", 3, 2)}) is True
    assert _domain_zero((H * H - 2 * H).xreplace({n: 3, d: 2}), {Xc: explicit_matrix("X", 3, 2)}) is False
    # a singular inverse (a wide X: X^T X is 3 x 3 of rank 2) is not decided here
    Xw = sp.MatrixSymbol("X", 2, 3)
    assert _domain_zero((H * H - H).xreplace({n: 2, d: 3}), {Xw: sp.Matrix([[1, 2, 3], [4, 5, 6]])}) is None


def test_matrix_claims_keep_their_verdicts():
    n, d = sp.symbols("n d", integer=True, positive=True)
    X = sp.MatrixSymbol("X", n, d)
    y_ = sp.MatrixSymbol("y", n, 1)
    A = sp.MatrixSymbol("A", 2, 2)
    B = sp.MatrixSymbol("B", 2, 2)
    mu = sp.Symbol("mu", positive=True)
    H = X * (X.T * X).I * X.T
    assert equal(H * H, H).kind == "proved"
    assert not equal(H * H, 2 * H).holds
    assert equal(X.T * (y_ - H * y_), sp.ZeroMatrix(d, 1)).holds
    assert not equal((A * B).I, A.I * B.I).holds                 # the order of an inverse of a product
    assert equal(sp.Trace(A * B), sp.Trace(B * A)).holds
    assert not equal(sp.Determinant(A * B), sp.Determinant(A) * sp.Determinant(B) + 1).holds
    assert equal((A + mu * sp.Identity(2)) * (A + mu * sp.Identity(2)).I, sp.Identity(2)).holds
    assert not equal((A + mu * sp.Identity(2)) * (A + mu * sp.Identity(2)).I, mu * sp.Identity(2)).holds


def test_domain_route_reads_matrix_elements():
    X = sp.MatrixSymbol("X", 3, 2)
    y_ = sp.MatrixSymbol("y", 3, 1)
    H = X * (X.T * X).I * X.T
    sub = {X: explicit_matrix("X", 3, 2), y_: explicit_matrix("y", 3, 1)}
    pythagoras = (y_.T * y_)[0, 0] - (y_.T * H * y_)[0, 0] - (y_.T * (sp.Identity(3) - H) * y_)[0, 0]
    assert _domain_zero(pythagoras * sp.Identity(1), sub) is True
    assert _domain_zero((pythagoras + (y_.T * H * y_)[0, 0]) * sp.Identity(1), sub) is False
