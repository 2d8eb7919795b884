"""Bayesian linear regression and the conjugate pairs (beta-Bernoulli, gamma-Poisson, Gaussian mean):
agreement with the closed form, with scikit-learn's BayesianRidge at fixed precisions and with Ridge, with
prior x likelihood normalised by quadrature and with scipy.stats; sequential = batch; clear errors."""

import numpy as np
import pytest
import sklearn.linear_model as sk
from scipy import integrate, optimize, stats
from sklearn.datasets import load_diabetes

from mlnotes.bayes import BayesianLinearRegression, BetaBernoulli, GammaPoisson, GaussianMean, gaussian_posterior
from mlnotes.stats import linear_gaussian_posterior

X_DIAB, Y_DIAB = load_diabetes(return_X_y=True)


def pinned_bayesian_ridge(noise_var, prior_var):
    """scikit-learn's BayesianRidge with its precisions held (to ~1e-10) at 1/noise_var and 1/prior_var:
    Gamma hyperpriors so sharp that the evidence updates cannot move them.

    Chapter 11 defines the same four-line helper for its readers; it is kept in both places on purpose
    (a test helper around scikit-learn, not a library function)."""
    K = 1e16
    return sk.BayesianRidge(alpha_init=1 / noise_var, lambda_init=1 / prior_var, alpha_1=K / noise_var, alpha_2=K,
                            lambda_1=K / prior_var, lambda_2=K, max_iter=3)


@pytest.mark.parametrize("noise_var, prior_var", [(3000.0, 500.0), (1.0, 1.0), (100.0, 1e5)])
def test_agrees_with_pinned_bayesian_ridge_and_with_ridge(noise_var, prior_var):
    ours = BayesianLinearRegression(noise_var, prior_var).fit(X_DIAB, Y_DIAB)
    ref = pinned_bayesian_ridge(noise_var, prior_var).fit(X_DIAB, Y_DIAB)
    np.testing.assert_allclose(ref.alpha_ * noise_var, 1.0, rtol=1e-8)           # the pinning worked
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-6, atol=1e-6 * np.abs(ref.coef_).max())
    np.testing.assert_allclose(ours.sigma_, ref.sigma_, rtol=1e-6, atol=1e-9 * np.abs(ref.sigma_).max())
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-8)
    mean, std = ours.predict(X_DIAB, return_std=True)
    ref_mean, ref_std = ref.predict(X_DIAB, return_std=True)
    np.testing.assert_allclose(mean, ref_mean, rtol=1e-6)
    np.testing.assert_allclose(std, ref_std, rtol=1e-6)
    ridge = sk.Ridge(alpha=noise_var / prior_var).fit(X_DIAB, Y_DIAB)                # lambda = sigma^2 / sigma_p^2
    np.testing.assert_allclose(ours.coef_, ridge.coef_, rtol=1e-9, atol=1e-9 * np.abs(ridge.coef_).max())


def test_posterior_matches_the_closed_form_with_a_general_prior():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 3)), rng.normal(size=30)
    A = rng.normal(size=(3, 3))
    S0, m0, s2 = A @ A.T + np.eye(3), rng.normal(size=3), 0.7
    model = BayesianLinearRegression(s2, prior_mean=m0, prior_cov=S0, fit_intercept=False).fit(X, y)
    S_N = np.linalg.inv(np.linalg.inv(S0) + X.T @ X / s2)
    m_N = S_N @ (np.linalg.inv(S0) @ m0 + X.T @ y / s2)
    np.testing.assert_allclose(model.sigma_, S_N, rtol=1e-10)
    np.testing.assert_allclose(model.coef_, m_N, rtol=1e-10)
    np.testing.assert_allclose(gaussian_posterior(X, y, noise_var=s2, prior_mean=m0, prior_cov=S0)[0], m_N, rtol=1e-10)
    _, std = model.predict(X[:5], return_std=True)
    np.testing.assert_allclose(std**2, s2 + np.einsum("ij,jk,ik->i", X[:5], S_N, X[:5]), rtol=1e-10)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_sequential_updates_equal_the_batch_update(fit_intercept):
    t = np.random.default_rng(1).random(len(Y_DIAB)) + 0.5
    batch = BayesianLinearRegression(3000.0, 500.0, fit_intercept=fit_intercept).fit(X_DIAB, Y_DIAB, sample_weight=t)
    online = BayesianLinearRegression(3000.0, 500.0, fit_intercept=fit_intercept)
    for start in range(0, len(Y_DIAB), 37):
        online.partial_fit(X_DIAB[start:start + 37], Y_DIAB[start:start + 37], sample_weight=t[start:start + 37])
    np.testing.assert_allclose(online.coef_, batch.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(online.sigma_, batch.sigma_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(online.intercept_, batch.intercept_, rtol=1e-9)
    assert online.n_seen_ == len(Y_DIAB)


def test_integer_weights_equal_repeated_rows_and_refit_forgets():
    t = np.random.default_rng(2).integers(1, 4, size=len(Y_DIAB))
    weighted = BayesianLinearRegression(3000.0, 500.0).fit(X_DIAB, Y_DIAB, sample_weight=t.astype(float))
    repeated = BayesianLinearRegression(3000.0, 500.0).fit(np.repeat(X_DIAB, t, axis=0), np.repeat(Y_DIAB, t))
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-9)
    again = weighted.fit(X_DIAB, Y_DIAB)
    np.testing.assert_allclose(again.coef_, BayesianLinearRegression(3000.0, 500.0).fit(X_DIAB, Y_DIAB).coef_)


def test_posterior_samples_have_the_posterior_moments():
    model = BayesianLinearRegression(3000.0, 500.0).fit(X_DIAB[:, :3], Y_DIAB)
    W = model.sample_coef(200_000, random_state=0)
    np.testing.assert_allclose(W.mean(axis=0), model.coef_, atol=4 * np.sqrt(np.diag(model.sigma_) / 200_000).max())
    # sampling error of a covariance entry is about sqrt(S_ii S_jj / n); allow 5 standard errors
    np.testing.assert_allclose(np.cov(W.T), model.sigma_, atol=5 * np.diag(model.sigma_).max() / np.sqrt(200_000) * 2)


def test_beta_bernoulli_estimates():
    y = np.array([1, 1, 0, 1, 0, 1, 1, 1, 0, 1])
    model = BetaBernoulli(2.0, 3.0).fit(y)
    assert (model.a_, model.b_) == (2.0 + 7, 3.0 + 3)
    assert model.mle_ == 0.7
    # MAP: maximiser of the posterior density, found numerically
    mode = optimize.minimize_scalar(lambda p: -stats.beta(model.a_, model.b_).logpdf(p), bounds=(1e-9, 1 - 1e-9),
                                    method="bounded", options={"xatol": 1e-12}).x
    np.testing.assert_allclose(model.map_, mode, atol=1e-8)
    np.testing.assert_allclose(model.posterior_mean_, stats.beta(9, 6).mean())
    np.testing.assert_allclose(model.credible_interval(0.9), stats.beta(9, 6).interval(0.9))
    online = BetaBernoulli(2.0, 3.0).partial_fit(y[:4]).partial_fit(y[4:])
    assert (online.a_, online.b_) == (model.a_, model.b_)
    # the posterior predictive is the posterior mean: P(next = 1) = integral of theta against the posterior
    np.testing.assert_allclose(model.predict_proba(), stats.beta(9, 6).expect(lambda p: p), rtol=1e-10)


@pytest.mark.parametrize("params, match", [({"noise_var": 0.0}, "noise_var"), ({"prior_var": -1.0}, "prior_var"),
                                           ({"prior_cov": -np.eye(10)}, "positive definite"),
                                           ({"prior_cov": np.eye(3)}, "prior_cov must be"),
                                           ({"prior_mean": np.zeros(3)}, "prior_mean must be")])
def test_bad_parameters_are_rejected(params, match):
    with pytest.raises(ValueError, match=match):
        BayesianLinearRegression(**params).fit(X_DIAB, Y_DIAB)


def test_bad_input_is_rejected():
    with pytest.raises(ValueError, match="NaN"):
        BayesianLinearRegression().fit(np.where(X_DIAB > 0.1, np.nan, X_DIAB), Y_DIAB)
    model = BayesianLinearRegression().fit(X_DIAB, Y_DIAB)
    with pytest.raises(ValueError, match="features"):
        model.partial_fit(X_DIAB[:, :3], Y_DIAB)
    with pytest.raises(ValueError, match="0 or 1"):
        BetaBernoulli().fit([0, 2, 1])
    with pytest.raises(ValueError, match="a must be > 0"):
        BetaBernoulli(a=0.0)
    with pytest.raises(ValueError, match="at least one observation"):
        BetaBernoulli().mle_
    with pytest.raises(ValueError, match="uniform: every point is a mode"):
        BetaBernoulli(1.0, 1.0).map_
    with pytest.raises(ValueError, match="unbounded at 0 or 1"):
        BetaBernoulli(0.5, 2.0).fit([0, 0]).map_


@pytest.mark.parametrize("cls, data, posterior", [(BetaBernoulli, [1, 0, 1, 1], "Beta(5, 3)"),
                                                    (GammaPoisson, [3, 0, 4], "Gamma(9, 5)")])
def test_pseudo_count_priors_check_their_parameters_and_say_their_posterior(cls, data, posterior):
    # a, b > 0 checked alike for both families (one constructor); the repr names the class and the posterior
    for bad in ({"a": 0.0}, {"b": -1.0}, {"a": np.nan}):
        with pytest.raises(ValueError, match=f"{next(iter(bad))} must be"):
            cls(**bad)
    with pytest.raises(TypeError, match="b must be a real number"):
        cls(b="1")
    model = cls(2.0, 2.0).fit(data)
    assert repr(model) == f"{cls.__name__}(a=2, b=2) with posterior {posterior}"


def test_beta_bernoulli_predictive_is_bernoulli_with_the_posterior_mean():
    model = BetaBernoulli(0.5, 0.5).fit([1, 0, 0, 1, 1, 1])
    assert model.predictive().pmf(1) == pytest.approx(model.posterior_mean_)
    # P(next = 1) = integral of theta p(theta | D): quadrature of the unnormalised posterior
    post = lambda p: p ** (model.a_ - 1) * (1 - p) ** (model.b_ - 1)
    ratio = integrate.quad(lambda p: p * post(p), 0, 1)[0] / integrate.quad(post, 0, 1)[0]
    np.testing.assert_allclose(model.predictive().pmf(1), ratio, rtol=1e-8)


def _normalised_on_grid(log_unnormalised, lo, hi):
    """The density proportional to exp(log_unnormalised) on [lo, hi], normalised by quadrature."""
    Z = integrate.quad(lambda t: np.exp(log_unnormalised(t)), lo, hi, limit=200)[0]
    return lambda t: np.exp(log_unnormalised(t)) / Z


@pytest.mark.parametrize("a, b, counts", [(2.0, 1.0, [2, 3, 7]), (0.5, 0.1, [0, 0, 1, 0]), (3.0, 2.0, [12]),
                                          (1.0, 0.5, [0, 0])])
def test_gamma_poisson_posterior_is_the_normalised_prior_times_likelihood(a, b, counts):
    model = GammaPoisson(a, b).fit(counts)
    k = np.array(counts)
    prior = stats.gamma(a, scale=1 / b)
    log_joint = lambda lam: prior.logpdf(lam) + stats.poisson.logpmf(k, lam).sum()
    density = _normalised_on_grid(log_joint, 0, 60)
    grid = np.linspace(0.05, 15, 40)
    np.testing.assert_allclose(model.posterior().pdf(grid), [density(t) for t in grid], rtol=1e-6, atol=1e-12)
    assert (model.a_, model.b_) == (a + k.sum(), b + len(k))
    assert model.mle_ == k.mean()
    np.testing.assert_allclose(model.posterior_mean_, integrate.quad(lambda t: t * density(t), 0, 60)[0], rtol=1e-7)
    if model.a_ >= 1:
        mode = optimize.minimize_scalar(lambda t: -log_joint(t), bounds=(1e-9, 60), method="bounded",
                                        options={"xatol": 1e-12}).x
        np.testing.assert_allclose(model.map_, mode, atol=1e-7)


def test_gamma_poisson_predictive_is_the_posterior_average_of_poisson():
    model = GammaPoisson(2.0, 0.5).fit([4, 1, 3])
    post = model.posterior()
    for k in range(12):
        by_quadrature = integrate.quad(lambda lam: stats.poisson.pmf(k, lam) * post.pdf(lam), 0, np.inf)[0]
        np.testing.assert_allclose(model.predictive().pmf(k), by_quadrature, rtol=1e-8)
    np.testing.assert_allclose(model.predictive().mean(), model.posterior_mean_, rtol=1e-12)
    online = GammaPoisson(2.0, 0.5).partial_fit([4]).partial_fit([1, 3])
    assert (online.a_, online.b_) == (model.a_, model.b_)


@pytest.mark.parametrize("m0, s0_2, sigma2, n", [(0.0, 1.0, 1.0, 1), (2.0, 0.3, 4.0, 25), (-1.0, 1e6, 0.5, 7)])
def test_gaussian_mean_is_linear_gaussian_with_one_constant_feature(m0, s0_2, sigma2, n):
    x = np.random.default_rng(n).normal(1.5, np.sqrt(sigma2), size=n)
    model = GaussianMean(m0, s0_2, sigma2).fit(x)
    ones = np.ones((n, 1))
    mean, cov = linear_gaussian_posterior([m0], [[s0_2]], ones, sigma2 * np.eye(n), x)
    np.testing.assert_allclose([model.mean_, model.var_], [mean[0], cov[0, 0]], rtol=1e-10)
    blr = BayesianLinearRegression(sigma2, prior_mean=[m0], prior_cov=[[s0_2]], fit_intercept=False).fit(ones, x)
    np.testing.assert_allclose([model.mean_, model.var_], [blr.coef_[0], blr.sigma_[0, 0]], rtol=1e-10)
    # predictive: N(m_n, s_n^2 + sigma^2), as BayesianLinearRegression's predictive std
    _, std = blr.predict(np.ones((1, 1)), return_std=True)
    np.testing.assert_allclose(model.predictive().std(), std[0], rtol=1e-10)
    assert model.map_ == model.mean_ and model.mle_ == pytest.approx(x.mean())
    lo, hi = model.credible_interval(0.9)
    np.testing.assert_allclose(model.posterior().cdf(hi) - model.posterior().cdf(lo), 0.9, rtol=1e-10)


def test_gaussian_mean_posterior_is_the_normalised_prior_times_likelihood_and_forgets_the_prior():
    x = np.array([0.5, 1.2, 1.9])
    model = GaussianMean(0.0, 2.0, 1.0).fit(x)
    log_joint = lambda mu: stats.norm.logpdf(mu, 0, np.sqrt(2)) + stats.norm.logpdf(x, mu, 1).sum()
    density = _normalised_on_grid(log_joint, -15, 15)
    grid = np.linspace(-1, 3, 30)
    np.testing.assert_allclose(model.posterior().pdf(grid), [density(t) for t in grid], rtol=1e-8)
    vague = GaussianMean(5.0, 1e12, 1.0).fit(x)                  # a flat prior: the posterior mean is the MLE
    np.testing.assert_allclose(vague.mean_, x.mean(), rtol=1e-9)
    np.testing.assert_allclose(vague.var_, 1 / 3, rtol=1e-9)
    online = GaussianMean(0.0, 2.0, 1.0).partial_fit(x[:1]).partial_fit(x[1:])
    np.testing.assert_allclose([online.mean_, online.var_], [model.mean_, model.var_], rtol=1e-14)


def test_conjugate_models_reject_bad_input():
    with pytest.raises(ValueError, match="non-negative integers"):
        GammaPoisson().fit([1, -1])
    with pytest.raises(ValueError, match="non-negative integers"):
        GammaPoisson().fit([1.5])
    with pytest.raises(ValueError, match="b must be > 0"):
        GammaPoisson(b=0.0)
    with pytest.raises(ValueError, match="at least one observation"):
        GammaPoisson().mle_
    with pytest.raises(ValueError, match="unbounded at 0"):
        GammaPoisson(0.5, 1.0).fit([0, 0]).map_
    with pytest.raises(ValueError, match="prior_var must be > 0"):
        GaussianMean(prior_var=0.0)
    with pytest.raises(ValueError, match="NaN"):
        GaussianMean().fit([1.0, np.nan])
    with pytest.raises(ValueError, match="level must be"):
        GaussianMean().fit([1.0]).credible_interval(1.5)
    with pytest.raises(ValueError, match="at least one observation"):
        GaussianMean().mle_
    assert GammaPoisson(1.0, 1.0).fit([0, 0, 0]).mle_ == 0.0                   # all zeros: the MLE is 0


def test_gaussian_posterior_rejects_bad_input():
    X, y = np.ones((3, 2)), np.zeros(3)
    good = {"noise_var": 1.0, "prior_mean": np.zeros(2), "prior_cov": np.eye(2)}
    with pytest.raises(ValueError, match="y has 2 entries"):
        gaussian_posterior(X, y[:2], **good)
    with pytest.raises(ValueError, match="noise_var must be > 0"):
        gaussian_posterior(X, y, **{**good, "noise_var": -1.0})
    with pytest.raises(ValueError, match="prior_mean must have shape"):
        gaussian_posterior(X, y, **{**good, "prior_mean": np.zeros(3)})
    with pytest.raises(ValueError, match="prior_cov must be"):
        gaussian_posterior(X, y, **{**good, "prior_cov": np.eye(3)})
    with pytest.raises(ValueError, match="positive definite"):
        gaussian_posterior(X, y, **{**good, "prior_cov": -np.eye(2)})


def test_draw_posterior_lines_shows_the_posterior_of_the_line():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlnotes.widgets import bayesian_regression_demo, draw_posterior_lines

    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, 8)
    y = -0.3 + 0.5 * x + rng.normal(scale=0.2, size=8)
    fig, ax = plt.subplots()
    for n in (0, 1, 8):
        mean, cov = draw_posterior_lines(ax, x, y, n, noise_var=0.04, prior_var=2.0)
        Phi = np.column_stack([np.ones(n), x[:n]])
        S_N = np.linalg.inv(np.eye(2) / 2.0 + Phi.T @ Phi / 0.04)
        np.testing.assert_allclose(cov, S_N, rtol=1e-10)
        np.testing.assert_allclose(mean, S_N @ Phi.T @ y[:n] / 0.04, rtol=1e-10, atol=1e-14)
    with pytest.raises(ValueError, match="n_observed must be"):
        draw_posterior_lines(ax, x, y, 9, noise_var=0.04)
    with pytest.raises(ValueError, match="noise_var must be > 0"):
        draw_posterior_lines(ax, x, y, 2, noise_var=0.0)
    plt.close(fig)
    demo = bayesian_regression_demo(x, y, noise_var=0.04)
    assert [c.description for c in demo.children[:2]] == ["points", "log10 σp²"]
    plt.close("all")


# --- the MAP estimate on the boundary -------------------------------------------------------------------

@pytest.mark.parametrize("a, b, ones, zeros", [(4.0, 1.0, 0, 0), (1.0, 3.0, 0, 0), (1.0, 1.0, 3, 0), (2.0, 2.0, 0, 5),
                                               (0.5, 0.5, 3, 4)])
def test_beta_bernoulli_map_is_the_maximiser_of_the_density_on_the_closed_interval(a, b, ones, zeros):
    model = BetaBernoulli(a, b).fit([1] * ones + [0] * zeros) if ones + zeros else BetaBernoulli(a, b)
    grid = np.linspace(0, 1, 100_001)
    density = stats.beta(model.a_, model.b_).pdf(grid)
    assert np.isfinite(density).all()                         # a_N, b_N >= 1: the density is bounded
    np.testing.assert_allclose(model.map_, grid[np.argmax(density)], atol=1e-5)
    assert model.posterior().pdf(model.map_) >= density.max() * (1 - 1e-9)


def test_gamma_poisson_map_is_zero_for_an_exponential_posterior():
    model = GammaPoisson(1.0, 2.0).fit([0, 0, 0])                # posterior Gamma(1, 5): density 5 exp(-5 lambda)
    assert model.map_ == 0.0
    grid = np.linspace(0, 5, 5001)
    assert np.argmax(model.posterior().pdf(grid)) == 0


# --- accuracy far from the origin, Chan's merge, the intercept -----------------------------------------

@pytest.mark.parametrize("offset", [1e6, 1e8])
def test_data_far_from_the_origin_lose_no_accuracy(offset):
    X = X_DIAB + offset
    model = BayesianLinearRegression(3000.0, 500.0).fit(X, Y_DIAB)
    ridge = sk.Ridge(alpha=3000.0 / 500.0).fit(X, Y_DIAB)            # lambda = sigma^2 / sigma_p^2
    np.testing.assert_allclose(model.coef_, ridge.coef_, rtol=1e-8, atol=1e-8 * np.abs(ridge.coef_).max())
    np.testing.assert_allclose(model.intercept_, ridge.intercept_, rtol=1e-8)
    # the posterior covariance does not depend on where the features sit: the offset only moves the intercept
    at_zero = BayesianLinearRegression(3000.0, 500.0).fit(X_DIAB, Y_DIAB)
    np.testing.assert_allclose(model.sigma_, at_zero.sigma_, rtol=1e-5)
    np.testing.assert_allclose(model.coef_, at_zero.coef_, rtol=1e-5, atol=1e-5 * np.abs(at_zero.coef_).max())


def test_random_data_with_an_offset_match_ridge_and_sequential_matches_batch():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 4)) * [1.0, 0.01, 3.0, 0.2] + 1e6
    y = X @ rng.normal(size=4) + rng.normal(size=200)
    t = rng.random(200) + 0.1
    batch = BayesianLinearRegression(2.0, 0.5).fit(X, y, sample_weight=t)
    ridge = sk.Ridge(alpha=2.0 / 0.5).fit(X, y, sample_weight=t)
    np.testing.assert_allclose(batch.coef_, ridge.coef_, rtol=1e-7, atol=1e-7 * np.abs(ridge.coef_).max())
    online = BayesianLinearRegression(2.0, 0.5)
    for start in range(0, 200, 23):
        online.partial_fit(X[start:start + 23], y[start:start + 23], sample_weight=t[start:start + 23])
    np.testing.assert_allclose(online.coef_, batch.coef_, rtol=1e-7, atol=1e-7 * np.abs(batch.coef_).max())
    np.testing.assert_allclose(online.sigma_, batch.sigma_, rtol=1e-7)
    np.testing.assert_allclose(online.x_mean_, np.average(X, axis=0, weights=t), rtol=1e-14)


def test_chan_merge_equals_the_moments_of_the_stacked_data():
    from mlnotes.bayes._linear import _Moments

    rng = np.random.default_rng(6)
    Xa, Xb = rng.normal(size=(7, 3)), rng.normal(2.0, size=(4, 3))
    ya, yb, ta, tb = rng.normal(size=7), rng.normal(size=4), rng.random(7) + 0.5, rng.random(4) + 0.5
    merged = _Moments.of(Xa, ya, ta).merge(_Moments.of(Xb, yb, tb))
    X, y, t = np.vstack([Xa, Xb]), np.concatenate([ya, yb]), np.concatenate([ta, tb])
    x_bar, y_bar = np.average(X, axis=0, weights=t), np.average(y, weights=t)
    np.testing.assert_allclose(merged.weight, t.sum(), rtol=1e-14)
    np.testing.assert_allclose(merged.x_mean, x_bar, rtol=1e-13)
    np.testing.assert_allclose(merged.scatter, (X - x_bar).T @ np.diag(t) @ (X - x_bar), rtol=1e-12)
    np.testing.assert_allclose(merged.cross, (X - x_bar).T @ (t * (y - y_bar)), rtol=1e-12)
    gram, cross = merged.uncentred()
    np.testing.assert_allclose(gram, X.T @ np.diag(t) @ X, rtol=1e-12)
    np.testing.assert_allclose(cross, X.T @ (t * y), rtol=1e-12)


def test_predictive_std_leaves_out_the_intercept_uncertainty_sigma2_over_total_weight():
    """With an explicit column of ones under a nearly flat prior, the predictive variance is the library's
    (intercept plugged in) plus sigma^2 / sum(t): the documented omission, and nothing else."""
    rng = np.random.default_rng(7)
    X, y, t = rng.normal(size=(40, 2)), rng.normal(size=40), rng.random(40) + 0.5
    s2, vague = 0.3, 1e10
    ours = BayesianLinearRegression(s2, 2.0).fit(X, y, sample_weight=t)
    ones = np.column_stack([np.ones(40), X])
    full = BayesianLinearRegression(s2, prior_cov=np.diag([vague, 2.0, 2.0]), fit_intercept=False)
    full.fit(ones, y, sample_weight=t)
    X_new = rng.normal(size=(6, 2))
    mean, std = ours.predict(X_new, return_std=True)
    mean_full, std_full = full.predict(np.column_stack([np.ones(6), X_new]), return_std=True)
    np.testing.assert_allclose(mean, mean_full, rtol=1e-7)
    np.testing.assert_allclose(std_full**2, std**2 + s2 / t.sum(), rtol=1e-7)
    sk_std = pinned_bayesian_ridge(s2, 2.0).fit(X, y, sample_weight=t).predict(X_new, return_std=True)[1]
    np.testing.assert_allclose(std, sk_std, rtol=1e-7)                   # as BayesianRidge does


# --- the prior-only state, sampling, the prior covariance's checks -------------------------------------

def test_reset_gives_the_prior_and_updating_from_it_equals_fit():
    model = BayesianLinearRegression(0.5, 2.0, prior_mean=[1.0, -1.0], prior_cov=[[2.0, 0.3], [0.3, 1.0]],
                                     fit_intercept=False).reset(2)
    np.testing.assert_allclose(model.coef_, [1.0, -1.0], rtol=1e-14)
    np.testing.assert_allclose(model.sigma_, [[2.0, 0.3], [0.3, 1.0]], rtol=1e-14)
    X_new = np.array([[1.0, 2.0], [-0.5, 0.0]])
    _, std = model.predict(X_new, return_std=True)
    np.testing.assert_allclose(std**2, 0.5 + np.einsum("ij,jk,ik->i", X_new, model.sigma_, X_new), rtol=1e-14)
    rng = np.random.default_rng(8)
    X, y = rng.normal(size=(9, 2)), rng.normal(size=9)
    model.partial_fit(X, y)
    fitted = BayesianLinearRegression(0.5, prior_mean=[1.0, -1.0], prior_cov=[[2.0, 0.3], [0.3, 1.0]],
                                      fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(model.coef_, fitted.coef_, rtol=1e-12)
    assert model.n_seen_ == 9
    with pytest.raises(ValueError, match="fit_intercept=False"):
        BayesianLinearRegression().reset(2)
    with pytest.raises(ValueError, match="n_features must be an integer >= 1"):
        BayesianLinearRegression(fit_intercept=False).reset(0)


def test_sample_coef_validates_n_samples():
    model = BayesianLinearRegression().fit(X_DIAB[:, :2], Y_DIAB)
    assert model.sample_coef(3, random_state=0).shape == (3, 2)
    with pytest.raises(ValueError, match="n_samples must be an integer >= 1"):
        model.sample_coef(0)
    with pytest.raises(TypeError, match="n_samples must be an integer"):
        model.sample_coef(2.5)


def test_prior_cov_symmetry_is_relative_to_its_scale():
    X, y = np.ones((3, 2)) + np.eye(3, 2), np.zeros(3)
    tiny = 1e-12 * np.array([[1.0, 0.5], [0.0, 1.0]])            # clearly asymmetric, but within atol=1e-8
    with pytest.raises(ValueError, match="symmetric"):
        gaussian_posterior(X, y, noise_var=1.0, prior_mean=np.zeros(2), prior_cov=tiny)
    big = 1e6 * np.array([[2.0, 0.5], [0.5 + 1e-12, 1.0]])           # rounding-level asymmetry is accepted
    mean, cov = gaussian_posterior(X, y, noise_var=1.0, prior_mean=np.zeros(2), prior_cov=big)
    np.testing.assert_array_equal(cov, cov.T)
    with pytest.raises(ValueError, match="finite"):
        gaussian_posterior(X, y, noise_var=1.0, prior_mean=np.zeros(2), prior_cov=[[np.nan, 0], [0, 1]])


def test_a_singular_prior_covariance_is_reported_not_jittered():
    X = np.array([[1.0, 1.0], [2.0, 2.0]])
    with pytest.raises(ValueError, match="prior_cov must be symmetric positive definite"):
        gaussian_posterior(X, np.ones(2), noise_var=1.0, prior_mean=np.zeros(2), prior_cov=[[1.0, 1.0], [1.0, 1.0]])


def test_bayesian_linear_regression_refuses_values_whose_squares_overflow():
    # issue 11: at values near 1e307 it failed with scipy's "array must not contain infs or NaNs"
    from mlnotes.bayes import BayesianLinearRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = X @ np.array([1.0, -2.0, 0.5]) + 0.1 * rng.normal(size=40)
    with pytest.raises(ValueError, match="X has values up to .*sums of squares overflow float64"):
        BayesianLinearRegression().fit(X * 1e307, y)
    assert np.isfinite(BayesianLinearRegression().fit(X * 1e-307, y).predict(X * 1e-307)).all()
