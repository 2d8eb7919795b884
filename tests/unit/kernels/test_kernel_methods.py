"""Chapter 16's kernel estimators: KernelRidge (parity with scikit-learn), kernelised gradient descent (the iterates
of gradient descent on explicit features), kernel kNN and nearest centroid (scikit-learn's with a linear kernel)."""

import numpy as np
import pytest
import sklearn.kernel_ridge
import sklearn.neighbors
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from assertions import close_within
from mlnotes.cluster import KernelKMeans
from mlnotes.decomposition import KernelPCA
from mlnotes.kernels import (KernelGDClassifier, KernelGDRegressor, KernelKNeighborsClassifier, KernelNearestCentroid,
                             KernelRidge, kernel_diagonal, kernel_gd_direction, pairwise_kernels,
                             polynomial_features_map, polynomial_kernel)

assert_close = close_within(1e-8)


def _data(n=80, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.sin(X[:, 0]) + X[:, 1] ** 2 - 0.5 * X[:, 2 % d] + 0.1 * rng.normal(size=n)
    X_test = rng.normal(size=(30, d))
    return X, y, X_test


KERNEL_CASES = [
    dict(kernel="linear"),
    dict(kernel="rbf"),
    dict(kernel="rbf", gamma=0.3),
    dict(kernel="poly", degree=2, gamma=0.5, coef0=1.5),
    dict(kernel="poly", degree=3),
    dict(kernel="laplacian", gamma=0.2),
]


# ------------------------------------------------------------------ KernelRidge
@pytest.mark.parametrize("params", KERNEL_CASES, ids=lambda p: "-".join(f"{v}" for v in p.values()))
@pytest.mark.parametrize("alpha", [1e-3, 1.0, 30.0])
def test_kernel_ridge_parity_with_sklearn(params, alpha):
    X, y, X_test = _data()
    ours = KernelRidge(alpha=alpha, **params).fit(X, y)
    ref = sklearn.kernel_ridge.KernelRidge(alpha=alpha, **params).fit(X, y)
    assert_close(ours.dual_coef_, ref.dual_coef_)
    assert_close(ours.predict(X_test), ref.predict(X_test))


def test_kernel_ridge_precomputed_multi_output_and_callable():
    X, y, X_test = _data()
    Y = np.column_stack([y, -2 * y + 1])
    K, K_test = pairwise_kernels(X, metric="rbf", gamma=0.4), pairwise_kernels(X_test, X, metric="rbf", gamma=0.4)
    ours = KernelRidge(alpha=0.5, kernel="precomputed").fit(K, Y)
    ref = sklearn.kernel_ridge.KernelRidge(alpha=0.5, kernel="precomputed").fit(K, Y)
    assert ours.dual_coef_.shape == (80, 2)
    assert_close(ours.predict(K_test), ref.predict(K_test))
    named = KernelRidge(alpha=0.5, kernel="rbf", gamma=0.4).fit(X, Y)
    assert_close(named.predict(X_test), ours.predict(K_test), tol=1e-12)

    def k(x, z, c=1.0):
        return (x @ z + c) ** 2

    f = KernelRidge(alpha=0.5, kernel=k, kernel_params={"c": 2.0}).fit(X, y).predict(X_test)
    g = KernelRidge(alpha=0.5, kernel="poly", degree=2, gamma=1.0, coef0=2.0).fit(X, y).predict(X_test)
    assert_close(f, g)


def test_kernel_ridge_is_ridge_on_explicit_features():
    # w = Phi^T a minimises ||y - Phi w||^2 + alpha ||w||^2 (the representer theorem)
    X, y, X_test = _data(d=2)
    Phi, Phi_test = polynomial_features_map(X, degree=3, gamma=0.5), polynomial_features_map(X_test, 3, gamma=0.5)
    model = KernelRidge(alpha=2.0, kernel="poly", degree=3, gamma=0.5).fit(X, y)
    w = np.linalg.solve(Phi.T @ Phi + 2.0 * np.eye(Phi.shape[1]), Phi.T @ y)
    assert_close(Phi.T @ model.dual_coef_, w)
    assert_close(model.predict(X_test), Phi_test @ w)


def test_kernel_ridge_errors():
    X, y, _ = _data()
    for alpha in (0.0, -1.0):
        with pytest.raises(ValueError, match="alpha must be > 0"):
            KernelRidge(alpha=alpha).fit(X, y)
    with pytest.raises(ValueError, match="gamma must be > 0"):
        KernelRidge(kernel="rbf", gamma=0.0).fit(X, y)
    with pytest.raises(ValueError, match="kernel must be one of"):
        KernelRidge(kernel="cosine").fit(X, y)
    X_bad = X.copy()
    X_bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KernelRidge().fit(X_bad, y)
    X_bad[3, 1] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        KernelRidge().fit(X_bad, y)
    with pytest.raises(ValueError, match=r"precomputed kernel matrix\) must have shape \(80, 80\), got \(80, 3\)"):
        KernelRidge(kernel="precomputed").fit(X, y)
    K = pairwise_kernels(X, metric="rbf")
    K_asym = K.copy()
    K_asym[0, 1] += 0.5
    with pytest.raises(ValueError, match="not symmetric"):
        KernelRidge(kernel="precomputed").fit(K_asym, y)
    not_psd = K - 3.0 * np.eye(80)                   # smallest eigenvalue < -alpha
    with pytest.raises(ValueError, match="not positive definite.*smallest eigenvalue"):
        KernelRidge(alpha=1.0, kernel="precomputed").fit(not_psd, y)
    model = KernelRidge(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="the 80 training points"):
        model.predict(K[:, :40])
    with pytest.raises(ValueError, match="kernel_params is only for a callable"):
        KernelRidge(kernel_params={"gamma": 1}).fit(X, y)


# ------------------------------------------------------------------ kernelised gradient descent
def _explicit_gd(Phi, y, step_size, n_steps, alpha, loss):
    """Gradient descent on theta with explicit features, from theta = 0."""
    theta = np.zeros(Phi.shape[1])
    for _ in range(n_steps):
        z = Phi @ theta
        r = z - y if loss == "squared" else 1 / (1 + np.exp(-z)) - y
        theta = theta - step_size * (Phi.T @ r / len(y) + alpha * theta)
    return theta


@pytest.mark.parametrize("alpha", [0.0, 0.1])
@pytest.mark.parametrize("n_steps", [1, 2, 7, 40])
def test_kernel_gd_regressor_iterates_equal_explicit_feature_gd(n_steps, alpha):
    X, y, X_test = _data(n=40, d=2)
    params = dict(degree=3, gamma=0.5, coef0=1.0)
    Phi, Phi_test = polynomial_features_map(X, **params), polynomial_features_map(X_test, **params)
    model = KernelGDRegressor(kernel="poly", step_size=0.05, max_iter=n_steps, tol=0, alpha=alpha, **params)
    model.fit(X, y)
    theta = _explicit_gd(Phi, y, 0.05, n_steps, alpha, "squared")
    assert model.n_iter_ == n_steps
    assert_close(Phi.T @ model.dual_coef_, theta, tol=1e-10)
    assert_close(model.predict(X_test), Phi_test @ theta, tol=1e-10)


@pytest.mark.parametrize("n_steps", [1, 5, 30])
def test_kernel_gd_classifier_iterates_equal_explicit_feature_gd(n_steps):
    X, y, X_test = _data(n=40, d=2)
    labels = np.where(y > np.median(y), "high", "low")          # classes_ = ["high", "low"]: y01 = (label == "low")
    params = dict(degree=2, gamma=1.0, coef0=1.0)
    Phi, Phi_test = polynomial_features_map(X, **params), polynomial_features_map(X_test, **params)
    model = KernelGDClassifier(kernel="poly", step_size=0.2, max_iter=n_steps, tol=0, alpha=0.01, **params)
    model.fit(X, labels)
    theta = _explicit_gd(Phi, (labels == "low").astype(float), 0.2, n_steps, 0.01, "logistic")
    assert_close(model.decision_function(X_test), Phi_test @ theta, tol=1e-10)
    p = 1 / (1 + np.exp(-Phi_test @ theta))
    assert_close(model.predict_proba(X_test), np.column_stack([1 - p, p]), tol=1e-10)
    assert np.array_equal(model.predict(X_test), np.where(Phi_test @ theta > 0, "low", "high"))


def test_kernel_gd_converges_to_kernel_ridge_and_direction_is_the_feature_gradient():
    X, y, X_test = _data(n=40, d=2)
    n, alpha = len(y), 0.05
    model = KernelGDRegressor(kernel="rbf", gamma=0.5, alpha=alpha, max_iter=20000, tol=1e-12).fit(X, y)
    assert model.n_iter_ < 20000
    ridge = KernelRidge(alpha=n * alpha, kernel="rbf", gamma=0.5).fit(X, y)
    assert_close(model.predict(X_test), ridge.predict(X_test), tol=1e-8)
    # the step direction g gives the gradient in theta: Phi^T g = grad J(Phi^T beta)
    Phi = polynomial_features_map(X, degree=2, gamma=1.0, coef0=1.0)
    K = polynomial_kernel(X, degree=2, gamma=1.0, coef0=1.0)
    beta = np.random.default_rng(1).normal(size=n)
    theta = Phi.T @ beta
    grad_theta = Phi.T @ (Phi @ theta - y) / n + alpha * theta
    assert_close(Phi.T @ kernel_gd_direction(beta, K, y, alpha), grad_theta, tol=1e-12)


def test_kernel_gd_default_step_and_warnings():
    X, y, _ = _data(n=40)
    model = KernelGDRegressor(kernel="rbf", max_iter=5).fit
    with pytest.warns(ConvergenceWarning, match="max_iter = 5"):
        fitted = model(X, y)
    K = pairwise_kernels(X, metric="rbf")
    assert fitted.step_size_ == pytest.approx(len(y) / np.linalg.eigvalsh(K)[-1], rel=1e-10)
    with pytest.raises(ValueError, match="step_size must be > 0"):
        KernelGDRegressor(step_size=0.0).fit(X, y)
    with pytest.raises(ValueError, match="max_iter must be"):
        KernelGDRegressor(max_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        KernelGDClassifier().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="Only binary"):
        KernelGDClassifier().fit(X, np.arange(len(y)) % 3)


# ------------------------------------------------------------------ kNN and nearest centroid
def _classes(n=120, seed=3, n_classes=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, size=n)
    X = rng.normal(size=(n, 2)) + 1.2 * np.column_stack([np.cos(2 * y), np.sin(2 * y)])
    return X, np.array(["a", "b", "c", "d"])[y], rng.normal(size=(60, 2))


@pytest.mark.parametrize("k", [1, 4, 7])
def test_kernel_knn_with_linear_kernel_is_sklearns_knn(k):
    X, y, X_test = _classes()
    ours = KernelKNeighborsClassifier(n_neighbors=k).fit(X, y)
    ref = sklearn.neighbors.KNeighborsClassifier(n_neighbors=k).fit(X, y)
    distances, indices = ours.kneighbors(X_test)
    ref_distances, ref_indices = ref.kneighbors(X_test)
    assert np.array_equal(indices, ref_indices)
    assert_close(distances, ref_distances, tol=1e-12)
    assert np.array_equal(ours.predict(X_test), ref.predict(X_test))
    assert_close(ours.predict_proba(X_test), ref.predict_proba(X_test), tol=0)


def test_kernel_knn_uses_the_feature_space_distance_and_its_tie_rule():
    X, y, X_test = _classes()
    params = dict(degree=2, gamma=1.0, coef0=1.0)
    Phi, Phi_test = polynomial_features_map(X, **params), polynomial_features_map(X_test, **params)
    ours = KernelKNeighborsClassifier(n_neighbors=5, kernel="poly", **params).fit(X, y)
    ref = sklearn.neighbors.KNeighborsClassifier(n_neighbors=5).fit(Phi, y)
    assert np.array_equal(ours.kneighbors(X_test)[1], ref.kneighbors(Phi_test)[1])
    assert np.array_equal(ours.predict(X_test), ref.predict(Phi_test))
    # precomputed: the same neighbours without k(x, x) of the new points
    K, K_test = polynomial_kernel(X, **params), polynomial_kernel(X_test, X, **params)
    pre = KernelKNeighborsClassifier(n_neighbors=5, kernel="precomputed").fit(K, y)
    assert np.array_equal(pre.kneighbors(K_test, return_distance=False), ours.kneighbors(X_test)[1])
    with pytest.raises(ValueError, match="k\\(x, x\\)"):
        pre.kneighbors(K_test)
    # ties: equidistant training points in index order; a split vote goes to the first class
    X_tie = np.array([[1.0], [-1.0], [1.0], [-1.0]])
    model = KernelKNeighborsClassifier(n_neighbors=2).fit(X_tie, ["z", "y", "y", "z"])
    assert np.array_equal(model.kneighbors([[0.0]], return_distance=False), [[0, 1]])
    assert model.predict([[0.0]])[0] == "y"        # votes z: 1, y: 1 -> classes_[0] = "y"


def test_kernel_knn_errors():
    X, y, _ = _classes()
    with pytest.raises(ValueError, match="n_neighbors = 500 must be at most"):
        KernelKNeighborsClassifier(n_neighbors=500).fit(X, y)
    with pytest.raises(ValueError, match="n_neighbors must be an integer >= 1"):
        KernelKNeighborsClassifier(n_neighbors=0).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        KernelKNeighborsClassifier().fit(X, np.ones(len(y)))


def test_kernel_nearest_centroid_with_linear_kernel_is_sklearns():
    X, y, X_test = _classes()
    ours = KernelNearestCentroid().fit(X, y)
    ref = sklearn.neighbors.NearestCentroid().fit(X, y)
    assert np.array_equal(ours.predict(X_test), ref.predict(X_test))
    assert_close(ours.centroid_weights_.T @ X, ref.centroids_, tol=1e-14)
    # the linear kernel is evaluated on the inputs minus the training mean (exact distances far from the origin)
    assert_close(ours.centroid_sq_norms_, ((ref.centroids_ - X.mean(axis=0)) ** 2).sum(axis=1), tol=1e-12)


def test_kernel_nearest_centroid_is_the_nearest_mean_of_explicit_features():
    X, y, X_test = _classes(n_classes=4)
    params = dict(degree=3, gamma=0.5, coef0=1.0)
    Phi, Phi_test = polynomial_features_map(X, **params), polynomial_features_map(X_test, **params)
    ours = KernelNearestCentroid(kernel="poly", **params).fit(X, y)
    means = np.array([Phi[y == c].mean(axis=0) for c in ours.classes_])
    d2 = ((Phi_test[:, None, :] - means[None]) ** 2).sum(axis=2)
    assert np.array_equal(ours.predict(X_test), ours.classes_[d2.argmin(axis=1)])
    K_test = polynomial_kernel(X_test, X, **params)
    pre = KernelNearestCentroid(kernel="precomputed").fit(polynomial_kernel(X, **params), y)
    assert np.array_equal(pre.predict(K_test), ours.predict(X_test))


def test_get_params_and_clone():
    for model in (KernelRidge(alpha=3.0, kernel="rbf", gamma=0.2), KernelGDRegressor(step_size=0.1, max_iter=7),
                  KernelGDClassifier(alpha=0.5), KernelKNeighborsClassifier(n_neighbors=3, kernel="poly", degree=2),
                  KernelNearestCentroid(kernel="laplacian", gamma=0.7)):
        copy = clone(model)
        assert copy.get_params() == model.get_params() and copy is not model


@pytest.mark.parametrize("metric", ["linear", "poly", "rbf", "laplacian", "sigmoid"])
def test_kernel_diagonal_is_the_diagonal_of_the_kernel_matrix(metric):
    X = np.random.default_rng(5).normal(size=(600, 3))            # three blocks, the last one partial
    kernel = lambda A, B: pairwise_kernels(A, B, metric=metric, filter_params=True, gamma=0.3)   # noqa: E731
    np.testing.assert_allclose(kernel_diagonal(kernel, X), np.diag(kernel(X, X)), rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(kernel_diagonal(kernel, X, block_size=7), np.diag(kernel(X, X)), rtol=1e-14, atol=1e-14)


def test_distance_methods_reject_a_gram_matrix_that_is_not_psd():
    X, y, X_test = _classes()
    K = pairwise_kernels(X, metric="sigmoid", gamma=2.0, coef0=-1.0)
    assert np.linalg.eigvalsh(K)[0] < -1.0                       # not a kernel on these points
    with pytest.raises(ValueError, match="kernel='sigmoid' on the training points: K is not positive semidefinite: "
                                         "its smallest eigenvalue"):
        KernelNearestCentroid(kernel="sigmoid", gamma=2.0, coef0=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelNearestCentroid(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelKNeighborsClassifier(kernel="precomputed").fit(K, y)


# ------------------------------------------------------------------ the shared validation of kernel hyperparameters
def test_check_kernel_params_defaults_are_the_kernel_estimators():
    from mlnotes.kernels._base import check_kernel_params, kernel_matrix

    assert check_kernel_params("rbf", None, 3, 1) == dict(gamma=None, degree=3, coef0=1.0)
    assert check_kernel_params("poly", 0.5, 2, 0) == dict(gamma=0.5, degree=2, coef0=0.0)
    with pytest.raises(ValueError, match="degree"):
        check_kernel_params("poly", None, 0, 1)                 # KernelRidge & co.: degree >= 1
    with pytest.raises(ValueError, match="gamma"):
        check_kernel_params("rbf", 0.0, 3, 1)
    with pytest.raises(ValueError, match="gamma must be a positive number"):
        check_kernel_params("rbf", "scale", 3, 1)              # no string gamma unless allowed
    with pytest.raises(ValueError, match="kernel_params is only for a callable"):
        check_kernel_params("rbf", None, 3, 1, {"a": 1})
    with pytest.raises(ValueError, match="kernel must be one of"):
        check_kernel_params("cosine", None, 3, 1)
    k = lambda x, y, scale=1.0: scale * float(x @ y)
    assert check_kernel_params(k, None, 3, 1, {"scale": 2.0}) == {"scale": 2.0}
    with pytest.raises(TypeError, match="kernel_params must be a dict"):
        check_kernel_params(k, None, 3, 1, [2.0])
    X, _, X_test = _data(20, 2)
    params = check_kernel_params(k, None, 3, 1, {"scale": 2.0})
    assert_close(kernel_matrix(k, X_test, X, params), 2.0 * X_test @ X.T)
    params = check_kernel_params("poly", 0.5, 2, 1)
    assert_close(kernel_matrix("poly", X_test, X, params), polynomial_kernel(X_test, X, degree=2, gamma=0.5, coef0=1))


def test_check_kernel_params_with_the_conventions_of_svc():
    # scikit-learn's SVC accepts degree 0 and gamma "scale"/"auto" (resolved from the training data), and no
    # callable in mlnotes.svm: the keywords give those conventions, so SVC need not repeat the validation
    import sklearn.svm

    from mlnotes.kernels._base import check_kernel_params

    svc_names = ("linear", "poly", "rbf", "sigmoid", "precomputed")
    X, y, _ = _data(40, 3)
    X = X * np.array([1.0, 5.0, 0.1])
    for gamma in ("scale", "auto", 0.7):
        params = check_kernel_params("rbf", gamma, 0, 0.0, names=svc_names, allow_callable=False, min_degree=0,
                                     gamma_options=("scale", "auto"), X=X)
        reference = sklearn.svm.SVR(kernel="rbf", gamma=gamma).fit(X, y)._gamma
        assert params == dict(gamma=pytest.approx(reference, rel=1e-12), degree=0, coef0=0.0)
    constant = np.ones((5, 2))
    assert check_kernel_params("rbf", "scale", 3, 0, gamma_options=("scale",), X=constant)["gamma"] == 1.0
    with pytest.raises(ValueError, match="needs the training data"):
        check_kernel_params("rbf", "scale", 3, 0, gamma_options=("scale",))
    with pytest.raises(ValueError, match="gamma must be one of"):
        check_kernel_params("rbf", "median", 3, 0, gamma_options=("scale", "auto"), X=X)
    with pytest.raises(ValueError, match="kernel must be one of"):
        check_kernel_params("laplacian", 1.0, 3, 0, names=svc_names, allow_callable=False)
    with pytest.raises(ValueError, match="got the callable"):
        check_kernel_params(lambda a, b: 0.0, 1.0, 3, 0, names=svc_names, allow_callable=False)


# ------------------------------------------------------------------ KernelRidge: weights, one alpha per target, rounding
def test_kernel_ridge_sample_weight_and_alpha_per_target_as_sklearn():
    X, y, X_test = _data(50, 3)
    Y = np.column_stack([y, np.cos(X[:, 1]), X[:, 0] * X[:, 2]])
    weights = np.random.default_rng(3).uniform(0, 2, size=50)
    weights[[4, 9]] = 0.0
    for kw in (dict(kernel="rbf", gamma=0.4), dict(kernel="poly", degree=2, coef0=1.0)):
        for sample_weight in (weights, 2.5, None):
            for target, alpha in ((y, 0.7), (Y, 0.7), (Y, np.array([0.1, 1.0, 10.0]))):
                ours = KernelRidge(alpha=alpha, **kw).fit(X, target, sample_weight=sample_weight)
                theirs = sklearn.kernel_ridge.KernelRidge(alpha=alpha, **kw).fit(X, target, sample_weight=sample_weight)
                assert_close(ours.dual_coef_, theirs.dual_coef_)
                assert_close(ours.predict(X_test), theirs.predict(X_test))
    # the weighted problem: sum_i s_i (y_i - f(x_i))^2 + alpha ||w||^2 with the explicit features of a poly kernel
    Phi = polynomial_features_map(X, degree=2, gamma=1.0, coef0=1.0)
    w = np.linalg.solve(Phi.T @ (weights[:, None] * Phi) + 0.7 * np.eye(Phi.shape[1]), Phi.T @ (weights * y))
    fit = KernelRidge(alpha=0.7, kernel="poly", degree=2, gamma=1.0, coef0=1.0).fit(X, y, sample_weight=weights)
    assert_close(Phi.T @ fit.dual_coef_, w)


def test_kernel_ridge_rejects_bad_weights_and_alphas():
    X, y, _ = _data(20, 2)
    with pytest.raises(ValueError, match="non-negative"):
        KernelRidge().fit(X, y, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="sample_weight"):
        KernelRidge().fit(X, y, sample_weight=np.ones(19))
    with pytest.raises(ValueError, match="alpha must be finite and > 0 for every target"):
        KernelRidge(alpha=np.array([1.0, 0.0])).fit(X, np.column_stack([y, y]))
    with pytest.raises(ValueError, match="alpha"):
        KernelRidge(alpha=np.array([1.0, 2.0, 3.0])).fit(X, np.column_stack([y, y]))


def test_kernel_ridge_alpha_at_the_rounding_level_is_least_squares_with_a_warning_not_a_false_mercer_error():
    # the review's case: duplicated points, an RBF kernel (PSD) and alpha = 1e-15 below the rounding of K
    from scipy.linalg import LinAlgWarning

    X, y, _ = _data(40, 3)
    Xd, yd = np.vstack([X * 0.01, X * 0.01]), np.concatenate([y, y])
    with pytest.warns(LinAlgWarning, match="singular to working precision"):
        ours = KernelRidge(alpha=1e-15, kernel="rbf").fit(Xd, yd)
    K = pairwise_kernels(Xd, metric="rbf")
    residual = (K + 1e-15 * np.eye(80)) @ ours.dual_coef_ - yd
    lstsq = np.linalg.lstsq(K + 1e-15 * np.eye(80), yd, rcond=None)[0]
    assert np.linalg.norm(residual) <= 1.01 * np.linalg.norm((K + 1e-15 * np.eye(80)) @ lstsq - yd) + 1e-12
    # a kernel matrix that is not PSD is still an error naming Mercer's condition
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelRidge(alpha=1e-3, kernel="precomputed").fit(-np.eye(5), np.ones(5))


# ------------------------------------------------------------------ kernelised gradient descent: no diverged model
def _diabetes100():
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X[:100], (y[:100] - y[:100].mean()) / y[:100].std()


def test_kernel_gd_refuses_a_kernel_that_is_not_psd_instead_of_diverging():
    # review F11: the sigmoid kernel and a negated Gram matrix made the iterates overflow (predictions ~1e155)
    X, y = _diabetes100()
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelGDRegressor(kernel="sigmoid", gamma=0.5, coef0=-1, max_iter=3000).fit(X, y)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelGDRegressor(kernel="precomputed", max_iter=3000).fit(-pairwise_kernels(X, metric="rbf"), y)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelGDClassifier(kernel="precomputed").fit(-pairwise_kernels(X, metric="rbf"), (y > 0).astype(int))


def test_kernel_gd_raises_on_divergence_and_names_the_step_size():
    X, y = _diabetes100()
    with pytest.raises(ValueError, match=r"diverged.*step size 1e\+06 is too large.*decrease step_size"):
        KernelGDRegressor(step_size=1e6, max_iter=2000).fit(X, y)
    with pytest.raises(ValueError, match="diverged.*rescale y"):
        KernelGDRegressor(max_iter=100).fit(X, y * 1e300)
    # a step below 2/L converges, the default 1/L too: no error
    model = KernelGDRegressor(max_iter=50, tol=0).fit(X, y)
    assert np.all(np.isfinite(model.dual_coef_))


def test_kernel_gd_direction_validates_its_arguments():
    # review F12: an unknown loss was taken as logistic; NaN and wrong shapes passed through
    with pytest.raises(ValueError, match="loss"):
        kernel_gd_direction(np.zeros(3), np.eye(3), np.ones(3), loss="hinge")
    with pytest.raises(ValueError, match="K"):
        kernel_gd_direction(np.zeros(2), np.eye(2) * np.nan, np.ones(2))
    with pytest.raises(ValueError, match=r"K.*shape \(3, 3\)"):
        kernel_gd_direction(np.zeros(3), np.eye(2), np.ones(3))
    with pytest.raises(ValueError, match="beta"):
        kernel_gd_direction(np.zeros(2), np.eye(3), np.ones(3))
    with pytest.raises(ValueError, match="alpha"):
        kernel_gd_direction(np.zeros(3), np.eye(3), np.ones(3), alpha=-1.0)
    K = pairwise_kernels(np.arange(6.0).reshape(3, 2), metric="rbf", gamma=0.1)
    beta, y = np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.0, 1.0])
    assert_close(kernel_gd_direction(beta, K, y, 0.1), (K @ beta - y) / 3 + 0.1 * beta)
    assert_close(kernel_gd_direction(beta, K, y, 0.1, "logistic"), (1 / (1 + np.exp(-K @ beta)) - y) / 3 + 0.1 * beta)


def test_kernel_ridge_alpha_array_messages_speak_of_targets():
    # review F18: the messages spoke of "samples" and "X"
    X, y, _ = _data(40, 3)
    Y = np.column_stack([y, -y])
    with pytest.raises(ValueError, match=r"alpha has 3 entries but y has 2 target\(s\)"):
        KernelRidge(alpha=np.array([1.0, 2.0, 3.0])).fit(X, Y)
    with pytest.raises(ValueError, match=r"alpha has 2 entries but y has 1 target\(s\)"):
        KernelRidge(alpha=np.array([1.0, 3.0])).fit(X, y)
    with pytest.raises(ValueError, match=r"1-D array of shape \(n_targets,\), got shape \(1, 1\)"):
        KernelRidge(alpha=np.array([[1.0]])).fit(X, Y)
    with pytest.raises(TypeError, match="alpha must be a number"):
        KernelRidge(alpha=["a", "b"]).fit(X, Y)


def _use(model, X):
    # what a fitted estimator computes on new points
    return model.transform(X) if hasattr(model, "transform") else model.predict(X)


@pytest.mark.parametrize("make", [
    lambda **kw: KernelRidge(**kw), lambda **kw: KernelGDRegressor(max_iter=5, tol=0, **kw),
    lambda **kw: KernelNearestCentroid(**kw), lambda **kw: KernelKNeighborsClassifier(3, **kw),
    lambda **kw: KernelKMeans(2, random_state=0, **kw), lambda **kw: KernelPCA(2, **kw)],
    ids=["KernelRidge", "KernelGDRegressor", "KernelNearestCentroid", "KernelKNeighborsClassifier", "KernelKMeans",
         "KernelPCA"])
def test_a_kernel_matrix_with_nan_or_infinity_is_an_error_naming_the_kernel(make):
    # review F16/F17: an overflowing polynomial kernel and a callable returning NaN gave NaN predictions, predictions
    # from NaN distances, or a numpy error, silently or unclearly
    from sklearn.base import is_classifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4)) * 3
    y = (X[:, 0] > 0).astype(int) if is_classifier(make()) else X[:, 0]
    with pytest.raises(ValueError, match=r"infinite entries: kernel='poly' \(.*degree=400.*\) overflows float64"):
        _use(make(kernel="poly", degree=400, gamma=1.0, coef0=1.0).fit(X, y), X[:3])
    root = lambda a, b: np.sqrt(a @ b)                        # NaN where a.b < 0
    with pytest.raises(ValueError, match="NaN entries: the callable kernel '<lambda>' returned NaN"):
        _use(make(kernel=root).fit(X, y), X[:3])
    partial = lambda a, b: a @ b + 100.0 if abs(a[0]) < 20 else np.nan    # finite (and PSD) on the training points
    model = make(kernel=partial).fit(X, y)
    with pytest.raises(ValueError, match="the kernel between the new and the training points has NaN"):
        _use(model, X[:3] + np.array([50.0, 0, 0, 0]))


@pytest.mark.parametrize("offset", [1e4, 1e7])
def test_distance_based_estimators_are_exact_for_data_far_from_the_origin(offset):
    # review F21: k(x, x) - 2k(x, z) + k(z, z) cancelled catastrophically for |x| >> |x - z| (iris + 1e7: inertia
    # 64.4 instead of 78.9, changed labels and kNN predictions); scikit-learn's KMeans and KNN are exact
    import sklearn.cluster
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    X_test = X + np.random.default_rng(0).normal(scale=0.3, size=X.shape)
    for kernel in ("linear", "rbf"):
        reference = KernelKMeans(3, init=np.array([0, 50, 100]), tol=0, kernel=kernel, gamma=0.5).fit(X)
        shifted = KernelKMeans(3, init=np.array([0, 50, 100]), tol=0, kernel=kernel, gamma=0.5).fit(X + offset)
        np.testing.assert_array_equal(shifted.labels_, reference.labels_)
        np.testing.assert_allclose(shifted.inertia_, reference.inertia_, rtol=1e-9)
        np.testing.assert_allclose(shifted.transform(X_test + offset), reference.transform(X_test), rtol=1e-7,
                                   atol=1e-9)
        for Model in (KernelKNeighborsClassifier, KernelNearestCentroid):
            np.testing.assert_array_equal(Model(kernel=kernel, gamma=0.5).fit(X + offset, y).predict(X_test + offset),
                                          Model(kernel=kernel, gamma=0.5).fit(X, y).predict(X_test))
    sk = sklearn.cluster.KMeans(3, init=(X + offset)[[0, 50, 100]], n_init=1, algorithm="lloyd", tol=0).fit(X + offset)
    ours = KernelKMeans(3, init=np.array([0, 50, 100]), tol=0).fit(X + offset)
    np.testing.assert_array_equal(ours.labels_, sk.labels_)
    np.testing.assert_allclose(ours.inertia_, sk.inertia_, rtol=1e-9)
    distances, _ = KernelKNeighborsClassifier(5).fit(X + offset, y).kneighbors(X_test + offset)
    reference_distances, _ = sklearn.neighbors.KNeighborsClassifier(5).fit(X, y).kneighbors(X_test)
    np.testing.assert_allclose(distances, reference_distances, rtol=1e-7, atol=1e-9)


def test_rbf_and_laplacian_estimators_are_exact_for_data_far_from_the_origin():
    # the rbf/laplacian kernels are functions of x - z: evaluated on centred inputs they keep their digits far from
    # the origin (||x||^2 + ||z||^2 - 2 x.z lost them; review F20's remark on KernelRidge)
    X, y, X_test = _data(60, 3)
    for kernel in ("rbf", "laplacian"):
        near = KernelRidge(alpha=0.1, kernel=kernel, gamma=0.5).fit(X, y)
        far = KernelRidge(alpha=0.1, kernel=kernel, gamma=0.5).fit(X + 1e6, y)
        assert_close(far.dual_coef_, near.dual_coef_)
        assert_close(far.predict(X_test + 1e6), near.predict(X_test))
        assert_close(KernelPCA(3, kernel=kernel, gamma=0.5).fit(X + 1e6).transform(X_test + 1e6),
                     KernelPCA(3, kernel=kernel, gamma=0.5).fit(X).transform(X_test))


def test_a_precomputed_test_kernel_of_the_wrong_width_is_named_as_such():
    # review F24: the message spoke of "features"
    X, y, _ = _data(40, 3)
    K = pairwise_kernels(X, metric="rbf")
    for model in (KernelRidge(kernel="precomputed").fit(K, y), KernelPCA(2, kernel="precomputed").fit(K),
                  KernelNearestCentroid(kernel="precomputed").fit(K, (y > 0).astype(int))):
        with pytest.raises(ValueError, match=r"kernel between the new points and the 40 training points, of shape "
                                             r"\(n_test, 40\); got shape \(40, 5\)"):
            _use(model, K[:, :5])
