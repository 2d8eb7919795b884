"""mlnotes.gp (chapter 17): parity with scikit-learn's GaussianProcessRegressor, the log marginal likelihood and its
gradient, the weight-space view, the predictive variance, errors."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.gaussian_process import GaussianProcessRegressor as SkGPR
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

from mlnotes.bayes import BayesianLinearRegression
from mlnotes.gp import (GaussianProcessRegressor, gp_cholesky, gp_inverse, gp_lml_gradient, gp_log_marginal_likelihood,
                        gp_predict, gp_variance_at_training_point, gp_weights)
from mlnotes.kernels import rbf_kernel
from mlnotes.stats import gaussian_condition
from mlnotes.utils import check_gradient

TOL = dict(rtol=1e-8, atol=1e-8)


def sk_kernel(amplitude, length_scale, noise_level=0.0, bounds=(1e-5, 1e5)):
    """scikit-learn's kernel for mlnotes' (amplitude, length_scale, noise_level): C * RBF (+ WhiteKernel)."""
    kernel = ConstantKernel(amplitude, bounds) * RBF(length_scale, bounds)
    return kernel + WhiteKernel(noise_level, bounds) if noise_level > 0 else kernel


def data(n=30, d=1, seed=0, noise=0.1):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, d))
    y = np.sin(X).sum(axis=1) + noise * rng.standard_normal(n)
    X_test = rng.uniform(-3.5, 3.5, (12, d))
    return X, y, X_test


def fit_pair(X, y, amplitude=1.7, length_scale=0.9, noise_level=0.0, alpha=1e-2, normalize_y=False):
    ours = GaussianProcessRegressor(amplitude=amplitude, length_scale=length_scale, noise_level=noise_level,
                                    alpha=alpha, optimizer=None, normalize_y=normalize_y).fit(X, y)
    theirs = SkGPR(sk_kernel(amplitude, length_scale, noise_level), alpha=alpha, optimizer=None,
                   normalize_y=normalize_y).fit(X, y)
    return ours, theirs


def assert_same_posterior(ours, theirs, X_test):
    mean, std = ours.predict(X_test, return_std=True)
    sk_mean, sk_std = theirs.predict(X_test, return_std=True)
    assert_allclose(mean, sk_mean, **TOL)
    assert_allclose(std, sk_std, **TOL)
    assert_allclose(ours.predict(X_test, return_cov=True)[1], theirs.predict(X_test, return_cov=True)[1], **TOL)
    assert_allclose(ours.predict(X_test), sk_mean, **TOL)
    assert_allclose(ours.log_marginal_likelihood(), theirs.log_marginal_likelihood_value_, **TOL)


# ------------------------------------------------------------------ parity at a fixed kernel
@pytest.mark.parametrize("normalize_y", [False, True])
@pytest.mark.parametrize("noise_level", [0.0, 0.05])
@pytest.mark.parametrize("d", [1, 3])
def test_fixed_kernel_parity_with_sklearn(normalize_y, noise_level, d):
    X, y, X_test = data(d=d)
    ours, theirs = fit_pair(X, y + 3.0, noise_level=noise_level, normalize_y=normalize_y)
    assert_same_posterior(ours, theirs, X_test)
    assert ours.hyperparameter_names_ == ["amplitude", "length_scale"] + (["noise_level"] if noise_level else [])
    assert_allclose(ours.theta_, theirs.kernel_.theta, rtol=0, atol=1e-15)


def test_noise_free_interpolation_parity_and_interpolates():
    X = np.linspace(-3, 3, 8)[:, None]
    y = np.sin(X[:, 0])
    ours, theirs = fit_pair(X, y, amplitude=1.0, length_scale=1.0, alpha=1e-10)
    assert_same_posterior(ours, theirs, np.linspace(-3.5, 3.5, 15)[:, None])
    mean, std = ours.predict(X, return_std=True)
    assert_allclose(mean, y, atol=1e-6)             # the mean passes through the data
    assert std.max() < 1e-4                         # and the band pinches to (almost) zero there


def test_duplicated_inputs_with_noise_parity():
    X, y, X_test = data(n=20, d=2)
    X = np.vstack([X, X[:5]])
    y = np.concatenate([y, y[:5] + 0.3])
    ours, theirs = fit_pair(X, y, alpha=0.1)
    assert_same_posterior(ours, theirs, X_test)
    ours, theirs = fit_pair(X, y, noise_level=0.2, alpha=1e-10)
    assert_same_posterior(ours, theirs, X_test)


def test_duplicated_inputs_without_noise_raise_a_clear_error():
    X, y, _ = data(n=10)
    X = np.vstack([X, X[:2]])
    y = np.concatenate([y, y[:2] + 1.0])
    with pytest.raises(ValueError, match="not positive definite.*Increase alpha"):
        GaussianProcessRegressor(alpha=0.0, optimizer=None).fit(X, y)


def test_per_sample_alpha_parity():
    X, y, X_test = data(n=15)
    alpha = np.linspace(0.01, 0.2, 15)
    ours = GaussianProcessRegressor(alpha=alpha, optimizer=None).fit(X, y)
    theirs = SkGPR(sk_kernel(1.0, 1.0), alpha=alpha, optimizer=None).fit(X, y)
    assert_same_posterior(ours, theirs, X_test)


# ------------------------------------------------------------------ the log marginal likelihood and its gradient
@pytest.mark.parametrize("noise_level", [0.0, 0.05])
@pytest.mark.parametrize("normalize_y", [False, True])
def test_lml_and_gradient_equal_sklearns_at_any_theta(noise_level, normalize_y):
    X, y, _ = data(d=2)
    ours, theirs = fit_pair(X, y, noise_level=noise_level, normalize_y=normalize_y)
    rng = np.random.default_rng(1)
    for theta in rng.uniform(-1.5, 1.0, (4, len(ours.theta_))):
        lml, grad = ours.log_marginal_likelihood(theta, eval_gradient=True)
        sk_lml, sk_grad = theirs.log_marginal_likelihood(theta, eval_gradient=True)
        assert_allclose(lml, sk_lml, **TOL)
        assert_allclose(grad, sk_grad, **TOL)
        assert lml == pytest.approx(ours.log_marginal_likelihood(theta), abs=1e-12)


@pytest.mark.parametrize("noise_level", [0.0, 0.05])
def test_lml_gradient_matches_central_differences(noise_level):
    X, y, _ = data(n=25, d=2)
    gp = GaussianProcessRegressor(noise_level=noise_level, alpha=1e-3, optimizer=None).fit(X, y)
    for theta in np.random.default_rng(2).uniform(-1.0, 1.0, (3, len(gp.theta_))):
        result = check_gradient(gp.log_marginal_likelihood, lambda t: gp.log_marginal_likelihood(t, True)[1],
                                theta, rtol=1e-6)
        assert result.passed, result.report()


def test_a_wrong_gradient_fails_the_finite_difference_check():
    # the check can fail: dropping the K^{-1} term of 1/2 tr((alpha alpha^T - K^{-1}) dK) is caught
    X, y, _ = data(n=20)
    gp = GaussianProcessRegressor(alpha=1e-2, optimizer=None).fit(X, y)
    theta = np.array([0.2, -0.3])

    def wrong_grad(t):
        values = dict(zip(gp.hyperparameter_names_, np.exp(t)))
        K0 = rbf_kernel(X, gamma=0.5 / values["length_scale"] ** 2)
        dK = [values["amplitude"] * K0]
        K = values["amplitude"] * K0
        alpha = np.linalg.solve(K + 1e-2 * np.eye(len(y)), y)
        return np.array([0.5 * alpha @ dK[0] @ alpha, 0.0])

    assert not check_gradient(gp.log_marginal_likelihood, wrong_grad, theta, rtol=1e-6).passed


def test_lml_formula_against_the_multivariate_normal_density():
    from scipy.stats import multivariate_normal

    X, y, _ = data(n=15, d=2)
    K = 1.3 * rbf_kernel(X, gamma=0.5 / 0.7 ** 2)
    L = gp_cholesky(K, 0.05)
    assert_allclose(gp_log_marginal_likelihood(L, y, gp_weights(L, y)),
                    multivariate_normal(np.zeros(len(y)), K + 0.05 * np.eye(len(y))).logpdf(y), rtol=1e-12)
    assert_allclose(gp_inverse(L), np.linalg.inv(K + 0.05 * np.eye(len(y))), rtol=1e-8, atol=1e-10)
    # the gradient function against a direct trace formula, with a diagonal derivative given as a vector
    K_inv = np.linalg.inv(K + 0.05 * np.eye(len(y)))
    a = K_inv @ y
    direct = 0.5 * np.trace((np.outer(a, a) - K_inv) @ K), 0.5 * np.trace((np.outer(a, a) - K_inv) * 0.05)
    assert_allclose(gp_lml_gradient(L, gp_weights(L, y), [K, np.full(len(y), 0.05)]), direct, rtol=1e-8)


# ------------------------------------------------------------------ hyperparameter optimisation
@pytest.mark.parametrize("noise_level", [0.0, 0.1])
@pytest.mark.parametrize("n_restarts", [0, 2])
def test_optimised_lml_at_least_sklearns(noise_level, n_restarts):
    X, y, _ = data(n=40, d=2, noise=0.2)
    ours = GaussianProcessRegressor(noise_level=noise_level, alpha=1e-2, n_restarts_optimizer=n_restarts,
                                    random_state=0).fit(X, y)
    theirs = SkGPR(sk_kernel(1.0, 1.0, noise_level), alpha=1e-2, n_restarts_optimizer=n_restarts,
                   random_state=0).fit(X, y)
    assert ours.log_marginal_likelihood_value_ >= theirs.log_marginal_likelihood_value_ - 1e-6
    # the optimum is a stationary point of the box-constrained problem: the gradient is ~0 inside the bounds
    lml, grad = ours.log_marginal_likelihood(eval_gradient=True)
    inside = (ours.theta_ > ours.bounds_[:, 0] + 1e-6) & (ours.theta_ < ours.bounds_[:, 1] - 1e-6)
    assert np.abs(grad[inside]).max() < 1e-3
    assert lml == pytest.approx(ours.log_marginal_likelihood_value_, abs=1e-10)
    # and it improves on the start
    start = GaussianProcessRegressor(noise_level=noise_level, alpha=1e-2, optimizer=None).fit(X, y)
    assert ours.log_marginal_likelihood_value_ > start.log_marginal_likelihood_value_


def test_fixed_bounds_keep_a_hyperparameter_and_match_sklearn():
    X, y, _ = data(n=30, noise=0.2)
    ours = GaussianProcessRegressor(amplitude=2.0, amplitude_bounds="fixed", alpha=0.04).fit(X, y)
    kernel = ConstantKernel(2.0, "fixed") * RBF(1.0, (1e-5, 1e5))
    theirs = SkGPR(kernel, alpha=0.04).fit(X, y)
    assert ours.hyperparameter_names_ == ["length_scale"]
    assert ours.amplitude_ == 2.0
    assert ours.log_marginal_likelihood_value_ >= theirs.log_marginal_likelihood_value_ - 1e-6
    assert ours.length_scale_ == pytest.approx(theirs.kernel_.k2.length_scale, rel=1e-4)


def test_restarts_are_seeded():
    X, y, _ = data(n=30, noise=0.3)
    fits = [GaussianProcessRegressor(noise_level=0.1, n_restarts_optimizer=3, random_state=7).fit(X, y)
            for _ in range(2)]
    assert_array_equal(fits[0].theta_, fits[1].theta_)


def test_hyperparameters_are_searched_by_the_library_solver_within_the_log_bounds(monkeypatch):
    # issue 11: optim is the only place where solvers live; the GP calls optim.minimize with bounds=
    import mlnotes.gp._regression as regression
    from mlnotes.optim import minimize

    calls = []

    def spy(*args, **kwargs):
        result = minimize(*args, **kwargs)
        calls.append((kwargs.get("bounds"), result))
        return result

    monkeypatch.setattr(regression, "minimize", spy)
    X, y, _ = data(n=20, noise=0.3)
    model = GaussianProcessRegressor(noise_level=0.1, length_scale_bounds=(0.5, 2.0), n_restarts_optimizer=1,
                                     random_state=0).fit(X, y)
    assert len(calls) == 2
    assert_allclose(calls[0][0], model.bounds_)
    assert_allclose(model.bounds_[model.hyperparameter_names_.index("length_scale")], np.log([0.5, 2.0]))
    assert all(result.converged for _, result in calls)
    assert np.all(model.theta_ >= model.bounds_[:, 0]) and np.all(model.theta_ <= model.bounds_[:, 1])


# ------------------------------------------------------------------ the math of the posterior
def test_posterior_is_gaussian_conditioning_of_the_joint():
    # [f(X*), y] is jointly Gaussian; conditioning on y (mlnotes.stats) gives the GP posterior
    X, y, X_test = data(n=12, d=2)
    gp = GaussianProcessRegressor(amplitude=1.5, length_scale=0.8, alpha=0.05, optimizer=None).fit(X, y)
    X_all = np.vstack([X_test, X])
    K_all = 1.5 * rbf_kernel(X_all, gamma=0.5 / 0.8 ** 2)
    m = len(X_test)
    K_all[m:, m:] += 0.05 * np.eye(len(X))
    mean, cov = gaussian_condition(np.zeros(len(X_all)), K_all, np.arange(m, len(X_all)), y)
    gp_mean, gp_cov = gp.predict(X_test, return_cov=True)
    assert_allclose(gp_mean, mean, rtol=1e-9, atol=1e-10)
    assert_allclose(gp_cov, cov, rtol=1e-9, atol=1e-10)


def test_gp_predict_function_mirrors_the_formulas():
    X, y, X_test = data(n=10, d=2)
    K = rbf_kernel(X, gamma=0.5)
    K_star = rbf_kernel(X_test, X, gamma=0.5)
    K_star_star = rbf_kernel(X_test, gamma=0.5)
    L = gp_cholesky(K, 0.1)
    alpha = gp_weights(L, y)
    K_y_inv = np.linalg.inv(K + 0.1 * np.eye(len(y)))
    mean, cov = gp_predict(L, alpha, K_star, K_star_star=K_star_star)
    assert_allclose(mean, K_star @ K_y_inv @ y, rtol=1e-10, atol=1e-12)
    assert_allclose(cov, K_star_star - K_star @ K_y_inv @ K_star.T, rtol=1e-10, atol=1e-12)
    _, var = gp_predict(L, alpha, K_star, K_star_star_diag=np.diag(K_star_star))
    assert_allclose(var, np.diag(cov), rtol=1e-12, atol=1e-14)


def test_variance_does_not_depend_on_y():
    X, y, X_test = data(n=20, d=2)
    y_other = np.random.default_rng(5).normal(10.0, 4.0, len(y))
    a = GaussianProcessRegressor(alpha=0.1, optimizer=None).fit(X, y)
    b = GaussianProcessRegressor(alpha=0.1, optimizer=None).fit(X, y_other)
    assert_array_equal(a.predict(X_test, return_std=True)[1], b.predict(X_test, return_std=True)[1])
    assert_array_equal(a.predict(X_test, return_cov=True)[1], b.predict(X_test, return_cov=True)[1])
    assert not np.allclose(a.predict(X_test), b.predict(X_test))   # the means do depend on y


@pytest.mark.parametrize("noise", [1e-2, 1e-3, 0.3])
def test_exact_variance_at_a_training_point(noise):
    X, y, _ = data(n=15, d=2)
    gp = GaussianProcessRegressor(amplitude=1.0, length_scale=1.2, alpha=noise, optimizer=None).fit(X, y)
    K = rbf_kernel(X, gamma=0.5 / 1.2 ** 2)
    var_f, var_y = gp_variance_at_training_point(K, noise)
    std = gp.predict(X, return_std=True)[1]
    assert_allclose(std ** 2, var_f, rtol=1e-7, atol=1e-12)
    # against the definition k(x_i, x_i) - k_i^T (K + s I)^{-1} k_i, computed independently
    direct = 1.0 - np.einsum("ij,ji->i", K, np.linalg.solve(K + noise * np.eye(len(y)), K))
    assert_allclose(var_f, direct, rtol=1e-6, atol=1e-12)
    assert np.all(var_y < 2 * noise)                          # the notes' 2 sigma^2 is an upper bound, not exact
    assert np.all(var_y > noise)


def test_variance_at_training_point_noise_free_limit():
    X = np.linspace(-2, 2, 6)[:, None]
    gp = GaussianProcessRegressor(alpha=1e-10, optimizer=None).fit(X, np.cos(X[:, 0]))
    K = rbf_kernel(X, gamma=0.5)
    var_f, _ = gp_variance_at_training_point(K, 1e-10)
    assert_allclose(gp.predict(X, return_std=True)[1] ** 2, var_f, rtol=0, atol=1e-12)
    assert var_f.max() < 1e-10


def test_weight_space_view_equals_function_space_view():
    # Bayesian linear regression on phi(x) with prior N(0, Sigma_p) is the GP with k = phi^T Sigma_p phi
    rng = np.random.default_rng(3)
    X = rng.uniform(-2, 2, (25, 1))
    y = 0.5 * X[:, 0] ** 2 - X[:, 0] + 0.2 * rng.standard_normal(25)
    X_test = rng.uniform(-2.5, 2.5, (9, 1))

    def phi(A):
        return np.hstack([np.ones((len(A), 1)), A, A ** 2, np.sin(A)])

    B = rng.standard_normal((4, 4))
    Sigma_p = B @ B.T + 0.5 * np.eye(4)
    noise_var = 0.04

    blr = BayesianLinearRegression(noise_var=noise_var, prior_cov=Sigma_p, fit_intercept=False).fit(phi(X), y)
    gp = GaussianProcessRegressor(kernel=lambda A, C: phi(A) @ Sigma_p @ phi(C).T, alpha=noise_var,
                                  optimizer=None).fit(X, y)
    blr_mean, blr_std = blr.predict(phi(X_test), return_std=True)
    gp_mean, gp_std = gp.predict(X_test, return_std=True)
    assert_allclose(gp_mean, blr_mean, rtol=1e-8, atol=1e-8)
    assert_allclose(gp_std ** 2 + noise_var, blr_std ** 2, rtol=1e-8, atol=1e-8)   # var y* = var f* + sigma^2
    assert gp.hyperparameter_names_ == ["amplitude"]


# ------------------------------------------------------------------ sampling
def test_sample_y_shape_seed_and_moments():
    X, y, X_test = data(n=10)
    gp = GaussianProcessRegressor(alpha=0.05, optimizer=None).fit(X, y)
    samples = gp.sample_y(X_test[:5], n_samples=20000, random_state=1)
    assert samples.shape == (5, 20000)
    assert_array_equal(samples, gp.sample_y(X_test[:5], n_samples=20000, random_state=1))
    mean, cov = gp.predict(X_test[:5], return_cov=True)
    se = np.sqrt(np.diag(cov) / 20000)
    assert np.all(np.abs(samples.mean(axis=1) - mean) < 5 * se + 1e-12)
    assert_allclose(np.cov(samples), cov, atol=0.05 * np.abs(cov).max())


def test_sample_y_of_an_interpolating_gp_pass_through_the_data():
    X = np.linspace(-2, 2, 5)[:, None]
    y = np.sin(X[:, 0])
    gp = GaussianProcessRegressor(alpha=1e-10, optimizer=None).fit(X, y)
    samples = gp.sample_y(X, n_samples=10, random_state=0)
    assert np.isfinite(samples).all()
    assert np.abs(samples - y[:, None]).max() < 1e-3


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_and_inf_are_rejected(bad):
    X, y, _ = data(n=10)
    X_bad = X.copy()
    X_bad[3, 0] = bad
    with pytest.raises(ValueError, match="NaN|infinity"):
        GaussianProcessRegressor().fit(X_bad, y)
    y_bad = y.copy()
    y_bad[2] = bad
    with pytest.raises(ValueError, match="NaN|infinity"):
        GaussianProcessRegressor().fit(X, y_bad)
    gp = GaussianProcessRegressor(optimizer=None).fit(X, y)
    with pytest.raises(ValueError, match="NaN|infinity"):
        gp.predict(X_bad)


@pytest.mark.parametrize("params, message", [
    ({"length_scale": 0.0}, "length_scale must be >= 1e-150"),
    ({"length_scale": -1.0}, "length_scale must be >= 1e-150"),
    ({"amplitude": 0.0}, "amplitude must be > 0"),
    ({"noise_level": -0.1}, "noise_level must be >= 0"),
    ({"alpha": -1e-3}, "alpha must be >= 0"),
    ({"alpha": np.array([0.1, 0.2])}, "alpha must be a number >= 0 or 10"),
    ({"length_scale_bounds": (1.0, 0.5)}, r"length_scale_bounds\[1\] must be >= 1.0"),
    ({"amplitude_bounds": (0.0, 1.0)}, r"amplitude_bounds\[0\] must be > 0"),
    ({"noise_level_bounds": "free"}, "noise_level_bounds must be one of"),
    ({"optimizer": "adam"}, "optimizer must be one of"),
    ({"kernel": "linear"}, "kernel must be one of"),
    ({"n_restarts_optimizer": -1}, "n_restarts_optimizer must be an integer >= 0"),
])
def test_bad_hyperparameters_raise_value_errors(params, message):
    X, y, _ = data(n=10)
    with pytest.raises(ValueError, match=message):
        GaussianProcessRegressor(**params).fit(X, y)


def test_type_errors():
    X, y, _ = data(n=10)
    with pytest.raises(TypeError, match="length_scale must be a real number"):
        GaussianProcessRegressor(length_scale="1").fit(X, y)
    with pytest.raises(TypeError, match="kernel must be 'rbf' or a callable"):
        GaussianProcessRegressor(kernel=3).fit(X, y)
    with pytest.raises(TypeError, match="normalize_y must be True or False"):
        GaussianProcessRegressor(normalize_y=1).fit(X, y)


def test_predict_before_fit_and_wrong_width():
    X, y, _ = data(n=10, d=2)
    gp = GaussianProcessRegressor()
    with pytest.raises(NotFittedError):
        gp.predict(X)
    with pytest.raises(NotFittedError):
        gp.log_marginal_likelihood()
    gp.fit(X, y)
    with pytest.raises(ValueError, match="features"):
        gp.predict(X[:, :1])
    with pytest.raises(ValueError, match="at most one of return_std and return_cov"):
        gp.predict(X, return_std=True, return_cov=True)
    with pytest.raises(ValueError, match="theta must hold 2 finite numbers"):
        gp.log_marginal_likelihood(np.zeros(3))


def test_a_callable_kernel_that_is_not_psd_is_rejected():
    X, y, _ = data(n=10)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        GaussianProcessRegressor(kernel=lambda A, B: -A @ B.T - 1.0, optimizer=None).fit(X, y)


def test_lml_is_minus_infinity_where_the_matrix_is_singular():
    X = np.vstack([np.zeros((2, 1)), np.ones((1, 1))])
    gp = GaussianProcessRegressor(alpha=0.5, optimizer=None).fit(X, np.array([0.0, 1.0, 2.0]))
    gp.set_params(alpha=0.0)   # alpha changed after fit: the duplicated rows make K singular
    assert gp.log_marginal_likelihood(gp.theta_) == -np.inf


# ------------------------------------------------------------------ active learning
def test_select_max_variance_needs_no_labels_and_variances_do_not_increase():
    from mlnotes.gp import select_max_variance

    X, y, _ = data(n=8, d=2)
    X_pool = np.random.default_rng(4).uniform(-3, 3, (40, 2))
    a = GaussianProcessRegressor(alpha=0.01, optimizer=None).fit(X, y)
    b = GaussianProcessRegressor(alpha=0.01, optimizer=None).fit(X, -3 * y + 7)
    chosen, max_std = select_max_variance(a, X_pool, n_queries=6)
    assert_array_equal(chosen, select_max_variance(b, X_pool, n_queries=6)[0])     # y plays no part
    assert len(set(chosen.tolist())) == 6
    assert chosen[0] == np.argmax(a.predict(X_pool, return_std=True)[1])
    assert np.all(np.diff(max_std) <= 1e-12)
    with pytest.raises(ValueError, match="n_queries must be an integer <= 40"):
        select_max_variance(a, X_pool, n_queries=41)
    with pytest.raises(ValueError, match="X_pool has 1 features"):
        select_max_variance(a, X_pool[:, :1])


@pytest.mark.parametrize("normalize_y", [False, True])
def test_select_max_variance_reports_the_standard_deviations_predict_reports(normalize_y):
    # each chosen point's standard deviation is in the units of the labels, as predict(return_std=True) gives
    # it: with normalize_y the standardised model's value times y_train_std_ (found by chapter 17)
    from mlnotes.gp import select_max_variance

    X, y, _ = data(n=8, d=1)
    X_pool = np.linspace(-4, 4, 50)[:, None]
    gp = GaussianProcessRegressor(length_scale=0.8, noise_level=0.05, alpha=0.01, optimizer=None,
                                  normalize_y=normalize_y).fit(X, 10 * y + 3)
    chosen, max_std = select_max_variance(gp, X_pool, n_queries=3)
    assert_allclose(max_std[0], gp.predict(X_pool, return_std=True)[1][chosen[0]], rtol=1e-12)
    # after the first choice: the model refitted with the chosen input added (any label) predicts the second
    refit = clone(gp).set_params(normalize_y=False).fit(np.vstack([X, X_pool[chosen[:1]]]), np.zeros(9))
    assert_allclose(max_std[1], gp.y_train_std_ * refit.predict(X_pool, return_std=True)[1][chosen[1]], rtol=1e-12)


@pytest.mark.parametrize("offset", [1e4, 1e6, 1e8])
def test_rbf_far_from_origin_is_shift_invariant(offset):
    """Review F20: distances from centred inputs; the expansion lost digits, then raised 'not positive definite'."""
    rng = np.random.default_rng(0)
    U = np.sort(rng.uniform(0, 5, (30, 1)), axis=0)
    y = np.sin(U[:, 0])
    Ut = np.linspace(0, 5, 7)[:, None]
    truth = GaussianProcessRegressor(optimizer=None, alpha=1e-6).fit(U, y)
    shifted = GaussianProcessRegressor(optimizer=None, alpha=1e-6).fit(U + offset, y)
    # scikit-learn's own error at these offsets: 9e-13, 5e-11, 7e-9 (the inputs are rounded to ulp(offset))
    tol = {1e4: 1e-11, 1e6: 1e-9, 1e8: 1e-7}[offset]
    assert np.abs(shifted.predict(Ut + offset) - truth.predict(Ut)).max() < tol
    assert abs(shifted.log_marginal_likelihood_value_ - truth.log_marginal_likelihood_value_) < 1e3 * tol


def test_callable_kernel_rounded_to_float32_is_accepted():
    """Review F23: the PSD tolerance is the library's PSD_TOL (1e-7), as SVC and KernelRidge use."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    y = X[:, 0] + 0.1 * rng.normal(size=300)
    exact = GaussianProcessRegressor(kernel=lambda A, B: rbf_kernel(A, B, gamma=0.01), optimizer=None,
                                     alpha=1e-2).fit(X, y)
    rounded = GaussianProcessRegressor(kernel=lambda A, B: rbf_kernel(A, B, gamma=0.01).astype(np.float32),
                                       optimizer=None, alpha=1e-2).fit(X, y)
    assert np.abs(rounded.predict(X[:20]) - exact.predict(X[:20])).max() < 1e-3


@pytest.mark.parametrize("params", [{"length_scale": 1e-160}, {"length_scale": 1e160},
                                    {"length_scale": 1e-3, "length_scale_bounds": (1e-300, 1e5)}])
def test_extreme_length_scale_is_rejected_by_name(params):
    """Review F15: l**2 under/overflowed: fit stored a NaN likelihood, predict complained about 'gamma'."""
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 5, (30, 1))
    with pytest.raises(ValueError, match="length_scale"):
        GaussianProcessRegressor(optimizer=None, alpha=1e-2, **params).fit(X, np.sin(X[:, 0]))


def test_length_scale_at_the_ends_of_its_range_fits_and_predicts():
    """Review F15: inside the range the likelihood is finite and predict runs."""
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 5, (30, 1))
    for length_scale in (1e-150, 1e150):
        gp = GaussianProcessRegressor(optimizer=None, alpha=1e-2, length_scale=length_scale).fit(X, np.sin(X[:, 0]))
        assert np.isfinite(gp.log_marginal_likelihood_value_)
        assert np.isfinite(gp.predict(X[:2], return_std=True)).all()


def _f9_setup():
    rng = np.random.default_rng(0)
    K = rbf_kernel(rng.normal(size=(6, 2)), gamma=0.5)
    y = rng.normal(size=6)
    L = gp_cholesky(K, 0.1)
    return K, y, L, gp_weights(L, y)


@pytest.mark.parametrize("call, match", [
    (lambda K, y, L, a: gp_cholesky(np.where(K > 0.9, np.nan, K), 0.1), "NaN|finite|inf"),
    (lambda K, y, L, a: gp_cholesky(K, np.nan), "^noise"),
    (lambda K, y, L, a: gp_cholesky(np.triu(K), 0.1), "symmetric|k\\(x, y\\)"),
    (lambda K, y, L, a: gp_cholesky(K, -0.5), "^noise must be >= 0"),
    (lambda K, y, L, a: gp_cholesky(K, np.ones(3)), "^noise"),
    (lambda K, y, L, a: gp_weights(L, np.full(6, np.nan)), "y"),
    (lambda K, y, L, a: gp_log_marginal_likelihood(L, y[:3], a[:3]), "y"),
    (lambda K, y, L, a: gp_log_marginal_likelihood(-L, y, a), "L"),
    (lambda K, y, L, a: gp_lml_gradient(L, a, [np.ones((3, 3))]), "dK"),
    (lambda K, y, L, a: gp_predict(L, a, np.ones((2, 5))), "K_star"),
    (lambda K, y, L, a: gp_predict(L, a, np.ones((2, 6)), K_star_star_diag=np.ones(3)), "K_star_star_diag"),
])
def test_building_blocks_validate_their_inputs(call, match):
    """Review F9: NaN in gave NaN out, an asymmetric K used one triangle, mismatched lengths gave a number."""
    with pytest.raises(ValueError, match=match):
        call(*_f9_setup())


def test_building_blocks_accept_lists():
    """Review F9: lists were rejected by numpy attribute errors; they are converted."""
    K, y, L, a = _f9_setup()
    assert_allclose(gp_cholesky(K.tolist(), 0.1), L)
    assert_allclose(gp_inverse(L.tolist()), np.linalg.inv(K + 0.1 * np.eye(6)), rtol=1e-10)
    assert_allclose(gp_variance_at_training_point(K.tolist(), 0.1)[0], gp_variance_at_training_point(K, 0.1)[0])
