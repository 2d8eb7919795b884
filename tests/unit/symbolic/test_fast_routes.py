"""Faster routes of the checker that compute the same things: finite sums written out term by term,
integrals evaluated once per run, a numerator test before the field's gcds, and random points that
would evaluate a factorial-like function exactly at a huge integer skipped. Each must give the value or
decision the slow route gives, and a false claim must still fail."""

import time

import pytest
import sympy as sp

from mlnotes.symbolic import _prove, equal, reset
from mlnotes.symbolic._prove import (MAX_EXACT_INTEGER, _doit, _exact_too_costly, _numerator_vanishes,
                                     _rational_zero, _terms_bound, explicit_matrix)

x, y = sp.symbols("x y", real=True)
w = sp.IndexedBase("w", positive=True)
i, j = sp.symbols("i j", integer=True)


@pytest.mark.parametrize("expr", [
    sp.Sum(w[i], (i, 0, 1)) / sp.Sum(w[i, j], (i, 0, 1), (j, 0, 2)),
    sp.Sum(i**2 * x**i, (i, 1, 6)),
    sp.Sum(sp.Sum(w[i, j], (j, 0, 1)) * x, (i, 0, 2)),                       # nested, inner first
    sp.Sum(sp.KroneckerDelta(i, 1) * y + x, (i, 0, 3)),
    sp.Sum(sp.Sum(i, (i, 0, 2)) * i, (i, 0, 1)),                     # an inner sum over the same symbol
    sp.Sum(sp.exp(-x) * x**i / sp.factorial(i), (i, 0, 5)) + sp.Sum(i, (i, 3, 3)),
])
def test_finite_sums_written_out_have_the_value_of_doit(expr):
    assert sp.simplify(_doit(expr) - expr.doit()) == 0
    assert not _doit(expr).has(sp.Sum)


@pytest.mark.parametrize("expr", [
    sp.Sum(x**i, (i, 0, y)),                                         # a symbolic bound
    sp.Sum(x**i, (i, 0, sp.oo)),                                     # an infinite one
    sp.Sum(x, (i, 3, 1)),                                            # reversed bounds (sympy's convention)
    sp.Sum(i * sp.Integral(i * x, (i, 0, 1)), (i, 0, 2)),              # the variable bound again inside
])
def test_other_sums_are_left_to_doit(expr):
    assert _prove._expand_finite_sums(expr) == expr
    assert _doit(expr) == expr.doit()


def test_a_false_claim_about_a_finite_sum_still_fails():
    assert equal(sp.Sum(w[i], (i, 0, 2)), w[0] + w[1] + w[2]).holds
    assert not equal(sp.Sum(w[i], (i, 0, 2)), w[0] + w[1]).holds
    assert not equal(sp.Matrix([sp.Sum(i * x, (i, 0, 3))]), sp.Matrix([5 * x])).holds


def test_an_integral_is_evaluated_once_per_run(monkeypatch):
    reset()
    integral = sp.Integral(sp.exp(-x**2 / 2), (x, -sp.oo, sp.oo))
    calls = []
    doit = sp.Integral.doit

    def counted(self, **hints):
        calls.append(self)
        return doit(self, **hints)

    monkeypatch.setattr(sp.Integral, "doit", counted)
    assert equal(integral, sp.sqrt(2 * sp.pi)).holds
    assert equal(integral / sp.sqrt(2 * sp.pi), 1).holds
    assert not equal(integral, sp.sqrt(sp.pi)).holds
    assert len(calls) == 1
    reset()                                                        # a new execution integrates again
    assert equal(integral, sp.sqrt(2 * sp.pi)).holds
    assert len(calls) == 2


def test_integrals_inside_other_operations_are_left_to_doit():
    reset()
    inner = sp.Integral(x * y, (x, 0, 1))
    expr = sp.Sum(inner, (y, 0, sp.oo)) + sp.Derivative(sp.Integral(x * y, (x, 0, y)), y)
    assert _doit(expr) == expr.doit()
    assert inner not in _prove._integral_values


def test_numerator_route_proves_a_zero_the_field_is_slow_on():
    S = explicit_matrix("s", 4, 4, symmetric=True)
    S22_inv = S[2:, 2:].inv()
    schur = S[:2, :2] - S[:2, 2:] * S22_inv * S[2:, :2]
    U_inv = sp.BlockMatrix([[sp.eye(2), -S[:2, 2:] * S22_inv], [sp.zeros(2, 2), sp.eye(2)]]).as_explicit()
    Lam = U_inv.T * sp.diag(schur.inv(), S22_inv) * U_inv
    xs, mus = sp.Matrix(sp.symbols("x1:5", real=True)), sp.Matrix(sp.symbols("mu1:5", real=True))
    mean = mus[:2, :] + S[:2, 2:] * S22_inv * (xs[2:, :] - mus[2:, :])
    diff = Lam[:2, :2] * (mean - mus[:2, :]) + Lam[:2, 2:] * (xs[2:, :] - mus[2:, :])
    start = time.process_time()
    assert all(_rational_zero(e) is True for e in diff)
    assert time.process_time() - start < 0.9                        # the field's gcds alone: more than 5 s


def test_numerator_route_declines_what_it_cannot_show():
    ring = sp.polys.rings.PolyRing((x, y), sp.QQ)
    assert not _numerator_vanishes(1 / (x + 1) - 1 / x, ring)             # not zero
    zero_denominator = (x + 1) ** 2 - x**2 - 2 * x - 1                         # the zero polynomial, unexpanded
    undefined = sp.Mul(sp.Add(x, -x, evaluate=False), sp.Pow(zero_denominator, -1), evaluate=False)
    assert not _numerator_vanishes(undefined, ring)                            # 0/0: not shown to be zero
    # nested fractions over a common sum multiply out without gcds: the bound stops the expansion
    # (chapter 3's conditional-independence identity, one entry)
    theta = sp.symbols("t0:8", positive=True)
    p = [t / sum(theta) for t in theta]
    given = lambda event, condition: sum(p[k] for k in event) / sum(p[k] for k in condition)
    nested = (given([0], [0, 1, 2, 3]) - given([0, 1], [0, 1, 2, 3]) * given([0, 2], [0, 1, 2, 3])
              - given([0, 1], [0, 1, 2, 3]) * (given([0], [0, 1]) - given([0, 2], [0, 1, 2, 3])))
    assert _terms_bound(nested.as_numer_denom()[0]) > _prove.MAX_NUMERATOR_TERMS
    assert _rational_zero(nested) is True                                      # the field decides it


def test_points_at_huge_integers_of_factorial_like_functions_are_skipped():
    a, b = sp.symbols("a b", positive=True)
    big = sp.Integer(349000)
    assert _exact_too_costly(sp.gamma(a + 1) / sp.gamma(a), {a: big})
    assert _exact_too_costly(sp.binomial(a, 3), {a: MAX_EXACT_INTEGER + 1})
    assert not _exact_too_costly(sp.gamma(a + 1), {a: sp.Rational(3491, 10)})
    assert not _exact_too_costly(sp.gamma(a + 1), {a: sp.Integer(MAX_EXACT_INTEGER - 1)})
    start = time.process_time()
    assert equal(sp.gamma(a + 1) / (b * sp.gamma(a)), a / b).kind == "proved"
    verdict = equal(sp.gamma(a + 2) / sp.gamma(a), a**2 + 1)               # false: a counterexample all the same
    assert not verdict.holds and verdict.kind == "counterexample"
    assert time.process_time() - start < 1.5
