"""The derivation checker catches wrong claims and accepts right ones.

Every wrong claim here is a mistake that lecture notes actually make (a flipped sign, a dropped
factor 2, a missing transpose, a wrong normaliser, ...). For each one we assert not only that the
checker rejects it, but that the counterexample it reports is genuine: we parse the reported values
back and re-evaluate both sides independently of the checker.
"""

from __future__ import annotations

import dataclasses
import re
import os
import time

import numpy as np
import pytest
import sympy as sp

from mlnotes.symbolic import (ClaimError, Source, Verdict, agree, claim, differs, equal, erratum,
                              explicit_matrix, holds)

#: Seconds any single decision may take (each one below takes well under a second on an idle core). The
#: times are wall-clock, so the budget grows with the machine's load (other processes per core), which
#: keeps the test about the checker's speed, not about what else the machine is doing.
BUDGET = 3.0 * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))

NOTES_FILE = "001_7bc1f8d3beba6b55.txt"


def fast(v: Verdict) -> Verdict:
    assert isinstance(v, Verdict)
    assert v.seconds < BUDGET, f"{v.latex} took {v.seconds:.2f} s"
    return v


def proved(v: Verdict, method: str = "symbolic") -> Verdict:
    fast(v)
    assert v.holds, v
    assert v.method == method, v
    assert v.counterexample is None
    return v


def refuted(v: Verdict, method: str) -> Verdict:
    fast(v)
    assert not v.holds, v
    assert v.method == method, v
    return v


# ---------------------------------------------------------------------------------------------
# reading counterexamples back
# ---------------------------------------------------------------------------------------------

def parse_number(tex: str) -> sp.Rational:
    """'3', '- \\frac{31}{100}', '\\frac{1}{2}' -> Rational."""
    t = tex.replace(" ", "")
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("-")
    m = re.fullmatch(r"\\frac\{(\d+)\}\{(\d+)\}", t)
    if m:
        return sign * sp.Rational(int(m[1]), int(m[2]))
    return sign * sp.Rational(t)


def parse_matrix(tex: str) -> sp.Matrix:
    m = re.fullmatch(r"\\left\[\\begin\{matrix\}(.*)\\end\{matrix\}\\right\]", tex, re.S)
    assert m, tex
    return sp.Matrix([[parse_number(e) for e in row.split("&")] for row in m[1].split("\\\\")])


def scalar_point(cex: dict, *exprs) -> dict:
    """The reported point as {Symbol: Rational} (keys are LaTeX of the symbols)."""
    symbols = {sp.latex(s): s for e in exprs for s in sp.sympify(e).free_symbols}
    point = {symbols[k]: parse_number(v) for k, v in cex.items() if k in symbols}
    assert set(point) == set().union(*(sp.sympify(e).free_symbols for e in exprs)), (cex, point)
    return point


def assert_scalar_counterexample(v: Verdict, lhs, rhs):
    """Substituting the reported point gives lhs != rhs, evaluated here without the checker."""
    assert v.counterexample, v
    point = scalar_point(v.counterexample, lhs, rhs)
    value = lambda e: sp.sympify(e).xreplace(point).doit()  # noqa: E731
    lhs_v, rhs_v = value(lhs), value(rhs)
    if isinstance(lhs_v, sp.MatrixBase):
        assert (lhs_v - rhs_v).applyfunc(sp.nsimplify) != sp.zeros(*lhs_v.shape)
    else:
        assert abs(sp.N(lhs_v - rhs_v, 30)) > 1e-20, (point, lhs_v, rhs_v)
    return point


def at_matrices(exprs, cex: dict):
    """``exprs`` with the reported explicit matrices substituted (sizes read off their shapes)."""
    matrices = {sp.latex(M): M for e in exprs for M in e.atoms(sp.MatrixSymbol)}
    values = {matrices[k]: parse_matrix(v) for k, v in cex.items() if k in matrices}
    sizes = {}
    for M, V in values.items():
        for s, k in zip(M.shape, V.shape):
            if isinstance(s, sp.Symbol):
                assert sizes.setdefault(s, k) == k
            else:
                assert s == k
    sub = {M.xreplace(sizes): sp.ImmutableMatrix(V) for M, V in values.items()}
    out = []
    for e in exprs:
        concrete = e.xreplace(sizes)
        assert set(concrete.atoms(sp.MatrixSymbol)) <= set(sub), "counterexample misses a matrix"
        out.append(sp.Matrix(concrete.xreplace(sub).doit()))
    return out


def assert_matrix_counterexample(v: Verdict, lhs, rhs):
    """Substituting the reported matrices gives lhs != rhs exactly."""
    assert v.counterexample, v
    lhs_v, rhs_v = at_matrices([lhs, rhs], v.counterexample)
    diff = (lhs_v - rhs_v).applyfunc(sp.simplify)
    assert any(e != 0 for e in diff), (v.counterexample, diff)


# ---------------------------------------------------------------------------------------------
# scalar claims
# ---------------------------------------------------------------------------------------------

x, mu, y, w = sp.symbols("x mu y w", real=True)
sigma = sp.Symbol("sigma", positive=True)
a, b = sp.symbols("a b", positive=True)
log_density = -sp.log(sp.sqrt(2 * sp.pi) * sigma) - (x - mu) ** 2 / (2 * sigma ** 2)


def test_gaussian_score_with_flipped_sign_is_caught():
    score = sp.diff(log_density, x)
    proved(equal(score, -(x - mu) / sigma ** 2))
    wrong = (x - mu) / sigma ** 2
    v = refuted(equal(score, wrong), "numeric")
    assert_scalar_counterexample(v, score, wrong)


def test_dropped_factor_two_is_caught():
    grad = sp.diff((y - w * x) ** 2, w)
    proved(equal(grad, -2 * x * (y - w * x)))
    v = refuted(equal(grad, -x * (y - w * x)), "numeric")
    point = assert_scalar_counterexample(v, grad, -x * (y - w * x))
    assert point[x] != 0 and point[y] != point[w] * point[x]


def test_wrong_gaussian_normaliser_is_caught():
    integral = sp.integrate(sp.exp(-(x - mu) ** 2 / (2 * sigma ** 2)), (x, -sp.oo, sp.oo))
    proved(equal(integral / sp.sqrt(2 * sp.pi * sigma ** 2), 1))
    v = refuted(equal(sp.Rational(1, 2) * integral, 1), "numeric")
    assert_scalar_counterexample(v, sp.Rational(1, 2) * integral, 1)


xs = sp.symbols("x1:5", real=True)
ys = sp.symbols("y1:5", real=True)
squared_error = sum((yi - w * xi) ** 2 for xi, yi in zip(xs, ys))


def test_least_squares_slope_with_the_sum_in_the_wrong_place_is_caught():
    (minimiser,) = sp.solve(sp.diff(squared_error, w), w)
    right = sum(xi * yi for xi, yi in zip(xs, ys)) / sum(xi ** 2 for xi in xs)
    proved(equal(right, minimiser))
    proved(equal(sp.diff(squared_error, w).subs(w, right), 0))
    # the sum around the whole ratio: sum_i x_i y_i / x_i^2 = sum_i y_i / x_i
    per_sample = sum(xi * yi / xi ** 2 for xi, yi in zip(xs, ys))
    v = refuted(equal(per_sample, minimiser), "numeric")
    assert_scalar_counterexample(v, per_sample, minimiser)
    # square of the sum instead of the sum of squares
    square_of_sum = sum(xi * yi for xi, yi in zip(xs, ys)) / sum(xs) ** 2
    v = refuted(equal(square_of_sum, minimiser), "numeric")
    assert_scalar_counterexample(v, square_of_sum, minimiser)


def test_true_identity_that_simplify_cannot_prove_passes_numerically():
    v = fast(equal(sp.atan(a) + sp.atan(1 / a), sp.pi / 2))  # a > 0
    assert v.holds and v.method in {"symbolic", "numeric"}
    # simplify cut off after a millisecond: evidence, never a failure
    s = 1 / (1 + sp.exp(-x))
    v = fast(equal(sp.diff(s, x), s * (1 - s), timeout=1e-3))
    assert v.holds and v.method in {"symbolic", "numeric"}
    v = fast(equal(1 / (1 + sp.exp(-x)), (1 + sp.tanh(x / 2)) / 2, timeout=1e-3))
    assert v.holds and v.method in {"symbolic", "numeric"}
    # ... and the same identity without a > 0 is false (for negative arguments)
    v = refuted(equal(sp.atan(x) + sp.atan(1 / x), sp.pi / 2), "numeric")
    point = assert_scalar_counterexample(v, sp.atan(x) + sp.atan(1 / x), sp.pi / 2)
    assert point[x] < 0


def test_claim_false_only_on_a_small_region_fails_at_a_witness():
    relu = sp.Max(a - 4, 0)  # zero for 0 < a <= 4, where the random points lie
    v = fast(equal(relu, 0))
    assert v.method != "symbolic"  # random points may miss it, but it is never "proved"
    v = refuted(equal(relu, 0, witnesses=[{a: 5}]), "numeric")
    assert "witness" in v.detail
    assert v.counterexample["a"] == "5"
    assert (v.counterexample["\\text{lhs}"], v.counterexample["\\text{rhs}"]) == ("1", "0")
    assert_scalar_counterexample(v, relu, 0)
    # a witness where the claim holds changes nothing
    v = fast(equal(relu, 0, witnesses=[{a: 3}]))
    assert v.method != "symbolic"


def test_scalar_without_free_symbols():
    proved(equal(sp.Integer(2), sp.Rational(4, 2)))
    refuted(equal(sp.pi, sp.Rational(22, 7)), "numeric")


# derivatives of undefined functions cannot be evaluated at numbers: the product and chain rules
# are proved by simplification, and a wrong rule must fail (with no evidence, never "numeric")
x3 = sp.Matrix(sp.symbols("x1:4", real=True))
v_fn = sp.Function("v")(*x3)
u_fn = sp.Matrix([sp.Function(f"u{i}")(*x3) for i in (1, 2)])


def test_product_rule_of_undefined_functions_is_proved():
    product_rule = u_fn * sp.Matrix([v_fn]).jacobian(x3) + v_fn * u_fn.jacobian(x3)
    proved(equal((v_fn * u_fn).jacobian(x3), product_rule))
    # chain rule: d g(v(x)) / dx_1 = g'(v(x)) dv/dx_1
    g, t = sp.Function("g"), sp.Symbol("t", real=True)
    proved(equal(sp.diff(g(v_fn), x3[0]), sp.diff(g(t), t).subs(t, v_fn) * sp.diff(v_fn, x3[0])))


@pytest.mark.parametrize("wrong", [
    lambda: v_fn * u_fn.jacobian(x3),                                       # a term of the product rule dropped
    lambda: u_fn * sp.Matrix([v_fn]).jacobian(x3) - v_fn * u_fn.jacobian(x3),  # a flipped sign
    lambda: 2 * v_fn * u_fn.jacobian(x3) + u_fn * sp.Matrix([v_fn]).jacobian(x3),  # a spurious factor 2
], ids=["dropped-term", "flipped-sign", "factor-two"])
def test_wrong_product_rule_of_undefined_functions_fails(wrong):
    v = fast(equal((v_fn * u_fn).jacobian(x3), wrong()))
    assert not v.holds and v.method == "undecided" and "no point" in v.detail
    # ... and is no evidence of a difference either
    assert not differs((v_fn * u_fn).jacobian(x3), wrong()).holds
    with pytest.raises(ClaimError):
        claim("a wrong product rule", v)


def test_wrong_scalar_derivative_of_an_undefined_function_fails():
    f = sp.Function("f")(x)
    v = fast(equal(sp.diff(f ** 2, x), f * sp.diff(f, x)))        # the factor 2 dropped
    assert not v.holds and v.method == "undecided"
    proved(equal(sp.diff(f ** 2, x), 2 * f * sp.diff(f, x)))


# ---------------------------------------------------------------------------------------------
# matrix expressions (MatrixSymbol): symbolic sizes and fixed sizes
# ---------------------------------------------------------------------------------------------

n, d = sp.symbols("n d", integer=True, positive=True)
A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
A2, B2 = sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("B", 2, 2)
A3, B3 = sp.MatrixSymbol("A", 3, 3), sp.MatrixSymbol("B", 3, 3)
v_n = sp.MatrixSymbol("x", n, 1)


@pytest.mark.parametrize("shape", [(n, d), (3, 2)], ids=["n x d", "3 x 2"])
def test_missing_transpose_in_least_squares_gradient_is_a_shape_mismatch(shape):
    X = sp.MatrixSymbol("X", *shape)
    wv, yv = sp.MatrixSymbol("w", shape[1], 1), sp.MatrixSymbol("y", shape[0], 1)
    residual = X * wv - yv
    grad = (residual.T * residual).diff(wv)
    proved(equal(grad, 2 * X.T * (X * wv - yv)))
    # 2 X (Xw - y): sympy refuses it for fixed sizes 3 x 2; with symbols n, d it is formed
    # (X (n x d) times an n-vector, it cannot tell d != n) and has the shape n x 1, not d x 1
    if all(isinstance(s, int) for s in shape):
        with pytest.raises(sp.ShapeError):
            2 * X * (X * wv - yv)
    else:
        v = refuted(equal(grad, 2 * X * (X * wv - yv)), "symbolic")
        assert "shapes differ" in v.detail and v.counterexample is None
    # the transpose dropped on the outside: a row instead of a column
    v = refuted(equal(grad, 2 * (X * wv - yv).T * X), "symbolic")
    assert "shapes differ" in v.detail and v.counterexample is None


@pytest.mark.parametrize("size", [n, 3], ids=["n x n", "3 x 3"])
def test_missing_transpose_in_least_squares_gradient_square_case(size):
    X = sp.MatrixSymbol("X", size, size)
    wv, yv = sp.MatrixSymbol("w", size, 1), sp.MatrixSymbol("y", size, 1)
    residual = X * wv - yv
    grad = (residual.T * residual).diff(wv)
    proved(equal(grad, 2 * X.T * (X * wv - yv)))
    wrong = 2 * X * (X * wv - yv)  # shapes agree, values do not
    v = refuted(equal(grad, wrong), "exact")
    assert set(v.counterexample) == {"X", "w", "y"}
    assert_matrix_counterexample(v, grad, wrong)


@pytest.mark.parametrize("P, Q", [(A, B), (A2, B2), (A3, B3)], ids=["n", "2", "3"])
def test_transpose_of_product(P, Q):
    proved(equal((P * Q).T, Q.T * P.T))
    v = refuted(equal((P * Q).T, P.T * Q.T), "exact")
    assert_matrix_counterexample(v, (P * Q).T, P.T * Q.T)


@pytest.mark.parametrize("P, Q", [(A, B), (A2, B2)], ids=["n", "2"])
def test_inverse_of_product(P, Q):
    proved(equal((P * Q).I, Q.I * P.I))
    v = refuted(equal((P * Q).I, P.I * Q.I), "exact")
    assert_matrix_counterexample(v, (P * Q).I, P.I * Q.I)


def test_gradient_of_quadratic_form_needs_symmetry():
    grad = (v_n.T * A * v_n).diff(v_n)
    proved(equal(grad, (A + A.T) * v_n))
    v = refuted(equal(grad, 2 * A * v_n), "exact")
    assert_matrix_counterexample(v, grad, 2 * A * v_n)
    A_cex = parse_matrix(v.counterexample["A"])
    assert A_cex != A_cex.T
    proved(equal(grad, 2 * A * v_n, symmetric=[A]))


def test_derivative_of_trace_of_product():
    grad = sp.Trace(A * B).diff(A)
    proved(equal(grad, B.T))
    v = refuted(equal(grad, B), "exact")
    assert_matrix_counterexample(v, grad, B)
    # the same with explicit 2 x 2 matrices, elementwise
    P, Q = explicit_matrix("a", 2, 2), explicit_matrix("b", 2, 2)
    elementwise = P.applyfunc(lambda e: sp.diff((P * Q).trace(), e))
    proved(equal(elementwise, Q.T))
    v = refuted(equal(elementwise, Q), "numeric")
    assert_scalar_counterexample(v, elementwise, Q)


def test_derivative_of_log_determinant():
    # sympy 1.14 differentiates log(Determinant(A)) wrt a MatrixSymbol to 0, so use explicit
    # 2 x 2 matrices and differentiate elementwise
    P = explicit_matrix("a", 2, 2)
    grad = P.applyfunc(lambda e: sp.diff(sp.log(P.det()), e))
    proved(equal(grad, P.inv().T))
    v = refuted(equal(grad, P.inv()), "numeric")
    assert_scalar_counterexample(v, grad, P.inv())
    # for a symmetric matrix the two agree
    S = explicit_matrix("s", 2, 2, symmetric=True)
    grad_s = sp.Matrix(2, 2, lambda i, j: sp.diff(sp.log(S.det()), S[i, j]) / (1 if i == j else 2))
    proved(equal(grad_s, S.inv()))


def test_projection_identity_needs_a_square_matrix():
    # distinct shape symbols are evaluated at distinct sizes: X (X^T X)^{-1} X^T = I only if n = d
    X = sp.MatrixSymbol("X", n, d)
    v = refuted(equal(X * (X.T * X).I * X.T, sp.Identity(n)), "exact")
    assert_matrix_counterexample(v, X * (X.T * X).I * X.T, sp.Identity(n))
    v = fast(equal((X.T * X).I * X.T * X, sp.Identity(d)))
    assert v.holds and v.method in {"symbolic", "exact"}


def test_hat_matrix_is_idempotent_whatever_the_shape_symbols_are_called():
    # (X^T X)^{-1} only exists for a tall X; a wide X (singular X^T X) is no counterexample
    for rows, cols in [("n", "d"), ("p", "q")]:
        r, c = sp.symbols(f"{rows} {cols}", integer=True, positive=True)
        X = sp.MatrixSymbol("X", r, c)
        H = X * (X.T * X).I * X.T
        v = fast(equal(H * H, H, sizes=(1,)))
        assert v.holds and v.method in {"symbolic", "exact"}, v
        v = refuted(equal(H, sp.Identity(r)), "exact")  # only true for a square X
        assert_matrix_counterexample(v, H, sp.Identity(r))
        X_cex = parse_matrix(v.counterexample["X"])
        assert X_cex.rows > X_cex.cols


def test_claim_undefined_at_every_size_fails():
    v = refuted(equal((v_n * v_n.T).I, sp.Identity(n)), "exact")  # x x^T is singular for n > 1
    assert "undefined" in v.detail and v.counterexample is None


def test_zero_matrix_comparison():
    # the pitfall: a ZeroMatrix is not == 0 and is != 0, so "difference != 0" is no test
    Z = ((A * B).T - B.T * A.T).doit()
    assert isinstance(Z, sp.ZeroMatrix) and Z != 0
    v = proved(equal((A * B).T, B.T * A.T))
    assert "zero matrix" in v.detail
    proved(equal((A * B).T - B.T * A.T, sp.ZeroMatrix(n, n)))
    proved(equal((A * B).T - B.T * A.T, 0))  # a scalar 0 stands for the zero matrix
    proved(equal(A * (B + sp.Identity(n)) - A * B, A))
    # true, but does not reduce to ZeroMatrix: decided on explicit matrices
    v = fast(equal(v_n.T * A * v_n, v_n.T * A.T * v_n))
    assert v.holds and v.method in {"symbolic", "exact"}
    v = fast(equal(v_n.T * A * v_n, sp.Trace(A * v_n * v_n.T)))  # a 1 x 1 matrix against a scalar
    assert v.holds and v.method in {"symbolic", "exact"}
    # false ones whose difference is a nonzero-looking matrix expression
    for lhs, rhs in [(A * B - B * A, sp.ZeroMatrix(n, n)), (A - A.T, 0), (A * B, B * A),
                     (v_n.T * A * v_n, sp.Trace(A * A * v_n * v_n.T))]:
        v = refuted(equal(lhs, rhs), "exact")
        rhs_m = sp.ZeroMatrix(*lhs.shape) if rhs == 0 else rhs
        if isinstance(rhs_m, sp.Trace):
            rhs_m = rhs_m * sp.Identity(1)
        assert_matrix_counterexample(v, lhs, rhs_m)


def test_symmetric_matrices():
    v = fast(equal((A * B).T, B * A, symmetric=[A, B]))
    assert v.holds and v.method in {"symbolic", "exact"}
    v = refuted(equal((A * B).T, A * B, symmetric=[A, B]), "exact")
    assert_matrix_counterexample(v, (A * B).T, A * B)
    assert parse_matrix(v.counterexample["A"]).is_symmetric()


def test_matrix_witness():
    v = refuted(equal(A * B, B * A, witnesses=[{n: 2, A: [[0, 1], [0, 0]], B: [[0, 0], [1, 0]]}]), "exact")
    assert "witness" in v.detail
    assert_matrix_counterexample(v, A * B, B * A)


def test_shape_mismatch_of_matrix_expressions_fixed_size():
    M = sp.MatrixSymbol("M", 3, 2)
    v = refuted(equal(M.T * M, M * M.T), "symbolic")
    assert "shapes differ" in v.detail


# ---------------------------------------------------------------------------------------------
# explicit sympy matrices
# ---------------------------------------------------------------------------------------------

def test_explicit_matrix_shape_mismatch_fails():
    v = refuted(equal(sp.Matrix([x, y]), sp.Matrix([[x, y]])), "symbolic")
    assert "shapes differ" in v.detail


def test_explicit_matrix_entrywise():
    P, Q = explicit_matrix("a", 2, 2), explicit_matrix("b", 2, 2)
    proved(equal((P * Q).T, Q.T * P.T))
    proved(equal((P * Q).inv(), Q.inv() * P.inv()))
    wrong = P.T * Q.T
    v = refuted(equal((P * Q).T, wrong), "numeric")
    assert_scalar_counterexample(v, (P * Q).T, wrong)


def test_explicit_matrix_symmetric():
    S = explicit_matrix("s", 3, 3, symmetric=True)
    assert S == S.T
    assert explicit_matrix("a", 3, 3) != explicit_matrix("a", 3, 3).T


# ---------------------------------------------------------------------------------------------
# holds
# ---------------------------------------------------------------------------------------------

_OPS = {">=": sp.Ge, ">": sp.Gt, "<=": sp.Le, "<": sp.Lt, "!=": sp.Ne}


def assert_violated(v: Verdict, lhs, op, rhs):
    assert v.counterexample, v
    point = scalar_point(v.counterexample, lhs, rhs)
    value = lambda e: sp.N(sp.sympify(e).xreplace(point), 40)  # noqa: E731
    assert not bool(_OPS[op](value(lhs), value(rhs))), (point, value(lhs), value(rhs))
    return point


def test_sum_of_squares_is_nonnegative_symbolically():
    v = proved(holds(x ** 2 + y ** 2, ">=", 0))
    assert "nonnegative" in v.detail
    proved(holds((x - y) ** 2, ">=", 0))


def test_false_inequality_has_a_genuine_counterexample():
    v = refuted(holds(x ** 2, ">=", x), "numeric")
    point = assert_violated(v, x ** 2, ">=", x)
    assert 0 < point[x] < 1
    # AM-GM in the wrong direction
    v = refuted(holds((a + b) / 2, "<=", sp.sqrt(a * b)), "numeric")
    assert_violated(v, (a + b) / 2, "<=", sp.sqrt(a * b))
    # the right direction holds (sympy cannot decide the sign: evidence)
    v = fast(holds((a + b) / 2, ">=", sp.sqrt(a * b)))
    assert v.holds and v.method in {"symbolic", "numeric"}


def test_unequal_fails_at_a_witness_where_it_is_zero():
    v = fast(holds(x - y, "!=", 0))
    assert v.holds and v.method == "numeric"  # random points never hit x = y
    v = refuted(holds(x - y, "!=", 0, witnesses=[{x: 1, y: 1}]), "exact")
    assert_violated(v, x - y, "!=", 0)
    v = refuted(holds(x ** 2 - 1, "!=", 0, witnesses=[{x: -1}]), "exact")
    assert v.counterexample["x"] == "-1"


def test_strict_inequality_for_positive_symbols_is_symbolic():
    proved(holds(a * b, ">", 0))
    proved(holds(a / b + 1, ">", 1))
    proved(holds(sp.exp(x), ">", 0))
    v = refuted(holds(a - b, ">", 0), "numeric")
    assert_violated(v, a - b, ">", 0)


def test_holds_where_an_expression_is_not_real():
    # sqrt(x) and log(x) are not real for x < 0: those points are skipped, not a crash
    v = fast(holds(sp.sqrt(x), ">=", 0))
    assert v.holds
    v = refuted(holds(sp.log(x), ">", 2), "numeric")
    assert_violated(v, sp.log(x), ">", 2)
    v = fast(holds(sp.sqrt(x), ">=", 0, witnesses=[{x: -1}]))
    assert v.holds


def test_holds_equality_and_bad_operator():
    proved(holds(a * b, "==", b * a))
    refuted(holds(a * b, "==", a + b), "numeric")
    with pytest.raises(ValueError):
        holds(x, "=>", 0)


# ---------------------------------------------------------------------------------------------
# agree
# ---------------------------------------------------------------------------------------------

def test_agree():
    rng = np.random.default_rng(0)
    derived = rng.normal(size=(4, 3))
    v = proved(agree(derived, derived.copy(), rtol=1e-10, atol=1e-12, latex="w"), "implementation")
    perturbed = derived.copy()
    perturbed[2, 1] += 1e-6
    v = refuted(agree(derived, perturbed, rtol=1e-10, atol=1e-12, latex="w"), "implementation")
    assert v.counterexample["\\text{index}"] == "(2, 1)", v.counterexample
    assert float(v.counterexample["\\text{computed}"]) - float(v.counterexample["\\text{derived}"]) == pytest.approx(1e-6, rel=1e-3)
    # within tolerance
    proved(agree(derived, derived + 1e-13, rtol=1e-10, atol=1e-12, latex="w"), "implementation")
    v = refuted(agree(derived, derived.T, rtol=1e-10, atol=1e-12, latex="w"), "implementation")
    assert "shapes differ" in v.detail
    v = refuted(agree(np.ones(3), np.ones((3, 1)), rtol=1e-10, atol=1e-12, latex="w"), "implementation")
    nan = np.array([1.0, np.nan])
    refuted(agree(nan, nan, rtol=1e-10, atol=1e-12, latex="w"), "implementation")
    refuted(agree(np.array([1.0, 2.0]), nan, rtol=1e-10, atol=1e-12, latex="w"), "implementation")
    inf = np.array([1.0, np.inf])
    refuted(agree(inf, inf, rtol=1e-10, atol=1e-12, latex="w"), "implementation")


# ---------------------------------------------------------------------------------------------
# claim, erratum, Source
# ---------------------------------------------------------------------------------------------

def test_claim_returns_on_true_and_raises_on_false(capsys):
    good = equal((a + b) ** 2, a ** 2 + 2 * a * b + b ** 2)
    assert claim("Binomial", good) == (good,)
    out = capsys.readouterr().out
    assert "Binomial" in out and "✔" in out
    bad = equal((a + b) ** 2, a ** 2 + b ** 2)
    with pytest.raises(ClaimError, match="Binomial"):
        claim("Binomial", good, bad)
    out = capsys.readouterr().out
    assert "✘" in out and "Counterexample" in out
    with pytest.raises(TypeError):
        claim("Nothing")
    assert issubclass(ClaimError, AssertionError)


def test_claim_in_ipython_attaches_the_record(monkeypatch):
    IPython = pytest.importorskip("IPython")
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(IPython.display, "display",
                        lambda obj, metadata=None, **kwargs: shown.append((obj, metadata)))
    v = equal(sp.diff(log_density, x), -(x - mu) / sigma ** 2)
    claim("Gaussian score", v, label="score")
    (shown_obj, metadata), = shown
    markdown = shown_obj["text/markdown"] if isinstance(shown_obj, dict) else shown_obj.data
    assert "Gaussian score" in markdown
    record = metadata["mlnotes"]
    assert record["kind"] == "claim" and record["label"] == "score" and record["holds"] is True
    assert record["statements"][0]["method"] == "symbolic"


def notes_source():
    return Source(NOTES_FILE, "281-283", "L3, least squares")


def test_erratum_records_a_refuted_claim_and_its_correction(capsys):
    grad = sp.diff((y - w * x) ** 2, w)
    record = erratum("LS-1", notes_source(), "factor 2 dropped",
                     notes=equal(grad, -x * (y - w * x)), correction=equal(grad, -2 * x * (y - w * x)),
                     explanation="The chain rule gives a factor 2.")
    assert record["id"] == "LS-1" and record["kind"] == "erratum" and record["holds"] is True
    assert record["source"] == {"notes": NOTES_FILE, "number": "001", "name": "Foundations course notes",
                                "lines": "281-283", "section": "L3, least squares"}
    assert record["notes_claim"]["holds"] is False and record["notes_claim"]["counterexample"]
    assert [c["holds"] for c in record["corrections"]] == [True]
    assert "LS-1" in capsys.readouterr().out
    # several corrections
    record = erratum("LS-2", notes_source(), "factor 2 dropped",
                     notes=equal(grad, -x * (y - w * x)),
                     correction=(equal(grad, -2 * x * (y - w * x)), holds(x ** 2, ">=", 0)))
    assert len(record["corrections"]) == 2


def test_erratum_raises_when_the_notes_are_right_or_the_correction_wrong():
    grad = sp.diff((y - w * x) ** 2, w)
    right, wrong = equal(grad, -2 * x * (y - w * x)), equal(grad, -x * (y - w * x))
    with pytest.raises(ClaimError, match="no erratum"):
        erratum("LS-1", notes_source(), "not an error", notes=right, correction=right)
    with pytest.raises(ClaimError, match="correction fails"):
        erratum("LS-1", notes_source(), "wrong fix", notes=wrong, correction=wrong)
    with pytest.raises(ClaimError, match="correction fails"):
        erratum("LS-1", notes_source(), "one wrong fix", notes=wrong, correction=(right, wrong))


@pytest.mark.parametrize("bad_id", ["ls-1", "LS1", "LS-", "LS 1", "-1", "", "LS-1!", "1-LS"])
def test_erratum_rejects_bad_ids(bad_id):
    grad = sp.diff((y - w * x) ** 2, w)
    with pytest.raises(ValueError):
        erratum(bad_id, notes_source(), "t", notes=equal(grad, -x * (y - w * x)),
                correction=equal(grad, -2 * x * (y - w * x)))


def test_erratum_needs_a_source():
    v = equal(x, x)
    with pytest.raises(TypeError):
        erratum("LS-1", NOTES_FILE, "t", notes=v, correction=v)


def test_source_validation():
    assert str(Source(NOTES_FILE, "281")) == "Foundations course notes (`001`), line 281"
    assert str(Source("001", "269-299", "L11")) == "Foundations course notes (`001`), L11 (lines 269-299)"
    assert Source("001", "1").notes == NOTES_FILE and Source("001", "1") == Source(NOTES_FILE, "1")
    Source(NOTES_FILE, "12, 14-16")
    for bad in ["notes.txt", "001_7bc1f8d3beba6b55", "1", "005", "01", 1]:
        with pytest.raises(ValueError, match="unknown notes"):
            Source(bad, "1")
    for bad in ["", "a", "12-", "-12", "1--2", "12 - 14", "1,", "1;2", "1.5"]:
        with pytest.raises(ValueError, match="lines"):
            Source(NOTES_FILE, bad)


# ---------------------------------------------------------------------------------------------
# determinism and speed
# ---------------------------------------------------------------------------------------------

def _without_time(v: Verdict) -> dict:
    return dataclasses.asdict(dataclasses.replace(v, seconds=0.0))


@pytest.mark.parametrize("decide", [
    lambda: equal(sp.diff(log_density, x), (x - mu) / sigma ** 2),
    lambda: equal(sum(xi * yi / xi ** 2 for xi, yi in zip(xs, ys)), sp.Integer(0)),
    lambda: equal((A * B).T, A.T * B.T),
    lambda: equal((v_n.T * A * v_n).diff(v_n), 2 * A * v_n),
    lambda: equal(sp.atan(a) + sp.atan(1 / a), sp.pi / 2),
    lambda: holds(x ** 2, ">=", x),
    lambda: holds((a + b) / 2, ">=", sp.sqrt(a * b)),
    lambda: agree(np.ones(3), np.ones(3) + 1, rtol=0, atol=0, latex="1"),
], ids=["scalar-false", "sum-false", "transpose-false", "quadratic-false", "numeric-true",
        "holds-false", "holds-numeric", "agree-false"])
def test_same_call_gives_the_same_verdict(decide):
    first, second = decide(), decide()
    assert _without_time(first) == _without_time(second)


def test_different_seeds_may_differ_but_agree_on_the_verdict():
    wrong = (x - mu) / sigma ** 2
    verdicts = [equal(sp.diff(log_density, x), wrong, seed=s) for s in range(3)]
    assert all(not v.holds and v.method == "numeric" for v in verdicts)
    for v in verdicts:
        assert_scalar_counterexample(v, sp.diff(log_density, x), wrong)


def test_a_batch_of_checks_is_fast():
    start = time.perf_counter()
    for v in [equal((A3 * B3).I, B3.I * A3.I), equal((A3 * B3).I, A3.I * B3.I),
              equal((v_n.T * A * v_n).diff(v_n), 2 * A * v_n, symmetric=[A]),
              equal(explicit_matrix("a", 3, 3).inv().T, explicit_matrix("a", 3, 3).T.inv()),
              holds(x ** 4 + y ** 4, ">=", 0)]:
        fast(v)
    assert time.perf_counter() - start < 4 * BUDGET


# Regressions reported by the chapter authors (chapters 1 and 8)

def test_holds_is_not_fooled_by_rounding_at_points_of_equality():
    p, q = sp.symbols("p q", real=True)
    # ||p| - |q|| <= |p - q| holds with equality whenever p, q have the same sign
    assert holds(sp.Abs(sp.Abs(p) - sp.Abs(q)), "<=", sp.Abs(p - q), points=400).holds
    # and the false direction is still caught
    assert not holds(sp.Abs(p - q), "<=", sp.Abs(sp.Abs(p) - sp.Abs(q)), points=400).holds


def test_a_complex_counterexample_is_reported_not_a_crash():
    c, s = sp.Symbol("c", real=True), sp.Symbol("s", positive=True)
    v = equal(sp.log(c ** 2 * s), 2 * sp.log(c) + sp.log(s), witnesses=[{c: -2, s: 3}])
    assert not v.holds
    assert "i" in v.counterexample["\\text{rhs}"]          # log(-2) is complex: shown, not crashing


def test_column_slices_of_matrix_products():
    P, Q = sp.MatrixSymbol("P", 3, 3), sp.MatrixSymbol("Q", 3, 3)
    assert equal((P * Q)[:, 0], P * Q[:, 0]).holds
    assert not equal((P * Q)[:, 0], Q * P[:, 0]).holds
    assert not equal((P * Q)[:, 1], P * Q[:, 0]).holds


def test_symbolic_size_claims_with_a_scalar_symbol():
    d = sp.Symbol("d", integer=True, positive=True)
    xv, gv, zv = (sp.MatrixSymbol(name, d, 1) for name in ("xv", "gv", "zv"))
    eta = sp.Symbol("eta", real=True)
    lhs = (xv - eta * gv - zv).T * (xv - eta * gv - zv)
    expanded = (xv - zv).T * (xv - zv) - 2 * eta * gv.T * (xv - zv) + eta ** 2 * gv.T * gv
    assert equal(lhs, expanded).holds
    assert not equal(lhs, expanded + eta * gv.T * gv).holds
    assert not equal(lhs, (xv - zv).T * (xv - zv) - eta * gv.T * (xv - zv) + eta ** 2 * gv.T * gv).holds


def test_infinite_values_are_compared_not_skipped():
    t = sp.Symbol("t", positive=True)
    assert not equal(sp.oo, 1).holds
    assert not equal(-sp.oo, sp.oo).holds
    assert not equal(sp.limit(1 / t, t, 0, "+"), 5).holds
    assert equal(sp.limit(1 / t, t, 0, "+"), sp.oo).holds


def test_random_points_respect_negative_assumptions():
    m = sp.Symbol("m", nonpositive=True)
    k = sp.Symbol("k", negative=True)
    assert holds(sp.exp(-m), ">=", 1).holds          # true for m <= 0 only: no false counterexample
    assert holds(k, "<", 0).holds
    assert not holds(sp.exp(-m), "<", 1).holds


# ---------------------------------------------------------------------------------------------
# honest proof kinds (issue 10, section 3)
# ---------------------------------------------------------------------------------------------

from mlnotes.symbolic import KINDS, NOTES, bounded, count, functions, measured, records, reset, summary  # noqa: E402


def test_kinds_say_what_happened():
    assert equal((a + b) ** 2, a ** 2 + 2 * a * b + b ** 2).kind == "proved"
    assert equal(sp.pi ** 2, sp.pi * sp.pi + 0 * a).kind in {"proved", "trivial"}
    assert equal(sp.Rational(1, 3) + sp.Rational(1, 6), sp.Rational(1, 2)).kind == "trivial"  # evaluated when built
    assert equal(sp.sqrt(8), 2 * sp.sqrt(2)).kind == "trivial"
    assert equal(sp.Integral(sp.exp(-a), (a, 0, sp.oo)), 1).kind == "exact computation"
    assert equal(sp.Integral(x, (x, 0, 1)), sp.Rational(1, 3)).kind == "exact computation"
    assert not equal(sp.Integral(x, (x, 0, 1)), sp.Rational(1, 3)).holds
    assert equal(sp.atan(a) + sp.atan(1 / a), sp.pi / 2, timeout=1e-3).kind in {"proved", "numeric evidence"}
    assert equal(x ** 2, x).kind == "counterexample"
    assert differs(x ** 2, x).kind == "counterexample"
    assert holds(x ** 2 + y ** 2, ">=", 0).kind == "proved"
    assert holds(sp.pi, ">", 3).kind == "exact computation"
    assert agree(np.ones(2), np.ones(2)).kind == "implementation agrees"
    assert agree(np.ones(2), np.ones(2), kind="measured").kind == "measured"
    for v in [equal(x, x)]:
        assert v.kind in KINDS


@pytest.mark.parametrize("make", [
    lambda: holds(sp.Float(1e-13), "<=", 1e-12),                 # a residual from a run, wrapped in sp.Float
    lambda: holds(sp.Integer(3), "<=", 15.0),                    # a float bound
    lambda: equal(sp.Float(0.5) * (x + 1) ** 2, (x ** 2 + 2 * x + 1) / 2),   # a float coefficient
    lambda: equal(np.float64(2.0) * sp.sin(x) ** 2, 1 - sp.cos(2 * x)),     # a numpy float
    lambda: holds(x ** 2 + 0.5, ">", 0),
], ids=["Float-residual", "float-bound", "Float-coefficient", "numpy-float", "float-in-expression"])
def test_a_float_among_the_inputs_makes_it_measured(make):
    v = make()
    assert v.kind == "measured", v


def test_measured():
    v = measured(7, "<=", 15, latex=r"\text{Newton steps} \le 15")
    assert v.holds and v.kind == "measured" and v.checked == r"7 \le 15" and v.display_check == "description"
    assert measured(np.int64(3), "==", 3).holds
    assert measured(sp.Integer(3), "==", 3).holds
    assert measured(np.float64(1e-13), "<", 1e-12).holds
    # must fail
    for value, op, bound in [(16, "<=", 15), (15, "<", 15), (0.1, ">", 0.2), (2, "==", 3), (1.0, ">=", 1.5),
                             (float("nan"), "<=", 1.0), (float("nan"), ">=", 1.0)]:
        v = measured(value, op, bound)
        assert not v.holds and v.kind == "measured", (value, op, bound)
        assert v.counterexample
    with pytest.raises(ValueError, match="op"):
        measured(1, "=<", 2)
    with pytest.raises(TypeError, match="truth value"):
        measured(True, "==", 1)
    with pytest.raises(TypeError, match="symbols"):
        measured(x, "<=", 1)
    with pytest.raises(TypeError, match="bounded"):
        measured(np.ones(3), "<=", 1)
    with pytest.raises(TypeError):
        measured("7", "<=", 15)


def test_bounded():
    v = bounded([3, 5, 2], upper=[4.0, 5.5, 9.0])
    assert v.holds and v.kind == "measured"
    assert bounded(np.array([0.0, 0.5, 1.0]), lower=0, upper=1).holds
    assert bounded([[1, 2], [3, 4]], upper=4).holds
    # must fail: one value above, one below, NaN, a per-value bound violated
    v = bounded([3, 6, 2], upper=5)
    assert not v.holds and v.counterexample["\\text{index}"] == "(1,)" and v.counterexample["\\text{value}"] == "6"
    assert not bounded([0.1, -0.2], lower=0).holds
    assert not bounded([0.1, np.nan], upper=1).holds
    assert not bounded([1, 2, 3], upper=[2, 2, 2]).holds
    assert not bounded([1, 2, 3], lower=0, upper=2.5).holds
    with pytest.raises(ValueError, match="upper"):
        bounded([1, 2])
    with pytest.raises(ValueError, match="empty"):
        bounded([], upper=1)
    with pytest.raises(TypeError):
        bounded([True, False], upper=1)
    with pytest.raises(ValueError, match="broadcast"):
        bounded([1, 2, 3], upper=[1, 2])


def test_agree_rejects_truth_values_and_bad_kinds():
    with pytest.raises(TypeError, match="measured"):
        agree(np.array([True]), np.array([True]))
    with pytest.raises(ValueError, match="kind"):
        agree(np.ones(2), np.ones(2), kind="proved")
    with pytest.raises(ValueError):
        agree(np.ones(2), np.ones(2), rtol=-1)


# ---------------------------------------------------------------------------------------------
# claim(proves=, exercise=), the registry of one execution, notes by number
# ---------------------------------------------------------------------------------------------

def test_claim_proves_and_exercise(capsys):
    reset()
    claim("Binomial", equal((a + b) ** 2, a ** 2 + 2 * a * b + b ** 2), proves="eq-binomial", exercise=3)
    out = capsys.readouterr().out
    assert "{eq}`eq-binomial`" in out and "exercise 3" in out and "`proved`" in out
    assert out.startswith("::::{div} mlnotes-claim mlnotes-verdict-ok")
    (rec,) = records()
    assert rec["proves"] == ["eq-binomial"] and rec["exercise"] == "3"
    claim("Two", equal(a * b, b * a + 0 * a + a - a), proves=("eq-1", "eq-2"))
    assert records()[-1]["proves"] == ["eq-1", "eq-2"]
    for bad in ["", "has space", "-start", 3, ("ok", "no good")]:
        with pytest.raises(ValueError, match="proves"):
            claim("Bad", equal(a, a), proves=bad)
    with pytest.raises(TypeError, match="Verdict"):
        claim("Not a verdict", True)
    reset()


def test_summary_counts_one_execution(capsys):
    reset()
    for _ in range(2):  # a cell run twice, or a second Run All
        claim("First", equal((a + b) ** 2, a ** 2 + 2 * a * b + b ** 2))
        claim("Second", measured(3, "<=", 4), bounded([1, 2], upper=2))
        erratum("LS-1", notes_source(), "factor 2 dropped", notes=equal(2 * x, x),
                correction=equal(sp.Derivative(x ** 2, x), 2 * x))
    counts = summary()
    assert counts["claims"] == 2 and counts["errata"] == ["LS-1"]
    assert counts["statements"] == {"proved": 2, "counterexample": 1, "measured": 2}
    assert counts["failed"] == []
    reset()
    assert summary()["claims"] == 0
    capsys.readouterr()


def test_notes_by_number_and_by_file():
    assert set(NOTES) == {"000", "001", "002", "003", "004"}
    assert NOTES["001"].file == NOTES_FILE and NOTES[NOTES_FILE].number == "001"
    assert NOTES["001"].name == "Foundations course notes"
    assert "001" in NOTES and NOTES_FILE in NOTES and "005" not in NOTES and "x" not in NOTES
    with pytest.raises(KeyError):
        NOTES["005"]


def test_shared_sympy_functions():
    z = sp.Symbol("z", real=True)
    s = functions.sigmoid(z)
    proved(equal(sp.Derivative(s, z), s * (1 - s)))
    proved(equal(functions.logit(s), z))
    proved(equal(sp.Derivative(functions.softplus(z), z), s))
    proved(equal(sp.Integral(functions.std_normal_pdf(z), (z, -sp.oo, sp.oo)), 1), "symbolic")
    proved(equal(sp.Derivative(functions.std_normal_cdf(z), z), functions.std_normal_pdf(z)))
    proved(equal(functions.normal_pdf(z, mu, sigma ** 2), functions.std_normal_pdf((z - mu) / sigma) / sigma))
    proved(equal(functions.beta_function(2, 3), sp.Rational(1, 12)), "symbolic")
    v = sp.Matrix([x, y])
    assert functions.squared_norm(v) == x ** 2 + y ** 2 and functions.squared_norm(v.T) == x ** 2 + y ** 2
    assert functions.norm(v) == sp.sqrt(x ** 2 + y ** 2)
    assert functions.hinge(sp.Integer(3)) == 0 and functions.hinge(sp.Integer(-1)) == 2
    assert functions.indicator(x > 0).subs(x, 2) == 1 and functions.indicator(x > 0).subs(x, -2) == 0
    with pytest.raises(TypeError, match="vector"):
        functions.squared_norm(sp.Matrix([[x, y], [y, x]]))
    with pytest.raises(TypeError, match="vector"):
        functions.norm(x)


# ---------------------------------------------------------------------------------------------
# what the reader sees is what was proved (issue 10, section 1)
# ---------------------------------------------------------------------------------------------

def _logistic():
    from mlnotes.symbolic.functions import sigmoid

    loss = sp.log(1 + sp.exp(w * x)) - y * w * x
    return sp.Derivative(loss, w), (sigmoid(w * x) - y) * x


def test_checked_form_is_rendered_from_the_checked_objects():
    grad, formula = _logistic()
    v = equal(grad, formula)
    assert v.display is None and v.display_check == "rendered"
    assert v.latex == v.checked == f"{sp.latex(grad)} = {sp.latex(formula)}"
    v = holds(x ** 2, ">=", 0)
    assert v.checked == r"x^{2} \ge 0"


@pytest.mark.parametrize("typed", [
    r"\frac{\partial \ell}{\partial w} = (y - \sigma(w x))\, x",          # the sign of the gradient flipped
    r"\frac{\partial \ell}{\partial w} = (\sigma(w x) - y)\, w",          # the wrong variable
    r"\frac{\partial \ell}{\partial w} = \sigma(w x) - y",                # a dropped factor
    r"(\sigma(w x) - y)\, x = 2(\sigma(w x) - y)\, x",                    # a chain with a wrong step
    r"\frac{\partial \ell}{\partial w} \ne (\sigma(w x) - y)\, x",        # the wrong relation
], ids=["flipped-sign", "wrong-variable", "dropped-factor", "wrong-step", "wrong-relation"])
def test_a_typed_display_that_disagrees_with_the_check_fails(typed, capsys):
    grad, formula = _logistic()
    v = equal(grad, formula, latex=typed)
    assert not v.holds and v.display_check == "disagrees", v
    assert "display disagrees" in v.detail
    with pytest.raises(ClaimError, match="checked") as info:
        claim("Logistic gradient", v)
    assert sp.latex(formula) in str(info.value)          # the message shows the checked formula
    out = capsys.readouterr().out
    assert "mlnotes-verdict-fail" in out and "The display disagrees with what was checked" in out
    assert sp.latex(formula) in out


def test_a_typed_display_that_agrees_is_compared():
    grad, formula = _logistic()
    v = equal(grad, formula, latex=r"\frac{\partial \ell}{\partial w} = (\sigma(w x) - y)\, x \quad (d = 1)")
    assert v.holds and v.display_check == "not compared"       # the left side is not parsed ...
    v = equal(formula, grad.doit(), latex=r"(\sigma(w x) - y)\, x = x\Big(\frac{e^{w x}}{1 + e^{w x}} - y\Big)")
    assert v.holds and v.display_check == "compared", v         # ... both sides are
    v = equal(formula, grad.doit(), latex=r"x\Big(\frac{e^{w x}}{1 + e^{w x}} - y\Big) = (\sigma(w x) - y)\, x")
    assert v.holds and v.display_check == "compared"            # the sides the other way round
    v = holds(sp.exp(x) / (1 + sp.exp(x)) ** 2, ">", 0, latex=r"0 < \frac{e^{x}}{(1 + e^{x})^2}")
    assert v.holds and v.display_check == "compared"


@pytest.mark.parametrize("make", [
    lambda: holds(sp.exp(x), ">", 1 - x, latex=r"e^{x} < 1 - x"),                   # the relation turned round
    lambda: holds(x ** 2 + 1, ">=", 1, latex=r"x^2 + 1 > 1"),                       # strict typed, non-strict checked
    lambda: holds(x ** 2 + 1, ">=", 1, latex=r"x^2 \ge 1"),                         # a side changed
    lambda: differs(sp.sqrt(x ** 2), x, latex=r"\sqrt{x^2} \ne -x"),                 # a side changed
    lambda: equal(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1, latex=r"\sin(x)^2 - \cos(x)^2 = 1"),
], ids=["turned-round", "strict", "side", "differs-side", "sign"])
def test_more_disagreeing_displays_fail(make):
    v = make()
    assert not v.holds and v.display_check == "disagrees", v


def test_displays_that_cannot_be_compared_say_so_and_are_counted(capsys):
    n_ = sp.MatrixSymbol("X", 3, 2)
    v1 = equal((n_.T * n_).T, n_.T * n_, latex=r"(X^\top X)^\top = X^\top X")        # matrices: not parsed
    v2 = equal(sp.exp(x) * sp.exp(y), sp.exp(x + y), latex=r"e^{x} e^{y} = \exp(x + y) \text{ for all } x")
    v3 = holds(x ** 2, ">=", 0, latex=r"\lVert x\rVert^2 \ge 0")
    v4 = equal(x + y, y + x + 0 * w, latex=r"p + q = q + p")                          # unknown names
    for v in (v1, v3, v4):
        assert v.holds and v.display_check == "not compared", v
    assert v2.holds and v2.display_check == "compared"
    reset()
    claim("Displays", v1, v2, v3, v4)
    out = capsys.readouterr().out
    assert out.count("*As typed (display not compared with the checked expressions):*") == 3
    assert out.count("*Checked:*") == 3 and "`3 displays not compared`" in out
    assert summary()["not_compared"] == 3
    capsys.readouterr()
    reset()


# ---------------------------------------------------------------------------------------------
# checks that cannot fail are not proofs; random points across scales (issue 10, section 4)
# ---------------------------------------------------------------------------------------------

def psi(u):
    return u ** 2


c_shift, y_hat = sp.symbols("c yhat", real=True)


@pytest.mark.parametrize("make", [
    lambda: equal(psi((y + c_shift) - (y_hat + c_shift)), psi(y - y_hat)),   # sympy cancels c when built
    lambda: equal(sp.Max(x ** 2, 0), x ** 2),                                # Max(...) already evaluated
    lambda: equal(sp.exp(-0), 1),                                           # p_gap = exp(-0)
    lambda: equal(sp.diff(x ** 3, x), 3 * x ** 2),                           # the derivative computed before the check
    lambda: equal(sp.Matrix([x, y]), sp.Matrix([x, y])),
    lambda: equal(A * B, A * B),
    lambda: holds(x ** 2, ">=", x ** 2),
], ids=["translation", "max", "exp-0", "diff", "matrix", "matexpr", "holds"])
def test_checks_whose_sides_are_identical_as_built_are_trivial(make, capsys):
    v = make()
    assert v.trivial and v.kind == "trivial" and v.holds, v
    assert "cannot fail" in v.detail
    reset()
    claim("A trivial claim", v, equal((a + b) ** 2, a ** 2 + 2 * a * b + b ** 2))   # shown, not raised
    out = capsys.readouterr().out
    assert out.startswith("::::{div} mlnotes-claim mlnotes-verdict-trivial") and "`trivial`" in out and "⚠" in out
    counts = summary()
    assert counts["trivial"] == 1 and counts["statements"]["proved"] == 1 and counts["statements"]["trivial"] == 1
    capsys.readouterr()
    reset()


def test_restated_checks_are_not_trivial():
    # the same facts, restated so that the check does the work (and can fail)
    v = proved(equal(sp.Derivative(x ** 3, x), 3 * x ** 2))
    assert not v.trivial
    assert not equal(sp.Derivative(x ** 3, x), 3 * x).holds
    c_ = sp.Symbol("c", real=True)
    shifted = sp.Lambda((y, y_hat), psi(y - y_hat))
    assert not equal(shifted(y + c_, y_hat), shifted(y, y_hat)).holds    # a shift of one argument changes it
    assert not differs(x + y, y + x).holds                              # identical sides: no difference
    assert not differs(x + y, y + x).trivial or not differs(x + y, y + x).holds


@pytest.mark.parametrize("make", [
    lambda: equal(sp.Min(x, 4), x),                 # false for x > 4: the old points in (-4, 4) missed it
    lambda: equal(sp.Max(x, -4), x),                # false for x < -4
    lambda: equal(sp.Min(a, 100), a),               # positive symbol, false above 100
    lambda: equal(sp.Max(a, sp.Rational(1, 1000)), a),   # false below 1/1000
    lambda: equal(sp.Min(n, 7), n),                 # integer symbol, false above 7
    lambda: equal(sp.Abs(x), x),                    # false for negative x
    lambda: equal(sp.sqrt(x ** 2), x),
    lambda: equal(sp.Piecewise((x, x < 50), (50, True)), x),
    lambda: holds(x, "<", 1000),
    lambda: holds(a, ">", sp.Rational(1, 10 ** 4)),
    lambda: holds(sp.exp(-x), "<=", 1),
    lambda: holds(sp.sin(x) ** 2, "<=", sp.Rational(99, 100)),
], ids=["min4", "max-4", "min100-positive", "max-small-positive", "min7-integer", "abs", "sqrt-square",
        "piecewise", "holds-below-1000", "holds-above-1e-4", "exp-neg", "sin-square"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_claims_true_only_on_a_bounded_region_or_one_sign_fail(make, seed, monkeypatch):
    import mlnotes.symbolic._prove as prove

    original = prove.np.random.default_rng
    monkeypatch.setattr(prove.np.random, "default_rng", lambda s=None: original(seed + 1000 * (s or 0)))
    v = make()
    assert not v.holds and v.counterexample, v
    assert v.kind == "counterexample"


def test_random_points_respect_assumptions_and_span_the_scales():
    from mlnotes.symbolic._prove import _random_points

    rng = np.random.default_rng(0)
    syms = {"real": x, "positive": a, "negative": sp.Symbol("k", negative=True),
            "nonnegative": sp.Symbol("t", nonnegative=True), "nonpositive": sp.Symbol("m", nonpositive=True),
            "integer": sp.Symbol("i", integer=True), "posint": n,
            "even": sp.Symbol("e", integer=True, even=True), "odd": sp.Symbol("o", integer=True, odd=True)}
    points = _random_points(rng, list(syms.values()), 60)
    assert len(points) == 60
    values = {name: [p[s] for p in points] for name, s in syms.items()}
    assert all(v.is_Rational for vs in values.values() for v in vs)
    assert all(v > 0 for v in values["positive"] + values["posint"])
    assert all(v < 0 for v in values["negative"]) and all(v >= 0 for v in values["nonnegative"])
    assert all(v <= 0 for v in values["nonpositive"])
    assert all(v.is_Integer for v in values["integer"] + values["posint"] + values["even"] + values["odd"])
    assert all(v % 2 == 0 for v in values["even"]) and all(v % 2 == 1 for v in values["odd"])
    real = [abs(v) for v in values["real"]]
    assert min(real) < 1e-4 and max(real) > 1e4                   # magnitudes across the scales
    assert any(v > 0 for v in values["real"]) and any(v < 0 for v in values["real"])
    assert max(values["posint"]) >= 100
    # two real symbols get opposite signs at some points and equal signs at others
    other = [p[y] for p in _random_points(np.random.default_rng(1), [x, y], 12)]
    mine = [p[x] for p in _random_points(np.random.default_rng(1), [x, y], 12)]
    signs = {(u > 0, v > 0) for u, v in zip(mine, other)}
    assert len(signs) >= 3


def test_large_magnitudes_give_no_false_counterexample_and_no_hang():
    from mlnotes.symbolic.functions import logit, sigmoid

    z = sp.Symbol("z", real=True)
    start = time.perf_counter()
    assert equal(logit(sigmoid(z)), z, timeout=1e-3).holds        # 1 - sigma(z) cancels at z ~ 1e5
    w1, w2, x1, x2 = sp.symbols("w1 w2 x1 x2", real=True)
    s = w1 * x1 + w2 * x2                                        # products of large symbols: exp(1e12) is skipped
    assert equal(sp.exp(s) / (1 + sp.exp(s)) ** 2, sigmoid(s) * (1 - sigmoid(s)), timeout=1e-3).holds
    assert not equal(sp.exp(s) / (1 + sp.exp(s)) ** 2, sigmoid(s) * (1 + sigmoid(s)), timeout=1e-3).holds
    assert time.perf_counter() - start < 4 * BUDGET


def test_a_loop_counts_every_claim_and_a_re_run_replaces_them(monkeypatch, capsys):
    import mlnotes.symbolic._record as record

    reset()
    monkeypatch.setattr(record, "_cell_run", lambda: 7)          # one cell run: a loop makes two claims
    for k in (1, 2):
        claim("Looped", measured(k, "<=", 2))
    assert summary()["claims"] == 2
    monkeypatch.setattr(record, "_cell_run", lambda: 8)          # the cell run again, its loop cut short
    claim("Looped", measured(1, "<=", 2))
    assert summary()["claims"] == 1
    capsys.readouterr()
    reset()
