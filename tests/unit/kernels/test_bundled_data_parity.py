"""Chapter 16's estimators against scikit-learn on data they were not developed on: scikit-learn's bundled data
sets (diabetes, iris, wine, breast cancer), raw and with features rescaled over twelve orders of magnitude."""

import numpy as np
import pytest
import sklearn.cluster
import sklearn.decomposition
import sklearn.kernel_ridge
import sklearn.neighbors
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine

from mlnotes.cluster import KernelKMeans
from mlnotes.decomposition import KernelPCA
from mlnotes.kernels import KernelKNeighborsClassifier, KernelNearestCentroid, KernelRidge

LOADERS = {"diabetes": load_diabetes, "iris": load_iris, "wine": load_wine, "breast_cancer": load_breast_cancer}


def _data(name, awkward):
    X, y = LOADERS[name](return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    if awkward:       # feature j scaled by 10^(-6 + 12 j / (d - 1)): from 1e-6 to 1e6
        X = X * np.logspace(-6, 6, X.shape[1])
    return X, y


@pytest.mark.parametrize("awkward", [False, True], ids=["standardised", "scaled-1e-6-to-1e6"])
@pytest.mark.parametrize("params", [dict(kernel="linear"), dict(kernel="rbf", gamma=0.05),
                                    dict(kernel="poly", degree=2, gamma=0.1, coef0=1.0)],
                         ids=lambda p: p["kernel"])
def test_kernel_ridge_on_diabetes(params, awkward):
    X, y = _data("diabetes", awkward)
    if awkward and params["kernel"] != "linear":
        params = dict(params, gamma=params["gamma"] * 1e-12)      # keep the kernel away from 0 and overflow
    ours = KernelRidge(alpha=1.0, **params).fit(X, y).predict(X)
    ref = sklearn.kernel_ridge.KernelRidge(alpha=1.0, **params).fit(X, y).predict(X)
    scale = np.abs(ref).max()
    if awkward and params["kernel"] == "linear":
        # the Gram matrix spans 1e-12 to 1e12 (condition about 1e24): the dual solve keeps only a few digits, in
        # scikit-learn's as in ours (measured: errors 12 and 15 on predictions of size 140). Compared with the
        # primal solution (X^T X + alpha I)^{-1} X^T y, ours must be no worse than twice scikit-learn's error.
        exact = X @ np.linalg.solve(X.T @ X + np.eye(X.shape[1]), X.T @ y)
        assert np.abs(ours - exact).max() <= 2 * np.abs(ref - exact).max() + 1e-8 * scale
        return
    assert np.abs(ours - ref).max() <= 1e-8 * scale


@pytest.mark.parametrize("name", ["iris", "wine"])
@pytest.mark.parametrize("awkward", [False, True], ids=["standardised", "scaled-1e-6-to-1e6"])
def test_kernel_pca_on_bundled_data(name, awkward):
    X, _ = _data(name, awkward)
    ours = KernelPCA(3, kernel="linear").fit(X)
    ref = sklearn.decomposition.KernelPCA(3, kernel="linear", eigen_solver="dense").fit(X)
    np.testing.assert_allclose(ours.eigenvalues_, ref.eigenvalues_, rtol=1e-8)
    Z, Z_ref = ours.transform(X), ref.transform(X)
    Z = Z * np.where((Z * Z_ref).sum(axis=0) < 0, -1.0, 1.0)
    assert np.abs(Z - Z_ref).max() <= 1e-8 * np.abs(Z_ref).max()


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer"])
@pytest.mark.parametrize("awkward", [False, True], ids=["standardised", "scaled-1e-6-to-1e6"])
def test_linear_kernel_neighbours_and_centroids_on_bundled_data(name, awkward):
    X, y = _data(name, awkward)
    train, test = np.arange(len(y)) % 3 != 0, np.arange(len(y)) % 3 == 0
    ours = KernelKNeighborsClassifier(n_neighbors=5).fit(X[train], y[train])
    ref = sklearn.neighbors.KNeighborsClassifier(n_neighbors=5).fit(X[train], y[train])
    agree = np.mean(ours.predict(X[test]) == ref.predict(X[test]))
    # the kernel distance k(x,x) - 2k(x,z) + k(z,z) loses digits a direct difference keeps: near-ties may flip
    assert agree >= (1.0 if not awkward else 0.95), agree
    centroid = KernelNearestCentroid().fit(X[train], y[train])
    ref_centroid = sklearn.neighbors.NearestCentroid().fit(X[train], y[train])
    assert np.mean(centroid.predict(X[test]) == ref_centroid.predict(X[test])) >= (1.0 if not awkward else 0.95)


@pytest.mark.parametrize("name", ["iris", "wine"])
def test_kernel_kmeans_on_bundled_data(name):
    X, _ = _data(name, False)
    start = np.random.default_rng(0).choice(len(X), size=3, replace=False)
    ours = KernelKMeans(3, init=start, tol=0.0).fit(X)
    ref = sklearn.cluster.KMeans(3, init=X[start], n_init=1, algorithm="lloyd", tol=0.0).fit(X)
    assert np.array_equal(ours.labels_, ref.labels_)
    assert abs(ours.inertia_ - ref.inertia_) <= 1e-10 * ref.inertia_
