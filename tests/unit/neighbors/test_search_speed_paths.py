"""The Manhattan and Chebyshev distances come from scipy's ``cdist`` and the k smallest of a row from
``np.partition``; the neighbours must be those of the path they replaced, kept here as the reference (the
difference array summed or maximised by numpy, and a stable sort of every row), and the distances the same to
1e-12 relative."""

import numpy as np
import pytest

from mlnotes.neighbors import KNeighborsClassifier, KNeighborsRegressor, pairwise_distances
from mlnotes.neighbors._search import _stable_smallest


def reference_distances(X, Y, metric, p=None):
    diff = np.abs(X[:, None, :] - Y[None, :, :])
    if metric == "manhattan":
        return diff.sum(axis=-1)
    if metric == "chebyshev":
        return diff.max(axis=-1)
    if metric == "minkowski":
        return (diff**p).sum(axis=-1) ** (1 / p)
    return np.sqrt((diff**2).sum(axis=-1))


def reference_kneighbors(X, Y, metric, k, p=None):
    """Distances and indices of the k nearest, ties by training index (a stable sort of every row)."""
    D = reference_distances(X, Y, metric, p)
    ind = np.argsort(D, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(D, ind, axis=1), ind


def datasets():
    rng = np.random.default_rng(0)
    yield "continuous", rng.normal(size=(700, 13)), rng.normal(size=(150, 13))
    # small integers: many training points at exactly the same distance (exact sums in every order)
    yield "integer ties", rng.integers(0, 3, size=(400, 4)).astype(float), rng.integers(0, 3, size=(90, 4)) * 1.0
    yield "duplicated rows", np.repeat(rng.normal(size=(60, 5)), 4, axis=0), rng.normal(size=(40, 5))


METRICS = [("manhattan", {}), ("chebyshev", {}), ("minkowski", {"p": 3}), ("minkowski", {"p": 0.5}),
           ("euclidean", {})]


@pytest.mark.parametrize("metric, kwargs", METRICS, ids=lambda v: str(v))
@pytest.mark.parametrize("k", [1, 5, 37])
def test_kneighbors_are_the_stable_sort_of_the_direct_formula(metric, kwargs, k):
    for name, X, Q in datasets():
        model = KNeighborsRegressor(k, metric=metric, **kwargs).fit(X, np.arange(len(X), dtype=float))
        dist, ind = model.kneighbors(Q)
        ref_dist, ref_ind = reference_kneighbors(Q, X, metric, k, kwargs.get("p"))
        np.testing.assert_array_equal(ind, ref_ind, err_msg=name)
        np.testing.assert_allclose(dist, ref_dist, rtol=1e-12, atol=0, err_msg=name)


@pytest.mark.parametrize("metric", ["manhattan", "chebyshev"])
def test_the_whole_training_set_and_the_training_set_as_queries(metric):
    _, X, _ = next(datasets())
    X = X[:50]
    model = KNeighborsClassifier(50, metric=metric).fit(X, np.arange(50) % 3)
    dist, ind = model.kneighbors(X)                                # k = n_train: every point, sorted
    ref_dist, ref_ind = reference_kneighbors(X, X, metric, 50)
    np.testing.assert_array_equal(ind, ref_ind)
    np.testing.assert_allclose(dist, ref_dist, rtol=1e-12, atol=0)
    dist, ind = model.kneighbors(n_neighbors=4)                    # each point without itself
    keep = ref_ind != np.arange(50)[:, None]
    np.testing.assert_array_equal(ind, ref_ind[keep].reshape(50, 49)[:, :4])


@pytest.mark.parametrize("metric, kwargs", METRICS[:3], ids=lambda v: str(v))
def test_predictions_agree_with_scikit_learn_without_boundary_ties(metric, kwargs):
    from sklearn.neighbors import KNeighborsClassifier as SklearnKNN

    _, X, Q = next(datasets())
    y = np.random.default_rng(1).integers(0, 3, len(X))
    ours = KNeighborsClassifier(7, metric=metric, weights="distance", **kwargs).fit(X, y)
    theirs = SklearnKNN(7, metric=metric, weights="distance", algorithm="brute", **kwargs).fit(X, y)
    np.testing.assert_array_equal(ours.kneighbors(Q)[1], theirs.kneighbors(Q)[1])
    np.testing.assert_allclose(ours.predict_proba(Q), theirs.predict_proba(Q), rtol=1e-12)


@pytest.mark.parametrize("metric", ["manhattan", "chebyshev"])
def test_pairwise_distances_are_the_direct_formula(metric):
    _, X, Q = next(datasets())
    np.testing.assert_allclose(pairwise_distances(Q, X, metric), reference_distances(Q, X, metric), rtol=1e-12,
                               atol=0)


def test_stable_smallest_is_the_stable_sort():
    rng = np.random.default_rng(2)
    for R in (rng.integers(0, 4, size=(300, 40)).astype(float),     # ties at the k-th value in most rows
              rng.normal(size=(300, 40)),                          # no ties
              np.full((5, 40), 1.5), np.array([[np.inf, 1.0, np.inf, 0.0, np.inf]])):
        for k in (1, 3, R.shape[1] - 1, R.shape[1]):
            np.testing.assert_array_equal(_stable_smallest(R, k), np.argsort(R, axis=1, kind="stable")[:, :k])
