"""LinearSVM (primal, subgradient descent) against the SMO optimum, and sdca against L-BFGS-B on the same dual."""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize

from mlnotes.svm import SVC, LinearSVM, linear_svm_objective, linear_svm_subgradient, sdca, svm_dual_objective


def _data(seed=0, n=150, shift=0.3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.5 * rng.normal(size=n) > shift, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_objective_reaches_the_smo_optimum(C):
    X, y = _data()
    ref = SVC(kernel="linear", C=C, tol=1e-9).fit(X, y)
    w, b = (ref.dual_coef_ @ ref.support_vectors_)[0], ref.intercept_[0]
    f_star = linear_svm_objective(np.r_[w, b], X, y, C)
    model = LinearSVM(C=C).fit(X, y)
    assert model.objective_[0] >= f_star - 1e-9 * f_star       # SMO's point is optimal to its tolerance
    # subgradient descent converges slowly, and more slowly for a large C (the intercept is not strongly
    # convex): measured 1000 steps leave 4e-6 at C=1 and 2e-4 at C=10
    assert (model.objective_[0] - f_star) / f_star < (1e-4 if C <= 1 else 1e-3)
    assert model.objective_[0] == pytest.approx(linear_svm_objective(np.r_[model.coef_[0], model.intercept_[0]],
                                                                     X, y, C))
    assert (model.predict(X) == ref.predict(X)).mean() >= 0.97


def test_intercept_is_not_penalised():
    # a shifted problem needs a large b; penalising it would cost b^2/2
    X, y = _data(shift=0.0)
    X = X + np.array([0.0, 0.0, 0.0])
    y_shift = np.where(X[:, 0] > 1.5, 1.0, -1.0)
    theta = np.array([1.0, 0.0, 0.0, -3.0])
    assert linear_svm_objective(theta, X, y_shift, 1.0) == pytest.approx(
        0.5 + np.maximum(0, 1 - y_shift * (X[:, 0] - 3.0)).sum())
    h = 1e-7
    for e in np.eye(4):     # away from kinks the subgradient is the gradient
        numeric = (linear_svm_objective(theta + h * e, X, y_shift, 1.0)
                   - linear_svm_objective(theta - h * e, X, y_shift, 1.0)) / (2 * h)
        assert linear_svm_subgradient(theta, X, y_shift, 1.0) @ e == pytest.approx(numeric, abs=1e-5)


def test_multiclass_one_vs_rest_and_labels():
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True)
    model = LinearSVM(C=1.0).fit(X, y)
    assert model.coef_.shape == (3, 4) and model.intercept_.shape == (3,)
    assert (model.predict(X) == y).mean() > 0.9
    X2, y2 = _data()
    labels = np.where(y2 > 0, "yes", "no")
    assert set(LinearSVM().fit(X2, labels).predict(X2)) == {"yes", "no"}


def test_linear_svm_errors():
    X, y = _data()
    with pytest.raises(ValueError, match="C must be > 0"):
        LinearSVM(C=0).fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        LinearSVM().fit(X, np.ones(len(y)))
    bad = X.copy()
    bad[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        LinearSVM().fit(bad, y)


@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
def test_sdca_matches_lbfgsb_on_the_bias_free_dual(C):
    X, y = _data(seed=2, n=80)
    K = X @ X.T
    result = sdca(X, y, C, tol=1e-10, max_iter=5000, random_state=0)
    assert result.converged
    ref = minimize(lambda a: svm_dual_objective(a, K, y), np.zeros(len(y)), jac=True, method="L-BFGS-B",
                   bounds=[(0, C)] * len(y), options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10000})
    D_sdca = svm_dual_objective(result.alpha, K, y)[0]
    assert D_sdca <= ref.fun + 1e-9 * abs(ref.fun)      # at least as good as L-BFGS-B's point
    assert abs(D_sdca - ref.fun) <= 1e-6 * abs(ref.fun)
    assert np.allclose(result.w, (result.alpha * y) @ X)
    w_ref = (ref.x * y) @ X
    assert np.allclose(result.w, w_ref, atol=1e-3 * max(1.0, np.abs(w_ref).max()))
    assert np.all(result.gaps >= -1e-9) and result.gaps[-1] <= 1e-10 * max(1.0, D_sdca * -1)


def test_sdca_is_seeded_and_validates():
    X, y = _data(seed=2, n=40)
    a = sdca(X, y, 1.0, max_iter=3, random_state=5)
    b = sdca(X, y, 1.0, max_iter=3, random_state=5)
    assert np.array_equal(a.alpha, b.alpha) and a.n_iter == 3 and not a.converged
    with pytest.raises(ValueError, match="-1, \\+1"):
        sdca(X, (y > 0).astype(float), 1.0)
    with pytest.raises(ValueError, match="C must be > 0"):
        sdca(X, y, -1.0)


def test_zero_model_on_unscaled_features_warns():
    # review of Part IV, F10: on raw breast cancer data (features up to 4e3) the first step 1/t overshoots, no
    # iterate beats w = 0, and the zero model (accuracy 0.37) came back silently
    from sklearn.datasets import load_breast_cancer
    from sklearn.exceptions import ConvergenceWarning

    X, y = load_breast_cancer(return_X_y=True)
    with pytest.warns(ConvergenceWarning, match="no subgradient step improved on w = 0"):
        model = LinearSVM(max_iter=100).fit(X, y)
    assert np.all(model.coef_ == 0)
    Xs = (X - X.mean(axis=0)) / X.std(axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)        # standardised, 1000 steps: no warning, a real model
        assert LinearSVM().fit(Xs, y).score(Xs, y) > 0.95
