"""Tests of :mod:`mlnotes.risk` against numpy, scipy and first principles.

Tolerances: closed forms reached at support points (medians, modes) must match exactly; the mean, which
``bayes_action`` finds by a bounded scalar minimisation from function values, to ``1e-7`` relative to the
largest value; risks computed by quadrature to ``1e-12``. Monte Carlo comparisons use 5 standard errors
computed from the same draws. Every reference is independent of mlnotes: ``numpy.average``,
``numpy.median``, ``numpy.argmax``, explicit sums, ``numpy.polyfit``, ``scipy.integrate.quad``.
"""

import numpy as np
import pytest
from scipy import integrate

from mlnotes.risk import (LOSSES, ExcessRiskDecomposition, RegressionProblem, bayes_action, empirical_risk,
                          excess_risk_decomposition, expected_loss, fit_polynomial, legendre_features)

SEEDS = [0, 1, 2, 3]


def random_distribution(rng, k):
    """``k`` values (normal, random scale) and Dirichlet probabilities."""
    return rng.normal(scale=rng.uniform(0.1, 100.0), size=k), rng.dirichlet(np.ones(k))


def sample_distribution(sample):
    """The empirical distribution of a sample: distinct values and their frequencies."""
    values, counts = np.unique(sample, return_counts=True)
    return values, counts / counts.sum()


# --------------------------------------------------------------------------- empirical and expected loss


@pytest.mark.parametrize("seed", SEEDS)
def test_empirical_risk_is_the_average_loss(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, size=50).astype(float)
    y_pred = rng.integers(0, 4, size=50).astype(float) + rng.choice([0.0, 0.5], size=50)
    assert empirical_risk("square", y, y_pred) == pytest.approx(np.mean((y_pred - y) ** 2), rel=1e-14)
    assert empirical_risk("absolute", y, y_pred) == pytest.approx(np.mean(np.abs(y_pred - y)), rel=1e-14)
    assert empirical_risk("zero_one", y, y_pred) == pytest.approx(np.mean(y_pred != y), rel=1e-14)
    pinball = lambda a, t: np.maximum(0.8 * (t - a), -0.2 * (t - a))
    expected = np.mean(np.maximum(0.8 * (y - y_pred), -0.2 * (y - y_pred)))
    assert empirical_risk(pinball, y, y_pred) == pytest.approx(expected, rel=1e-14)


def test_losses_are_functions_of_action_and_outcome():
    a, y = np.array([0.0, 1.0, 2.0, -1.5]), np.array([0.0, 3.0, 2.0, 1.0])
    np.testing.assert_array_equal(LOSSES["square"](a, y), [0.0, 4.0, 0.0, 6.25])
    np.testing.assert_array_equal(LOSSES["absolute"](a, y), [0.0, 2.0, 0.0, 2.5])
    np.testing.assert_array_equal(LOSSES["zero_one"](a, y), [0.0, 1.0, 0.0, 1.0])


@pytest.mark.parametrize("seed", SEEDS)
def test_expected_loss_is_the_probability_weighted_sum(seed):
    rng = np.random.default_rng(seed)
    values, probs = random_distribution(rng, 7)
    actions = rng.normal(size=5)
    for name, loss in LOSSES.items():
        reference = np.array([sum(p * loss(a, v) for v, p in zip(values, probs)) for a in actions])
        np.testing.assert_allclose(expected_loss(actions, values, probs, name), reference, rtol=1e-13)
    scalar = expected_loss(1.5, values, probs, "square")
    assert isinstance(scalar, float)
    assert scalar == pytest.approx(np.sum(probs * (1.5 - values) ** 2), rel=1e-13)


def test_empirical_and_expected_loss_reject_bad_input():
    with pytest.raises(ValueError, match="y_pred has 2 entries but y has 3"):
        empirical_risk("square", [1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="y contains NaN"):
        empirical_risk("square", [1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="y_pred contains infinity"):
        empirical_risk("square", [1.0, 2.0], [1.0, np.inf])
    with pytest.raises(ValueError, match="empty"):
        empirical_risk("square", [], [])
    with pytest.raises(ValueError, match="unknown loss 'hinge'"):
        empirical_risk("hinge", [1.0], [1.0])
    with pytest.raises(TypeError, match="loss must be a name"):
        empirical_risk(3, [1.0], [1.0])
    with pytest.raises(ValueError, match="broadcast shape"):
        empirical_risk(lambda a, y: np.sum(a - y), [1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="NaN or infinity"):
        empirical_risk(lambda a, y: np.full(np.broadcast_shapes(np.shape(a), np.shape(y)), np.nan), [1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="probs must sum to 1"):
        expected_loss(0.0, [1.0, 2.0], [0.5, 0.6], "square")
    with pytest.raises(ValueError, match="non-negative"):
        expected_loss(0.0, [1.0, 2.0], [1.5, -0.5], "square")
    with pytest.raises(ValueError, match="probs has 3 entries but values has 2"):
        expected_loss(0.0, [1.0, 2.0], [0.2, 0.3, 0.5], "square")
    with pytest.raises(ValueError, match="actions must be a number or a 1-D array"):
        expected_loss(np.zeros((2, 2)), [1.0, 2.0], [0.5, 0.5], "square")


# --------------------------------------------------------------------------- Bayes actions


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [1, 2, 5, 40])
def test_bayes_action_of_the_square_loss_is_the_mean(seed, k):
    rng = np.random.default_rng(seed)
    values, probs = random_distribution(rng, k)
    scale = max(1.0, np.abs(values).max())
    assert abs(bayes_action(values, probs, "square") - np.average(values, weights=probs)) <= 1e-7 * scale


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("size", [1, 2, 3, 4, 9, 10, 51, 100])
def test_bayes_action_of_the_absolute_loss_is_numpys_median(seed, size):
    # integer samples: repeated values, and even sizes whose median is the midpoint of an interval of minimisers
    sample = np.random.default_rng(seed).integers(-6, 7, size=size)
    assert bayes_action(*sample_distribution(sample), "absolute") == np.median(sample)


@pytest.mark.parametrize("seed", SEEDS)
def test_bayes_action_of_the_absolute_loss_is_a_weighted_median(seed):
    rng = np.random.default_rng(seed)
    values, probs = random_distribution(rng, 15)
    order = np.argsort(values)
    cdf = np.cumsum(probs[order])
    reference = values[order][np.searchsorted(cdf, 0.5)]      # P(Y < m) <= 1/2 <= P(Y <= m), unique here
    assert bayes_action(values, probs, "absolute") == reference


@pytest.mark.parametrize("seed", SEEDS)
def test_bayes_action_of_the_zero_one_loss_is_numpys_argmax_with_ties(seed):
    rng = np.random.default_rng(seed)
    for _ in range(30):
        counts = np.bincount(rng.integers(0, 5, size=int(rng.integers(1, 12))), minlength=5)   # many ties
        assert bayes_action(np.arange(5), counts / counts.sum(), "zero_one") == np.argmax(counts)
    # unsorted values: among tied modes, the smallest
    assert bayes_action([3.0, -1.0, 7.0, 2.0], [0.3, 0.3, 0.1, 0.3], "zero_one") == -1.0


def test_bayes_action_merges_repeated_values_and_ignores_zero_probabilities():
    # value 1 appears twice: total 0.5 beats 0.4
    assert bayes_action([1.0, 2.0, 1.0, 3.0], [0.25, 0.4, 0.25, 0.1], "zero_one") == 1.0
    assert bayes_action([0.0, 5.0, 100.0], [0.5, 0.5, 0.0], "absolute") == 2.5
    assert bayes_action([4.0], [1.0], "square") == 4.0


@pytest.mark.parametrize("seed", SEEDS)
def test_bayes_action_minimises_the_expected_loss_of_any_loss(seed):
    rng = np.random.default_rng(seed)
    values, probs = random_distribution(rng, 8)
    pinball = lambda a, y: np.maximum(0.9 * (y - a), -0.1 * (y - a))
    huber = lambda a, y: np.where(np.abs(a - y) <= 1.0, 0.5 * (a - y) ** 2, np.abs(a - y) - 0.5)
    grid = np.linspace(values.min() - 1, values.max() + 1, 2001)
    for loss in ["square", "absolute", "zero_one", pinball, huber]:
        best = expected_loss(bayes_action(values, probs, loss), values, probs, loss)
        assert best <= expected_loss(grid, values, probs, loss).min() + 1e-9
        assert best <= expected_loss(values, values, probs, loss).min() + 1e-12


def test_bayes_action_of_the_pinball_loss_is_a_quantile():
    values, probs = np.array([0.0, 1.0, 2.0, 5.0, 9.0]), np.array([0.1, 0.3, 0.2, 0.25, 0.15])
    for tau, quantile in [(0.05, 0.0), (0.3, 1.0), (0.5, 2.0), (0.7, 5.0), (0.9, 9.0)]:
        pinball = lambda a, y, tau=tau: np.maximum(tau * (y - a), (tau - 1) * (y - a))
        assert bayes_action(values, probs, pinball) == quantile


@pytest.mark.parametrize("seed", SEEDS)
def test_bayes_action_is_translation_equivariant(seed):
    rng = np.random.default_rng(seed)
    values, probs = random_distribution(rng, 6)
    for loss in ["square", "absolute"]:
        shifted = bayes_action(values + 10.0, probs, loss)
        assert shifted == pytest.approx(bayes_action(values, probs, loss) + 10.0, abs=1e-7 * max(1, abs(values).max()))


def test_bayes_action_rejects_bad_input():
    with pytest.raises(ValueError, match="values contains NaN"):
        bayes_action([1.0, np.nan], [0.5, 0.5], "square")
    with pytest.raises(ValueError, match="must be 1-D"):
        bayes_action([[1.0, 2.0]], [[0.5, 0.5]], "square")
    with pytest.raises(ValueError, match="probs must sum to 1"):
        bayes_action([1.0, 2.0], [0.5, 0.4], "square")
    with pytest.raises(ValueError, match="unknown loss"):
        bayes_action([1.0, 2.0], [0.5, 0.5], "squared")


# --------------------------------------------------------------------------- the basis and the known problem


def test_legendre_features_are_orthonormal_on_the_unit_interval():
    nodes, weights = np.polynomial.legendre.leggauss(40)
    x, w = (nodes + 1) / 2, weights / 2
    Phi = legendre_features(x, 12)
    np.testing.assert_allclose(Phi.T @ (w[:, None] * Phi), np.eye(13), atol=1e-12)
    t = np.linspace(0, 1, 7)
    np.testing.assert_allclose(legendre_features(t, 2),
                               np.column_stack([np.ones(7), np.sqrt(3) * (2 * t - 1), np.sqrt(5) * (6 * t**2 - 6 * t + 1)]),
                               atol=1e-14)
    assert legendre_features([0.3], 0).shape == (1, 1)


def test_legendre_features_reject_bad_input():
    with pytest.raises(ValueError, match="degree must be an integer >= 0"):
        legendre_features([0.5], -1)
    with pytest.raises(TypeError, match="degree must be an integer >= 0, got float 2.0"):
        legendre_features([0.5], 2.0)
    with pytest.raises(TypeError, match="degree must be an integer >= 0, got bool True"):
        legendre_features([0.5], True)
    assert legendre_features([0.5], np.int64(2)).shape == (1, 3)         # numpy integers are integers
    with pytest.raises(ValueError, match="must be 1-D"):
        legendre_features([[0.5]], 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_problem_risks_match_direct_integration(seed):
    rng = np.random.default_rng(seed)
    problem = RegressionProblem(noise=0.3)
    assert problem.bayes_risk == pytest.approx(0.09)
    assert problem.risk(lambda t: np.sin(2 * np.pi * t)) == pytest.approx(0.09, abs=1e-15)
    w = rng.normal(size=6)
    poly = lambda t: legendre_features(np.atleast_1d(t), 5) @ w
    by_quad = integrate.quad(lambda t: (poly(t)[0] - np.sin(2 * np.pi * t)) ** 2, 0, 1, epsabs=1e-13, epsrel=1e-13)[0]
    assert problem.risk(poly) == pytest.approx(0.09 + by_quad, rel=1e-11)
    assert problem.polynomial_risk(w) == pytest.approx(0.09 + by_quad, rel=1e-11)
    # vectorised over leading axes
    W = rng.normal(size=(3, 4, 6))
    np.testing.assert_allclose(problem.polynomial_risk(W), [[problem.polynomial_risk(wi) for wi in row] for row in W],
                               rtol=1e-13)


@pytest.mark.parametrize("seed", SEEDS)
def test_integrate_matches_quad_and_is_exact_for_polynomials(seed):
    rng = np.random.default_rng(seed)
    problem = RegressionProblem(noise=0.3, n_nodes=20)
    coef = rng.normal(size=40)                     # degree 39 = 2 n_nodes - 1: Gauss-Legendre is exact
    exact = np.sum(coef / np.arange(1, 41))        # int_0^1 sum_k a_k x^k dx
    assert problem.integrate(lambda t: np.polynomial.polynomial.polyval(t, coef)) == pytest.approx(exact, rel=1e-12)
    g = lambda t: np.exp(-t) * np.cos(3 * t + seed)
    assert problem.integrate(g) == pytest.approx(integrate.quad(g, 0, 1, epsabs=1e-14)[0], rel=1e-12)
    # the large-sample constant of the estimation error: sigma^2 (p + 1) when the model is right
    p = 4
    assert RegressionProblem(lambda t: t**3, noise=0.5).integrate(
        lambda t: 0.25 * np.sum(legendre_features(t, p) ** 2, axis=1)) == pytest.approx(0.25 * (p + 1), rel=1e-12)


def test_best_coefficients_are_the_projection_and_the_approximation_error_is_bessel():
    problem = RegressionProblem(np.exp, noise=0.5)
    c = problem.best_coefficients(6)
    for k in range(7):
        reference = integrate.quad(lambda t: np.exp(t) * legendre_features([t], k)[0, k], 0, 1, epsabs=1e-13)[0]
        assert c[k] == pytest.approx(reference, abs=1e-11)
    norm_f = integrate.quad(lambda t: np.exp(2 * t), 0, 1)[0]
    approximation = np.array([problem.approximation_error(p) for p in range(7)])
    np.testing.assert_allclose(approximation, norm_f - np.cumsum(c**2), atol=1e-12)
    assert (approximation >= 0).all() and (np.diff(approximation) < 0).all()   # no symmetry: strictly decreasing


def test_polynomial_target_has_zero_approximation_error_from_its_degree_on():
    problem = RegressionProblem(lambda t: 1 - 3 * t + 2 * t**3, noise=1.0)
    assert problem.approximation_error(2) > 1e-3
    for p in (3, 4, 8):
        assert problem.approximation_error(p) <= 1e-28


def test_sample_follows_the_model():
    problem = RegressionProblem(lambda t: 2 * t, noise=0.5)
    x, y = problem.sample(200_000, random_state=0)
    assert x.min() >= 0 and x.max() <= 1
    residual = y - 2 * x
    assert abs(residual.mean()) < 5 * 0.5 / np.sqrt(len(x))
    assert residual.std() == pytest.approx(0.5, rel=0.01)
    x2, y2 = problem.sample(5, random_state=0)
    np.testing.assert_array_equal(x2, problem.sample(5, random_state=0)[0])


def test_problem_rejects_bad_input():
    with pytest.raises(ValueError, match="noise must be > 0"):
        RegressionProblem(noise=0.0)
    with pytest.raises(TypeError, match="target must be a callable"):
        RegressionProblem(target=3.0)
    with pytest.raises(ValueError, match="target\\(x\\) must return finite values"):
        RegressionProblem(target=lambda t: np.full_like(t, np.inf))
    with pytest.raises(ValueError, match="n_nodes must be an integer >= 2"):
        RegressionProblem(n_nodes=1)
    problem = RegressionProblem()
    with pytest.raises(ValueError, match="n_samples must be an integer >= 1"):
        problem.sample(0)
    with pytest.raises(TypeError, match="n_samples must be an integer >= 1, got float"):
        problem.sample(10.0)
    with pytest.raises(TypeError, match="n_nodes must be an integer"):
        RegressionProblem(n_nodes="100")
    with pytest.raises(ValueError, match="func\\(x\\) must return finite values"):
        problem.integrate(lambda t: np.full_like(t, np.nan))
    with pytest.raises(ValueError, match="predict\\(x\\) must return finite values"):
        problem.risk(lambda t: np.ones(3))
    with pytest.raises(ValueError, match="coef must be a finite array"):
        problem.polynomial_risk([1.0, np.nan])


# --------------------------------------------------------------------------- fits and the decomposition


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("degree", [0, 1, 4])
def test_fit_polynomial_is_least_squares(seed, degree):
    x, y = RegressionProblem().sample(40, random_state=seed)
    w = fit_polynomial(x, y, degree)
    t = np.linspace(0, 1, 11)
    np.testing.assert_allclose(legendre_features(t, degree) @ w, np.polyval(np.polyfit(x, y, degree), t), atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_fit_polynomial_by_gradient_descent(seed):
    x, y = RegressionProblem().sample(30, random_state=seed)
    Phi = legendre_features(x, 3)
    L = 2 / 30 * np.linalg.eigvalsh(Phi.T @ Phi)[-1]
    # one step from 0: w = -(1/L) grad(0) = (1/L) (2/n) Phi^T y
    np.testing.assert_allclose(fit_polynomial(x, y, 3, n_iter=1), (2 / 30) * Phi.T @ y / L, rtol=1e-12)
    np.testing.assert_allclose(fit_polynomial(x, y, 3, n_iter=500), fit_polynomial(x, y, 3), atol=1e-8)
    with pytest.raises(ValueError, match="n_iter must be an integer >= 1"):
        fit_polynomial(x, y, 3, n_iter=0)
    with pytest.raises(ValueError, match="y has 29 entries but X has 30 samples"):
        fit_polynomial(x, y[:-1], 3)


def test_excess_risk_decomposition_components():
    problem = RegressionProblem(noise=0.3)
    result = excess_risk_decomposition(problem, [0, 1, 2, 3, 6], [15, 40], n_repeats=6, n_iter=25, random_state=4)
    assert isinstance(result, ExcessRiskDecomposition)
    assert result.estimation.shape == result.optimisation.shape == (5, 2, 6)
    np.testing.assert_array_equal(result.degrees, [0, 1, 2, 3, 6])
    np.testing.assert_array_equal(result.n_samples, [15, 40])
    assert result.bayes_risk == pytest.approx(0.09)
    assert (result.approximation >= 0).all() and (np.diff(result.approximation) <= 1e-15).all()
    assert (result.estimation >= 0).all()
    assert (result.optimisation < 0).any() or (result.optimisation > 0).any()
    np.testing.assert_allclose(result.excess, result.approximation[:, None, None] + result.estimation + result.optimisation,
                               rtol=1e-12)
    # the components are risk differences of the actual fits (same nested samples as the function draws)
    rng = np.random.default_rng(4)
    x, y = problem.sample(40, rng)
    w_hat, w_tilde = fit_polynomial(x[:15], y[:15], 3), fit_polynomial(x[:15], y[:15], 3, n_iter=25)
    R_F = problem.bayes_risk + problem.approximation_error(3)
    assert result.estimation[3, 0, 0] == pytest.approx(problem.polynomial_risk(w_hat) - R_F, rel=1e-9, abs=1e-14)
    assert result.optimisation[3, 0, 0] == pytest.approx(problem.polynomial_risk(w_tilde) - problem.polynomial_risk(w_hat),
                                                         rel=1e-9, abs=1e-14)
    assert result.excess[3, 0, 0] == pytest.approx(problem.polynomial_risk(w_tilde) - problem.bayes_risk, rel=1e-12)


def test_excess_risk_decomposition_is_seeded_and_skips_optimisation_by_default():
    problem = RegressionProblem()
    a = excess_risk_decomposition(problem, [2], [20], n_repeats=3, random_state=1)
    b = excess_risk_decomposition(problem, [2], [20], n_repeats=3, random_state=1)
    c = excess_risk_decomposition(problem, [2], [20], n_repeats=3, random_state=2)
    np.testing.assert_array_equal(a.estimation, b.estimation)
    assert not np.array_equal(a.estimation, c.estimation)
    assert a.optimisation is None
    np.testing.assert_allclose(a.excess, a.approximation[:, None, None] + a.estimation, rtol=1e-15)


def test_estimation_error_of_the_mean_is_variance_over_n():
    # degree 0: the estimation error is (ybar - E Y)^2, with expectation Var(Y)/n = (1/2 + sigma^2)/n
    problem = RegressionProblem(noise=0.3)
    result = excess_risk_decomposition(problem, [0], [20], n_repeats=1500, random_state=0)
    errors = result.estimation[0, 0]
    assert abs(errors.mean() - 0.59 / 20) <= 5 * errors.std() / np.sqrt(errors.size)


def test_excess_risk_decomposition_rejects_bad_input():
    problem = RegressionProblem()
    with pytest.raises(TypeError, match="problem must be a RegressionProblem"):
        excess_risk_decomposition("sine", [1], [10])
    with pytest.raises(ValueError, match="each degree must be an integer >= 0"):
        excess_risk_decomposition(problem, [-1], [10])
    with pytest.raises(ValueError, match="each sample size must be an integer >= 1"):
        excess_risk_decomposition(problem, [1], [0])
    with pytest.raises(ValueError, match="n_repeats must be an integer >= 1"):
        excess_risk_decomposition(problem, [1], [10], n_repeats=0)
    with pytest.raises(TypeError, match="each degree must be an integer >= 0, got float"):
        excess_risk_decomposition(problem, [1.5], [10])
    with pytest.raises(TypeError, match="n_repeats must be an integer >= 1, got bool"):
        excess_risk_decomposition(problem, [1], [10], n_repeats=True)


# --------------------------------------------------------------------------- the chapter's widget


def test_excess_risk_drawing_and_widget():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mlnotes.widgets import draw_excess_risk, excess_risk_demo

    problem = RegressionProblem(noise=0.3)
    fig, axes = plt.subplots(1, 2)
    parts = draw_excess_risk(axes, 3, 50, problem=problem, n_repeats=4)
    assert parts["approximation"] == pytest.approx(problem.approximation_error(3), rel=1e-14)
    x, y = problem.sample(1000, 0)
    w_hat = fit_polynomial(x[:50], y[:50], 3)
    assert parts["estimation"] == pytest.approx(np.sum((w_hat - problem.best_coefficients(3)) ** 2), rel=1e-12)
    assert parts["excess"] == pytest.approx(parts["approximation"] + parts["estimation"], rel=1e-14)
    fresh = excess_risk_decomposition(problem, [3], [50], n_repeats=4, random_state=1).estimation.ravel()
    assert (parts["median_estimation"], parts["mean_estimation"], parts["max_estimation"]) == pytest.approx(
        (np.median(fresh), fresh.mean(), fresh.max()), rel=1e-14)
    assert len(axes[0].lines) == 3
    plt.close(fig)
    demo = excess_risk_demo(problem)
    assert [c.description for c in demo.children[:2]] == ["n", "degree"]
    plt.close("all")
    with pytest.raises(TypeError, match="problem must be a mlnotes.risk.RegressionProblem"):
        excess_risk_demo("sine")


@pytest.mark.parametrize("loss, expected", [("square", 1.4), ("absolute", 2.0), ("zero_one", 2.0)])
def test_float32_probabilities_are_accepted(loss, expected):
    # issue 11: float32 probabilities (which sum to 1 only to float32 precision) were rejected
    values = np.array([0.0, 1.0, 2.0])
    probs = np.array([0.2, 0.2, 0.6], dtype=np.float32)
    assert bayes_action(values, probs, loss) == pytest.approx(expected, abs=1e-5)
    np.testing.assert_allclose(expected_loss([0.0, 2.0], values, probs, loss),
                               expected_loss([0.0, 2.0], values, [0.2, 0.2, 0.6], loss), rtol=1e-6)
    with pytest.raises(ValueError, match="probs must sum to 1"):
        bayes_action(values, np.array([0.2, 0.2, 0.59], dtype=np.float32), loss)
