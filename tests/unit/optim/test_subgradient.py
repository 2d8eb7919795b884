"""Subgradient descent of mlnotes.optim and the non-smooth objectives of chapter 8: the best iterate, the
non-monotone objective, the minimiser of non-smooth convex problems (against scipy's linear programming,
scikit-learn's Lasso and LinearSVC), the subgradient inequality, the convergence bound, Polyak's step, the
chapter's widget, and clear errors."""

import warnings

import numpy as np
import pytest
from scipy import optimize
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso
from sklearn.metrics import hinge_loss
from sklearn.svm import LinearSVC

from mlnotes import optim as O
from mlnotes.linear import lasso_objective, lasso_subgradient, svm_primal_objective, svm_primal_subgradient
from mlnotes.optim import polyak_step, subgradient_gap

NOTES_F = lambda x: abs(x[0]) + 2 * abs(x[1])            # the notes' example |x1| + 2|x2|, minimum 0 at 0
NOTES_G = lambda x: np.array([1.0, 2.0]) * np.sign(x)



def svm_lam_objective(X, y, w, lam):
    """The notes' lam/2 ||w||^2 + mean hinge, written as chapter 8 writes it from the library's C form."""
    return lam * svm_primal_objective(w, X, y, 1 / (len(y) * lam))


def svm_lam_subgradient(X, y, w, lam):
    return lam * svm_primal_subgradient(w, X, y, 1 / (len(y) * lam))

def lad_problem(seed=4, n=30, d=3):
    rng = np.random.default_rng(seed)
    A, b = rng.normal(size=(n, d)), rng.normal(size=n)
    return (lambda x: np.abs(A @ x - b).sum()), (lambda x: A.T @ np.sign(A @ x - b)), A, b


def lasso_data(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w_true = np.where(rng.random(d) < 0.5, 0.0, rng.normal(scale=2.0, size=d))
    y = X @ w_true + rng.normal(scale=0.5, size=n)
    return X, y


def svm_data(seed, n=120):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, 2)) + y[:, None] * np.array([1.0, 0.6])
    return np.column_stack([X, np.ones(n)]), y


def sklearn_lasso(X, y, alpha):
    return Lasso(alpha=alpha, fit_intercept=False, tol=1e-12, max_iter=200_000).fit(X, y).coef_


# --------------------------------------------------------------------------- subgradient descent

def test_subgradient_descent_returns_the_best_iterate_and_reaches_the_l1_minimiser():
    f, subgrad, A, b = lad_problem()
    # least absolute deviations as a linear program: minimise sum(t) with -t <= Ax - b <= t
    c = np.r_[np.zeros(3), np.ones(30)]
    A_ub = np.block([[A, -np.eye(30)], [-A, -np.eye(30)]])
    lp = optimize.linprog(c, A_ub=A_ub, b_ub=np.r_[b, -b], bounds=[(None, None)] * 3 + [(0, None)] * 30)
    result = O.subgradient_descent(f, subgrad, np.zeros(3), step_size=O.inverse_sqrt(0.05), max_iter=20000)
    assert result.fun == result.values.min() and result.fun == f(result.x)
    assert np.any(np.diff(result.values) > 0)                 # the objective is not monotone
    assert result.fun - lp.fun < 1e-3 * lp.fun
    np.testing.assert_allclose(result.x, lp.x[:3], atol=1e-2)


def test_subgradient_descent_stops_at_a_zero_subgradient():
    result = O.subgradient_descent(lambda x: abs(x[0] - 2.0), lambda x: np.sign(x - 2.0), [0.0], step_size=0.5,
                                   max_iter=100)
    assert result.converged and result.x[0] == 2.0 and result.n_iter == 4


def test_history_records_every_step():
    result = O.subgradient_descent(NOTES_F, NOTES_G, [2.6, 1.3], step_size=O.inverse_time(0.7), max_iter=50)
    assert not result.converged and result.n_iter == 50
    assert result.path.shape == (51, 2) and result.values.shape == (51,) and result.step_sizes.shape == (50,)
    np.testing.assert_allclose(result.step_sizes, 0.7 / np.arange(1, 51))
    np.testing.assert_allclose(result.path[1:], result.path[:-1] - result.step_sizes[:, None] *
                               np.array([NOTES_G(x) for x in result.path[:-1]]))
    np.testing.assert_allclose(result.values, [NOTES_F(x) for x in result.path])
    np.testing.assert_allclose(result.grad_norms, [np.linalg.norm(NOTES_G(x)) for x in result.path])


@pytest.mark.parametrize("step_size", [0.05, O.inverse_sqrt(0.5), O.inverse_time(2.0)], ids=["const", "sqrt", "1/k"])
@pytest.mark.parametrize("problem", ["notes", "lad"])
def test_best_iterate_bound_holds_after_every_step(step_size, problem):
    # min_{k<K} f(x_k) - f(z) <= (||x_0 - z||^2 + sum_k eta_k^2 ||g_k||^2) / (2 sum_k eta_k), for any z
    if problem == "notes":
        f, subgrad, x0, z = NOTES_F, NOTES_G, np.array([2.6, 1.3]), np.zeros(2)
    else:
        f, subgrad, A, b = lad_problem(seed=7)
        x0, z = np.zeros(3), np.linalg.lstsq(A, b, rcond=None)[0]
    result = O.subgradient_descent(f, subgrad, x0, step_size=step_size, max_iter=500)
    eta, g2 = result.step_sizes, result.grad_norms[:-1] ** 2
    bound = (np.sum((x0 - z) ** 2) + np.cumsum(eta**2 * g2)) / (2 * np.cumsum(eta))
    best = np.minimum.accumulate(result.values[:-1]) - f(z)
    assert np.all(best <= bound + 1e-12)
    dist2 = np.sum((result.path - z) ** 2, axis=1)          # the one-step inequality behind it
    assert np.all(dist2[1:] <= dist2[:-1] - 2 * eta * (result.values[:-1] - f(z)) + eta**2 * g2 + 1e-10)


def test_constant_step_reaches_a_neighbourhood_proportional_to_the_step():
    ratios = []
    for eta in (0.2, 0.05):
        result = O.subgradient_descent(NOTES_F, NOTES_G, [2.6, 1.3], step_size=eta, max_iter=1500)
        ratios.append(result.values[500:].mean() / eta)
    np.testing.assert_allclose(ratios, 2.5, rtol=0.02)       # G^2 eta / 2 with G^2 = 5


# --------------------------------------------------------------------------- Polyak's step

def test_polyak_step_formula_and_run():
    g = np.array([1.0, -2.0])
    assert polyak_step(3.0, 1.0, g) == pytest.approx(2.0 / 5.0)
    result = O.subgradient_descent(NOTES_F, NOTES_G, [2.6, 1.3], step_size="polyak", f_star=0.0, max_iter=100)
    assert result.fun < 1e-12
    dist = np.linalg.norm(result.path, axis=1)
    assert np.all(np.diff(dist) <= 1e-15)                     # never moves away from the minimiser
    np.testing.assert_allclose(result.step_sizes, result.values[:-1] / result.grad_norms[:-1] ** 2)


def test_polyak_stops_when_f_star_is_reached():
    result = O.subgradient_descent(lambda x: abs(x[0] - 1.0), lambda x: np.sign(x - 1.0), [3.0],
                                   step_size="polyak", f_star=0.0, max_iter=10)
    assert result.converged and result.x[0] == 1.0 and result.fun == 0.0


def test_polyak_errors():
    with pytest.raises(ValueError, match="pass f_star"):
        O.subgradient_descent(NOTES_F, NOTES_G, [1.0, 1.0], step_size="polyak")
    with pytest.raises(ValueError, match="only used with"):
        O.subgradient_descent(NOTES_F, NOTES_G, [1.0, 1.0], step_size=0.1, f_star=0.0)
    with pytest.raises(ValueError, match="'polyak'"):
        O.subgradient_descent(NOTES_F, NOTES_G, [1.0, 1.0], step_size="armijo")
    with pytest.raises(ValueError, match="not the minimum"):
        O.subgradient_descent(NOTES_F, NOTES_G, [1.0, 1.0], step_size="polyak", f_star=5.0)
    with pytest.raises(ValueError, match="subgradient is zero"):
        polyak_step(1.0, 0.0, [0.0, 0.0])


def test_bad_step_size_is_rejected():
    with pytest.raises(ValueError, match="eta0"):
        O.subgradient_descent(lambda x: 0.0, lambda x: x, [1.0], step_size=0.0)
    with pytest.raises(ValueError, match="positive finite"):
        O.subgradient_descent(NOTES_F, NOTES_G, [1.0, 1.0], step_size=lambda t: -1.0)
    with pytest.raises(ValueError, match="shape of x"):
        O.subgradient_descent(NOTES_F, lambda x: np.ones(3), [1.0, 1.0], step_size=0.1)
    with pytest.raises(ValueError, match="max_iter"):
        O.subgradient_descent(NOTES_F, NOTES_G, [1.0, 1.0], step_size=0.1, max_iter=0)


# --------------------------------------------------------------------------- the lasso

@pytest.mark.parametrize("seed, n, d", [(0, 40, 5), (1, 8, 12), (2, 1, 1), (3, 60, 3)], ids=["tall", "wide", "1x1", "tall2"])
def test_lasso_subgradient_matches_its_formula(seed, n, d):
    X, y = lasso_data(seed, n, d)
    rng = np.random.default_rng(seed + 10)
    w = np.where(rng.random(d) < 0.4, 0.0, rng.normal(size=d))
    alpha = 0.3
    c = X.T @ (X @ w - y) / n
    expected = np.where(w != 0, c + alpha * np.sign(w), np.sign(c) * np.maximum(np.abs(c) - alpha, 0.0))
    np.testing.assert_allclose(lasso_subgradient(w, X, y, alpha), expected, rtol=1e-12, atol=1e-14)
    assert lasso_objective(w, X, y, alpha) == pytest.approx(np.sum((y - X @ w) ** 2) / (2 * n) + alpha * np.abs(w).sum())


@pytest.mark.parametrize("seed, n, d", [(0, 40, 5), (1, 8, 12), (3, 60, 3)], ids=["tall", "wide", "tall2"])
def test_lasso_subgradients_satisfy_the_inequality_and_vanish_at_the_sklearn_solution(seed, n, d):
    X, y = lasso_data(seed, n, d)
    alpha = 0.2
    rng = np.random.default_rng(seed)
    f = lambda w: lasso_objective(w, X, y, alpha)
    for w in (np.zeros(d), rng.normal(size=d), np.where(rng.random(d) < 0.5, 0.0, 1.0)):
        slack = subgradient_gap(f, w, lasso_subgradient(w, X, y, alpha), rng.normal(scale=3.0, size=(500, d)))
        assert slack.min() >= -1e-10
    w_sk = sklearn_lasso(X, y, alpha)
    assert np.linalg.norm(lasso_subgradient(w_sk, X, y, alpha)) < 1e-7   # 0 is in the subdifferential


def test_lasso_zero_solution_exactly_from_alpha_max():
    X, y = lasso_data(5, 30, 4)
    alpha_max = np.abs(X.T @ y).max() / 30
    assert not lasso_subgradient(np.zeros(4), X, y, alpha_max).any()
    assert lasso_subgradient(np.zeros(4), X, y, 0.999 * alpha_max).any()
    assert not sklearn_lasso(X, y, alpha_max).any()


@pytest.mark.parametrize("seed, n, d", [(0, 40, 5), (1, 8, 12)], ids=["tall", "wide"])
def test_subgradient_descent_reaches_the_lasso_objective_of_sklearn(seed, n, d):
    X, y = lasso_data(seed, n, d)
    alpha = 0.2
    f_star = lasso_objective(sklearn_lasso(X, y, alpha), X, y, alpha)
    L = np.linalg.eigvalsh(X.T @ X / n).max()
    result = O.subgradient_descent(lambda w: lasso_objective(w, X, y, alpha),
                                   lambda w: lasso_subgradient(w, X, y, alpha), np.zeros(d),
                                   step_size=O.inverse_sqrt(1 / L), max_iter=5000)
    assert 0 <= result.fun - f_star <= 1e-3 * f_star


# --------------------------------------------------------------------------- the SVM

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_svm_objective_and_subgradient(seed):
    X, y = svm_data(seed)
    rng = np.random.default_rng(seed)
    w, lam = rng.normal(size=3), 0.05
    assert svm_lam_objective(X, y, w, lam) == pytest.approx(lam / 2 * w @ w + hinge_loss(y, X @ w), rel=1e-12)
    f = lambda v: svm_lam_objective(X, y, v, lam)
    g = svm_lam_subgradient(X, y, w, lam)
    # away from margins exactly 1 the objective is differentiable: the subgradient is the gradient
    assert np.abs(y * (X @ w) - 1).min() > 1e-5
    np.testing.assert_allclose(g, optimize.approx_fprime(w, f, 1e-7), atol=1e-5)
    slack = subgradient_gap(f, w, g, rng.normal(scale=2.0, size=(500, 3)))
    assert slack.min() >= -1e-12


def test_svm_subgradient_at_a_kink_takes_zero_for_margins_of_one():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, -1.0])
    w = np.array([1.0, -0.5])                                    # margins 1 (a kink) and 0.5
    np.testing.assert_allclose(svm_primal_subgradient(w, X, y, 0.5), w - 0.5 * y[1] * X[1])


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_subgradient_descent_reaches_the_linear_svc_objective(C):
    X, y = svm_data(3)
    n = len(y)
    lam = 1 / (n * C)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        reference = LinearSVC(loss="hinge", dual=True, C=C, fit_intercept=False, tol=1e-10, max_iter=1_000_000).fit(X, y)
    w_ref = reference.coef_.ravel()
    f_star = svm_lam_objective(X, y, w_ref, lam)
    # the scaling: LinearSVC minimises n C times this objective
    assert 0.5 * w_ref @ w_ref + C * np.maximum(0, 1 - y * (X @ w_ref)).sum() == pytest.approx(n * C * f_star)
    result = O.subgradient_descent(lambda w: svm_lam_objective(X, y, w, lam),
                                   lambda w: svm_lam_subgradient(X, y, w, lam), np.zeros(3),
                                   step_size=O.inverse_time(1 / lam), max_iter=2000)
    assert -1e-9 <= (result.fun - f_star) / f_star <= 1e-4


# --------------------------------------------------------------------------- the subgradient inequality

def test_subgradient_gap_decides_the_notes_example():
    grid = np.array([(a, b) for a in np.linspace(-5, 5, 41) for b in np.linspace(-5, 5, 41)])
    for g in [(1, 2), (1, -2), (1, 0.5)]:
        assert subgradient_gap(NOTES_F, [3.0, 0.0], g, grid).min() >= 0
    for g in [(1, 2.5), (1.1, 0), (0.9, 0)]:
        assert subgradient_gap(NOTES_F, [3.0, 0.0], g, grid).min() < 0
    z = np.linspace(-2, 2, 9)[:, None]
    assert subgradient_gap(lambda v: abs(v[0]), [0.0], [1.0], z).min() == 0.0
    assert subgradient_gap(lambda v: abs(v[0]), [0.0], [1.5], z).min() < 0


# --------------------------------------------------------------------------- bad input

def test_bad_inputs_are_rejected_with_clear_errors():
    X, y = lasso_data(0, 10, 3)
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        lasso_objective(np.zeros(3), X, y, -1.0)
    with pytest.raises(ValueError, match="w has 2 entries but X has 3 features"):
        lasso_subgradient(np.zeros(2), X, y, 0.1)
    with pytest.raises(ValueError, match="y has 9 entries"):
        lasso_subgradient(np.zeros(3), X, y[:9], 0.1)
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        lasso_objective(np.zeros(3), X_nan, y, 0.1)
    with pytest.raises(ValueError, match="labels y must be -1 or \\+1"):
        svm_primal_subgradient(np.zeros(3), X, (y > 0).astype(float), 0.1)
    with pytest.raises(ValueError, match="C must be > 0"):
        svm_primal_objective(np.zeros(3), X, np.sign(y), 0.0)
    with pytest.raises(ValueError, match="C must be > 0"):
        svm_lam_objective(X, np.sign(y), np.zeros(3), -0.1)
    with pytest.raises(ValueError, match="3 columns"):
        subgradient_gap(NOTES_F, np.zeros(3), np.zeros(3), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="shape of x"):
        subgradient_gap(NOTES_F, np.zeros(2), np.zeros(3), np.zeros((4, 2)))


# --------------------------------------------------------------------------- the chapter's widget

def test_subgradient_drawing_and_widget():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mlnotes.widgets import draw_subgradient_steps, subgradient_demo

    fig, (ax_path, ax_values) = plt.subplots(1, 2)
    result = draw_subgradient_steps(ax_path, ax_values, schedule="1/sqrt(k)", eta0=0.4, n_iter=30, x0=(2.0, -1.0))
    direct = O.subgradient_descent(NOTES_F, NOTES_G, [2.0, -1.0], step_size=O.inverse_sqrt(0.4), max_iter=30)
    np.testing.assert_array_equal(result.path, direct.path)
    np.testing.assert_array_equal(ax_path.lines[0].get_xydata(), direct.path)
    assert len(ax_values.lines) == 2                          # every value and the best so far
    polyak = draw_subgradient_steps(ax_path, None, schedule="Polyak", n_iter=60, contours=False)
    assert polyak.fun < 1e-9
    plt.close(fig)
    demo = subgradient_demo()
    assert [c.description for c in demo.children[:3]] == ["schedule", "η0", "steps"]
    plt.close("all")
    with pytest.raises(ValueError, match="schedule must be one of"):
        draw_subgradient_steps(ax_path, schedule="armijo")
    with pytest.raises(ValueError, match="eta0 must be > 0"):
        draw_subgradient_steps(ax_path, eta0=0.0)


@pytest.mark.parametrize("seed", [0, 1])
def test_svm_objective_in_scikit_learns_c_is_the_notes_objective_scaled(seed):
    # the model's objective is LinearSVC's 1/2 ||w||^2 + C sum hinge; the notes' lam-form (chapter 8 writes it
    # from the library's C form, as svm_lam_objective below) is lam times it at C = 1/(n lam)
    X, y = svm_data(seed)
    w, lam = np.random.default_rng(seed).normal(size=3), 0.05
    C = 1 / (len(y) * lam)
    assert svm_primal_objective(w, X, y, C) == pytest.approx(0.5 * w @ w + C * np.maximum(0, 1 - y * (X @ w)).sum(),
                                                             rel=1e-12)
