"""The steps of SMO on their own: the pair update, the dual objective, the KKT case table, the row cache."""

import re

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from mlnotes.kernels import rbf_kernel
from mlnotes.svm import KernelRowCache, intercept, kkt_violations, smo, smo_step, svm_dual_objective


def _line_minimum(alpha_i, alpha_j, y_i, y_j, G_i, G_j, K_ii, K_jj, K_ij, C_i, C_j):
    """Brute force: minimise the exact change of the objective along the constraint line, inside the box."""
    eta = K_ii + K_jj - 2 * K_ij
    lo_i, hi_i = (-alpha_i, C_i - alpha_i) if y_i > 0 else (alpha_i - C_i, alpha_i)
    lo_j, hi_j = (alpha_j - C_j, alpha_j) if y_j > 0 else (-alpha_j, C_j - alpha_j)
    L, U = max(lo_i, lo_j), min(hi_i, hi_j)
    phi = lambda t: t * (y_i * G_i - y_j * G_j) + t * t * eta / 2   # noqa: E731
    res = minimize_scalar(phi, bounds=(L, U), method="bounded", options={"xatol": 1e-12})
    t = min([L, U, res.x], key=phi)
    return alpha_i + y_i * t, alpha_j - y_j * t


@pytest.mark.parametrize("seed", range(40))
def test_smo_step_minimises_the_pair_problem_in_the_box(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(2, 2))
    K = rbf_kernel(x, gamma=rng.uniform(0.1, 2)) if seed % 2 else x @ x.T
    C_i, C_j = rng.uniform(0.5, 2, size=2)
    alpha_i, alpha_j = rng.uniform(0, 1) * C_i, rng.uniform(0, 1) * C_j
    if seed % 5 == 0:
        alpha_i = 0.0            # start on a bound
    y_i, y_j = rng.choice([-1.0, 1.0], size=2)
    G_i, G_j = rng.normal(scale=3, size=2)
    args = (alpha_i, alpha_j, y_i, y_j, G_i, G_j, K[0, 0], K[1, 1], K[0, 1], C_i, C_j)
    a_i, a_j = smo_step(*args)
    assert 0 <= a_i <= C_i and 0 <= a_j <= C_j
    assert y_i * a_i + y_j * a_j == pytest.approx(y_i * alpha_i + y_j * alpha_j, abs=1e-11)
    b_i, b_j = _line_minimum(*args)
    assert a_i == pytest.approx(b_i, abs=1e-7) and a_j == pytest.approx(b_j, abs=1e-7)


def test_smo_step_unclipped_is_the_newton_step_and_clipping_snaps_to_the_bound():
    # same signs, eta = 1 + 1 - 0 = 2; t* = -(G_i - G_j)/2 = 0.1 -> (0.6, 0.4), interior
    a = smo_step(0.5, 0.5, 1, 1, -0.2, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0)
    assert a == pytest.approx((0.6, 0.4), abs=1e-15)
    # a step far past C: alpha_i is set exactly to C, alpha_j takes the rest of the sum
    a = smo_step(0.5, 0.5, 1, 1, -10.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0)
    assert a == (1.0, 0.0)
    # opposite signs move both up: clipped at C for the smaller room
    a = smo_step(0.2, 0.7, 1, -1, -5.0, -5.0, 1.0, 1.0, 0.0, 1.0, 1.0)
    assert a[1] == 1.0 and a[0] == pytest.approx(0.5)


def test_smo_step_with_zero_curvature_stays_finite():
    # two identical points: eta = 0 is floored, the step runs to a bound
    a = smo_step(0.3, 0.3, 1, 1, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    assert np.isfinite(a).all() and a == (0.6, 0.0)


def test_dual_objective_value_and_gradient():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(7, 3))
    K = rbf_kernel(X, gamma=0.3)
    y = rng.choice([-1.0, 1.0], size=7)
    alpha = rng.uniform(0, 1, size=7)
    value, grad = svm_dual_objective(alpha, K, y)
    explicit = 0.5 * sum(alpha[i] * alpha[j] * y[i] * y[j] * K[i, j] for i in range(7) for j in range(7)) \
        - alpha.sum()
    assert value == pytest.approx(explicit, rel=1e-13)
    h = 1e-6
    numeric = np.array([(svm_dual_objective(alpha + h * e, K, y)[0] - svm_dual_objective(alpha - h * e, K, y)[0])
                        / (2 * h) for e in np.eye(7)])
    assert np.allclose(grad, numeric, atol=1e-7)


def test_dual_objective_rejects_bad_input():
    with pytest.raises(ValueError, match="shape"):
        svm_dual_objective(np.ones(3), np.eye(2), np.ones(3))
    with pytest.raises(ValueError, match="-1, \\+1"):
        svm_dual_objective(np.ones(2), np.eye(2), np.array([1.0, 2.0]))


def test_kkt_case_table():
    C = 1.0
    y = np.ones(6)
    alpha = np.array([0.0, 0.0, 0.5, 0.5, 1.0, 1.0])
    margin = np.array([1.5, 0.5, 1.0, 0.8, 0.3, 1.2])   # ok, bad, ok, bad, ok, bad
    v = kkt_violations(alpha, y, margin, C)
    assert np.allclose(v, [0, 0.5, 0, 0.2, 0, 0.2])
    # the sign of y: margin is y f
    assert np.allclose(kkt_violations(alpha, -y, -margin, C), v)
    with pytest.raises(ValueError, match=r"\[0, C\]"):
        kkt_violations(np.array([2.0]), np.ones(1), np.ones(1), 1.0)
    with pytest.raises(ValueError, match="C"):
        kkt_violations(alpha, y, margin, 0.0)
    # review of Part IV, F3: labels {0, 1} were accepted, and a length error spoke of an X that is not there
    with pytest.raises(ValueError, match=r"\{-1, \+1\}"):
        kkt_violations(alpha, (y > 0).astype(float) * np.r_[1, 0, 1, 0, 1, 0], margin, C)
    with pytest.raises(ValueError, match="y has 3 entries but alpha has 2"):
        kkt_violations([0.0, 0.0], [1, -1, 1], [1, -1], 1.0)
    with pytest.raises(ValueError, match="f has 1 entries but alpha has 2"):
        kkt_violations([0.0, 0.0], [1, -1], [1], 1.0)


def test_row_cache_is_lru_and_bounded():
    X = np.random.default_rng(0).normal(size=(50, 2))
    calls = []

    def rows(i):
        calls.append(int(i[0]))
        return rbf_kernel(X[i], X)

    cache = KernelRowCache(rows, 50, cache_size=3 * 50 * 8 / 2**20)     # room for three rows
    assert cache.capacity == 3
    for i in [0, 1, 2, 0, 3, 1]:      # 3 evicts 1 (least recent: 0 was used again), so 1 is computed again
        assert np.array_equal(cache(i), rbf_kernel(X[[i]], X)[0])
    assert calls == [0, 1, 2, 3, 1]
    assert cache.hits == 1 and cache.misses == 5
    assert len(cache._rows) == 3


def test_smo_solution_satisfies_kkt_and_stopping_rule():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=60) > 0, 1.0, -1.0)
    K = rbf_kernel(X, gamma=0.5)
    C = 2.0
    alpha, G, n_iter, converged = smo(lambda i: K[i], np.diag(K), y, -np.ones(60), np.full(60, C), tol=1e-8)
    assert converged and n_iter > 0
    b = intercept(alpha, G, y, np.full(60, C))
    f = K @ (alpha * y) + b
    assert abs(y @ alpha) < 1e-12
    assert kkt_violations(alpha, y, f, C, atol=1e-12).max() < 1e-7
    assert np.allclose(G, y * (K @ (y * alpha)) - 1)


def test_smo_stops_at_max_iter():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = X @ X.T
    _, _, n_iter, converged = smo(lambda i: K[i], np.diag(K), y, -np.ones(60), np.full(60, 100.0), max_iter=3)
    assert n_iter == 3 and not converged


@pytest.mark.parametrize("bad, match", [
    ({"y_i": 0.0}, r"y_i and y_j must be -1 or \+1"),
    ({"y_j": 2.0}, r"y_i and y_j must be -1 or \+1"),
    ({"C_i": 0.0}, "C_i and C_j must be > 0"),
    ({"C_j": -1.0}, "C_i and C_j must be > 0"),
    ({"alpha_i": 1.5}, r"alpha_i must lie in \[0, C_i\]"),
    ({"alpha_j": -0.1}, r"alpha_j must lie in \[0, C_j\]"),
    ({"G_i": np.nan}, "finite"),
    ({"K_ij": np.inf}, "finite"),
])
def test_public_smo_step_rejects_bad_input(bad, match):
    # the public pair update validates its arguments (the solver's inner loop calls an unchecked core)
    args = dict(alpha_i=0.5, alpha_j=0.5, y_i=1.0, y_j=-1.0, G_i=-1.0, G_j=-1.0, K_ii=1.0, K_jj=1.0, K_ij=0.0,
                C_i=1.0, C_j=1.0)
    args.update(bad)
    with pytest.raises(ValueError, match=match):
        smo_step(**args)


def test_intercept_rejects_bad_input():
    alpha, G, y, C = np.array([0.5, 0.5]), np.array([0.1, -0.1]), np.array([1.0, -1.0]), np.array([1.0, 1.0])
    assert intercept(alpha, G, y, C) == pytest.approx(-0.1)
    with pytest.raises(ValueError, match=r"y must hold signs in \{-1, \+1\}"):
        intercept(alpha, G, np.array([1.0, 0.0]), C)
    with pytest.raises(ValueError, match="entries"):
        intercept(alpha, G[:1], y, C)
    with pytest.raises(ValueError, match="C must be > 0"):
        intercept(alpha, G, y, np.array([1.0, 0.0]))
    with pytest.raises(ValueError, match=r"alpha must lie in \[0, C\]"):
        intercept(np.array([0.5, 1.5]), G, y, C)
    with pytest.raises(ValueError, match="NaN"):
        intercept(alpha, np.array([np.nan, 0.0]), y, C)


@pytest.mark.parametrize("change, message", [
    ({"y": np.array([1.0, 0.0, 1.0, 0.0])}, "signs in {-1, +1}"),       # labels {0, 1}: "converged" to a wrong alpha
    ({"p": np.array([-1.0, np.nan, -1.0, -1.0])}, "p contains NaN"),    # NaN: "converged" at alpha = 0
    ({"C": -np.ones(4)}, "C must be > 0"),                              # alpha outside the box, "converged"
    ({"p": -np.ones(3)}, "same number of entries"),                     # numpy's broadcasting message
    ({"tol": -1.0}, "tol must be > 0"),                                 # looped forever
    ({"max_iter": 0}, "max_iter must be -1"),
    ({"index": np.array([0, 1, 2, 7])}, "index must hold 4 integers"),
])
def test_smo_rejects_bad_arguments_by_name(change, message):
    # review of Part IV, F1: each of these returned a "converged" wrong answer, a numpy message or never returned
    K = np.eye(4)
    args = {"y": np.array([1.0, -1.0, 1.0, -1.0]), "p": -np.ones(4), "C": np.ones(4)} | change
    kwargs = {k: args.pop(k) for k in ("tol", "max_iter", "index") if k in args}
    with pytest.raises(ValueError, match=re.escape(message)):
        smo(lambda i: K[i], np.diag(K), args["y"], args["p"], args["C"], **kwargs)


def test_smo_accepts_lists():
    K = np.eye(4)
    alpha, _, _, converged = smo(lambda i: K[i], [1.0, 1.0, 1.0, 1.0], [1, -1, 1, -1], [-1] * 4, [1] * 4)
    assert converged and np.allclose(alpha, 1.0)
