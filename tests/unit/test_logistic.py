"""LogisticRegression: agreement with scikit-learn at the same C (binary and multinomial, weights, no
intercept), the derived gradient and Hessian against finite differences, and clear errors."""

import numpy as np
import pytest
import sklearn.linear_model as sk
from scipy.optimize import approx_fprime
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.preprocessing import StandardScaler

from mlnotes.linear import LogisticRegression, logistic_hessian, logistic_objective


def standardised(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


DATA = {"breast cancer (binary)": standardised(load_breast_cancer), "iris (3 classes)": standardised(load_iris),
        "wine (3 classes)": standardised(load_wine)}
TIGHT = dict(tol=1e-10, max_iter=1000)


@pytest.mark.parametrize("C", [0.01, 1.0, 10.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("data", DATA)
def test_newton_agrees_with_sklearn_newton_cholesky(data, fit_intercept, C):
    X, y = DATA[data]
    ours = LogisticRegression(C, solver="newton", fit_intercept=fit_intercept, **TIGHT).fit(X, y)
    ref = sk.LogisticRegression(C=C, solver="newton-cholesky", fit_intercept=fit_intercept, **TIGHT).fit(X, y)
    # both stop with a gradient below 1e-10; with the Hessian's condition number (up to ~1e3 at C=10)
    # that bounds the coefficient difference by ~1e-7
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-7)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-8)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


@pytest.mark.parametrize("C", [0.1, 1.0])
@pytest.mark.parametrize("data", DATA)
def test_lbfgs_agrees_with_sklearn_lbfgs(data, C):
    X, y = DATA[data]
    ours = LogisticRegression(C, **TIGHT).fit(X, y)
    ref = sk.LogisticRegression(C=C, **TIGHT).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-5)
    assert ours.coef_.shape == ref.coef_.shape and ours.intercept_.shape == ref.intercept_.shape


def test_sample_weights_and_string_labels():
    X, y = DATA["iris (3 classes)"]
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    t = np.random.default_rng(0).integers(0, 3, size=len(y)).astype(float)
    ours = LogisticRegression(0.5, solver="newton", **TIGHT).fit(X, labels, sample_weight=t)
    ref = sk.LogisticRegression(C=0.5, solver="newton-cholesky", **TIGHT).fit(X, labels, sample_weight=t)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    repeated = LogisticRegression(0.5, solver="newton", **TIGHT).fit(np.repeat(X, t.astype(int), axis=0),
                                                                     np.repeat(labels, t.astype(int)))
    # repeating row i t_i times is the same data as weight t_i (and the same S = sum of weights)
    np.testing.assert_allclose(repeated.coef_, ours.coef_, atol=1e-8)


def test_binary_probabilities_and_log_probabilities_are_consistent():
    X, y = DATA["breast cancer (binary)"]
    model = LogisticRegression(**TIGHT).fit(X, y)
    P = model.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.log(P), model.predict_log_proba(X), atol=1e-12)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(model.decision_function(X) > 0).astype(int)])
    far = model.predict_log_proba(1e6 * X[:3])        # huge scores: finite log-probabilities (no log(0))
    assert np.isfinite(far).all()


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_gradient_and_hessian_match_finite_differences(data, fit_intercept):
    X, y = DATA[data]
    X = X[:60]
    y = y[:60]
    K = len(np.unique(y))
    Y = (y == np.unique(y)[1]).astype(float)[:, None] if K == 2 else np.eye(K)[np.searchsorted(np.unique(y), y)]
    s = np.random.default_rng(1).random(len(y))
    theta = np.random.default_rng(2).normal(scale=0.3, size=Y.shape[1] * (X.shape[1] + fit_intercept))
    f = lambda t: logistic_objective(t, X, Y, s, 2.0, fit_intercept)[0]
    _, g = logistic_objective(theta, X, Y, s, 2.0, fit_intercept)
    np.testing.assert_allclose(g, approx_fprime(theta, f, 1e-7), atol=1e-6)
    H = logistic_hessian(theta, X, Y, s, 2.0, fit_intercept)
    H_numeric = np.array([approx_fprime(theta, lambda t, i=i: logistic_objective(t, X, Y, s, 2.0, fit_intercept)[1][i],
                                        1e-7) for i in range(theta.size)])
    np.testing.assert_allclose(H, H_numeric, atol=1e-5)
    np.testing.assert_allclose(H, H.T)
    assert np.linalg.eigvalsh(H).min() > 0          # strictly convex with a finite C


def test_unpenalised_fit_on_non_separable_data_matches_sklearn():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3))
    y = (rng.random(300) < 1 / (1 + np.exp(-X @ [1.0, -1.0, 0.5]))).astype(int)
    ours = LogisticRegression(np.inf, solver="newton", **TIGHT).fit(X, y)
    ref = sk.LogisticRegression(C=np.inf, solver="newton-cholesky", **TIGHT).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)


@pytest.mark.parametrize("params, match", [({"C": 0.0}, "C must be a positive"), ({"C": -1}, "C must be"),
                                           ({"solver": "sag"}, "solver"), ({"max_iter": 0}, "max_iter"),
                                           ({"tol": 0.0}, "tol")])
def test_bad_parameters_are_rejected(params, match):
    X, y = DATA["breast cancer (binary)"]
    with pytest.raises(ValueError, match=match):
        LogisticRegression(**params).fit(X, y)


def test_bad_data_is_rejected():
    X, y = DATA["breast cancer (binary)"]
    with pytest.raises(ValueError, match="at least 2 classes"):
        LogisticRegression().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="Unknown label type"):
        LogisticRegression().fit(X, np.linspace(0, 1, len(y)))
    with pytest.raises(ValueError, match="NaN"):
        LogisticRegression().fit(np.where(X > 3, np.nan, X), y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        LogisticRegression().fit(X, y[:-1])
    with pytest.raises(ValueError, match="features"):
        LogisticRegression().fit(X, y).predict(X[:, :4])
