"""ProbitRegression: the derived gradient and Hessian against finite differences, agreement with a direct
maximisation of the probit likelihood by scipy, stable probabilities in the tails, scikit-learn's estimator
checks, and clear errors."""

import numpy as np
import pytest
from scipy import optimize, stats
from scipy.optimize import approx_fprime
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.preprocessing import StandardScaler

from mlnotes.linear import LogisticRegression, ProbitRegression, inverse_mills_ratio, probit_hessian, probit_objective


def probit_data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (rng.random(n) < stats.norm.cdf(X @ [1.0, -0.5, 0.8] + 0.3)).astype(int)
    return X, y


def scipy_fit(X, y, C, s=None):
    """The penalised probit objective C sum_i s_i (-log Phi(q_i z_i)) + ||w||^2 / 2, minimised by BFGS."""
    s = np.ones(len(y)) if s is None else s
    q = 2 * y - 1

    def objective(t):
        penalty = 0.0 if np.isinf(C) else 0.5 * t[:-1] @ t[:-1] / C
        return -s @ stats.norm.logcdf(q * (X @ t[:-1] + t[-1])) + penalty

    return optimize.minimize(objective, np.zeros(X.shape[1] + 1), method="BFGS", options={"gtol": 1e-9}).x


@pytest.mark.parametrize("solver", ["lbfgs", "newton"])
@pytest.mark.parametrize("C", [np.inf, 1.0, 0.05])
@pytest.mark.parametrize("seed", [0, 1])
def test_agrees_with_a_direct_scipy_fit(solver, C, seed):
    X, y = probit_data(seed=seed)
    s = np.random.default_rng(seed + 10).random(len(y)) + 0.5
    model = ProbitRegression(C=C, solver=solver, tol=1e-10, max_iter=1000).fit(X, y, sample_weight=s)
    # scikit-learn's scaling: C sum_i s_i loss_i + ||w||^2 / 2 has the minimiser of our objective
    np.testing.assert_allclose(np.r_[model.coef_[0], model.intercept_], scipy_fit(X, y, C, s), atol=2e-5)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_gradient_and_hessian_match_finite_differences(fit_intercept):
    X, y = probit_data(n=60)
    Y = y[:, None].astype(float)
    s = np.random.default_rng(1).random(60)
    theta = np.random.default_rng(2).normal(scale=0.5, size=3 + fit_intercept)
    f = lambda t: probit_objective(t, X, Y, s, 2.0, fit_intercept)[0]
    np.testing.assert_allclose(probit_objective(theta, X, Y, s, 2.0, fit_intercept)[1], approx_fprime(theta, f, 1e-7),
                               atol=1e-6)
    H = probit_hessian(theta, X, Y, s, 2.0, fit_intercept)
    H_numeric = np.array([approx_fprime(theta, lambda t, i=i: probit_objective(t, X, Y, s, 2.0, fit_intercept)[1][i],
                                        1e-7) for i in range(theta.size)])
    np.testing.assert_allclose(H, H_numeric, atol=1e-5)
    assert np.linalg.eigvalsh(H).min() > 0


def test_inverse_mills_ratio_is_stable_and_matches_scipy():
    u = np.linspace(-30, 8, 400)
    r = inverse_mills_ratio(u)
    moderate = u > -8
    np.testing.assert_allclose(r[moderate], stats.norm.pdf(u[moderate]) / stats.norm.cdf(u[moderate]), rtol=1e-10)
    assert np.isfinite(r).all() and (r > 0).all()
    # r(u) = -u - 1/u + O(u^-3) in the far left tail; the curvature r (u + r) stays in (0, 1)
    np.testing.assert_allclose(inverse_mills_ratio(-1e4), 1e4 + 1e-4, rtol=1e-12)
    curvature = r * (u + r)
    assert (curvature > 0).all() and (curvature < 1).all()


def test_probabilities_are_the_normal_cdf_and_stay_finite_far_away():
    X, y = probit_data()
    model = ProbitRegression(tol=1e-8).fit(X, y)
    z = model.decision_function(X)
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], stats.norm.cdf(z), rtol=1e-12)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.predict(X), (z > 0).astype(int))
    far = model.predict_log_proba(1e4 * X[:5])                 # |z| ~ 1e4: log Phi(-|z|) ~ -5e7, not log(0)
    z_far = model.decision_function(1e4 * X[:5])
    assert np.isfinite(far).all()
    np.testing.assert_allclose(far, np.column_stack([stats.norm.logcdf(-z_far), stats.norm.logcdf(z_far)]), rtol=1e-10)


def test_probit_coefficients_are_about_logistic_over_1_7():
    X, y = probit_data(n=2000, seed=3)
    probit = ProbitRegression(C=np.inf, solver="newton", tol=1e-10).fit(X, y)
    logit = LogisticRegression(C=np.inf, solver="newton", tol=1e-10).fit(X, y)
    ratio = logit.coef_[0] / probit.coef_[0]
    assert ((ratio > 1.5) & (ratio < 1.9)).all()


def test_hessian_is_positive_semidefinite_at_extreme_scores():
    X, y = probit_data(n=40)
    theta = np.r_[50.0, -50.0, 50.0, 0.0]        # scores of size ~100: far tails on both sides
    H = probit_hessian(theta, X, y[:, None].astype(float), np.ones(40), np.inf)
    assert np.isfinite(H).all() and np.linalg.eigvalsh(H).min() >= -1e-12


def test_bad_input_is_rejected():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="Only binary classification"):
        ProbitRegression().fit(X, y)
    Xb, yb = load_breast_cancer(return_X_y=True)
    Xb = StandardScaler().fit_transform(Xb)
    with pytest.raises(ValueError, match="at least 2 classes"):
        ProbitRegression().fit(Xb, np.zeros(len(yb)))
    with pytest.raises(ValueError, match="C must be > 0"):
        ProbitRegression(C=0).fit(Xb, yb)
    with pytest.raises(ValueError, match="solver"):
        ProbitRegression(solver="sag").fit(Xb, yb)
    with pytest.raises(ValueError, match="NaN"):
        ProbitRegression().fit(np.where(Xb > 3, np.nan, Xb), yb)


@pytest.mark.parametrize("function", [probit_objective, probit_hessian])
def test_objective_and_hessian_reject_bad_arguments(function):
    X, y = probit_data(n=30)
    Y, s, theta = y[:, None].astype(float), np.ones(30), np.zeros(4)
    function(theta, X, Y, s, 1.0)                                               # valid: no error
    with pytest.raises(ValueError, match="Y must have shape \\(n_samples, 1\\)"):
        function(theta, X, np.eye(2)[y], s, 1.0)                                # one-hot: the probit model has one output
    with pytest.raises(ValueError, match="w must have shape \\(4,\\)"):
        function(np.zeros(3), X, Y, s, 1.0)
    with pytest.raises(ValueError, match="w must have shape \\(3,\\)"):
        function(theta, X, Y, s, 1.0, False)
    with pytest.raises(ValueError, match="infinity"):
        function(theta, np.where(X > 1, np.inf, X), Y, s, 1.0)
    with pytest.raises(ValueError, match="C must be > 0"):
        function(theta, X, Y, s, -1.0)
    with pytest.raises(ValueError, match="at least one positive weight"):
        function(theta, X, Y, np.zeros(30), 1.0)


def test_unpenalised_fit_on_separable_data_warns():
    from sklearn.exceptions import ConvergenceWarning

    X = np.random.default_rng(6).normal(size=(60, 2))
    with pytest.warns(ConvergenceWarning, match="maximum-likelihood estimate does not exist"):
        ProbitRegression(C=np.inf, solver="newton").fit(X, (X[:, 1] > 0.2).astype(int))


def test_inverse_mills_ratio_rejects_none_and_text():
    # issue 11: inverse_mills_ratio(None) returned NaN
    with pytest.raises(TypeError, match="u must be a number or an array, got None"):
        inverse_mills_ratio(None)
    with pytest.raises(TypeError, match="u must be numeric"):
        inverse_mills_ratio("a")
