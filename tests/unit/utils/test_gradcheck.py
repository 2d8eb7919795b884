"""Tests of the numerical gradient checker, :mod:`mlnotes.utils._gradcheck` (re-exported by
:mod:`mlnotes.symbolic`, whose :func:`agree_gradient` turns a check into a verdict).

Tolerance convention: central differences with the default step ``eps=1e-6`` have a truncation
error of about ``eps**2 * |f'''| / 6 ~ 1e-13`` and a rounding error of about
``u * |f| / eps ~ 1e-10 * |f|`` (``u = 2**-53``), so on the seeded, O(1)-scaled functions below
they match closed-form gradients to a relative error of ``RTOL = 1e-7`` (measured: 1e-11 to 1e-9).
A wrong gradient (flipped sign, missing transpose, dropped factor 2) is off by a relative error of
order one, and must be reported as failing by :func:`check_gradient` with its default
``rtol=1e-6``. References are closed forms derived by hand (and checked with sympy in chapter 2),
``scipy.optimize.approx_fprime`` / ``check_grad`` (forward differences, accurate to about
``sqrt(u) ~ 1e-8`` relative to the scale of f) and ``scipy.differentiate.jacobian`` (Richardson
extrapolation, accurate to about ``1e-12``).
"""

import subprocess
import sys

import numpy as np
import pytest
from scipy import differentiate, optimize, special

import mlnotes.symbolic
from mlnotes.symbolic import ClaimError, agree_gradient, claim
from mlnotes.utils import (GradientCheck, GradientCheckError, check_gradient, numerical_gradient, numerical_jacobian,
                           optimal_step)

SEEDS = [0, 1, 2]
RTOL = 1e-7


def rel_error(a, b):
    """||a - b|| / max(||a|| + ||b||, tiny): the measure the checker uses, computed independently."""
    a, b = np.asarray(a, float).ravel(), np.asarray(b, float).ravel()
    return np.linalg.norm(a - b) / max(np.linalg.norm(a) + np.linalg.norm(b), np.finfo(float).tiny)


def random_matrix(rng, rows, cols):
    return rng.standard_normal((rows, cols))


def well_conditioned(rng, n):
    """A random non-symmetric n x n matrix, safely invertible with positive determinant."""
    return rng.standard_normal((n, n)) + 2 * n * np.eye(n)


# --------------------------------------------------------------------------- known gradients


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", [1, 2, 5])
def test_quadratic_form_gradient_is_A_plus_A_transpose_x(n, seed):
    rng = np.random.default_rng(seed)
    A, x = random_matrix(rng, n, n), rng.standard_normal(n)
    g = numerical_gradient(lambda v: v @ A @ v, x)
    assert g.shape == (n,)
    assert rel_error(g, (A + A.T) @ x) < RTOL


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", [(1, 1), (3, 2), (2, 5), (8, 4)])
def test_least_squares_gradient(shape, seed):
    rng = np.random.default_rng(seed)
    A, b = random_matrix(rng, *shape), rng.standard_normal(shape[0])
    x = rng.standard_normal(shape[1])
    check = check_gradient(lambda v: np.sum((A @ v - b) ** 2), lambda v: 2 * A.T @ (A @ v - b), x)
    assert check.passed and check.relative_error < RTOL
    assert rel_error(check.numerical, 2 * A.T @ (A @ x - b)) < RTOL


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("offset", [0.0, 1e3])
def test_log_sum_exp_gradient_is_softmax(offset, seed):
    # a large offset: the stable log-sum-exp stays finite and its gradient is unchanged
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(6) + offset
    check = check_gradient(special.logsumexp, special.softmax, x)
    assert check.passed
    assert rel_error(check.numerical, special.softmax(x)) < (RTOL if offset == 0 else 1e-6)


@pytest.mark.parametrize("seed", SEEDS)
def test_logistic_loss_gradient(seed):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((30, 4)), rng.choice([-1.0, 1.0], size=30)
    w = rng.standard_normal(4)

    def loss(w_):
        return np.sum(np.logaddexp(0.0, -y * (X @ w_)))

    def grad(w_):
        return -X.T @ (y * special.expit(-y * (X @ w_)))

    check = check_gradient(loss, grad, w)
    assert check.passed and check.relative_error < RTOL


@pytest.mark.parametrize("seed", SEEDS)
def test_matrix_shaped_variables(seed):
    rng = np.random.default_rng(seed)
    A, B, X = random_matrix(rng, 2, 3), random_matrix(rng, 4, 2), random_matrix(rng, 3, 4)
    g = numerical_gradient(lambda M: np.trace(A @ M @ B), X)
    assert g.shape == (3, 4)
    assert rel_error(g, A.T @ B.T) < RTOL
    S = well_conditioned(rng, 3)
    a, b = rng.standard_normal(3), rng.standard_normal(3)
    S_inv_T = np.linalg.inv(S).T
    for f, grad in [(lambda M: np.linalg.slogdet(M)[1], lambda M: np.linalg.inv(M).T),
                    (lambda M: a @ np.linalg.solve(M, b), lambda M: -S_inv_T @ np.outer(a, b) @ S_inv_T)]:
        check = check_gradient(f, grad, S)
        assert check.passed and check.numerical.shape == (3, 3)
        assert rel_error(check.numerical, grad(S)) < RTOL


def test_scalar_variable_and_one_by_one_output():
    assert numerical_gradient(lambda t: t**3, 2.0).shape == ()
    assert abs(numerical_gradient(lambda t: t**3, 2.0) - 12.0) < 1e-8
    # f may return a 1 x 1 array (e.g. x^T A x with column vectors)
    A = np.array([[2.0, 1.0], [0.0, 3.0]])
    x = np.array([[1.0], [-2.0]])
    g = numerical_gradient(lambda v: v.T @ A @ v, x)
    assert g.shape == (2, 1)
    assert rel_error(g, (A + A.T) @ x) < RTOL


# --------------------------------------------------------------------------- Jacobians


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", [(1, 1), (2, 5), (5, 2)])
def test_jacobian_of_linear_map_is_A_numerator_layout(shape, seed):
    A = random_matrix(np.random.default_rng(seed), *shape)
    J = numerical_jacobian(lambda v: A @ v, np.ones(shape[1]))
    assert J.shape == shape          # m x n
    np.testing.assert_allclose(J, A, rtol=0, atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_jacobian_matches_scipy_differentiate(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(4)

    def f(v):  # R^4 -> R^3, vectorised over trailing axes as scipy.differentiate requires
        return np.stack([np.sin(v[0]) * v[1], np.exp(v[2] - v[3]), v[0] * v[1] * v[2] + v[3] ** 2])

    reference = differentiate.jacobian(f, x).df
    J = numerical_jacobian(f, x)
    assert J.shape == (3, 4)
    assert rel_error(J, reference) < RTOL


@pytest.mark.parametrize("seed", SEEDS)
def test_jacobian_of_softmax_and_hessian_of_log_sum_exp(seed):
    x = np.random.default_rng(seed).standard_normal(5)
    p = special.softmax(x)
    expected = np.diag(p) - np.outer(p, p)
    J = numerical_jacobian(special.softmax, x)
    np.testing.assert_allclose(J, expected, rtol=0, atol=1e-9)
    # the Hessian is the Jacobian of the gradient, and symmetric
    np.testing.assert_allclose(J, J.T, rtol=0, atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_tensor_layout_of_Wx_with_respect_to_W(seed):
    rng = np.random.default_rng(seed)
    H, D = 2, 3
    W, x = random_matrix(rng, H, D), rng.standard_normal(D)
    T = numerical_jacobian(lambda M: M @ x, W)
    assert T.shape == (H, H, D)       # [da/dW]_{ijk} = da_i / dW_jk
    expected = np.einsum("ij,k->ijk", np.eye(H), x)
    np.testing.assert_allclose(T, expected, rtol=0, atol=1e-9)


# --------------------------------------------------------------------------- scipy


@pytest.mark.parametrize("seed", SEEDS)
def test_agrees_with_scipy_approx_fprime(seed):
    rng = np.random.default_rng(seed)
    A, b = random_matrix(rng, 6, 4), rng.standard_normal(6)
    x = rng.standard_normal(4)

    def f(v):
        return np.sum(np.logaddexp(0.0, A @ v - b))

    ours = numerical_gradient(f, x)
    theirs = optimize.approx_fprime(x, f)   # forward differences, step sqrt(eps)
    assert rel_error(ours, theirs) < 1e-6


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("wrong", ["right", "sign", "factor", "transpose"])
def test_error_norm_agrees_with_scipy_check_grad(wrong, seed):
    rng = np.random.default_rng(seed)
    A, b = random_matrix(rng, 4, 4), rng.standard_normal(4)
    x = rng.standard_normal(4)

    def f(v):
        return np.sum((A @ v - b) ** 2)

    grads = {"right": lambda v: 2 * A.T @ (A @ v - b), "sign": lambda v: -2 * A.T @ (A @ v - b),
             "factor": lambda v: A.T @ (A @ v - b), "transpose": lambda v: 2 * A @ (A @ v - b)}
    check = check_gradient(f, grads[wrong], x)
    ours = np.linalg.norm(check.numerical - check.analytic)
    theirs = optimize.check_grad(f, grads[wrong], x)          # ||forward differences - grad||
    if wrong == "right":
        assert check.passed and ours < 1e-7 * np.linalg.norm(check.analytic)
        assert theirs < 1e-5 * np.linalg.norm(check.analytic)  # forward differences: ~sqrt(u)
    else:
        assert not check.passed
        assert abs(ours - theirs) <= 1e-5 * theirs


# --------------------------------------------------------------------------- must fail


@pytest.mark.parametrize("seed", SEEDS)
def test_flipped_sign_fails_with_relative_error_one(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(3)
    check = check_gradient(lambda v: v @ v, lambda v: -2 * v, x)
    assert not check.passed
    assert abs(check.relative_error - 1.0) < 1e-8


@pytest.mark.parametrize("seed", SEEDS)
def test_dropped_factor_two_fails(seed):
    rng = np.random.default_rng(seed)
    A, b, x = random_matrix(rng, 5, 3), rng.standard_normal(5), rng.standard_normal(3)
    check = check_gradient(lambda v: np.sum((A @ v - b) ** 2), lambda v: A.T @ (A @ v - b), x)
    assert not check.passed
    assert abs(check.relative_error - 1 / 3) < 1e-8     # |2g - g| / (|2g| + |g|)


@pytest.mark.parametrize("seed", SEEDS)
def test_missing_transpose_fails(seed):
    rng = np.random.default_rng(seed)
    A, x = random_matrix(rng, 4, 4), rng.standard_normal(4)
    # x^T A x: 2 A x is the gradient only for symmetric A
    assert not check_gradient(lambda v: v @ A @ v, lambda v: 2 * A @ v, x).passed
    assert check_gradient(lambda v: v @ (A + A.T) @ v, lambda v: 2 * (A + A.T) @ v, x).passed
    # log det: X^{-1} instead of X^{-T}
    X = well_conditioned(rng, 3)
    assert not check_gradient(lambda M: np.linalg.slogdet(M)[1], np.linalg.inv, X).passed
    # tr(P X Q): (P^T Q^T)^T = Q P instead of P^T Q^T
    P, Q, M0 = random_matrix(rng, 2, 3), random_matrix(rng, 3, 2), random_matrix(rng, 3, 3)
    assert check_gradient(lambda M: np.trace(P @ M @ Q), lambda M: P.T @ Q.T, M0).passed
    assert not check_gradient(lambda M: np.trace(P @ M @ Q), lambda M: Q @ P, M0).passed


def test_missing_transpose_on_a_rectangular_matrix_is_a_shape_error():
    rng = np.random.default_rng(0)
    A, b, x = random_matrix(rng, 5, 3), rng.standard_normal(5), rng.standard_normal(3)
    with pytest.raises(ValueError, match="grad returned shape"):
        check_gradient(lambda v: np.sum((A @ v - b) ** 2), lambda v: 2 * (A @ v - b), x)


@pytest.mark.parametrize("relative_bias", [1e-4, 1e-5])
def test_small_relative_mistakes_are_detected(relative_bias):
    rng = np.random.default_rng(3)
    A, x = well_conditioned(rng, 4), rng.standard_normal(4)
    check = check_gradient(lambda v: v @ A @ v, lambda v: (1 + relative_bias) * (A + A.T) @ v, x)
    assert not check.passed


def test_raise_on_failure_and_report():
    x = np.array([1.0, -2.0, 0.5])
    with pytest.raises(GradientCheckError, match="gradient check FAILED"):
        check_gradient(lambda v: v @ v, lambda v: v, x, raise_on_failure=True)
    check = check_gradient(lambda v: v @ v, lambda v: 2 * v, x, raise_on_failure=True)
    assert isinstance(check, GradientCheck) and check.passed
    assert "PASSED" in check.report() and "6 calls of f" in check.report()
    assert repr(check).startswith("GradientCheck(passed=True, relative_error=")
    failed = check_gradient(lambda v: v @ v, lambda v: v, x)
    assert failed.worst_index == (1,)          # the largest entry of x, where |2x - x| is largest
    assert "at index (1,)" in failed.report()


def test_atol_for_stationary_points():
    # at x = 0 the gradient of exp(x) - x vanishes; the central difference is O(1e-10) noise,
    # so the relative error is ~1 and only an absolute tolerance can pass
    f = lambda v: np.sum(np.exp(v) - v)            # noqa: E731
    check = check_gradient(f, lambda v: np.exp(v) - 1, np.full(3, 1e-9))
    assert check.relative_error > 1e-3 and not check.passed
    assert check_gradient(f, lambda v: np.exp(v) - 1, np.full(3, 1e-9), atol=1e-8).passed


def test_agree_gradient_verdict_and_claim():
    rng = np.random.default_rng(0)
    A = random_matrix(rng, 3, 3)
    points = [rng.standard_normal(3) for _ in range(3)]
    good = agree_gradient(lambda v: v @ A @ v, lambda v: (A + A.T) @ v, points, latex="ok")
    assert good.holds and good.method == "implementation" and "3 points" in good.detail
    bad = agree_gradient(lambda v: v @ A @ v, lambda v: 2 * A @ v, points, latex="bad")
    assert not bad.holds and bad.counterexample[r"\text{point}"] == "1"
    claim("a right gradient", good)
    with pytest.raises(ClaimError):
        claim("a wrong gradient", bad)
    with pytest.raises(ValueError, match="points is empty"):
        agree_gradient(lambda v: v @ v, lambda v: 2 * v, [])


# --------------------------------------------------------------------------- calls and copies


def test_cost_is_two_calls_per_entry_and_x_is_not_modified():
    calls = []

    def f(v):
        calls.append(v.shape)
        v[...] = 0.0              # a function that mutates its argument must not spoil the result
        return 0.0

    x = np.arange(6.0).reshape(2, 3)
    before = x.copy()
    numerical_gradient(f, x)
    assert len(calls) == 2 * x.size and set(calls) == {(2, 3)}
    np.testing.assert_array_equal(x, before)
    g = numerical_gradient(lambda v: np.sum(v**2), x)
    np.testing.assert_allclose(g, 2 * x, rtol=0, atol=1e-8)


def test_step_taken_is_the_rounded_step():
    # at x = 1e8 (float spacing 1.5e-8) x +- 1e-6 rounds to a different step; dividing by the
    # step actually taken makes the derivative of the identity exact, dividing by 2 eps would not
    x = np.array([1e8])
    assert numerical_gradient(lambda v: v[0], x)[0] == 1.0
    naive = ((x[0] + 1e-6) - (x[0] - 1e-6)) / 2e-6
    assert abs(naive - 1.0) > 1e-3


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("x, error, match", [
    (np.array([1.0, np.nan]), ValueError, "NaN"),
    (np.array([np.inf, 1.0]), ValueError, "infinity"),
    (np.array([]), ValueError, "empty"),
    (None, TypeError, "None"),
    (np.array([1 + 2j]), TypeError, "real"),
    (["a", "b"], TypeError, "numeric"),
])
def test_bad_x(x, error, match):
    with pytest.raises(error, match=match):
        numerical_gradient(lambda v: 0.0, x)
    with pytest.raises(error, match=match):
        check_gradient(lambda v: 0.0, lambda v: v, x)


@pytest.mark.parametrize("eps, error", [(0.0, ValueError), (-1e-6, ValueError), (np.nan, ValueError),
                                        (np.inf, ValueError), (True, TypeError), ("1e-6", TypeError)])
def test_bad_eps(eps, error):
    with pytest.raises(error, match="eps"):
        numerical_gradient(lambda v: v @ v, np.ones(2), eps=eps)
    with pytest.raises(error, match="eps"):
        numerical_jacobian(lambda v: v, np.ones(2), eps=eps)


def test_eps_too_small_for_x():
    with pytest.raises(ValueError, match="rounds to x"):
        numerical_gradient(lambda v: v @ v, np.array([1e20, 1.0]))


@pytest.mark.parametrize("output, error, match", [
    (lambda v: np.nan, ValueError, "non-finite"),
    (lambda v: np.inf * v[0], ValueError, "non-finite"),
    (lambda v: v, ValueError, "scalar"),
    (lambda v: np.ones((2, 2)), ValueError, "scalar"),
    (lambda v: 1j * v[0], TypeError, "real"),
    (lambda v: "one", TypeError, "numbers"),
])
def test_bad_f_output(output, error, match):
    with pytest.raises(error, match=match):
        numerical_gradient(output, np.ones(2))


def test_jacobian_needs_a_fixed_output_shape_and_finite_values():
    with pytest.raises(ValueError, match="different shapes"):
        numerical_jacobian(lambda v: np.ones(2) if v[0] > 1 else np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="non-finite"):
        numerical_jacobian(lambda v: np.where(v > 1.0, np.inf, v), np.ones(2))


def test_not_callable():
    with pytest.raises(TypeError, match="f must be callable"):
        numerical_gradient(np.ones(2), np.ones(2))
    with pytest.raises(TypeError, match="grad must be callable"):
        check_gradient(lambda v: v @ v, np.ones(2), np.ones(2))


def test_bad_grad_and_tolerances():
    x = np.ones(3)
    with pytest.raises(ValueError, match=r"grad returned shape \(3, 1\)"):
        check_gradient(lambda v: v @ v, lambda v: 2 * v[:, None], x)
    with pytest.raises(ValueError, match="NaN"):
        check_gradient(lambda v: v @ v, lambda v: np.full(3, np.nan), x)
    with pytest.raises(ValueError, match="rtol"):
        check_gradient(lambda v: v @ v, lambda v: 2 * v, x, rtol=0.0)
    with pytest.raises(ValueError, match="atol"):
        check_gradient(lambda v: v @ v, lambda v: 2 * v, x, atol=-1.0)


# --------------------------------------------------------------------------- step size


def test_optimal_step_formulas_and_measured_optimum():
    u = np.finfo(float).eps / 2
    assert optimal_step("central") == pytest.approx((3 * u) ** (1 / 3), rel=1e-12)
    assert optimal_step("forward", f_scale=4.0, derivative_scale=1.0) == pytest.approx(4 * np.sqrt(u), rel=1e-12)
    with pytest.raises(ValueError, match="method"):
        optimal_step("backward")
    with pytest.raises(ValueError, match="derivative_scale"):
        optimal_step(derivative_scale=0.0)
    # the measured error of exp'(1) is smallest within a factor 10 of the predicted steps
    steps = np.logspace(-12, -2, 201)
    forward = np.abs((np.exp(1 + steps) - np.exp(1)) / steps - np.exp(1))
    central = np.abs((np.exp(1 + steps) - np.exp(1 - steps)) / (2 * steps) - np.exp(1))
    for errors, method in [(forward, "forward"), (central, "central")]:
        # smooth the rounding noise over a decade before locating the minimum
        smooth = np.convolve(np.log(errors + 1e-300), np.ones(21) / 21, mode="same")
        best = steps[10:-10][np.argmin(smooth[10:-10])]
        assert 0.1 < best / optimal_step(method) < 10


def test_widget_functions():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlnotes.widgets import draw_finite_difference, finite_difference_demo

    fig, axes = plt.subplots(1, 2)
    out = draw_finite_difference(axes, 1e-5)
    assert out["central_at_h"] < 1e-8 < out["forward_at_h"]
    assert out["h_central"] == pytest.approx(optimal_step("central", f_scale=np.e, derivative_scale=np.e))
    with pytest.raises(ValueError, match="h must be >"):
        draw_finite_difference(axes, 0.0)
    with pytest.raises(TypeError, match="df must be callable"):
        draw_finite_difference(axes, 1e-3, df=1.0)
    plt.close(fig)
    widget = finite_difference_demo(f=np.sin, df=np.cos, d2f=lambda t: -np.sin(t), d3f=lambda t: -np.cos(t))
    assert widget.children[0].description == "log10 h"
    plt.close("all")


def test_the_gradient_checker_lives_in_utils_without_sympy_and_symbolic_re_exports_it():
    for name in ["numerical_gradient", "numerical_jacobian", "check_gradient", "GradientCheck", "GradientCheckError",
                 "optimal_step"]:
        assert getattr(mlnotes.symbolic, name) is globals()[name]
    code = ("import sys, numpy as np\n"
            "from mlnotes.utils import check_gradient\n"
            "assert check_gradient(lambda x: float(x @ x), lambda x: 2 * x, np.ones(3)).passed\n"
            "assert not any(m == 'sympy' or m.startswith('sympy.') for m in sys.modules), 'sympy was imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
