"""The exact routes tried before the random points (``_quickly_zero``): a claim they prove gets the
verdict it got before, without its points being evaluated; anything else is decided as before."""

import pytest
import sympy as sp

from mlnotes.symbolic import _prove, equal, explicit_matrix
from mlnotes.symbolic._prove import _quickly_zero

x, y, z = sp.symbols("x y z", real=True)
n = sp.Symbol("n", integer=True, nonnegative=True)
X = explicit_matrix("x", 3, 2)
w = sp.Matrix(sp.symbols("w1:3", real=True))


def _verdict(v):
    return (v.holds, v.kind, v.method, v.detail, v.counterexample, v.checked, v.latex, v.display_check)


CLAIMS = [
    ((x + y) ** 2, x**2 + 2 * x * y + y**2),
    (1 / (x + 1) + 1 / (x - 1), 2 * x / (x**2 - 1)),
    (sp.exp(x) * (x + 1), x * sp.exp(x) + sp.exp(x)),
    (sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1)),                      # simplify, after the points
    (sp.log(x**2 + 1) - sp.log(x**2 + 2), sp.log((x**2 + 1) / (x**2 + 2))),  # simplify undecided: numeric
    ((x + y) ** 2, x**2 + y**2),                                            # false: a counterexample
    (1 / (x + 1), 1 / x),                                                    # false
    (sp.Float(0.5) * x, x / 2),                                              # a float: the usual way
    (sp.Matrix([[x + y, x * y]]), sp.Matrix([[y + x, y * x]])),
    (sp.Matrix([[(x + 1) ** 2, x]]), sp.Matrix([[x**2 + 2 * x + 1, x + 1]])),  # false entrywise
    (sp.Matrix([sp.diff(sum(sp.exp((X * w)[i]) for i in range(3)), wj) for wj in w]),
     X.T * sp.Matrix([sp.exp((X * w)[i]) for i in range(3)])),
]


@pytest.mark.parametrize("lhs, rhs", CLAIMS)
def test_the_quick_routes_keep_every_verdict(lhs, rhs, monkeypatch):
    new = _verdict(equal(lhs, rhs))
    monkeypatch.setattr(_prove, "_quickly_zero", lambda lhs, rhs: False)     # the order before: points first
    assert new == _verdict(equal(lhs, rhs))


def test_a_claim_proved_by_the_quick_routes_evaluates_no_point(monkeypatch):
    def no_points(*args, **kwargs):
        raise AssertionError("points evaluated")

    monkeypatch.setattr(_prove, "_check_points", no_points)
    v = equal(1 / (x + 1) + 1 / (x - 1), 2 * x / (x**2 - 1))
    assert (v.holds, v.kind, v.detail) == (True, "proved", "simplify(lhs - rhs) = 0")
    v = equal(sp.Matrix([x * (y + 1), sp.exp(z) * (x + 1)]), sp.Matrix([x * y + x, sp.exp(z) * x + sp.exp(z)]))
    assert (v.holds, v.kind, v.detail) == (True, "proved", "simplify(lhs - rhs) = 0 entrywise")


def test_exp_of_large_arguments_is_proved_without_its_points():
    # chapter 12's Poisson log-likelihood: at random points of magnitude 1e6 its sides hold exp(1e12),
    # whose evaluation took 15-25 s of CPU time; cancel proves it at once
    z3 = X * w
    mu = [sp.exp(z3[i]) for i in range(3)]
    counts = sp.symbols("y1:4", integer=True, nonnegative=True)
    lhs = sp.log(sp.Mul(*[mu[i] ** counts[i] * sp.exp(-mu[i]) / sp.factorial(counts[i]) for i in range(3)]))
    rhs = sum(counts[i] * z3[i] - sp.exp(z3[i]) - sp.log(sp.factorial(counts[i])) for i in range(3))
    v = equal(lhs, rhs)
    assert (v.holds, v.kind, v.detail) == (True, "proved", "simplify(lhs - rhs) = 0")
    assert v.seconds < 10


@pytest.mark.parametrize("lhs, rhs", [
    (sp.Float(0.5) * x, x / 2),                  # a float (a result of running code): the usual way, though
    (x / 2, sp.Float(0.5) * x),                  # lhs - rhs is exactly 0 - at a point the sides differ
    (sp.Matrix([[x, sp.Float(0.5) * y]]), sp.Matrix([[x, y / 2]])),
    (sp.oo + x, sp.oo),                          # infinities and nan: the usual way
    (sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1)),   # true, but only simplify shows it: after the points
    (x, y),                                      # not zero
    (sp.Matrix([[x, x**2]]), sp.Matrix([[x, x * x + y]])),   # one entry not zero
])
def test_the_quick_routes_decline(lhs, rhs):
    assert _quickly_zero(lhs, rhs) is False


def test_the_quick_routes_prove_zero_entries():
    assert _quickly_zero(sp.Matrix([[x, (x + 1) ** 2, sp.exp(x) * x]]),
                         sp.Matrix([[x, x**2 + 2 * x + 1, x * sp.exp(x)]])) is True
    assert _quickly_zero((x + y) ** 2 / (x + y), x + y) is True


def test_the_quick_routes_give_up_when_their_time_runs_out(monkeypatch):
    monkeypatch.setattr(_prove, "QUICK_SECONDS", 1e-3)
    monkeypatch.setattr(_prove, "RATIONAL_SECONDS", 1e-3)
    s = x + y + z + n
    lhs, rhs = (s**10 - 1) / (s - 1), sum(s**k for k in range(10))
    assert _quickly_zero(lhs, rhs) is False         # its gcds need about 0.1 s here
    assert _prove._deadlines == []
    monkeypatch.setattr(_prove, "QUICK_SECONDS", 60)
    monkeypatch.setattr(_prove, "RATIONAL_SECONDS", 60)
    assert _quickly_zero(lhs, rhs) is True


def test_witnesses_go_the_usual_way(monkeypatch):
    called = []
    monkeypatch.setattr(_prove, "_quickly_zero", lambda lhs, rhs: called.append(1) or True)
    v = equal((x + y) ** 2, x**2 + y**2, witnesses=[{x: 1, y: 1}])
    assert not v.holds and v.detail.startswith("lhs != rhs at a given witness point")
    assert called == []


def test_a_route_that_raises_leaves_the_claim_to_the_usual_way(monkeypatch):
    def broken(expr, *args, **kwargs):
        raise sp.PolynomialError("cancel cannot take this apart")

    monkeypatch.setattr(sp, "cancel", broken)
    assert _quickly_zero(sp.exp(x) * (x + 1), x * sp.exp(x) + sp.exp(x)) is False
    v = equal(sp.exp(x) * (x + 1), x * sp.exp(x))                  # false: refuted at a point, as before
    assert not v.holds and v.kind == "counterexample"
