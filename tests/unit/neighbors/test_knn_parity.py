"""k-nearest neighbours: parity with scikit-learn's brute force, the tie rules, and clear errors."""

import warnings

import numpy as np
import pytest
import sklearn.neighbors as skn
from scipy.spatial.distance import cdist

from mlnotes.neighbors import KNeighborsClassifier, KNeighborsRegressor, neighbour_weights, pairwise_distances

RNG = np.random.default_rng(0)
X_TRAIN = RNG.normal(size=(150, 4))
Y_CLASS = RNG.choice(np.array(["ant", "bee", "cat"]), 150)
Y_REG = RNG.normal(size=150)
X_TEST = RNG.normal(size=(60, 4))
VI = np.linalg.inv(np.cov(X_TRAIN.T))

METRICS = [("minkowski", {}), ("euclidean", {}), ("manhattan", {}), ("chebyshev", {}), ("minkowski", {"p": 3}),
           ("minkowski", {"p": 0.5}), ("cosine", {}), ("mahalanobis", {"metric_params": {"VI": VI}})]


def _sk(cls, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)          # scikit-learn's note that p < 1 is not a metric
        return cls(algorithm="brute", **kwargs)


@pytest.mark.filterwarnings("ignore:Mind that for 0 < p < 1")
@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("metric, kwargs", METRICS)
def test_classifier_and_regressor_agree_with_scikit_learn(metric, kwargs, weights):
    ours = KNeighborsClassifier(7, weights=weights, metric=metric, **kwargs).fit(X_TRAIN, Y_CLASS)
    theirs = _sk(skn.KNeighborsClassifier, n_neighbors=7, weights=weights, metric=metric, **kwargs).fit(X_TRAIN, Y_CLASS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        d_theirs, i_theirs = theirs.kneighbors(X_TEST)
        p_theirs = theirs.predict_proba(X_TEST)
        y_theirs = theirs.predict(X_TEST)
    d_ours, i_ours = ours.kneighbors(X_TEST)
    np.testing.assert_array_equal(i_ours, i_theirs)
    np.testing.assert_allclose(d_ours, d_theirs, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ours.predict_proba(X_TEST), p_theirs, rtol=1e-12, atol=1e-13)
    np.testing.assert_array_equal(ours.predict(X_TEST), y_theirs)
    reg = KNeighborsRegressor(7, weights=weights, metric=metric, **kwargs).fit(X_TRAIN, Y_REG)
    reg_sk = _sk(skn.KNeighborsRegressor, n_neighbors=7, weights=weights, metric=metric, **kwargs).fit(X_TRAIN, Y_REG)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        np.testing.assert_allclose(reg.predict(X_TEST), reg_sk.predict(X_TEST), rtol=1e-12, atol=1e-13)


def test_multi_output_regression_and_queries_of_the_training_set():
    Y2 = np.column_stack([Y_REG, Y_REG**2])
    ours = KNeighborsRegressor(4, weights="distance").fit(X_TRAIN, Y2)
    theirs = skn.KNeighborsRegressor(n_neighbors=4, weights="distance", algorithm="brute").fit(X_TRAIN, Y2)
    np.testing.assert_allclose(ours.predict(X_TEST), theirs.predict(X_TEST), rtol=1e-12)
    d_ours, i_ours = ours.kneighbors()                      # each training point without itself
    d_theirs, i_theirs = theirs.kneighbors()
    np.testing.assert_array_equal(i_ours, i_theirs)
    np.testing.assert_allclose(d_ours, d_theirs, rtol=1e-12)
    assert not np.any(i_ours == np.arange(len(X_TRAIN))[:, None])


def _stable_reference(D, k):
    """The tie rule written out: sort by (distance, index)."""
    return np.argsort(D, axis=1, kind="stable")[:, :k]


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "chebyshev", "cosine"])
def test_equal_distances_are_ordered_by_training_index(metric):
    # points of a small integer grid: many exactly equal distances, computed exactly by every formula
    rng = np.random.default_rng(1)
    X = rng.integers(-2, 3, size=(80, 2)).astype(float)
    Q = rng.integers(-2, 3, size=(40, 2)).astype(float)
    if metric == "cosine":
        X, Q = X[np.abs(X).sum(axis=1) > 0], Q[np.abs(Q).sum(axis=1) > 0]
    D = pairwise_distances(Q, X, metric)
    for k in (1, 3, 10, len(X)):
        dist, ind = KNeighborsClassifier(k, metric=metric).fit(X, np.zeros(len(X))).kneighbors(Q)
        np.testing.assert_array_equal(ind, _stable_reference(D, k))
        np.testing.assert_array_equal(dist, np.take_along_axis(D, ind, axis=1))
        # scikit-learn returns the same distances (it may pick other points among those tied at the k-th)
        sk = skn.KNeighborsClassifier(n_neighbors=k, metric=metric, algorithm="brute").fit(X, np.zeros(len(X)))
        np.testing.assert_allclose(dist, sk.kneighbors(Q)[0], rtol=0, atol=1e-15)


def test_without_a_tie_at_the_kth_distance_predictions_equal_scikit_learn_on_tied_data():
    rng = np.random.default_rng(2)
    X = rng.integers(-6, 7, size=(120, 2)).astype(float)
    y = rng.integers(0, 3, 120)
    Q = rng.integers(-6, 7, size=(200, 2)).astype(float)
    D = np.sort(pairwise_distances(Q, X), axis=1)
    for k in (1, 4, 9):
        free = D[:, k - 1] < D[:, k]                        # no training point tied with the k-th
        assert free.sum() >= 20
        for weights in ("uniform", "distance"):
            ours = KNeighborsClassifier(k, weights=weights).fit(X, y)
            theirs = skn.KNeighborsClassifier(n_neighbors=k, weights=weights, algorithm="brute").fit(X, y)
            np.testing.assert_array_equal(ours.predict(Q[free]), theirs.predict(Q[free]))
            np.testing.assert_allclose(ours.predict_proba(Q[free]), theirs.predict_proba(Q[free]), rtol=1e-14)


def test_a_tie_of_votes_goes_to_the_smallest_label():
    X = np.array([[-1.0], [1.0], [-2.0], [2.0]])
    for order in ([0, 1, 2, 3], [1, 0, 3, 2]):
        y = np.array(["b", "a", "b", "a"])[order]
        ours = KNeighborsClassifier(2).fit(X[order], y)
        theirs = skn.KNeighborsClassifier(n_neighbors=2, algorithm="brute").fit(X[order], y)
        assert ours.predict([[0.0]])[0] == "a" == theirs.predict([[0.0]])[0]
        np.testing.assert_array_equal(ours.predict_proba([[0.0]]), [[0.5, 0.5]])


def test_distance_weights_give_exact_copies_all_the_weight():
    X = np.array([[0.0], [0.0], [1.0], [0.5]])
    y = np.array([0, 1, 1, 1])
    ours = KNeighborsClassifier(4, weights="distance").fit(X, y)
    theirs = skn.KNeighborsClassifier(n_neighbors=4, weights="distance", algorithm="brute").fit(X, y)
    np.testing.assert_array_equal(ours.predict_proba([[0.0]]), [[0.5, 0.5]])
    np.testing.assert_array_equal(ours.predict_proba([[0.0]]), theirs.predict_proba([[0.0]]))
    assert ours.predict([[0.0]])[0] == 0                    # the vote tie between the two copies: smallest label
    np.testing.assert_array_equal(neighbour_weights(np.array([[0.0, 2.0], [1.0, 4.0]]), "distance"),
                                  [[1.0, 0.0], [1.0, 0.25]])
    reg = KNeighborsRegressor(3, weights="distance").fit(X, [1.0, 3.0, 10.0, 7.0])
    assert reg.predict([[0.0]])[0] == 2.0


def test_one_class_is_accepted_as_in_scikit_learn():
    ours = KNeighborsClassifier(3).fit(X_TRAIN[:10], np.full(10, 7))
    np.testing.assert_array_equal(ours.predict(X_TEST[:5]), np.full(5, 7))
    np.testing.assert_array_equal(ours.predict_proba(X_TEST[:5]), np.ones((5, 1)))


def test_the_search_is_certified_against_rounding():
    # a large offset: ||x||^2 - 2 x.y + ||y||^2 cancels badly; the ranking must still be the direct formula's
    rng = np.random.default_rng(3)
    X = 1e6 + rng.normal(size=(300, 3)) * 1e-3
    Q = 1e6 + rng.normal(size=(50, 3)) * 1e-3
    D = cdist(Q, X)
    dist, ind = KNeighborsRegressor(5).fit(X, np.zeros(300)).kneighbors(Q)
    np.testing.assert_array_equal(ind, _stable_reference(D, 5))
    np.testing.assert_allclose(dist, np.take_along_axis(D, ind, axis=1), rtol=1e-12)
    # duplicated training rows are tied exactly, and the lower index comes first
    Xd = np.vstack([X_TRAIN, X_TRAIN[:20]])
    ind = KNeighborsClassifier(2).fit(Xd, np.zeros(len(Xd))).kneighbors(X_TRAIN[:20], return_distance=False)
    np.testing.assert_array_equal(ind, np.column_stack([np.arange(20), 150 + np.arange(20)]))


def test_mahalanobis_takes_the_covariance_or_its_inverse():
    V = np.cov(X_TRAIN.T)
    a = KNeighborsRegressor(3, metric="mahalanobis", metric_params={"V": V}).fit(X_TRAIN, Y_REG)
    b = KNeighborsRegressor(3, metric="mahalanobis", metric_params={"VI": np.linalg.inv(V)}).fit(X_TRAIN, Y_REG)
    np.testing.assert_allclose(a.kneighbors(X_TEST)[0], b.kneighbors(X_TEST)[0], rtol=1e-12)
    np.testing.assert_allclose(a.kneighbors(X_TEST)[0], np.sort(cdist(X_TEST, X_TRAIN, "mahalanobis", VI=np.linalg.inv(V)),
                                                                axis=1)[:, :3], rtol=1e-12)


@pytest.mark.parametrize("metric, kwargs", [("euclidean", {}), ("manhattan", {}), ("chebyshev", {}),
                                            ("minkowski", {"p": 3}), ("cosine", {}), ("mahalanobis", {"VI": VI})])
def test_pairwise_distances_agree_with_scipy(metric, kwargs):
    scipy_name = {"manhattan": "cityblock"}.get(metric, metric)
    np.testing.assert_allclose(pairwise_distances(X_TEST, X_TRAIN, metric, **kwargs),
                               cdist(X_TEST, X_TRAIN, scipy_name, **kwargs), rtol=1e-12, atol=1e-14)


def test_cosine_distance_of_a_zero_vector_is_one():
    D = pairwise_distances([[0.0, 0.0], [1.0, 0.0]], [[0.0, 0.0], [2.0, 0.0], [0.0, 3.0]], "cosine")
    np.testing.assert_array_equal(D, [[1.0, 1.0, 1.0], [1.0, 0.0, 1.0]])


@pytest.mark.parametrize("make, message", [
    (lambda: KNeighborsClassifier(0).fit(X_TRAIN, Y_CLASS), "n_neighbors must be an integer >= 1"),
    (lambda: KNeighborsClassifier(weights="gaussian").fit(X_TRAIN, Y_CLASS), "weights must be one of"),
    (lambda: KNeighborsClassifier(metric="hamming").fit(X_TRAIN, Y_CLASS), "metric must be one of"),
    (lambda: KNeighborsClassifier(p=0).fit(X_TRAIN, Y_CLASS), "p must be > 0"),
    (lambda: KNeighborsClassifier(p=-1.0).fit(X_TRAIN, Y_CLASS), "p must be > 0"),
    (lambda: KNeighborsClassifier(metric="mahalanobis").fit(X_TRAIN, Y_CLASS), "needs exactly one of VI"),
    (lambda: KNeighborsClassifier(metric="mahalanobis", metric_params={"VI": np.eye(3)}).fit(X_TRAIN, Y_CLASS),
     r"shape \(4, 4\)"),
    (lambda: KNeighborsClassifier(metric="mahalanobis", metric_params={"VI": np.diag([1.0, 1, 1, 0])}).fit(X_TRAIN, Y_CLASS),
     "positive definite"),
    (lambda: KNeighborsClassifier(metric="mahalanobis", metric_params={"VI": np.triu(np.ones((4, 4)))}).fit(X_TRAIN, Y_CLASS),
     "symmetric"),
    (lambda: KNeighborsClassifier(metric_params={"w": 1}).fit(X_TRAIN, Y_CLASS), "metric_params accepts"),
    (lambda: KNeighborsClassifier().fit(np.where(X_TRAIN > 2, np.nan, X_TRAIN), Y_CLASS), "NaN"),
    (lambda: KNeighborsClassifier().fit(X_TRAIN, Y_CLASS).predict(np.full((1, 4), np.inf)), "infinity"),
    (lambda: KNeighborsClassifier(200).fit(X_TRAIN, Y_CLASS).predict(X_TEST), "k larger than the training set"),
    (lambda: KNeighborsRegressor(3).fit(X_TRAIN[:3], Y_REG[:3]).kneighbors(), "k larger than the training set"),
    (lambda: KNeighborsRegressor().fit(X_TRAIN, Y_REG).kneighbors(X_TEST, n_neighbors=0), "n_neighbors must be"),
    (lambda: KNeighborsClassifier().fit(X_TRAIN, Y_REG), "Unknown label type"),
    (lambda: pairwise_distances(X_TRAIN, X_TEST[:, :3]), "same number of features"),
    (lambda: pairwise_distances(X_TRAIN, metric="minkowski", p=0.0), "p must be > 0"),
    (lambda: pairwise_distances(X_TRAIN, metric="cosine", VI=VI), "parameters of the mahalanobis metric"),
])
def test_bad_input_gets_a_clear_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_a_non_integer_k_is_a_type_error():
    with pytest.raises(TypeError, match="n_neighbors must be an integer"):
        KNeighborsClassifier(2.5).fit(X_TRAIN, Y_CLASS)
    with pytest.raises(TypeError, match="metric must be a string"):
        pairwise_distances(X_TRAIN, metric=len)


@pytest.mark.parametrize("n_train, k", [(997, 1), (2000, 5), (2001, 40), (61, 60)])
def test_the_grouped_search_equals_the_direct_ranking(n_train, k):
    # sorted training points (a group's members then lie close together) and a size that needs padding
    rng = np.random.default_rng(n_train)
    X = np.sort(rng.normal(size=(n_train, 3)), axis=0)
    Q = rng.normal(size=(30, 3))
    dist, ind = KNeighborsRegressor(k).fit(X, np.zeros(n_train)).kneighbors(Q)
    D = cdist(Q, X, "sqeuclidean")
    np.testing.assert_array_equal(ind, _stable_reference(D, k))
    np.testing.assert_allclose(dist, np.sqrt(np.take_along_axis(D, ind, axis=1)), rtol=1e-13)


@pytest.mark.parametrize("metric", ["mahalanobis", "cosine"])
def test_the_certified_search_on_ill_conditioned_and_angular_metrics(metric):
    # a Mahalanobis matrix with condition number 1e12, and cosine on vectors of very different lengths
    rng = np.random.default_rng(4)
    X = rng.normal(size=(3000, 3)) * np.array([1e3, 1.0, 1e-3])
    Q = rng.normal(size=(40, 3)) * np.array([1e3, 1.0, 1e-3])
    if metric == "mahalanobis":
        VI = np.diag([1e-6, 1.0, 1e6])
        model = KNeighborsRegressor(6, metric=metric, metric_params={"VI": VI})
        D = cdist(Q, X, "mahalanobis", VI=VI)
    else:
        X *= rng.uniform(0.01, 100, size=(3000, 1))
        model = KNeighborsRegressor(6, metric=metric)
        D = cdist(Q, X, "cosine")
    dist, ind = model.fit(X, np.zeros(len(X))).kneighbors(Q)
    np.testing.assert_array_equal(ind, _stable_reference(D, 6))
    np.testing.assert_allclose(dist, np.take_along_axis(D, ind, axis=1), rtol=1e-9, atol=1e-12)
