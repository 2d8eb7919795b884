"""Optimisers of mlnotes.optim: they reach scipy.optimize's minimiser on convex problems, follow the
update rules of chapter 6 exactly, report divergence, and reject bad input clearly."""

import warnings

import numpy as np
import pytest
from scipy import optimize
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning

from mlnotes import optim as O

RNG = np.random.default_rng(0)


def least_squares_problem(n=60, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(n, d)), rng.normal(size=n)
    f = lambda w: np.mean((X @ w - y) ** 2)
    grad = lambda w: 2 / n * X.T @ (X @ w - y)
    hess = lambda w: 2 / n * X.T @ X
    L = 2 / n * np.linalg.eigvalsh(X.T @ X).max()
    return f, grad, hess, L, np.linalg.lstsq(X, y, rcond=None)[0], (X, y)


def logistic_problem(n=80, d=3, seed=1, lam=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < expit(X @ np.array([1.0, -2.0, 0.5])), 1.0, -1.0)
    f = lambda w: np.mean(np.logaddexp(0, -y * (X @ w))) + lam / 2 * w @ w
    grad = lambda w: -X.T @ (y * expit(-y * (X @ w))) / n + lam * w
    def hess(w):
        p = expit(X @ w)
        return X.T @ (X * (p * (1 - p))[:, None]) / n + lam * np.eye(d)
    reference = optimize.minimize(f, np.zeros(d), jac=grad, method="BFGS", options={"gtol": 1e-12}).x
    return f, grad, hess, reference


PROBLEMS = {"least squares": least_squares_problem()[:3] + (least_squares_problem()[4],),
            "l2-logistic": logistic_problem()}


@pytest.mark.parametrize("problem", PROBLEMS)
def test_gradient_descent_newton_and_line_search_reach_scipys_minimiser(problem):
    f, grad, hess, x_star = PROBLEMS[problem]
    x0 = np.zeros_like(x_star)
    L = np.linalg.eigvalsh(hess(x0)).max() * (1.0 if problem == "least squares" else 4.0)  # bound on the curvature
    for result in (O.gradient_descent(f, grad, x0, step_size=1 / L, tol=1e-9, max_iter=20000),
                   O.gradient_descent(f, grad, x0, line_search="armijo", tol=1e-9, max_iter=20000),
                   O.newton(f, grad, hess, x0, tol=1e-12)):
        assert result.converged, result.message
        np.testing.assert_allclose(result.x, x_star, atol=1e-7)
        assert result.path.shape == (result.n_iter + 1, x0.size)
        np.testing.assert_allclose(result.values[-1], f(result.x))


@pytest.mark.parametrize("optimizer", [O.GradientStep(0.05), O.Momentum(0.02, 0.9), O.Nesterov(0.02, 0.9),
                                       O.AdaGrad(0.5), O.RMSProp(0.001), O.Adam(0.01)], ids=repr)
@pytest.mark.parametrize("problem", PROBLEMS)
def test_every_optimiser_reaches_scipys_minimiser(optimizer, problem):
    f, grad, _, x_star = PROBLEMS[problem]
    result = O.run(optimizer, grad, np.zeros_like(x_star), f=f, n_iter=4000)
    # RMSProp with a constant rate ends in a cycle whose size is about its learning rate
    atol = optimizer.learning_rate if isinstance(optimizer, O.RMSProp) else 1e-6
    np.testing.assert_allclose(result.x, x_star, atol=atol)


def test_gradient_descent_converges_below_two_over_L_and_reports_divergence_above():
    a = 2.0
    f, grad = (lambda x: a / 2 * x @ x), (lambda x: a * x)
    assert O.gradient_descent(f, grad, [1.0], step_size=0.4, tol=1e-12, max_iter=200).converged   # factor 0.2
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        oscillating = O.gradient_descent(f, grad, [1.0], step_size=1.0, max_iter=50)                # factor -1
    np.testing.assert_allclose(np.abs(oscillating.path[:, 0]), 1.0)
    with pytest.warns(ConvergenceWarning, match="diverged"):
        diverged = O.gradient_descent(f, grad, [1.0], step_size=1.2, max_iter=100000)               # factor -1.4
    assert not diverged.converged and np.isfinite(diverged.x).all()
    np.testing.assert_allclose(diverged.path[:4, 0], [1.0, -1.4, 1.96, -2.744])


def test_fixed_step_iterates_follow_the_update_rule():
    f, grad, _, L, _, _ = least_squares_problem()
    result = O.gradient_descent(f, grad, np.ones(4), step_size=0.5 / L, tol=0, max_iter=5, warn=False)
    for k in range(5):
        np.testing.assert_allclose(result.path[k + 1], result.path[k] - 0.5 / L * grad(result.path[k]), rtol=1e-14)
    np.testing.assert_allclose(result.step_sizes, 0.5 / L)


def test_backtracking_returns_an_armijo_step_and_rejects_a_wrong_gradient():
    f, grad, _, _, _, _ = least_squares_problem()
    x = RNG.normal(size=4)
    g = grad(x)
    eta = O.backtracking(f, x, g, step_size=10.0)
    assert f(x - eta * g) <= f(x) - 1e-4 * eta * g @ g
    assert f(x - 2 * eta * g) > f(x) - 1e-4 * 2 * eta * g @ g      # the step before was rejected
    with pytest.raises(ValueError, match="Armijo"):
        O.backtracking(f, x, -g)


def test_newton_squares_the_error_on_the_notes_example():
    # f(t) = t - log t, minimiser 1: the Newton update is t <- 2t - t^2, so the error e = 1 - t becomes e^2
    result = O.newton(lambda t: t[0] - np.log(t[0]), lambda t: 1 - 1 / t, lambda t: np.array([[1 / t[0] ** 2]]),
                      [0.5], tol=1e-15)
    errors = 1 - result.path[:, 0]
    np.testing.assert_allclose(errors[1:5], errors[:4] ** 2, rtol=1e-10)
    assert result.converged and result.n_iter <= 7


def test_newton_reports_a_singular_hessian():
    with pytest.raises(ValueError, match="singular"):
        O.newton(None, lambda x: np.array([x[0], 0.0]) - 1, lambda x: np.diag([1.0, 0.0]), [0.0, 0.0])


def test_adam_first_step_has_length_learning_rate_per_coordinate():
    g = np.array([3.0, -0.001, 50.0])
    x1 = O.Adam(learning_rate=0.1).step(np.zeros(3), g)
    np.testing.assert_allclose(x1, -0.1 * np.sign(g), rtol=1e-5)   # bias correction: m_hat = g, v_hat = g^2


def test_adagrad_step_shrinks_like_one_over_sqrt_t_under_a_constant_gradient():
    opt, x = O.AdaGrad(learning_rate=1.0, eps=1e-300), np.zeros(1)
    steps = []
    for _ in range(50):
        x_new = opt.step(x, np.array([2.0]))
        steps.append(x[0] - x_new[0])
        x = x_new
    t = np.arange(1, 51)
    np.testing.assert_allclose(steps, 1 / np.sqrt(t), rtol=1e-12)


def test_momentum_velocity_tends_to_step_over_one_minus_mu():
    opt, x = O.Momentum(learning_rate=0.1, momentum=0.8), np.zeros(1)
    for _ in range(200):
        x = opt.step(x, np.array([1.0]))
    np.testing.assert_allclose(opt.v, -0.1 / (1 - 0.8), rtol=1e-12)


def test_nesterov_takes_the_gradient_at_the_lookahead_point():
    points = []
    def grad(x):
        points.append(x.copy())
        return 2 * x
    opt = O.Nesterov(learning_rate=0.1, momentum=0.5)
    O.run(opt, grad, [1.0], n_iter=3)
    # evaluation points: x0, then per step the look-ahead point x + mu v and the new iterate
    x0, v1 = 1.0, -0.1 * 2 * 1.0
    x1 = x0 + v1
    np.testing.assert_allclose([points[2][0], points[3][0]], [x1, x1 + 0.5 * v1])


def test_full_batch_sgd_is_gradient_descent():
    f, grad, _, L, _, (X, y) = least_squares_problem()
    n = X.shape[0]
    grad_batch = lambda w, idx: 2 / len(idx) * X[idx].T @ (X[idx] @ w - y[idx])
    result = O.sgd(grad_batch, np.zeros(4), n, batch_size=n, step_size=1 / L, n_epochs=30, random_state=0)
    gd = O.gradient_descent(f, grad, np.zeros(4), step_size=1 / L, tol=0, max_iter=30, warn=False)
    np.testing.assert_allclose(result.path, gd.path, rtol=1e-10, atol=1e-14)


def test_sgd_with_robbins_monro_steps_approaches_the_least_squares_solution():
    f, _, _, L, w_star, (X, y) = least_squares_problem(n=400, seed=3)
    grad_batch = lambda w, idx: 2 / len(idx) * X[idx].T @ (X[idx] @ w - y[idx])
    result = O.sgd(grad_batch, np.zeros(4), 400, batch_size=10, step_size=O.inverse_time(1 / L), n_epochs=40,
                   random_state=0)
    assert np.linalg.norm(result.x - w_star) < 0.05 * np.linalg.norm(w_star)
    again = O.sgd(grad_batch, np.zeros(4), 400, batch_size=10, step_size=O.inverse_time(1 / L), n_epochs=40,
                  random_state=0)
    np.testing.assert_array_equal(result.path, again.path)
    adam = O.sgd(grad_batch, np.zeros(4), 400, batch_size=10, optimizer=O.Adam(0.001), n_epochs=40, random_state=0)
    assert f(adam.x) < f(np.zeros(4)) and np.linalg.norm(adam.x - w_star) < 0.05 * np.linalg.norm(w_star)


def test_minibatches_cover_every_sample_once():
    batches = O.minibatches(103, 10, np.random.default_rng(0))
    assert [len(b) for b in batches] == [10] * 10 + [3]
    np.testing.assert_array_equal(np.sort(np.concatenate(batches)), np.arange(103))


def test_schedules_have_the_stated_forms():
    t = np.arange(1, 6)
    np.testing.assert_allclose([O.inverse_time(2.0)(s) for s in t], 2 / t)
    np.testing.assert_allclose([O.inverse_sqrt(2.0)(s) for s in t], 2 / np.sqrt(t))
    np.testing.assert_allclose([O.geometric(1.0, 0.5)(s) for s in t], 0.5**t)
    assert O.constant(0.3)(100) == 0.3


@pytest.mark.parametrize("call, error, match", [
    (lambda: O.gradient_descent(None, lambda x: x, [1.0]), ValueError, "step_size"),
    (lambda: O.gradient_descent(None, lambda x: x, [1.0], line_search="armijo"), ValueError, "needs the objective"),
    (lambda: O.gradient_descent(None, lambda x: x, [1.0], step_size=-1), ValueError, "step_size must be > 0"),
    (lambda: O.gradient_descent(None, lambda x: x, [np.nan], step_size=0.1), ValueError, "NaN"),
    (lambda: O.gradient_descent(None, lambda x: x, [[1.0]], step_size=0.1), ValueError, "1-D"),
    (lambda: O.gradient_descent(None, lambda x: x, [1.0], step_size=0.1, max_iter=0), ValueError, "max_iter"),
    (lambda: O.gradient_descent(None, lambda x: x[:1], [1.0, 2.0], step_size=0.1), ValueError, "shape of x"),
    (lambda: O.gradient_descent(lambda x: x, lambda x: x, [1.0, 2.0], step_size=0.1), ValueError, "real scalar"),
    (lambda: O.gradient_descent(None, lambda x: x, [1.0], line_search="wolfe"), ValueError, "line_search"),
    (lambda: O.newton(None, lambda x: x, lambda x: np.eye(3), [1.0, 2.0]), ValueError, "hess"),
    (lambda: O.run("adam", lambda x: x, [1.0]), TypeError, "Optimizer"),
    (lambda: O.Adam(beta1=1.0), ValueError, "beta1"),
    (lambda: O.Momentum(0.1, momentum=1.5), ValueError, "momentum"),
    (lambda: O.AdaGrad(0.0), ValueError, "learning_rate"),
    (lambda: O.sgd(lambda w, i: w, [1.0], 10, batch_size=20), ValueError, "exceeds"),
    (lambda: O.sgd(lambda w, i: w, [1.0], 10, batch_size=5, step_size=lambda t: -1.0), ValueError, "positive finite"),
    (lambda: O.sgd(lambda w, i: w, [1.0], 0), ValueError, "n_samples"),
    (lambda: O.geometric(1.0, rate=1.0), ValueError, "rate"),
])
def test_bad_input_is_rejected_clearly(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_converged_run_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        O.gradient_descent(lambda x: x @ x, lambda x: 2 * x, [1.0, -1.0], step_size=0.25)
