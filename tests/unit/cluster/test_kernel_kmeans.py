"""KernelKMeans: scikit-learn's Lloyd k-means with a linear kernel and the same start, k-means on explicit features
with a polynomial kernel, the empty-cluster rule, and the errors."""

import numpy as np
import pytest
import sklearn.cluster
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from mlnotes.cluster import KernelKMeans, kernel_kmeans_distances
from mlnotes.kernels import polynomial_features_map, polynomial_kernel, rbf_kernel


def _blobs(n=150, k=4, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=2.0, size=(k, 3))
    X = centres[rng.integers(0, k, size=n)] + rng.normal(size=(n, 3))
    return X, rng.normal(scale=2.0, size=(40, 3))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [2, 4, 7])
def test_linear_kernel_equals_sklearn_lloyd_from_the_same_start(k, seed):
    X, X_test = _blobs(seed=seed)
    start = np.random.default_rng(100 + seed).choice(len(X), size=k, replace=False)
    ours = KernelKMeans(k, init=start, tol=0.0).fit(X)
    ref = sklearn.cluster.KMeans(k, init=X[start], n_init=1, algorithm="lloyd", tol=0.0).fit(X)
    assert np.array_equal(ours.labels_, ref.labels_)
    assert ours.n_iter_ == ref.n_iter_
    assert abs(ours.inertia_ - ref.inertia_) <= 1e-10 * ref.inertia_
    np.testing.assert_allclose(ours.cluster_weights_.T @ X, ref.cluster_centers_, rtol=0, atol=1e-12)
    assert np.array_equal(ours.predict(X_test), ref.predict(X_test))


def test_tol_is_relative_to_the_total_variance():
    # scikit-learn's tol is relative to the mean variance per feature: KMeans(tol=t) = KernelKMeans(tol=t / d)
    X, _ = _blobs(n=400, k=6, seed=3)
    start = np.arange(0, 60, 10)
    for t in (1e-1, 1e-2, 1e-3):
        ours = KernelKMeans(6, init=start, tol=t / X.shape[1]).fit(X)
        ref = sklearn.cluster.KMeans(6, init=X[start], n_init=1, algorithm="lloyd", tol=t).fit(X)
        assert ours.n_iter_ == ref.n_iter_ and np.array_equal(ours.labels_, ref.labels_)


def test_polynomial_kernel_is_kmeans_on_explicit_features():
    X, X_test = _blobs(seed=4)
    params = dict(degree=2, gamma=0.5, coef0=1.0)
    Phi, Phi_test = polynomial_features_map(X, **params), polynomial_features_map(X_test, **params)
    start = np.array([5, 17, 60])
    ours = KernelKMeans(3, init=start, tol=0.0, kernel="poly", **params).fit(X)
    ref = sklearn.cluster.KMeans(3, init=Phi[start], n_init=1, algorithm="lloyd", tol=0.0).fit(Phi)
    assert np.array_equal(ours.labels_, ref.labels_)
    assert abs(ours.inertia_ - ref.inertia_) <= 1e-9 * ref.inertia_
    assert np.array_equal(ours.predict(X_test), ref.predict(Phi_test))
    pre = KernelKMeans(3, init=start, tol=0.0, kernel="precomputed").fit(polynomial_kernel(X, **params))
    assert np.array_equal(pre.labels_, ours.labels_)
    assert np.array_equal(pre.predict(polynomial_kernel(X_test, X, **params)), ours.predict(X_test))


def test_rbf_kernel_separates_rings_that_kmeans_cannot():
    rng = np.random.default_rng(0)
    angle = rng.uniform(0, 2 * np.pi, 200)
    radius = np.where(np.arange(200) < 100, 1.0, 4.0) + 0.1 * rng.normal(size=200)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    truth = (np.arange(200) >= 100).astype(int)
    rings = KernelKMeans(2, kernel="rbf", gamma=0.3, n_init=10, random_state=0).fit(X)
    agreement = max((rings.labels_ == truth).mean(), (rings.labels_ != truth).mean())
    assert agreement == 1.0
    plain = KernelKMeans(2, n_init=10, random_state=0).fit(X)
    assert max((plain.labels_ == truth).mean(), (plain.labels_ != truth).mean()) < 0.8


def test_distance_step_and_inertia():
    X, _ = _blobs(n=30)
    K = rbf_kernel(X, gamma=0.2)
    model = KernelKMeans(3, kernel="rbf", gamma=0.2, random_state=1).fit(X)
    D = kernel_kmeans_distances(K, model.cluster_weights_)
    assert np.array_equal(D.argmin(axis=1), model.labels_)
    assert model.inertia_ == pytest.approx(D[np.arange(30), model.labels_].sum(), rel=1e-12)
    # each centre is the mean of its members: weights 1/n_c on them
    for c in range(3):
        members = model.labels_ == c
        np.testing.assert_allclose(model.cluster_weights_[:, c], members / members.sum())


def test_empty_cluster_keeps_its_previous_centre():
    # two tight pairs, and a start whose third centre, sample 4, is a copy of sample 0: in the first assignment
    # samples 0 and 4 are at distance 0 from centres 0 and 2 (a tie: the lower index, 0), so cluster 2 is empty
    # and keeps its centre phi(x_4); centre 0 moves to the mean of samples 0, 1, 4, and the final labels are
    # computed against these centres: samples 0 and 4 now go to cluster 2
    X = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0], [0.0, 0.0]])
    one_step = KernelKMeans(3, init=np.array([0, 2, 4]), max_iter=1).fit(X)
    np.testing.assert_array_equal(one_step.cluster_weights_[:, 2], [0, 0, 0, 0, 1])
    np.testing.assert_allclose(one_step.cluster_weights_[:, 0], [1 / 3, 1 / 3, 0, 0, 1 / 3])
    assert np.array_equal(one_step.labels_, [2, 0, 1, 1, 2])
    final = KernelKMeans(3, init=np.array([0, 2, 4]), tol=0.0).fit(X)
    assert np.array_equal(final.labels_, [2, 0, 1, 1, 2])
    np.testing.assert_allclose(final.cluster_weights_[:, 2], [0.5, 0, 0, 0, 0.5])
    assert final.inertia_ == pytest.approx(0.005, rel=1e-12)     # |x_3 - mean(x_2, x_3)|^2 * 2 = 2 * 0.05^2


def test_random_starts_are_seeded():
    X, _ = _blobs()
    for init in ("k-means++", "random"):
        a = KernelKMeans(4, init=init, n_init=3, random_state=7, kernel="rbf").fit(X)
        b = clone(a).fit(X)
        assert np.array_equal(a.labels_, b.labels_) and a.inertia_ == b.inertia_


def test_errors():
    X, _ = _blobs(n=20)
    with pytest.raises(ValueError, match="n_samples=20 should be >= n_clusters=25"):
        KernelKMeans(25).fit(X)
    with pytest.raises(ValueError, match="n_clusters must be an integer >= 1"):
        KernelKMeans(0).fit(X)
    with pytest.raises(ValueError, match="distinct sample indices"):
        KernelKMeans(2, init=np.array([3, 3])).fit(X)
    with pytest.raises(ValueError, match="integer indices"):
        KernelKMeans(2, init=X[:2]).fit(X)
    with pytest.raises(ValueError, match="n_init must be 1"):
        KernelKMeans(2, init=np.array([0, 1]), n_init=2).fit(X)
    with pytest.raises(ValueError, match="init must be"):
        KernelKMeans(2, init="greedy").fit(X)
    with pytest.raises(ValueError, match="gamma must be > 0"):
        KernelKMeans(2, kernel="rbf", gamma=-1.0).fit(X)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KernelKMeans(2).fit(X)


def test_a_gram_matrix_that_is_not_psd_is_rejected():
    X, _ = _blobs(n=60)
    with pytest.raises(ValueError, match="kernel='sigmoid'.*not positive semidefinite"):
        KernelKMeans(3, kernel="sigmoid", gamma=2.0, coef0=-1.0).fit(X)
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelKMeans(3, kernel="poly", degree=3, coef0=-2.0).fit(X)
    K = rbf_kernel(X) - 0.5 * np.eye(60)
    with pytest.raises(ValueError, match="precomputed kernel matrix\\) is not positive semidefinite"):
        KernelKMeans(3, kernel="precomputed").fit(K)


def test_transform_and_score_are_kmeans_with_a_linear_kernel():
    # review F14: transform, fit_transform and score were missing
    rng = np.random.default_rng(14)
    X, X_new = rng.normal(size=(60, 3)), rng.normal(size=(9, 3))
    idx = np.array([0, 7, 33])
    ours = KernelKMeans(3, init=idx, tol=0).fit(X)
    theirs = sklearn.cluster.KMeans(3, init=X[idx], n_init=1, algorithm="lloyd", tol=0).fit(X)
    np.testing.assert_allclose(ours.transform(X_new), theirs.transform(X_new), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.score(X_new), theirs.score(X_new), rtol=1e-9)
    np.testing.assert_allclose(KernelKMeans(3, init=idx, tol=0).fit_transform(X), theirs.transform(X), rtol=1e-9,
                               atol=1e-12)
    # in feature space: the distance to a centre from the Gram matrix, against explicit features
    Phi, Phi_new = (polynomial_features_map(A, degree=2, gamma=1.0, coef0=1.0) for A in (X, X_new))
    poly = KernelKMeans(3, init=idx, kernel="poly", degree=2, gamma=1.0, coef0=1.0).fit(X)
    centres = poly.cluster_weights_.T @ Phi
    explicit = np.linalg.norm(Phi_new[:, None, :] - centres[None, :, :], axis=2)
    np.testing.assert_allclose(poly.transform(X_new), explicit, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="precomputed"):
        KernelKMeans(3, init=idx, kernel="precomputed").fit(X @ X.T).transform(X_new @ X.T)


def test_fewer_distinct_clusters_than_asked_warns():
    X = np.array([[0.0, 0.0]] * 5 + [[1.0, 1.0]] * 5)
    with pytest.warns(ConvergenceWarning, match=r"distinct clusters \(2\) found smaller than n_clusters \(3\)"):
        model = KernelKMeans(3, random_state=0).fit(X)
    assert len(np.unique(model.labels_)) == 2


def test_feature_names_out_are_sklearns():
    X = np.random.default_rng(15).normal(size=(20, 2))
    ours = KernelKMeans(3, random_state=0).fit(X)
    theirs = sklearn.cluster.KMeans(3, n_init=1, random_state=0).fit(X)
    assert list(ours.get_feature_names_out()) == [f"kernelkmeans{c}" for c in range(3)]
    assert len(theirs.get_feature_names_out()) == len(ours.get_feature_names_out())
    assert ours.set_output(transform="default").transform(X).shape == (20, 3)
