"""Numerical tests of :mod:`mlnotes.stats` against scipy.stats, explicit-inverse formulas and
high-precision references.

Tolerances (stated per test): log-densities agree with ``scipy.stats.multivariate_normal`` to a
relative 1e-10 for condition numbers up to 1e6; beyond that, where every double-precision method
loses about ``kappa * eps`` digits, against a 50-digit mpmath reference to ``10 * kappa * eps``.
Means and covariances agree with independent routes (the precision-matrix formulas with
``np.linalg.inv``, scipy's log-densities of the joint and the marginal) to ``assert_close``'s
1e-9 relative to the largest entry; linear-Gaussian posteriors with an ill-conditioned prior
agree with a 50-digit mpmath reference to 1e-12. All data come from seeded
``np.random.default_rng``.
"""

import mpmath
import numpy as np
import pytest
from scipy import integrate, stats

from mlnotes.stats import (
    covariance_cholesky,
    gaussian_condition,
    gaussian_marginal,
    gaussian_product,
    hoeffding_bound,
    hoeffding_sample_size,
    linear_gaussian_marginal,
    linear_gaussian_posterior,
    mvn_logpdf,
)
from assertions import close_within

SEEDS = [0, 1, 2]
DIMS = [1, 2, 5, 20]
EPS = np.finfo(float).eps


# --------------------------------------------------------------------------- helpers


assert_close = close_within(1e-9)


def random_gaussian(seed, d, cond=None):
    """A seeded mean and SPD covariance; with ``cond``, eigenvalues log-spaced from 1 to 1/cond
    in a random orthonormal basis (so the condition number is ``cond``)."""
    rng = np.random.default_rng(seed)
    mean = rng.uniform(-3, 3, d)
    if cond is None:
        M = rng.standard_normal((d, d))
        cov = M @ M.T + 0.5 * np.eye(d)
    else:
        Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
        cov = (Q * np.logspace(0, -np.log10(cond), d)) @ Q.T
    return mean, (cov + cov.T) / 2


def samples(seed, mean, cov, n=40):
    """Points drawn from N(mean, cov) (typical points, where the log-density matters)."""
    rng = np.random.default_rng(seed + 100)
    w, V = np.linalg.eigh(cov)
    return mean + rng.standard_normal((n, len(mean))) @ (V * np.sqrt(np.clip(w, 0, None))).T


def precision_condition(mean, cov, given, x_given):
    """Conditional by the precision-matrix formulas (explicit inverse): Lambda_11^{-1} and
    mu_1 - Lambda_11^{-1} Lambda_12 (x_2 - mu_2)."""
    keep = np.setdiff1d(np.arange(len(mean)), given)
    Lam = np.linalg.inv(cov)
    L11, L12 = Lam[np.ix_(keep, keep)], Lam[np.ix_(keep, given)]
    cov_c = np.linalg.inv(L11)
    return mean[keep] - cov_c @ L12 @ (x_given - mean[given]), cov_c


def mpmath_logpdf(X, mean, cov, digits=50):
    """A 50-digit reference log-density (explicit inverse and determinant in mpmath)."""
    with mpmath.workdps(digits):
        S = mpmath.matrix(cov.tolist())
        inv, log_det = S**-1, mpmath.log(mpmath.det(S))
        out = []
        for x in X:
            v = mpmath.matrix((x - mean).tolist())
            q = (v.T * inv * v)[0]
            out.append(float(-len(mean) * mpmath.log(2 * mpmath.pi) / 2 - log_det / 2 - q / 2))
    return np.array(out)


# --------------------------------------------------------------------------- mvn_logpdf


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d", DIMS)
def test_mvn_logpdf_matches_scipy(seed, d):
    mean, cov = random_gaussian(seed, d)
    X = samples(seed, mean, cov)
    expected = stats.multivariate_normal(mean, cov).logpdf(X)
    np.testing.assert_allclose(mvn_logpdf(X, mean, cov), expected, rtol=1e-10, atol=0)


@pytest.mark.parametrize("seed", SEEDS)
def test_mvn_logpdf_single_point_returns_a_float(seed):
    mean, cov = random_gaussian(seed, 3)
    x = samples(seed, mean, cov, n=1)[0]
    value = mvn_logpdf(x, mean, cov)
    assert isinstance(value, float)
    np.testing.assert_allclose(value, stats.multivariate_normal(mean, cov).logpdf(x), rtol=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
def test_mvn_logpdf_one_dimensional_is_the_normal_logpdf(seed):
    rng = np.random.default_rng(seed)
    mu, sigma = rng.uniform(-2, 2), rng.uniform(0.1, 3)
    x = rng.normal(mu, 3 * sigma, size=25)
    expected = stats.norm(mu, sigma).logpdf(x)
    np.testing.assert_allclose(mvn_logpdf(x[:, None], [mu], [[sigma**2]]), expected, rtol=1e-12)
    np.testing.assert_allclose(mvn_logpdf([x[0]], mu, [[sigma**2]]), expected[0], rtol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_mvn_logpdf_ill_conditioned_matches_scipy(seed):
    mean, cov = random_gaussian(seed, 6, cond=1e6)
    X = samples(seed, mean, cov)
    expected = stats.multivariate_normal(mean, cov).logpdf(X)
    np.testing.assert_allclose(mvn_logpdf(X, mean, cov), expected, rtol=1e-10, atol=0)


@pytest.mark.parametrize("cond", [1e8, 1e10])
def test_mvn_logpdf_very_ill_conditioned_is_accurate(cond):
    """Beyond scipy's cut-off (it refuses cond > ~5e9 as singular) the Cholesky route still
    agrees with a 50-digit reference to within the conditioning bound 10 * kappa * eps."""
    mean, cov = random_gaussian(3, 4, cond=cond)
    X = samples(3, mean, cov, n=8)
    reference = mpmath_logpdf(X, mean, cov)
    np.testing.assert_allclose(mvn_logpdf(X, mean, cov), reference, rtol=10 * cond * EPS, atol=0)


def test_mvn_logpdf_far_from_the_mean_does_not_underflow():
    mean, cov = random_gaussian(0, 3)
    X = mean + np.array([[1e3, -1e3, 5e2], [40.0, 0.0, 0.0]])
    ours = mvn_logpdf(X, mean, cov)
    assert np.all(np.isfinite(ours))
    np.testing.assert_allclose(ours, stats.multivariate_normal(mean, cov).logpdf(X), rtol=1e-10)


def test_mvn_density_integrates_to_one_in_2d():
    # a 200 x 200 Gauss-Legendre product rule on [-10, 10]^2 (exact to about 1e-14 for this analytic density,
    # whose mass outside the square is below 1e-20), on all the nodes in one vectorised call; scipy's
    # adaptive dblquad gave the same total point by point at forty times the cost
    mean, cov = np.array([0.3, -0.2]), np.array([[1.0, 0.6], [0.6, 0.8]])
    t, weights = np.polynomial.legendre.leggauss(200)
    x, w = 10.0 * t, 10.0 * weights
    nodes = np.column_stack([np.repeat(x, len(x)), np.tile(x, len(x))])
    total = np.outer(w, w).ravel() @ np.exp(mvn_logpdf(nodes, mean, cov))
    assert abs(total - 1) < 1e-8


BAD_COVARIANCES = [
    (np.ones((2, 3)), "square"),
    (np.array([[1.0, 0.5], [0.4, 1.0]]), "symmetric"),
    (np.array([[1.0, 2.0], [2.0, 1.0]]), "positive definite"),            # eigenvalues 3, -1
    (np.array([[1.0, 1.0], [1.0, 1.0]]), "positive definite"),            # singular
    (np.array([[1.0, np.nan], [np.nan, 1.0]]), "NaN"),
    (np.array([[np.inf, 0.0], [0.0, 1.0]]), "infinity"),
    (np.array([1.0, 2.0]), "2-D"),
    (np.zeros((0, 0)), "empty"),
]


@pytest.mark.parametrize("cov, message", BAD_COVARIANCES)
def test_bad_covariances_are_refused_by_every_function(cov, message):
    mean = np.zeros(2)
    with pytest.raises(ValueError, match=message):
        mvn_logpdf(mean, mean, cov)
    with pytest.raises(ValueError, match=message):
        gaussian_marginal(mean, cov, 0)
    with pytest.raises(ValueError, match=message):
        gaussian_condition(mean, cov, 1, 0.0)
    with pytest.raises(ValueError, match=message):
        gaussian_product(mean, cov, mean, np.eye(2))
    with pytest.raises(ValueError, match=message):
        linear_gaussian_marginal(mean, cov, np.eye(2), np.eye(2))


def test_covariance_none_is_a_type_error():
    with pytest.raises(TypeError, match="cov"):
        mvn_logpdf([0.0], [0.0], None)


def test_none_is_a_type_error_for_every_argument():
    """A missing argument is a TypeError everywhere (a wrong value is a ValueError)."""
    mean, cov = np.zeros(2), np.eye(2)
    calls = [
        (lambda: mvn_logpdf(None, mean, cov), "X"),
        (lambda: mvn_logpdf(mean, None, cov), "mean"),
        (lambda: gaussian_marginal(mean, cov, None), "idx"),
        (lambda: gaussian_condition(mean, cov, None, [0.0]), "idx_given"),
        (lambda: gaussian_condition(mean, cov, [1], None), "x_given"),
        (lambda: gaussian_product(mean, cov, None, cov), "mean_b"),
        (lambda: linear_gaussian_marginal(mean, cov, None, cov), "A"),
        (lambda: linear_gaussian_marginal(mean, cov, np.eye(2), None), "noise_cov"),
        (lambda: linear_gaussian_posterior(mean, cov, np.eye(2), cov, None), "y"),
        (lambda: hoeffding_bound(5, None), "t"),
        (lambda: hoeffding_bound(None, 0.1), "n"),
        (lambda: hoeffding_sample_size(None, 0.1), "epsilon"),
    ]
    for call, name in calls:
        with pytest.raises(TypeError, match=name):
            call()


def test_non_numeric_points_are_a_type_error():
    with pytest.raises(TypeError, match="X must be numeric"):
        mvn_logpdf(["a", "b"], np.zeros(2), np.eye(2))
    with pytest.raises(TypeError, match="t must be numeric"):
        hoeffding_bound(5, "0.1x")


@pytest.mark.parametrize("seed", SEEDS)
def test_mvn_logpdf_accepts_a_number_as_a_point_when_d_is_1(seed):
    """Like the mean, a point of a 1-D Gaussian may be a plain number; the result is a float."""
    rng = np.random.default_rng(seed)
    mu, sigma, x = rng.uniform(-2, 2), rng.uniform(0.1, 3), rng.normal()
    value = mvn_logpdf(x, mu, [[sigma**2]])
    assert isinstance(value, float)
    np.testing.assert_allclose(value, stats.norm(mu, sigma).logpdf(x), rtol=1e-12)
    assert value == mvn_logpdf([x], [mu], [[sigma**2]])
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):     # a number is not a point in 2-D
        mvn_logpdf(x, np.zeros(2), np.eye(2))


def test_covariance_cholesky_returns_the_factor():
    _, cov = random_gaussian(0, 4)
    S, L = covariance_cholesky(cov)
    assert_close(L @ L.T, cov)
    assert np.allclose(L, np.tril(L)) and np.all(np.diag(L) > 0)


def test_mvn_logpdf_bad_shapes_and_values():
    mean, cov = np.zeros(2), np.eye(2)
    with pytest.raises(ValueError, match="mean has 3 entries"):
        mvn_logpdf(np.zeros(2), np.zeros(3), cov)
    with pytest.raises(ValueError, match="X has 3 columns"):
        mvn_logpdf(np.zeros((4, 3)), mean, cov)
    with pytest.raises(ValueError, match="X has 3 entries"):
        mvn_logpdf(np.zeros(3), mean, cov)
    with pytest.raises(ValueError, match="shape"):
        mvn_logpdf(np.zeros((2, 2, 2)), mean, cov)
    with pytest.raises(ValueError, match="NaN"):
        mvn_logpdf([np.nan, 0.0], mean, cov)
    with pytest.raises(ValueError, match="NaN"):
        mvn_logpdf([0.0, 0.0], [np.nan, 0.0], cov)
    with pytest.raises(ValueError, match="X has 5 entries"):       # 1-D data must be (n, 1)
        mvn_logpdf(np.zeros(5), [0.0], [[1.0]])


# --------------------------------------------------------------------------- marginal


@pytest.mark.parametrize("seed", SEEDS)
def test_gaussian_marginal_is_the_sub_block(seed):
    mean, cov = random_gaussian(seed, 5)
    idx = [3, 0]
    m, S = gaussian_marginal(mean, cov, idx)
    assert_close(m, mean[idx])
    assert_close(S, cov[np.ix_(idx, idx)])
    m1, S1 = gaussian_marginal(mean, cov, 2)
    assert m1.shape == (1,) and S1.shape == (1, 1)


def test_gaussian_marginal_density_is_the_integral_of_the_joint():
    mean, cov = np.array([0.5, -1.0]), np.array([[1.2, -0.7], [-0.7, 0.9]])
    m, S = gaussian_marginal(mean, cov, [0])
    for x in [-1.0, 0.5, 2.0]:
        integral, _ = integrate.quad(lambda y: np.exp(mvn_logpdf([x, y], mean, cov)), -15, 15, epsabs=1e-13)
        np.testing.assert_allclose(integral, stats.norm(m[0], np.sqrt(S[0, 0])).pdf(x), rtol=1e-9)


# --------------------------------------------------------------------------- conditional

CONDITION_CASES = [(2, [1]), (3, [0]), (5, [4, 1]), (8, [0, 2, 3, 7]), (20, list(range(0, 20, 3)))]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d, given", CONDITION_CASES)
def test_gaussian_condition_matches_the_precision_formula(seed, d, given):
    mean, cov = random_gaussian(seed, d)
    x_given = np.random.default_rng(seed + 7).normal(size=len(given))
    m, S = gaussian_condition(mean, cov, given, x_given)
    m_ref, S_ref = precision_condition(mean, cov, np.array(given), x_given)
    assert_close(m, m_ref)
    assert_close(S, S_ref)
    np.testing.assert_array_equal(S, S.T)


@pytest.mark.parametrize("seed", SEEDS)
def test_gaussian_condition_is_joint_over_marginal(seed):
    """log p(x1 | x2) = log p(x1, x2) - log p(x2), all three densities from scipy."""
    mean, cov = random_gaussian(seed, 4)
    given, keep = np.array([2, 0]), np.array([1, 3])
    X = samples(seed, mean, cov, n=10)
    for x in X:
        m, S = gaussian_condition(mean, cov, given, x[given])
        joint = stats.multivariate_normal(mean, cov).logpdf(x)
        marginal = stats.multivariate_normal(mean[given], cov[np.ix_(given, given)]).logpdf(x[given])
        np.testing.assert_allclose(stats.multivariate_normal(m, S).logpdf(x[keep]), joint - marginal, rtol=1e-9)


def test_gaussian_condition_with_explicit_idx_selects_and_orders():
    mean, cov = random_gaussian(4, 5)
    m_all, S_all = gaussian_condition(mean, cov, [1], [0.3])            # keeps 0, 2, 3, 4
    m, S = gaussian_condition(mean, cov, [1], [0.3], idx=[4, 0])        # the marginal of the conditional
    assert_close(m, m_all[[3, 0]])
    assert_close(S, S_all[np.ix_([3, 0], [3, 0])])


def test_gaussian_condition_bivariate_closed_form():
    """mu_A + rho sigma_A (y0 - mu_B) / sigma_B and sigma_A^2 (1 - rho^2), the form of 004 L16."""
    for rho in [-0.9, 0.0, 0.5, 0.99]:
        sa, sb, mu = 1.5, 0.4, np.array([1.0, -2.0])
        cov = np.array([[sa**2, rho * sa * sb], [rho * sa * sb, sb**2]])
        m, S = gaussian_condition(mu, cov, 1, -1.7)
        assert_close(m, [mu[0] + rho * sa * (-1.7 - mu[1]) / sb])
        assert_close(S, [[sa**2 * (1 - rho**2)]])


def test_gaussian_condition_independent_block_is_unchanged():
    mean = np.array([1.0, 2.0, 3.0])
    cov = np.array([[2.0, 0.0, 0.0], [0.0, 1.0, 0.3], [0.0, 0.3, 1.0]])
    m, S = gaussian_condition(mean, cov, [1, 2], [5.0, -5.0], idx=[0])
    assert_close(m, [1.0])
    assert_close(S, [[2.0]])


def test_gaussian_condition_bad_indices_and_values():
    mean, cov = random_gaussian(0, 3)
    with pytest.raises(ValueError, match="overlap"):
        gaussian_condition(mean, cov, [0, 1], [0.0, 0.0], idx=[1, 2])
    with pytest.raises(ValueError, match="out of range"):
        gaussian_condition(mean, cov, [3], [0.0])
    with pytest.raises(ValueError, match="out of range"):
        gaussian_condition(mean, cov, [-1], [0.0])
    with pytest.raises(ValueError, match="repeated"):
        gaussian_condition(mean, cov, [1, 1], [0.0, 0.0])
    with pytest.raises(ValueError, match="empty"):
        gaussian_condition(mean, cov, [], [])
    with pytest.raises(ValueError, match="nothing is left"):
        gaussian_condition(mean, cov, [0, 1, 2], [0.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="integers"):
        gaussian_condition(mean, cov, [0.0], [0.0])
    with pytest.raises(TypeError, match="integers"):
        gaussian_condition(mean, cov, [True], [0.0])
    with pytest.raises(ValueError, match="x_given has 1 entries"):
        gaussian_condition(mean, cov, [0, 1], [0.0])
    with pytest.raises(ValueError, match="NaN"):
        gaussian_condition(mean, cov, [0], [np.nan])
    with pytest.raises(ValueError, match="out of range"):
        gaussian_marginal(mean, cov, [0, 5])


# --------------------------------------------------------------------------- product


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d", [1, 3, 6])
def test_gaussian_product_matches_the_precision_form(seed, d):
    a, A = random_gaussian(seed, d)
    b, B = random_gaussian(seed + 10, d)
    c, C, log_scale = gaussian_product(a, A, b, B)
    C_ref = np.linalg.inv(np.linalg.inv(A) + np.linalg.inv(B))
    assert_close(C, C_ref)
    assert_close(c, C_ref @ (np.linalg.solve(A, a) + np.linalg.solve(B, b)))
    np.testing.assert_allclose(log_scale, stats.multivariate_normal(b, A + B).logpdf(a), rtol=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
def test_gaussian_product_identity_holds_pointwise(seed):
    """log N(x|a,A) + log N(x|b,B) = log N(a|b,A+B) + log N(x|c,C), densities from scipy."""
    a, A = random_gaussian(seed, 3)
    b, B = random_gaussian(seed + 10, 3)
    c, C, log_scale = gaussian_product(a, A, b, B)
    X = samples(seed, c, C, n=15)
    lhs = stats.multivariate_normal(a, A).logpdf(X) + stats.multivariate_normal(b, B).logpdf(X)
    rhs = log_scale + stats.multivariate_normal(c, C).logpdf(X)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
def test_gaussian_product_one_dimensional_closed_form(seed):
    """In 1-D: C = AB/(A+B), c = (aB + bA)/(A+B), log-scale log N(a | b, A + B) (scipy)."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=2)
    A, B = rng.uniform(0.1, 4, size=2)
    c, C, log_scale = gaussian_product([a], [[A]], [b], [[B]])
    np.testing.assert_allclose([c[0], C[0, 0]], [(a * B + b * A) / (A + B), A * B / (A + B)], rtol=1e-12)
    np.testing.assert_allclose(log_scale, stats.norm(b, np.sqrt(A + B)).logpdf(a), rtol=1e-12)
    assert isinstance(log_scale, float)


def test_gaussian_product_dimension_mismatch():
    with pytest.raises(ValueError, match=r"cov_b must have shape \(2, 2\)"):
        gaussian_product(np.zeros(2), np.eye(2), np.zeros(3), np.eye(3))
    with pytest.raises(ValueError, match="mean_b has 3 entries"):
        gaussian_product(np.zeros(2), np.eye(2), np.zeros(3), np.eye(2))


# --------------------------------------------------------------------------- linear-Gaussian


def linear_model(seed, d, m):
    mean, cov = random_gaussian(seed, d)
    rng = np.random.default_rng(seed + 20)
    A = rng.standard_normal((m, d))
    _, R = random_gaussian(seed + 30, m)
    b = rng.normal(size=m)
    y = rng.normal(size=m)
    return mean, cov, A, R, b, y


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d, m", [(1, 1), (3, 2), (2, 5), (6, 6)])
def test_linear_gaussian_marginal_formula(seed, d, m):
    mean, cov, A, R, b, _ = linear_model(seed, d, m)
    my, Sy = linear_gaussian_marginal(mean, cov, A, R, b)
    assert_close(my, A @ mean + b)
    assert_close(Sy, A @ cov @ A.T + R)
    m0, _ = linear_gaussian_marginal(mean, cov, A, R)
    assert_close(m0, A @ mean)


def test_linear_gaussian_marginal_with_identity_is_the_convolution():
    """y = x + eps in 1-D: N(mu_X + mu_Y, sigma_X^2 + sigma_Y^2), compared with scipy's numerical
    convolution of the two densities."""
    mx, sx, my, sy = 0.7, 1.3, -2.0, 0.6
    m, S = linear_gaussian_marginal([mx], [[sx**2]], [[1.0]], [[sy**2]], b=[my])
    noise, prior = stats.norm(my, sy), stats.norm(mx, sx)          # frozen once, not at every quadrature point
    for z in [-3.0, -1.0, 0.5]:
        conv, _ = integrate.quad(lambda x: noise.pdf(z - x) * prior.pdf(x), -20, 20)
        np.testing.assert_allclose(stats.norm(m[0], np.sqrt(S[0, 0])).pdf(z), conv, rtol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d, m", [(1, 1), (3, 2), (2, 5), (6, 6)])
@pytest.mark.parametrize("method", ["auto", "covariance", "precision"])
def test_linear_gaussian_posterior_is_conditioning_the_joint(seed, d, m, method):
    mean, cov, A, R, b, y = linear_model(seed, d, m)
    joint_mean = np.concatenate([mean, A @ mean + b])
    joint_cov = np.block([[cov, cov @ A.T], [A @ cov, A @ cov @ A.T + R]])
    m_ref, S_ref = gaussian_condition(joint_mean, joint_cov, np.arange(d, d + m), y)
    m_post, S_post = linear_gaussian_posterior(mean, cov, A, R, y, b, method=method)
    assert_close(m_post, m_ref)
    assert_close(S_post, S_ref)


@pytest.mark.parametrize("seed", SEEDS)
def test_linear_gaussian_posterior_precision_form_explicit(seed):
    mean, cov, A, R, b, y = linear_model(seed, 3, 7)
    P = np.linalg.inv(cov) + A.T @ np.linalg.inv(R) @ A
    S_ref = np.linalg.inv(P)
    m_ref = S_ref @ (np.linalg.solve(cov, mean) + A.T @ np.linalg.solve(R, y - b))
    for method in ["covariance", "precision"]:
        m_post, S_post = linear_gaussian_posterior(mean, cov, A, R, y, b, method=method)
        assert_close(m_post, m_ref)
        assert_close(S_post, S_ref)


def mpmath_posterior(mean, cov, A, R, y, b, digits=50):
    """A 50-digit reference posterior (gain form, explicit inverse in mpmath)."""
    with mpmath.workdps(digits):
        S, Am, Rm = (mpmath.matrix(M.tolist()) for M in (cov, A, R))
        mu, ym, bm = (mpmath.matrix(v.tolist()) for v in (mean, y, b))
        K = S * Am.T * (Am * S * Am.T + Rm) ** -1
        m, C = mu + K * (ym - Am * mu - bm), S - K * Am * S
        return np.array(m.tolist(), dtype=float).ravel(), np.array(C.tolist(), dtype=float)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("method", ["covariance", "precision"])
def test_linear_gaussian_posterior_ill_conditioned_prior_is_accurate(seed, method):
    """With a prior of condition number 1e10, both methods agree with a 50-digit reference to
    1e-12 relative to the largest entry: neither forms an inverse of the prior covariance (an
    explicit Sigma^{-1} in the precision form loses about kappa * eps, here ~1e-7)."""
    mean, cov = random_gaussian(seed, 5, cond=1e10)
    rng = np.random.default_rng(seed + 40)
    A, b, y = rng.standard_normal((3, 5)), rng.normal(size=3), rng.normal(size=3)
    _, R = random_gaussian(seed + 50, 3)
    m_ref, S_ref = mpmath_posterior(mean, cov, A, R, y, b)
    m_post, S_post = linear_gaussian_posterior(mean, cov, A, R, y, b, method=method)
    assert_close(m_post, m_ref, tol=1e-12)
    np.testing.assert_allclose(S_post, S_ref, rtol=0, atol=1e-12 * np.abs(S_ref).max())


def test_linear_gaussian_bad_input():
    mean, cov, A, R, b, y = linear_model(0, 3, 2)
    with pytest.raises(ValueError, match="A has 2 columns"):
        linear_gaussian_marginal(mean, cov, A[:, :2], R)
    with pytest.raises(ValueError, match=r"noise_cov must have shape \(2, 2\)"):
        linear_gaussian_marginal(mean, cov, A, np.eye(3))
    with pytest.raises(ValueError, match="not positive definite"):
        linear_gaussian_marginal(mean, cov, A, -np.eye(2))
    with pytest.raises(ValueError, match="y has 3 entries"):
        linear_gaussian_posterior(mean, cov, A, R, np.zeros(3))
    with pytest.raises(ValueError, match="b has 3 entries"):
        linear_gaussian_posterior(mean, cov, A, R, y, np.zeros(3))
    with pytest.raises(ValueError, match="method"):
        linear_gaussian_posterior(mean, cov, A, R, y, method="inverse")
    with pytest.raises(ValueError, match="2-D"):
        linear_gaussian_marginal(mean, cov, np.ones(3), R)


# --------------------------------------------------------------------------- Hoeffding


@pytest.mark.parametrize("n", [1, 5, 20, 100, 500])
@pytest.mark.parametrize("p", [0.05, 0.3, 0.5])
def test_hoeffding_bound_dominates_the_exact_binomial_tail(n, p):
    """P(|K/n - p| >= t) from scipy.stats.binom never exceeds 2 exp(-2 n t^2)."""
    t = np.linspace(0.0, 0.6, 61)
    k = np.arange(n + 1)
    pmf = stats.binom(n, p).pmf(k)
    far = np.abs(k[None, :] / n - p) >= t[:, None] - 1e-12
    exact = far.astype(float) @ pmf
    assert np.all(exact <= hoeffding_bound(n, t) + 1e-12)
    np.testing.assert_allclose(hoeffding_bound(n, t), 2 * np.exp(-2 * n * t**2), rtol=1e-15)


def test_hoeffding_bound_scales_with_the_range_and_broadcasts():
    np.testing.assert_allclose(hoeffding_bound(10, 0.4, a=-1.0, b=1.0), 2 * np.exp(-2 * 10 * 0.16 / 4))
    out = hoeffding_bound(np.array([[1], [10]]), np.array([0.1, 0.2, 0.3]))
    assert out.shape == (2, 3)
    assert isinstance(hoeffding_bound(3, 0.1), float)


@pytest.mark.parametrize("epsilon, delta", [(0.05, 0.05), (0.1, 0.01), (0.01, 0.5), (0.3, 0.9)])
def test_hoeffding_sample_size_is_the_smallest_sufficient_n(epsilon, delta):
    n = hoeffding_sample_size(epsilon, delta)
    assert hoeffding_bound(n, epsilon) <= delta
    assert n == 1 or hoeffding_bound(n - 1, epsilon) > delta
    assert n == int(np.ceil(np.log(2 / delta) / (2 * epsilon**2)))


def test_hoeffding_bad_input():
    with pytest.raises(ValueError, match="n must be >= 1"):
        hoeffding_bound(0, 0.1)
    with pytest.raises(TypeError, match="integer"):
        hoeffding_bound(2.5, 0.1)
    with pytest.raises(ValueError, match="t must be >= 0"):
        hoeffding_bound(5, -0.1)
    with pytest.raises(ValueError, match="NaN"):
        hoeffding_bound(5, np.nan)
    with pytest.raises(ValueError, match="b > a"):
        hoeffding_bound(5, 0.1, a=1.0, b=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        hoeffding_sample_size(0.0, 0.1)
    with pytest.raises(ValueError, match="delta"):
        hoeffding_sample_size(0.1, 1.0)
    with pytest.raises(ValueError, match="delta"):
        hoeffding_sample_size(0.1, 0.0)


# --------------------------------------------------------------------------- widget


def test_draw_gaussian_condition_returns_the_conditional_and_validates():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlnotes.widgets import draw_gaussian_condition

    mean, cov = np.array([0.5, -1.0]), np.array([[1.0, 0.48], [0.48, 0.64]])
    fig, ax = plt.subplots()
    try:
        m_c, v_c = draw_gaussian_condition(ax, mean, cov, 0.2)
        m_ref, S_ref = precision_condition(mean, cov, np.array([1]), np.array([0.2]))
        np.testing.assert_allclose([m_c, v_c], [m_ref[0], S_ref[0, 0]], rtol=1e-12)
        with pytest.raises(ValueError, match=r"shape \(2, 2\)"):
            draw_gaussian_condition(ax, np.zeros(3), np.eye(3), 0.0)
        with pytest.raises(ValueError, match="positive definite"):
            draw_gaussian_condition(ax, mean, [[1.0, 2.0], [2.0, 1.0]], 0.0)
        with pytest.raises(TypeError, match="cov"):
            draw_gaussian_condition(ax, mean, None, 0.0)
    finally:
        plt.close(fig)


def test_linear_gaussian_posterior_auto_is_stable_with_few_precise_observations():
    # issue 11: with m <= d observations, "auto" took the covariance form, whose Sigma - K A Sigma lost the
    # posterior covariance (a negative eigenvalue, off by 65x) for prior variances 1e6..1e-6 and noise 1e-12
    d, m = 6, 3
    rng = np.random.default_rng(0)
    cov = np.diag(np.logspace(6, -6, d))
    A = rng.normal(size=(m, d))
    R = 1e-12 * np.eye(m)
    y = rng.normal(size=m)
    mean_post, cov_post = linear_gaussian_posterior(np.zeros(d), cov, A, R, y)
    assert np.linalg.eigvalsh(cov_post).min() > 0
    # exact reference in 50-digit arithmetic: the precision form (Sigma^-1 + A^T R^-1 A)^-1
    mpmath.mp.dps = 50
    P = mpmath.matrix(np.diag(1 / np.diag(cov)).tolist()) + mpmath.matrix(A.T.tolist()) * mpmath.matrix(A.tolist()) * 1e12
    exact = P ** -1
    exact_mean = exact * (mpmath.matrix(A.T.tolist()) * mpmath.matrix(y.tolist()) * 1e12)
    exact = np.array(exact.tolist(), dtype=float)
    np.testing.assert_allclose(cov_post, exact, rtol=1e-6, atol=1e-8 * np.abs(exact).max())
    exact_mean = np.array(exact_mean.tolist(), dtype=float).ravel()
    # the mean solves a system of condition number ~1e18 (precision from 1e-6 to 1e12): only norm-wise accuracy
    assert np.linalg.norm(mean_post - exact_mean) <= 1e-4 * np.linalg.norm(exact_mean)
