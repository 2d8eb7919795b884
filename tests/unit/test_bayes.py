"""Bayesian linear regression and the beta-Bernoulli model: agreement with the closed form, with
scikit-learn's BayesianRidge at fixed precisions and with Ridge; sequential = batch; clear errors."""

import numpy as np
import pytest
import sklearn.linear_model as sk
from scipy import optimize, stats
from sklearn.datasets import load_diabetes

from mlnotes.bayes import BayesianLinearRegression, BetaBernoulli, gaussian_posterior

X_DIAB, Y_DIAB = load_diabetes(return_X_y=True)


def pinned_bayesian_ridge(noise_var, prior_var):
    """scikit-learn's BayesianRidge with its precisions held (to ~1e-10) at 1/noise_var and 1/prior_var:
    Gamma hyperpriors so sharp that the evidence updates cannot move them."""
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
    with pytest.raises(ValueError, match="MAP estimate needs"):
        BetaBernoulli(1.0, 1.0).fit([1, 1, 1]).map_
