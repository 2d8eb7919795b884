"""SVC: parity with scikit-learn's libsvm at tol=1e-6, the fitted attributes, the cache, and the errors."""

import numpy as np
import pytest
import sklearn.svm
from sklearn.datasets import load_iris

from mlnotes.kernels import pairwise_kernels
from mlnotes.svm import SVC, kkt_violations, svm_dual_objective


def _data(name):
    rng = np.random.default_rng(7)
    n = 120
    if name == "separable":
        X = rng.normal(size=(n, 2))
        y = (X[:, 0] + X[:, 1] > 0).astype(int)
        X[y == 1] += 1.0
        return X, y
    if name == "overlapping":
        X = rng.normal(size=(n, 3))
        return X, (X[:, 0] + 0.8 * rng.normal(size=n) > 0).astype(int)
    if name == "duplicated":
        X = rng.normal(size=(n // 3, 2))
        X = np.vstack([X, X, X])
        y = (X[:, 0] > 0).astype(int)
        y[:10] = 1 - y[:10]        # copies with different labels
        return X, y
    if name == "one_feature":
        X = rng.normal(size=(n, 1))
        return X, np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0.2, "b", "a")
    if name == "imbalanced":
        X = rng.normal(size=(n, 2))
        y = np.zeros(n, dtype=int)
        y[:12] = 1
        X[:12] += 1.5
        return X, y
    raise KeyError(name)


DATASETS = ["separable", "overlapping", "duplicated", "one_feature", "imbalanced"]
KERNELS = ["linear", "poly", "rbf", "sigmoid"]


def _dual_value(model, X, y, K):
    """The dual objective of a fitted binary model, alpha_i = |dual_coef_| on its support."""
    alpha = np.zeros(X.shape[0])
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    y_pm = np.where(y == model.classes_[1], 1.0, -1.0)
    return svm_dual_objective(alpha, K, y_pm)[0], alpha, y_pm


# The sigmoid kernel is not PSD: its dual is not convex, and with a large C two solvers following slightly
# different rounding end at different stationary points; it is compared at the C where the problem is benign.
CASES = [(data, kernel, C) for data in DATASETS for kernel in KERNELS for C in (0.05, 1.0, 50.0)
         if not (kernel == "sigmoid" and C == 50.0)]


def _params(kernel, C):
    return dict(C=C, kernel=kernel, tol=1e-6, coef0=0.5 if kernel in ("poly", "sigmoid") else 0.0,
                gamma=0.1 if kernel == "sigmoid" else "scale")


@pytest.mark.parametrize("data, kernel, C", CASES)
def test_parity_with_sklearn(data, kernel, C):
    X, y = _data(data)
    params = _params(kernel, C)
    ours = SVC(**params).fit(X, y)
    ref = sklearn.svm.SVC(**params, max_iter=10**7).fit(X, y)
    f_ours, f_ref = ours.decision_function(X), ref.decision_function(X)
    # the stopping rule bounds the gap in the gradient, so f is fixed to ~tol times its scale
    scale = max(1.0, np.abs(f_ref).max())
    K = pairwise_kernels(X, metric=kernel, filter_params=True, gamma=ours._gamma, degree=3, coef0=params["coef0"])
    D_ours, alpha, y_pm = _dual_value(ours, X, y, K)
    D_ref = _dual_value(ref, X, y, K)[0]
    assert D_ours <= D_ref + 1e-8 * max(1.0, abs(D_ref))
    assert abs(D_ours - D_ref) <= 1e-8 * max(1.0, abs(D_ref))
    assert np.array_equal(ours.classes_, ref.classes_)
    assert abs(alpha @ y_pm) < 1e-10 * max(1.0, C) and alpha.max() <= C
    if kernel != "sigmoid":     # a PSD kernel: the solution satisfies the KKT table to ~tol
        assert kkt_violations(alpha, y_pm, f_ours, C, atol=1e-9).max() < 1e-4 * scale
    if C <= 1.0:
        assert np.abs(f_ours - f_ref).max() <= 1e-5 * scale
        assert (ours.predict(X) == ref.predict(X)).mean() >= 0.99
        if kernel == "linear":
            w_ours = ours.dual_coef_ @ ours.support_vectors_
            w_ref = ref.dual_coef_ @ ref.support_vectors_
            assert np.allclose(w_ours, w_ref, atol=1e-5 * max(1.0, np.abs(w_ref).max()))
    else:
        # libsvm keeps kernel values in single precision (its cache holds floats), which at a large C moves f by
        # up to ~1e-4 of its scale; given the same float32-rounded matrix, the two solvers agree to 1e-5
        K32 = K.astype(np.float32).astype(np.float64)
        ours32 = SVC(kernel="precomputed", C=C, tol=1e-6).fit(K32, y)
        ref32 = sklearn.svm.SVC(kernel="precomputed", C=C, tol=1e-6, max_iter=10**7).fit(K32, y)
        f32 = ref32.decision_function(K32)
        assert np.abs(ours32.decision_function(K32) - f32).max() <= 1e-5 * max(1.0, np.abs(f32).max())


def test_dual_objective_agrees_to_1e8_relative():
    X, y = _data("overlapping")
    ours = SVC(C=1.0, tol=1e-6).fit(X, y)
    ref = sklearn.svm.SVC(C=1.0, tol=1e-6).fit(X, y)
    K = pairwise_kernels(X, metric="rbf", gamma=ours._gamma)
    D_ours, D_ref = _dual_value(ours, X, y, K)[0], _dual_value(ref, X, y, K)[0]
    assert abs(D_ours - D_ref) <= 1e-8 * abs(D_ref)


def test_fitted_attributes_match_sklearn_layout():
    X, y = _data("overlapping")
    ours = SVC(tol=1e-6).fit(X, y)
    ref = sklearn.svm.SVC(tol=1e-6).fit(X, y)
    assert np.array_equal(ours.support_, ref.support_)
    assert np.array_equal(ours.n_support_, ref.n_support_)
    assert np.allclose(ours.dual_coef_, ref.dual_coef_, atol=1e-5)
    assert np.allclose(ours.intercept_, ref.intercept_, atol=1e-5)
    assert np.array_equal(ours.support_vectors_, X[ours.support_])
    assert ours.n_iter_.shape == (1,) and ours.n_iter_[0] > 0
    # f > 0 predicts classes_[1]
    f = ours.decision_function(X)
    assert np.array_equal(ours.predict(X), ours.classes_[(f > 0).astype(int)])


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_multiclass_one_vs_one_parity(shape):
    X, y = load_iris(return_X_y=True)
    ours = SVC(tol=1e-6, decision_function_shape=shape).fit(X, y)
    ref = sklearn.svm.SVC(tol=1e-6, decision_function_shape=shape).fit(X, y)
    assert np.abs(ours.decision_function(X) - ref.decision_function(X)).max() < 1e-5
    assert np.array_equal(ours.predict(X), ref.predict(X))
    assert np.array_equal(ours.support_, ref.support_)
    assert np.array_equal(ours.n_support_, ref.n_support_)
    assert np.allclose(ours.dual_coef_, ref.dual_coef_, atol=1e-4)
    assert np.allclose(ours.intercept_, ref.intercept_, atol=1e-5)
    assert ours.n_iter_.shape == (3,)


def test_precomputed_kernel_equals_named_kernel():
    X, y = _data("overlapping")
    X_test = np.random.default_rng(1).normal(size=(20, 3))
    named = SVC(kernel="rbf", gamma=0.4, tol=1e-6).fit(X, y)
    pre = SVC(kernel="precomputed", tol=1e-6).fit(pairwise_kernels(X, metric="rbf", gamma=0.4), y)
    K_test = pairwise_kernels(X_test, X, metric="rbf", gamma=0.4)
    assert np.allclose(pre.decision_function(K_test), named.decision_function(X_test), atol=1e-12)
    assert pre.support_vectors_.shape == (0, 0)
    ref = sklearn.svm.SVC(kernel="precomputed", tol=1e-6).fit(pairwise_kernels(X, metric="rbf", gamma=0.4), y)
    assert np.abs(pre.decision_function(K_test) - ref.decision_function(K_test)).max() < 1e-5


def test_small_cache_gives_the_same_solution():
    X, y = _data("overlapping")
    big = SVC(tol=1e-6).fit(X, y)                                         # the whole matrix fits: computed once
    small = SVC(tol=1e-6, cache_size=3 * 120 * 8 / 2**20).fit(X, y)     # three rows of the LRU cache
    # the same path up to the rounding of a row computed alone or inside a block
    assert np.array_equal(small.support_, big.support_)
    assert np.allclose(small.dual_coef_, big.dual_coef_, atol=1e-9)
    assert np.allclose(small.decision_function(X), big.decision_function(X), atol=1e-9)


def test_string_labels_and_predict_on_new_points():
    X, y = _data("one_feature")
    model = SVC().fit(X, y)
    assert set(model.predict(np.array([[-3.0], [3.0]]))) == {"a", "b"}


@pytest.mark.parametrize("params, match", [
    ({"C": 0.0}, "C must be > 0"),
    ({"C": -1.0}, "C must be > 0"),
    ({"gamma": 0.0}, "gamma must be > 0"),
    ({"gamma": "big"}, "gamma must be one of"),
    ({"kernel": "cosine"}, "kernel must be one of"),
    ({"tol": 0.0}, "tol must be > 0"),
    ({"max_iter": 0}, "max_iter"),
    ({"cache_size": 0}, "cache_size must be > 0"),
])
def test_bad_hyperparameters(params, match):
    X, y = _data("overlapping")
    with pytest.raises(ValueError, match=match):
        SVC(**params).fit(X, y)


def test_bad_data():
    X, y = _data("overlapping")
    with pytest.raises(ValueError, match="only one class"):
        SVC().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="Unknown label type"):
        SVC().fit(X, X[:, 0])
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SVC().fit(bad, y)
    bad[3, 1] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        SVC().fit(bad, y)
    with pytest.raises(ValueError, match="square"):
        SVC(kernel="precomputed").fit(X, y)
    K = pairwise_kernels(X, metric="linear")
    K_bad = K - 2 * np.abs(K).max() * np.eye(len(y))
    with pytest.raises(ValueError, match="not positive semidefinite"):
        SVC(kernel="precomputed").fit(K_bad, y)
    with pytest.raises(ValueError, match="not symmetric"):
        SVC(kernel="precomputed").fit(K + np.triu(np.ones_like(K), 1), y)
    model = SVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="features|precomputed"):
        model.predict(K[:, :10])
