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
    # a line search compares values of f, whose rounding error (~1e-16 |f|) hides the decrease of a step
    # once the gradient norm is below ~1e-7 here: ask the line searches for 1e-7
    for result, atol in ((O.gradient_descent(f, grad, x0, step_size=1 / L, tol=1e-9, max_iter=20000), 1e-7),
                         (O.gradient_descent(f, grad, x0, line_search="armijo", tol=1e-7, max_iter=20000), 1e-6),
                         (O.gradient_descent(f, grad, x0, line_search="exact", tol=1e-7, max_iter=20000), 1e-6),
                         (O.newton(f, grad, hess, x0, tol=1e-12), 1e-7)):
        assert result.converged, result.message
        np.testing.assert_allclose(result.x, x_star, atol=atol)
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


def test_newton_stops_when_a_step_leaves_the_domain_of_f():
    # from theta_0 = 3 the step 2 theta - theta^2 lands on -3, where log is undefined: f is NaN there
    f, grad, hess = (lambda t: t[0] - np.log(t[0])), (lambda t: 1 - 1 / t), (lambda t: np.array([[1 / t[0] ** 2]]))
    with pytest.warns(ConvergenceWarning, match="diverged: f is NaN after step 1"):
        far = O.newton(f, grad, hess, [3.0])
    assert not far.converged and far.n_iter == 0
    np.testing.assert_array_equal(far.x, [3.0])          # the last good iterate is kept
    assert O.newton(f, grad, hess, [1.9], tol=1e-12).converged      # |1 - theta_0| < 1 converges


def test_newton_reports_overflowing_iterates_as_divergence():
    # a Hessian far too small for the gradient sends the first step to -1e200, where the gradient overflows
    def grad(x):
        return np.array([1e200 * x[0] + 1.0])
    result = O.newton(None, grad, lambda x: np.array([[1e-200]]), [0.0], warn=False)
    assert not result.converged and result.message.startswith("diverged: the iterates overflowed")


def test_newton_rejects_a_hessian_that_is_not_symmetric_or_not_finite():
    A = np.array([[2.0, 1.0], [0.0, 2.0]])               # the symmetric solver would read only one triangle
    with pytest.raises(ValueError, match="not symmetric"):
        O.newton(None, lambda x: A @ x - 1, lambda x: A, [0.0, 0.0])
    with pytest.raises(ValueError, match="NaN or infinity"):
        O.newton(None, lambda x: x - 1, lambda x: np.full((2, 2), np.nan), [0.0, 0.0])
    # rounding-level asymmetry (X^T (X * w) is not exactly symmetric) is accepted
    f, grad, hess, x_star = logistic_problem()
    H0 = hess(np.zeros(3))
    assert O.newton(f, grad, lambda w: H0 + 1e-14 * np.triu(np.ones((3, 3)), 1) + (hess(w) - H0), np.zeros(3),
                    tol=1e-12).converged


@pytest.mark.parametrize("method", ["gradient_descent", "newton", "run", "sgd"])
def test_a_nan_or_infinite_gradient_at_a_finite_start_is_an_error(method):
    calls = {
        "gradient_descent": lambda grad: O.gradient_descent(None, grad, [1.0, 2.0], step_size=0.1),
        "newton": lambda grad: O.newton(None, grad, lambda x: np.eye(2), [1.0, 2.0]),
        "run": lambda grad: O.run(O.Adam(0.1), grad, [1.0, 2.0]),
        "sgd": lambda grad: O.sgd(lambda w, idx: grad(w), [1.0, 2.0], 4, batch_size=2),
    }
    with pytest.raises(ValueError, match="returned NaN at a finite x"):
        calls[method](lambda x: np.array([x[0], np.nan]))
    with pytest.raises(ValueError, match="returned infinity at a finite x"):
        calls[method](lambda x: np.array([x[0], np.inf]))


def test_gradient_descent_distinguishes_a_nan_gradient_from_overflow():
    # a NaN gradient at a finite iterate is an error (grad is undefined there), not an overflow
    with pytest.raises(ValueError, match="NaN"):
        O.gradient_descent(None, lambda x: np.where(x >= 0, x, np.nan), [1.0], step_size=1.5)
    # f NaN after a step: the step left the domain of f
    with pytest.warns(ConvergenceWarning, match="left the domain"):
        out = O.gradient_descent(lambda x: x[0] - np.log(x[0]), lambda x: 1 - 1 / x, [3.0], step_size=6.0)
    np.testing.assert_array_equal(out.x, [3.0])                # the step to 3 - 6 (2/3) = -1 is not taken
    # a gradient that overflows to infinity at a finite iterate, without f, is divergence
    with pytest.warns(ConvergenceWarning, match="overflowed"):
        O.gradient_descent(None, lambda x: 1e150 * x, [1.0], step_size=1e10)    # g(1 - 1e160) = -inf


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
    assert O.geometric(1.0, 0.5)(5000) == np.finfo(float).tiny          # no underflow to an invalid step 0
    assert O.constant(0.3)(100) == 0.3
    # t0 delays the decay: eta_1 = eta0, and eta_t ~ eta0 t0 / t for large t
    np.testing.assert_allclose([O.inverse_time(2.0, t0=10)(s) for s in (1, 11, 10**9)], [2.0, 1.0, 2e-8], rtol=1e-8)
    np.testing.assert_allclose([O.inverse_sqrt(2.0, t0=4)(s) for s in (1, 13)], [2.0, 1.0])


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
    (lambda: O.inverse_time(1.0, t0=0), ValueError, "t0"),
    (lambda: O.Momentum(0.1, momentum=1.0), ValueError, "momentum must be < 1"),
    (lambda: O.backtracking(lambda x: x @ x, np.ones(2), 2 * np.ones(2), shrink=1.0), ValueError, "shrink"),
    (lambda: O.gradient_descent(None, lambda x: x, [1.0], line_search="exact"), ValueError, "needs the objective"),
    (lambda: O.exact_line_search(lambda x: x @ x, np.ones(2), -np.ones(2)), O.LineSearchError, "positive step"),
    (lambda: O.exact_line_search(lambda x: -x @ x, np.ones(2), -np.ones(2)), ValueError, "bounded below"),
    (lambda: O.shards(np.arange(3), 4), ValueError, "exceeds the batch size"),
    (lambda: O.shards(np.arange(3), 0), ValueError, "n_workers"),
    (lambda: O.shards(np.array([0.5, 1.5]), 1), ValueError, "indices"),
    (lambda: O.data_parallel_gradient(lambda w, i: w[:1], np.ones(2), np.arange(4), 2), ValueError, "shape of x"),
])
def test_bad_input_is_rejected_clearly(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_converged_run_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        O.gradient_descent(lambda x: x @ x, lambda x: 2 * x, [1.0, -1.0], step_size=0.25)


def random_quadratic(d, seed, condition=50.0):
    rng = np.random.default_rng(seed)
    Q = np.linalg.qr(rng.normal(size=(d, d)))[0]
    A = Q @ np.diag(np.geomspace(1.0, condition, d)) @ Q.T
    b = rng.normal(size=d)
    return A, b, (lambda x: 0.5 * x @ A @ x - b @ x), (lambda x: A @ x - b)


@pytest.mark.parametrize("seed", range(3))
def test_exact_line_search_matches_the_closed_form_on_quadratics(seed):
    for scale in (1e-3, 1.0, 1e3):      # the bracket (0, 1) must work whatever the scale of the answer
        A, b, f, grad = random_quadratic(4, seed)
        A, b = scale * A, scale * b
        f, grad = (lambda x: 0.5 * x @ A @ x - b @ x), (lambda x: A @ x - b)
        x = np.random.default_rng(seed + 10).normal(size=4)
        g = grad(x)
        eta = O.exact_line_search(f, x, g)
        np.testing.assert_allclose(eta, g @ g / (g @ A @ g), rtol=1e-7)
        assert abs(grad(x - eta * g) @ g) <= 1e-6 * (g @ g)        # the next gradient is orthogonal to this one



@pytest.mark.parametrize("bounds, xatol", [((-3.0, 5.0), 1e-10), ((0.0, 1.0), 1e-5), ((-1e3, 1e3), 1e-8)])
def test_minimize_scalar_bounded_is_scipys_bounded_brent(bounds, xatol):
    f = lambda t: (t - 0.3) ** 2 + np.cosh(t) * 1e-3
    x, value = O.minimize_scalar_bounded(f, bounds, xatol=xatol)
    reference = optimize.minimize_scalar(f, bounds=bounds, method="bounded", options={"xatol": xatol})
    assert (x, value) == (float(reference.x), float(reference.fun))          # the same numbers, to the bit
    assert isinstance(x, float) and isinstance(value, float) and bounds[0] <= x <= bounds[1]
    # a minimum at an end point is approached to within xatol plus a relative sqrt(eps), not reached
    x, _ = O.minimize_scalar_bounded(lambda t: t, bounds, xatol=xatol)
    assert 0 < x - bounds[0] <= 3 * (xatol + np.sqrt(np.finfo(float).eps) * max(1.0, abs(bounds[0])))


@pytest.mark.parametrize("call, error, match", [
    (lambda: O.minimize_scalar_bounded(1.0, (0.0, 1.0)), TypeError, "callable"),
    (lambda: O.minimize_scalar_bounded(abs, (1.0, 0.0)), ValueError, "low < high"),
    (lambda: O.minimize_scalar_bounded(abs, (0.0, 0.0)), ValueError, "low < high"),
    (lambda: O.minimize_scalar_bounded(abs, (0.0, np.inf)), ValueError, "bounds"),
    (lambda: O.minimize_scalar_bounded(abs, (0.0, np.nan)), ValueError, "bounds"),
    (lambda: O.minimize_scalar_bounded(abs, (0.0, 1.0, 2.0)), ValueError, "pair"),
    (lambda: O.minimize_scalar_bounded(abs, 1.0), ValueError, "pair"),
    (lambda: O.minimize_scalar_bounded(abs, (0.0, 1.0), xatol=0.0), ValueError, "xatol"),
])
def test_minimize_scalar_bounded_rejects_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()

def test_gradient_descent_with_exact_line_search_zigzags_at_right_angles():
    A, _, _, _ = random_quadratic(2, 5, condition=20.0)
    # minimum value 0: the values along each line keep their relative precision down to the minimiser
    f, grad = (lambda x: 0.5 * x @ A @ x), (lambda x: A @ x)
    result = O.gradient_descent(f, grad, np.array([3.0, -2.0]), line_search="exact", tol=1e-10, max_iter=500)
    assert result.converged and np.linalg.norm(result.x) < 1e-9
    steps = np.diff(result.path, axis=0)
    cosines = np.sum(steps[1:] * steps[:-1], axis=1) / np.linalg.norm(steps[1:], axis=1) / np.linalg.norm(steps[:-1], axis=1)
    np.testing.assert_allclose(cosines, 0.0, atol=1e-6)
    # Kantorovich: every exact step multiplies f - f* by at most ((kappa - 1) / (kappa + 1))^2
    assert np.all(result.values[1:] <= ((20 - 1) / (20 + 1)) ** 2 * result.values[:-1] * (1 + 1e-6))


@pytest.mark.parametrize("seed", range(4))
def test_fixed_step_gradient_descent_meets_the_convergence_bound(seed):
    # f(x_k) - f* <= ||x0 - x*||^2 / (2 eta k) for convex L-smooth f and eta <= 1/L, also for singular A
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(5, 3 + seed % 3))
    A = M @ M.T                                       # rank < 5 for seed % 3 < 2: minimiser not unique
    b = A @ rng.normal(size=5)                        # b in the range of A, so a minimiser exists
    f, grad = (lambda x: 0.5 * x @ A @ x - b @ x), (lambda x: A @ x - b)
    x_star = np.linalg.lstsq(A, b, rcond=None)[0]
    L = np.linalg.eigvalsh(A).max()
    x0 = rng.normal(size=5)
    x_star = x_star + (np.eye(5) - np.linalg.pinv(A) @ A) @ x0     # the minimiser closest to x0
    for eta in (1 / L, 0.3 / L):
        result = O.gradient_descent(f, grad, x0, step_size=eta, tol=0, max_iter=300, warn=False)
        k = np.arange(1, 301)
        gaps = result.values[1:] - f(x_star)
        assert np.all(gaps <= np.sum((x0 - x_star) ** 2) / (2 * eta * k) + 1e-12)
        assert np.all(np.diff(result.values) <= 1e-12)                  # monotone decrease


def test_backtracking_accepts_every_step_up_to_two_one_minus_c_over_L():
    A, b, f, grad = random_quadratic(3, 2)
    L = np.linalg.eigvalsh(A).max()
    result = O.gradient_descent(f, grad, np.zeros(3), line_search="armijo", step_size=1.0, tol=1e-7, max_iter=5000)
    assert result.converged
    # on a quadratic, Armijo holds for every eta <= 2 (1 - c) / L, so halving from 1 stops at or above half that
    assert result.step_sizes.min() >= 0.5 * 2 * (1 - 1e-4) / L


@pytest.mark.parametrize("line_search", ["armijo", "exact"])
def test_line_search_below_rounding_level_stops_with_a_warning_instead_of_looping(line_search):
    A, b, f, grad = random_quadratic(3, 1)
    with pytest.warns(ConvergenceWarning, match="rounding error"):
        result = O.gradient_descent(f, grad, np.zeros(3), line_search=line_search, tol=1e-15, max_iter=100000)
    assert not result.converged and result.n_iter < 5000
    np.testing.assert_allclose(result.x, np.linalg.solve(A, b), atol=1e-6)


@pytest.mark.parametrize("n_workers", [1, 2, 3, 4, 7])
def test_data_parallel_gradient_equals_the_minibatch_gradient(n_workers):
    _, _, _, _, _, (X, y) = least_squares_problem(n=60)
    grad_batch = lambda w, idx: 2 / len(idx) * X[idx].T @ (X[idx] @ w - y[idx])
    batch = np.random.default_rng(n_workers).permutation(60)[:28]      # 28 = 4 * 7: equal and unequal shards
    w = RNG.normal(size=4)
    np.testing.assert_allclose(O.data_parallel_gradient(grad_batch, w, batch, n_workers), grad_batch(w, batch),
                               rtol=1e-12, atol=1e-14)
    parts = O.shards(batch, n_workers)
    assert sorted(np.concatenate(parts)) == sorted(batch) and np.ptp([len(p) for p in parts]) <= 1


def test_plain_averaging_of_unequal_shards_would_be_biased():
    _, _, _, _, _, (X, y) = least_squares_problem(n=60)
    grad_batch = lambda w, idx: 2 / len(idx) * X[idx].T @ (X[idx] @ w - y[idx])
    batch, w = np.arange(10), np.ones(4)
    parts = O.shards(batch, 3)                                            # sizes 4, 3, 3
    plain = np.mean([grad_batch(w, p) for p in parts], axis=0)
    assert not np.allclose(plain, grad_batch(w, batch))
    np.testing.assert_allclose(O.data_parallel_gradient(grad_batch, w, batch, 3), grad_batch(w, batch), rtol=1e-12)


def test_data_parallel_sgd_follows_the_single_machine_path():
    _, _, _, L, _, (X, y) = least_squares_problem(n=64)
    grad_batch = lambda w, idx: 2 / len(idx) * X[idx].T @ (X[idx] @ w - y[idx])
    parallel = lambda w, idx: O.data_parallel_gradient(grad_batch, w, idx, 4)
    single = O.sgd(grad_batch, np.zeros(4), 64, batch_size=16, step_size=0.5 / L, n_epochs=5, random_state=1)
    spread = O.sgd(parallel, np.zeros(4), 64, batch_size=16, step_size=0.5 / L, n_epochs=5, random_state=1)
    np.testing.assert_allclose(spread.path, single.path, rtol=1e-10, atol=1e-13)


def test_adam_bias_correction_makes_the_estimates_exact_under_a_constant_gradient():
    opt, x, g = O.Adam(learning_rate=0.01), np.zeros(2), np.array([0.3, -2.0])
    for t in range(1, 30):
        x = opt.step(x, g)
        np.testing.assert_allclose(opt.m / (1 - opt.beta1**t), g, rtol=1e-12)
        np.testing.assert_allclose(opt.v / (1 - opt.beta2**t), g * g, rtol=1e-10)
    np.testing.assert_allclose(x, -0.01 * 29 * np.sign(g), rtol=1e-6)     # every step has length eta


def test_adam_moment_is_a_weighted_average_with_weights_summing_to_one():
    grads = RNG.normal(size=(12, 3))
    opt, x = O.Adam(learning_rate=0.01, beta1=0.8), np.zeros(3)
    for g in grads:
        x = opt.step(x, g)
    t = len(grads)
    weights = (1 - 0.8) * 0.8 ** (t - np.arange(1, t + 1)) / (1 - 0.8**t)
    np.testing.assert_allclose(weights.sum(), 1.0)
    np.testing.assert_allclose(opt.m / (1 - 0.8**t), weights @ grads, rtol=1e-12)


def test_rmsprop_step_does_not_decay_under_a_constant_gradient():
    opt, x = O.RMSProp(learning_rate=0.1, rho=0.9, eps=1e-300), np.zeros(1)
    steps = []
    for t in range(1, 60):
        x_new = opt.step(x, np.array([5.0]))
        steps.append(x[0] - x_new[0])
        x = x_new
    t = np.arange(1, 60)
    np.testing.assert_allclose(steps, 0.1 / np.sqrt(1 - 0.9**t), rtol=1e-12)   # s_t = (1 - rho^t) g^2
    assert steps[-1] > 0.0999


def test_geometric_steps_stall_short_of_the_minimiser():
    # theta_t = theta_0 prod (1 - 2^-t) on f = theta^2 / 2: the steps sum to 1 and the iterates stop near 0.2888
    result = O.sgd(lambda th, idx: th, [1.0], 1, batch_size=1, step_size=O.geometric(1.0, 0.5), n_epochs=60)
    expected = np.cumprod(1 - 0.5 ** np.arange(1, 61))
    np.testing.assert_allclose(result.path[1:, 0], expected, rtol=1e-12)
    assert 0.2887 < result.x[0] < 0.2889


def test_quadratic_2d_has_the_requested_eigenvalues():
    from mlnotes.widgets import quadratic_2d
    for kappa in (1.0, 7.0, 50.0):
        np.testing.assert_allclose(np.linalg.eigvalsh(quadratic_2d(kappa, L=2.0)), [2.0 / kappa, 2.0], rtol=1e-12)
    with pytest.raises(ValueError, match="condition_number"):
        quadratic_2d(0.5)


def test_descent_path_drawing_and_step_size_demo():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mlnotes.widgets import draw_descent_paths, quadratic_2d, step_size_demo
    A = quadratic_2d(10)
    path = O.gradient_descent(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, [-3.0, 1.5], step_size=1.0, tol=0,
                              max_iter=10, warn=False).path
    fig, ax = plt.subplots()
    draw_descent_paths(ax, A, {"GD": path})
    np.testing.assert_allclose(ax.lines[0].get_xydata(), path)      # the path is drawn as computed
    for bad, match in [(np.eye(3), "2x2"), (np.array([[1.0, 2.0], [0.0, 1.0]]), "symmetric"),
                       (-np.eye(2), "positive semidefinite")]:
        with pytest.raises(ValueError, match=match):
            draw_descent_paths(ax, bad, {"GD": path})
    with pytest.raises(ValueError, match="shape"):
        draw_descent_paths(ax, A, {"GD": np.zeros((3, 3))})
    with pytest.raises(ValueError, match="non-empty dict"):
        draw_descent_paths(ax, A, {})
    plt.close("all")
    widget = step_size_demo(n_steps=5)
    assert [child.description for child in widget.children[:2]] == ["η · L", "κ"]
    with pytest.raises(ValueError, match="n_steps"):
        step_size_demo(n_steps=0)


# ---------------------------------------------------------------------------------------------
# the optimisers take a list of parameter arrays (a network's weight matrices and biases)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda: O.GradientStep(0.1), lambda: O.Momentum(0.1, 0.9),
                                  lambda: O.Nesterov(0.1, 0.9), lambda: O.AdaGrad(0.5), lambda: O.RMSProp(0.01),
                                  lambda: O.Adam(0.05)])
def test_a_list_of_arrays_is_updated_as_the_flat_vector(make):
    rng = np.random.default_rng(0)
    shapes = [(3, 2), (2,), (1, 4)]
    params = [rng.normal(size=s) for s in shapes]
    flat, listed = make(), make()
    x = np.concatenate([p.ravel() for p in params])
    A = np.diag(rng.uniform(0.5, 2.0, size=x.size))                 # a separable quadratic: elementwise updates
    unflatten = lambda v: [a.reshape(s) for a, s in zip(np.split(v, np.cumsum([np.prod(s) for s in shapes])[:-1]),
                                                         shapes)]
    for _ in range(20):
        x = flat.step(x, A @ flat.lookahead(x))
        look = listed.lookahead(params)
        g = unflatten(A @ np.concatenate([p.ravel() for p in look]))
        params = listed.step(params, g)
        assert isinstance(params, list) and [p.shape for p in params] == shapes
    np.testing.assert_allclose(np.concatenate([p.ravel() for p in params]), x, rtol=1e-12)


def test_a_list_step_checks_its_gradients():
    opt = O.Adam(0.1)
    with pytest.raises(ValueError, match="g must be a list of as many gradients"):
        opt.step([np.zeros(2), np.zeros(3)], [np.zeros(2)])
    with pytest.raises(ValueError, match=r"g\[1\] must have the shape of x\[1\], \(3,\)"):
        opt.step([np.zeros(2), np.zeros(3)], [np.zeros(2), np.zeros(2)])
    opt.step([np.zeros(2), np.zeros(3)], [np.ones(2), np.ones(3)])
    with pytest.raises(ValueError, match="call reset"):
        opt.step([np.zeros(2)], [np.ones(2)])
    opt.reset()
    assert opt.step([np.zeros(2)], [np.ones(2)])[0].shape == (2,)


@pytest.mark.parametrize("search", ["backtracking", "exact_line_search"])
def test_line_searches_take_lists(search):
    # issue 11: a list x (and g) failed inside numpy instead of being converted
    f = lambda x: float(np.sum(np.asarray(x) ** 2))
    eta = getattr(O, search)(f, [1.0, 2.0], [2.0, 4.0])
    assert eta == pytest.approx(0.5, rel=1e-6)
    with pytest.raises(ValueError, match="g must have the shape of x"):
        getattr(O, search)(f, [1.0, 2.0], [2.0, 4.0, 1.0])


# ------------------------------------------------------------------ minimize within box bounds (L-BFGS-B)

def _bounded_least_squares(seed=0):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(50, 4)) * [1.0, 10.0, 0.1, 1.0], rng.normal(size=50)
    return lambda w: (0.5 * np.sum((X @ w - y) ** 2), X.T @ (X @ w - y)), X, y


@pytest.mark.parametrize("seed", [0, 1])
def test_minimize_with_bounds_reaches_the_box_constrained_minimum(seed):
    objective, X, y = _bounded_least_squares(seed)
    bounds = [(-0.1, 0.1), (None, 0.0), (0.0, np.inf), (None, None)]
    ours = O.minimize(objective, np.zeros(4), bounds=bounds, tol=1e-9, max_iter=1000, scale=[1.0, 10.0, 0.1, 1.0])
    ref = optimize.lsq_linear(X, y, bounds=([-0.1, -np.inf, 0.0, -np.inf], [0.1, 0.0, np.inf, np.inf]), tol=1e-14)
    assert ours.converged and "projected gradient" in ours.message
    np.testing.assert_allclose(ours.x, ref.x, atol=1e-7)
    B = np.array([[-0.1, 0.1], [-np.inf, 0.0], [0.0, np.inf], [-np.inf, np.inf]])
    assert np.all(ours.x >= B[:, 0]) and np.all(ours.x <= B[:, 1])
    # the box is active here: the plain gradient is not small, the projected one is
    g = objective(ours.x)[1]
    assert np.linalg.norm(g) > 1e-3
    projected = np.linalg.norm(ours.x - np.clip(ours.x - g, B[:, 0], B[:, 1]))
    assert projected == pytest.approx(ours.grad_norms[-1], rel=1e-6) and projected < 1e-6


def test_minimize_bounds_that_hold_nothing_back_change_nothing_and_the_start_is_clipped():
    objective, _, _ = _bounded_least_squares()
    free = O.minimize(objective, np.zeros(4), tol=1e-9, max_iter=1000)
    loose = O.minimize(objective, np.zeros(4), bounds=[(-1e6, 1e6)] * 4, tol=1e-9, max_iter=1000)
    np.testing.assert_allclose(loose.x, free.x, atol=1e-8)
    clipped = O.minimize(objective, [5.0, 5.0, 5.0, 5.0], bounds=[(-1, 1)] * 4, tol=1e-9, max_iter=1000)
    np.testing.assert_array_equal(clipped.path[0], [1.0, 1.0, 1.0, 1.0])


def test_minimize_with_bounds_reports_an_unmet_stopping_rule():
    objective, _, _ = _bounded_least_squares()
    with pytest.warns(ConvergenceWarning, match="projected gradient norm"):
        result = O.minimize(objective, np.full(4, -3.0), bounds=[(None, 0.0)] * 4, tol=1e-12, max_iter=1)
    assert not result.converged


@pytest.mark.parametrize("bounds, error, match", [
    ([(0.0, 1.0)], ValueError, r"shape \(2, 2\)"),
    ([(1.0, 0.0), (0.0, 1.0)], ValueError, "parameter 0 are empty"),
    ([(np.nan, 1.0), (0.0, 1.0)], ValueError, "must hold numbers"),
    ([(np.inf, np.inf), (0.0, 1.0)], ValueError, "must hold numbers"),
    ([("low", 1.0), (0.0, 1.0)], TypeError, "pairs"),
    ([0.0, 1.0], TypeError, "pairs"),
])
def test_minimize_rejects_bad_bounds(bounds, error, match):
    objective = lambda w: (w @ w, 2 * w)        # noqa: E731
    with pytest.raises(error, match=match):
        O.minimize(objective, np.zeros(2), bounds=bounds)


def test_minimize_bounds_need_lbfgs():
    objective = lambda w: (w @ w, 2 * w)        # noqa: E731
    with pytest.raises(ValueError, match="bounds need method='lbfgs'"):
        O.minimize(objective, np.zeros(2), method="newton", hess=lambda w: 2 * np.eye(2), bounds=[(0, 1)] * 2)


# ------------------------------------------------------------------ projected gradient descent (issue 11: in optim)

@pytest.mark.parametrize("accelerated", [False, True])
def test_projected_gradient_descent_reaches_the_box_constrained_minimum(accelerated):
    _, X, y = _bounded_least_squares(0)
    low, high = np.array([-0.1, -np.inf, 0.0, -np.inf]), np.array([0.1, 0.0, np.inf, np.inf])
    L = np.linalg.eigvalsh(X.T @ X).max()
    result = O.projected_gradient_descent(lambda w: X.T @ (X @ w - y), np.ones(4), lambda z: np.clip(z, low, high),
                                          step_size=1 / L, accelerated=accelerated, tol=1e-9, max_iter=200_000)
    reference = optimize.lsq_linear(X, y, bounds=(low, high), tol=1e-14)
    assert result.converged
    np.testing.assert_allclose(result.x, reference.x, atol=1e-7)
    np.testing.assert_array_equal(result.path[0], [0.1, 0.0, 1.0, 1.0])          # the start, projected
    assert result.grad_norms[-1] <= 1e-9 and result.n_iter == len(result.step_sizes)


def test_projected_gradient_descent_acceleration_needs_fewer_steps_and_a_certificate_stops_it():
    # seed 0: 1616 plain steps against 248 accelerated (seed 1 took 90 001 plain steps, 9-13 s, for the same claim)
    _, X, y = _bounded_least_squares(0)
    L = np.linalg.eigvalsh(X.T @ X).max()
    f = lambda w: 0.5 * np.sum((X @ w - y) ** 2)            # noqa: E731
    f_star = optimize.lsq_linear(X, y, bounds=(0, np.inf), tol=1e-14).cost
    runs = {acc: O.projected_gradient_descent(lambda w: X.T @ (X @ w - y), np.zeros(4), lambda z: np.maximum(z, 0),
                                              step_size=1 / L, accelerated=acc, certificate=lambda w: f(w) - f_star,
                                              tol=1e-8, max_iter=100_000) for acc in (False, True)}
    assert all(r.converged and f(r.x) - f_star <= 1e-8 for r in runs.values())
    assert runs[True].n_iter < runs[False].n_iter


def test_projected_gradient_descent_reports_an_unmet_stopping_rule_and_rejects_a_bad_step():
    _, X, y = _bounded_least_squares(0)
    with pytest.warns(ConvergenceWarning, match="did not converge in max_iter = 3"):
        result = O.projected_gradient_descent(lambda w: X.T @ (X @ w - y), np.zeros(4), lambda z: z, step_size=1e-6,
                                              max_iter=3)
    assert not result.converged and result.n_iter == 3
    with pytest.raises(ValueError, match="step_size must be > 0"):
        O.projected_gradient_descent(lambda w: w, np.zeros(2), lambda z: z, step_size=0.0)


def test_the_convergence_warning_is_sklearns_class_and_importing_optim_does_not_import_sklearn():
    # sklearn is imported only when a warning is due (it costs about a second to a chapter without sklearn);
    # the class is sklearn's own, not a subclass, so code filtering or catching sklearn's class sees it
    import subprocess
    import sys
    code = "import sys, mlnotes.optim; print('sklearn' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
    with pytest.warns(ConvergenceWarning) as record:
        O.gradient_descent(lambda x: x @ x, lambda x: 2 * x, [1.0], step_size=0.01, max_iter=2)
    assert record[0].category is ConvergenceWarning


def test_linear_program_is_scipys_highs_and_says_when_there_is_no_solution():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(12, 3))
    y = rng.normal(size=12)
    n, p = A.shape                              # least absolute deviations as an LP, as in chapter 5
    cost = np.concatenate([np.zeros(p), np.ones(n)])
    A_ub = np.block([[-A, -np.eye(n)], [A, -np.eye(n)]])
    b_ub = np.concatenate([-y, y])
    bounds = [(None, None)] * p + [(0, None)] * n
    x = O.linear_program(cost, A_ub, b_ub, bounds)
    reference = optimize.linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
    assert np.array_equal(x, reference.x)
    with pytest.raises(ValueError, match="no solution"):             # x <= -1 and x >= 0
        O.linear_program([1.0], [[1.0]], [-1.0], [(0, None)])
    with pytest.raises(ValueError, match="no solution"):             # min -x over x >= 0: unbounded
        O.linear_program([-1.0], [[-1.0]], [0.0], [(0, None)])
    with pytest.raises(ValueError, match="one column per variable"):
        O.linear_program([1.0, 1.0], [[1.0]], [1.0], [(0, None)] * 2)
    with pytest.raises(ValueError, match="one pair"):
        O.linear_program([1.0], [[1.0]], [1.0], [(0, None)] * 2)
    with pytest.raises(ValueError):
        O.linear_program([np.nan], [[1.0]], [1.0], [(0, None)])
