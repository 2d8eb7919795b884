"""PoissonRegression: agreement with scikit-learn's PoissonRegressor at the same alpha, the derived
gradient and Hessian against finite differences, and clear errors."""

import numpy as np
import pytest
import sklearn.linear_model as sk
from scipy.optimize import approx_fprime
from sklearn.exceptions import ConvergenceWarning

from mlnotes.linear import PoissonRegression, poisson_hessian, poisson_objective


def counts(n=400, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, rng.poisson(np.exp(X @ rng.normal(scale=0.4, size=d) + 0.5)).astype(float)


@pytest.mark.parametrize("solver", ["lbfgs", "newton"])
@pytest.mark.parametrize("alpha", [0.0, 0.01, 1.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_agrees_with_sklearn(solver, alpha, fit_intercept):
    X, y = counts()
    t = np.random.default_rng(1).random(len(y)) + 0.2
    ours = PoissonRegression(alpha, solver=solver, fit_intercept=fit_intercept, tol=1e-12, max_iter=1000)
    ref = sk.PoissonRegressor(alpha=alpha, fit_intercept=fit_intercept, solver="newton-cholesky", tol=1e-12,
                              max_iter=1000)
    ours.fit(X, y, sample_weight=t)
    ref.fit(X, y, sample_weight=t)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-8)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-8)


def test_gradient_and_hessian_match_finite_differences():
    X, y = counts(n=50)
    s = np.random.default_rng(2).random(50)
    theta = np.random.default_rng(3).normal(scale=0.3, size=5)
    f = lambda t: poisson_objective(t, X, y, s, 0.3)[0]
    np.testing.assert_allclose(poisson_objective(theta, X, y, s, 0.3)[1], approx_fprime(theta, f, 1e-7), atol=1e-6)
    H = poisson_hessian(theta, X, y, s, 0.3)
    H_numeric = np.array([approx_fprime(theta, lambda t, i=i: poisson_objective(t, X, y, s, 0.3)[1][i], 1e-7)
                          for i in range(5)])
    np.testing.assert_allclose(H, H_numeric, atol=1e-5)


def test_the_intercept_only_model_predicts_the_mean():
    X, y = counts()
    model = PoissonRegression(alpha=1e6, tol=1e-12, solver="newton").fit(X, y)
    np.testing.assert_allclose(model.predict(X), y.mean(), rtol=1e-5)


def test_bad_input_is_rejected():
    X, y = counts()
    with pytest.raises(ValueError, match="non-negative"):
        PoissonRegression().fit(X, y - 3)
    with pytest.raises(ValueError, match="some positive target"):
        PoissonRegression().fit(X, np.zeros_like(y))
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        PoissonRegression(alpha=-1).fit(X, y)
    with pytest.raises(ValueError, match="solver"):
        PoissonRegression(solver="sag").fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        PoissonRegression().fit(np.where(X > 1, np.nan, X), y)


@pytest.mark.parametrize("seed", range(3))
def test_unpenalised_fit_solves_the_score_equations(seed):
    # the gradient of the log-likelihood, X~^T (y - lambda), vanishes at the maximum-likelihood fit
    X, y = counts(n=200, d=3, seed=seed)
    model = PoissonRegression(alpha=0.0, solver="newton", tol=1e-12).fit(X, y)
    Xt = np.column_stack([X, np.ones(len(y))])
    np.testing.assert_allclose(Xt.T @ (y - model.predict(X)), 0, atol=1e-8 * len(y))
    # with an intercept the fitted means sum to the observed total
    np.testing.assert_allclose(model.predict(X).sum(), y.sum(), rtol=1e-10)


def test_a_newton_step_is_a_weighted_least_squares_fit():
    # weights lambda_i and working response z_i = x_i^T w + (y_i - lambda_i) / lambda_i
    from mlnotes.linear import LinearRegression

    X, y = counts(n=100, d=3)
    theta = np.random.default_rng(5).normal(scale=0.2, size=3)
    args = (X, y, np.ones(len(y)), 0.0, False)
    newton_step = theta - np.linalg.solve(poisson_hessian(theta, *args), poisson_objective(theta, *args)[1])
    lam = np.exp(X @ theta)
    wls = LinearRegression(fit_intercept=False).fit(X, X @ theta + (y - lam) / lam, sample_weight=lam).coef_
    np.testing.assert_allclose(wls, newton_step, rtol=1e-9)


@pytest.mark.parametrize("function", [poisson_objective, poisson_hessian])
def test_objective_and_hessian_reject_bad_arguments(function):
    X, y = counts(n=40, d=3)
    s, theta = np.ones(40), np.zeros(4)
    function(theta, X, y, s, 0.1)                                               # valid: no error
    with pytest.raises(ValueError, match="w must have shape \\(4,\\)"):
        function(np.zeros(3), X, y, s, 0.1)
    with pytest.raises(ValueError, match="y has 39 entries"):
        function(theta, X, y[:-1], s, 0.1)
    with pytest.raises(ValueError, match="non-negative counts"):
        function(theta, X, y - 10, s, 0.1)
    with pytest.raises(ValueError, match="NaN"):
        function(theta, np.where(X > 1, np.nan, X), y, s, 0.1)
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        function(theta, X, y, s, -0.1)
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        function(theta, X, y, -s, 0.1)
    with pytest.raises(TypeError, match="fit_intercept"):
        function(theta, X, y, s, 0.1, None)


def test_newton_reports_convergence_only_when_the_gradient_is_small():
    X, y = counts()
    model = PoissonRegression(alpha=0.0, solver="newton", tol=1e-10).fit(X, y)
    _, g = poisson_objective(np.append(model.coef_, model.intercept_), X, y, np.ones(len(y)), 0.0)
    assert np.linalg.norm(g) <= 1e-10
    with pytest.warns(ConvergenceWarning, match="max_iter = 2 reached"):
        PoissonRegression(alpha=0.0, solver="newton", tol=1e-10, max_iter=2).fit(X, y)


@pytest.mark.parametrize("solver", ["lbfgs", "newton"])
@pytest.mark.filterwarnings("error::sklearn.exceptions.ConvergenceWarning")
def test_converges_with_one_feature_in_0_1000(solver):
    # issue 11: with one feature in [0, 1000] L-BFGS stopped after one iteration at coefficient exactly 0
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1000, 300)
    y = rng.poisson(np.exp(0.5 + 0.002 * x)).astype(float)
    model = PoissonRegression(alpha=0.0, solver=solver).fit(x[:, None], y)
    ref = PoissonRegression(alpha=0.0, solver="lbfgs", tol=1e-10).fit(x[:, None] / 1000, y)   # well scaled
    np.testing.assert_allclose(model.coef_, ref.coef_ / 1000, rtol=1e-4)
    assert abs(model.coef_[0] - 0.002) < 3e-4


def test_score_is_the_fraction_of_deviance_explained_as_in_sklearn():
    # issue 11: score returned R^2 where PoissonRegressor.score returns D^2
    X, y = counts()
    t = np.random.default_rng(3).random(len(y)) + 0.2
    ours = PoissonRegression(alpha=0.1, tol=1e-10).fit(X, y)
    ref = sk.PoissonRegressor(alpha=0.1, tol=1e-10, max_iter=1000).fit(X, y)
    assert ours.score(X, y) == pytest.approx(ref.score(X, y), rel=1e-7)
    assert ours.score(X, y, sample_weight=t) == pytest.approx(ref.score(X, y, sample_weight=t), rel=1e-7)
    mu = ours.predict(X)
    deviance = lambda m: 2 * np.sum(np.where(y > 0, y * np.log(np.where(y > 0, y, 1) / m), 0) - (y - m))
    assert ours.score(X, y) == pytest.approx(1 - deviance(mu) / deviance(np.full_like(y, y.mean())), rel=1e-10)
