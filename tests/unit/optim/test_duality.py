"""Lagrangian duality of convex QPs (mlnotes.optim._duality): the dual function matches its definition
inf_x L(x, lambda) and its gradient matches finite differences; weak duality holds at every feasible pair;
dual ascent reaches scipy's primal optimum (strong duality) with KKT residuals near zero; bad input is
rejected clearly."""

import warnings

import numpy as np
import pytest
from scipy import optimize
from sklearn.exceptions import ConvergenceWarning

from mlnotes.optim._duality import (KKTResiduals, qp_dual_ascent, qp_dual_function, qp_dual_gradient,
                                    qp_kkt_residuals, qp_lagrangian_minimizer)


def random_qp(d, m, seed):
    """A strictly feasible random QP: P positive definite, and x = 0 satisfies Gx < h."""
    rng = np.random.default_rng(seed)
    B = rng.normal(size=(d, d))
    P = B @ B.T + 0.5 * np.eye(d)
    q = 3 * rng.normal(size=d)
    G = rng.normal(size=(m, d))
    h = rng.uniform(0.1, 1.0, size=m)
    return P, q, G, h


def primal_slsqp(P, q, G, h):
    """The primal optimum by scipy's SLSQP (its constraints are fun(x) >= 0)."""
    d = P.shape[0]
    res = optimize.minimize(lambda x: 0.5 * x @ P @ x + q @ x, np.zeros(d), jac=lambda x: P @ x + q,
                            constraints=[{"type": "ineq", "fun": lambda x: h - G @ x, "jac": lambda x: -G}],
                            method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
    assert res.success, res.message
    return res.x, res.fun


# shapes: 1x1, more variables than constraints, as many, more constraints than variables
SHAPES = [(1, 1, 0), (3, 1, 1), (2, 2, 2), (2, 5, 3), (4, 6, 4)]


@pytest.mark.parametrize("d, m, seed", SHAPES)
def test_dual_function_is_the_infimum_of_the_lagrangian(d, m, seed):
    P, q, G, h = random_qp(d, m, seed)
    rng = np.random.default_rng(10 + seed)
    for lam in rng.uniform(0, 2, size=(4, m)):
        L = lambda x: 0.5 * x @ P @ x + q @ x + lam @ (G @ x - h)
        res = optimize.minimize(L, np.zeros(d), jac=lambda x: P @ x + q + G.T @ lam, method="BFGS",
                                options={"gtol": 1e-11})
        np.testing.assert_allclose(qp_lagrangian_minimizer(P, q, G, h, lam), res.x, atol=1e-7)
        np.testing.assert_allclose(qp_dual_function(P, q, G, h, lam), res.fun, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("d, m, seed", SHAPES)
def test_vectorised_evaluation_matches_one_point_at_a_time(d, m, seed):
    P, q, G, h = random_qp(d, m, seed)
    lams = np.random.default_rng(seed).uniform(0, 3, size=(5, m))
    many = qp_dual_function(P, q, G, h, lams)
    assert many.shape == (5,)
    np.testing.assert_allclose(many, [qp_dual_function(P, q, G, h, lam) for lam in lams], rtol=1e-13)
    np.testing.assert_allclose(qp_lagrangian_minimizer(P, q, G, h, lams),
                               [qp_lagrangian_minimizer(P, q, G, h, lam) for lam in lams], rtol=1e-12)
    assert isinstance(qp_dual_function(P, q, G, h, lams[0]), float)


@pytest.mark.parametrize("d, m, seed", SHAPES)
def test_dual_gradient_matches_central_differences_and_the_dual_is_concave(d, m, seed):
    P, q, G, h = random_qp(d, m, seed)
    rng = np.random.default_rng(20 + seed)
    lam = rng.uniform(0, 2, size=m)
    eps = 1e-6
    numeric = np.array([(qp_dual_function(P, q, G, h, lam + eps * e) - qp_dual_function(P, q, G, h, lam - eps * e))
                        / (2 * eps) for e in np.eye(m)])
    np.testing.assert_allclose(qp_dual_gradient(P, q, G, h, lam), numeric, rtol=1e-6, atol=1e-6)
    # concavity: g at a convex combination is at least the combination of the values
    a, b, t = rng.uniform(-2, 2, size=m), rng.uniform(-2, 2, size=m), rng.uniform()
    g = lambda z: qp_dual_function(P, q, G, h, z)
    assert g(t * a + (1 - t) * b) >= t * g(a) + (1 - t) * g(b) - 1e-10


@pytest.mark.parametrize("d, m, seed", SHAPES)
def test_weak_duality_every_dual_value_bounds_every_feasible_primal_value(d, m, seed):
    P, q, G, h = random_qp(d, m, seed)
    rng = np.random.default_rng(30 + seed)
    lams = rng.uniform(0, 5, size=(50, m))
    xs = rng.normal(scale=0.5, size=(400, d))
    feasible = xs[(xs @ G.T <= h).all(axis=1)]
    assert len(feasible) > 0
    f0 = 0.5 * np.einsum("ki,ij,kj->k", feasible, P, feasible) + feasible @ q
    assert qp_dual_function(P, q, G, h, lams).max() <= f0.min() + 1e-12


@pytest.mark.parametrize("d, m, seed", SHAPES)
def test_dual_ascent_reaches_the_primal_optimum_strong_duality(d, m, seed):
    P, q, G, h = random_qp(d, m, seed)
    x_ref, p_star = primal_slsqp(P, q, G, h)
    result = qp_dual_ascent(P, q, G, h, tol=1e-10, max_iter=200000)
    assert result.converged, result.message
    assert (result.x >= 0).all() and (result.path >= 0).all()
    x_star = qp_lagrangian_minimizer(P, q, G, h, result.x)
    np.testing.assert_allclose(x_star, x_ref, atol=1e-6)
    np.testing.assert_allclose(result.fun, p_star, rtol=1e-8, atol=1e-8)
    assert qp_kkt_residuals(P, q, G, h, x_star, result.x).max() < 1e-7
    # the dual values are lower bounds that never exceed p*, and ascent does not go downhill
    assert result.values.max() <= p_star + 1e-9
    assert np.all(np.diff(result.values) >= -1e-10)
    assert result.path.shape == (result.n_iter + 1, m)


def test_dual_ascent_agrees_with_scipy_maximising_the_dual():
    P, q, G, h = random_qp(3, 4, 7)
    res = optimize.minimize(lambda lam: -qp_dual_function(P, q, G, h, lam), np.ones(4),
                            jac=lambda lam: -qp_dual_gradient(P, q, G, h, lam), method="L-BFGS-B",
                            bounds=[(0, None)] * 4, options={"ftol": 1e-15, "gtol": 1e-12})
    result = qp_dual_ascent(P, q, G, h, tol=1e-11, max_iter=200000)
    np.testing.assert_allclose(result.fun, -res.fun, rtol=1e-9)
    np.testing.assert_allclose(result.x, res.x, atol=1e-5)


def test_inactive_constraint_gets_a_zero_multiplier_and_an_unconstrained_optimum_needs_none():
    P, q = np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-4.0, -5.0])     # unconstrained minimiser (1, 2)
    G, h = np.array([[1.0, 1.0], [-1.0, 0.0]]), np.array([2.0, 0.0])     # x1 + x2 <= 2 (active), x1 >= 0
    result = qp_dual_ascent(P, q, G, h)
    np.testing.assert_allclose(result.x, [1.5, 0.0], atol=1e-9)
    np.testing.assert_allclose(qp_lagrangian_minimizer(P, q, G, h, result.x), [0.5, 1.5], atol=1e-9)
    np.testing.assert_allclose(result.fun, -6.25, atol=1e-9)
    loose = qp_dual_ascent(P, q, G, h + np.array([10.0, 10.0]))         # no constraint active
    np.testing.assert_allclose(loose.x, 0.0, atol=0)
    assert loose.n_iter == 0 and loose.converged


def test_kkt_residuals_measure_each_violated_condition():
    P, q = np.eye(2), np.zeros(2)
    G, h = np.array([[-1.0, 0.0]]), np.array([-1.0])                    # x1 >= 1; optimum (1, 0), lambda 1
    at_optimum = qp_kkt_residuals(P, q, G, h, [1.0, 0.0], [1.0])
    assert isinstance(at_optimum, KKTResiduals) and at_optimum.max() == 0.0
    infeasible = qp_kkt_residuals(P, q, G, h, [0.0, 0.0], [0.0])
    assert infeasible.primal_feasibility == 1.0 and infeasible.stationarity == 0.0
    negative = qp_kkt_residuals(P, q, G, h, [-1.0, 0.0], [-1.0])
    assert negative.dual_feasibility == 1.0 and negative.stationarity == 0.0
    slack = qp_kkt_residuals(P, q, G, h, [2.0, 0.0], [2.0])            # lambda > 0 on an inactive constraint
    assert slack.complementary_slackness == 2.0 and slack.stationarity == 0.0
    assert slack.max() == 2.0


def test_infeasible_primal_makes_the_dual_ascent_diverge_with_a_warning():
    P, q = np.eye(1), np.zeros(1)
    G, h = np.array([[1.0], [-1.0]]), np.array([-1.0, -1.0])          # x <= -1 and x >= 1: empty
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        result = qp_dual_ascent(P, q, G, h, max_iter=200)
    assert not result.converged
    assert np.all(np.diff(result.values) > 0)                           # g grows without bound
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        qp_dual_ascent(P, q, G, h, max_iter=5, warn=False)


GOOD = (np.eye(2), np.zeros(2), np.ones((1, 2)), np.ones(1))


@pytest.mark.parametrize("args, match", [
    ((np.ones((2, 3)), np.zeros(2), np.ones((1, 2)), np.ones(1)), "square"),
    ((np.array([[1.0, 2.0], [0.0, 1.0]]), np.zeros(2), np.ones((1, 2)), np.ones(1)), "symmetric"),
    ((np.diag([1.0, -1.0]), np.zeros(2), np.ones((1, 2)), np.ones(1)), "positive definite"),
    ((np.diag([1.0, 0.0]), np.zeros(2), np.ones((1, 2)), np.ones(1)), "positive definite"),
    ((np.eye(2), np.zeros(3), np.ones((1, 2)), np.ones(1)), "q must have shape"),
    ((np.eye(2), np.zeros(2), np.ones((1, 3)), np.ones(1)), "G must have 2 columns"),
    ((np.eye(2), np.zeros(2), np.ones((2, 2)), np.ones(1)), "h must have shape"),
    ((np.eye(2), np.array([0.0, np.nan]), np.ones((1, 2)), np.ones(1)), "NaN"),
    ((np.eye(2), np.zeros(2), np.ones((1, 2)), np.array([np.inf])), "infinity"),
])
def test_bad_qp_data_is_rejected(args, match):
    with pytest.raises(ValueError, match=match):
        qp_dual_function(*args, np.ones(1))


def test_bad_multipliers_and_parameters_are_rejected():
    with pytest.raises(ValueError, match="one multiplier per constraint"):
        qp_dual_function(*GOOD, np.ones(2))
    with pytest.raises(ValueError, match="NaN"):
        qp_lagrangian_minimizer(*GOOD, np.array([np.nan]))
    with pytest.raises(ValueError, match="non-negative"):
        qp_dual_ascent(*GOOD, lam0=[-1.0])
    with pytest.raises(ValueError, match="lam0 must have shape"):
        qp_dual_ascent(*GOOD, lam0=np.ones((2, 1)))
    with pytest.raises(ValueError, match="step_size"):
        qp_dual_ascent(*GOOD, step_size=0.0)
    with pytest.raises(ValueError, match="max_iter"):
        qp_dual_ascent(*GOOD, max_iter=0)
    with pytest.raises(ValueError, match="x must have shape"):
        qp_kkt_residuals(*GOOD, np.zeros(3), np.ones(1))
    with pytest.raises(TypeError, match="None"):
        qp_dual_function(None, *GOOD[1:], np.ones(1))


# ------------------------------------------------------------------ the interior-point method (issue 11: in optim)
from mlnotes.optim import qp_interior_point  # noqa: E402


@pytest.mark.parametrize("d, m, seed", SHAPES)
def test_interior_point_reaches_the_primal_optimum_with_kkt_multipliers(d, m, seed):
    P, q, G, h = random_qp(d, m, seed)
    x_ref, f_ref = primal_slsqp(P, q, G, h)
    result = qp_interior_point(P, q, G, h, tol=1e-10)
    assert result.converged
    np.testing.assert_allclose(result.x, x_ref, atol=1e-6)
    assert result.fun == pytest.approx(f_ref, abs=1e-8)
    kkt = qp_kkt_residuals(P, q, G, h, result.x, result.dual)
    assert max(kkt.stationarity, kkt.primal_feasibility, kkt.dual_feasibility, kkt.complementary_slackness) < 1e-8


def test_interior_point_box_constrained_least_squares_from_an_infeasible_start():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 5)), rng.normal(size=30)
    low, high = np.full(5, -0.1), np.full(5, 0.2)
    G, h = np.vstack([np.eye(5), -np.eye(5)]), np.r_[high, -low]
    result = qp_interior_point(X.T @ X, -X.T @ y, G, h, x0=np.full(5, 10.0), tol=1e-10)
    reference = optimize.lsq_linear(X, y, bounds=(low, high), tol=1e-14)
    assert result.converged and result.path[0][0] == 10.0
    np.testing.assert_allclose(result.x, reference.x, atol=1e-9)
    # the path records the stopping measure and the step lengths of every Newton step
    assert result.grad_norms.shape == (result.n_iter + 1,) and np.all((result.step_sizes > 0) & (result.step_sizes <= 1))


def test_interior_point_reports_an_unmet_stopping_rule():
    P, q, G, h = random_qp(4, 6, 4)
    with pytest.warns(ConvergenceWarning, match="max_iter = 2 Newton steps"):
        result = qp_interior_point(P, q, G, h, tol=1e-12, max_iter=2)
    assert not result.converged and result.n_iter == 2


def test_interior_point_rejects_bad_input():
    from scipy.sparse.linalg import aslinearoperator

    P, q, G, h = random_qp(2, 3, 0)
    with pytest.raises(ValueError, match="shape"):
        qp_interior_point(P, q, G[:, :1], h)
    with pytest.raises(ValueError, match="newton_solver"):
        qp_interior_point(P, q, aslinearoperator(G), h)
    with pytest.raises(ValueError, match="positive entries"):
        qp_interior_point(P, q, G, h, s0=np.zeros(3))


def test_multiclass_svm_solves_its_qp_with_the_library_interior_point(monkeypatch):
    # optim is the only place where solvers live: MulticlassSVM supplies its structure (operators, Newton
    # solver, duality-gap certificate), optim.qp_interior_point iterates
    import mlnotes.linear._multiclass_svm as msvm
    from mlnotes.linear import MulticlassSVM

    calls = []

    def spy(*args, **kwargs):
        calls.append(qp_interior_point(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(msvm, "qp_interior_point", spy)
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), np.arange(40) % 3
    model = MulticlassSVM().fit(X, y)
    assert len(calls) == 1 and calls[0].converged and model.n_iter_ == calls[0].n_iter
