"""Baselines: DummyClassifier and DummyRegressor agree with scikit-learn's, strategy by strategy, with weights."""

import numpy as np
import pytest
import sklearn.dummy as skd

from mlnotes.dummy import DummyClassifier, DummyRegressor, weighted_quantile

RNG = np.random.default_rng(0)
X = RNG.normal(size=(41, 2))
LABELS = RNG.choice(np.array(["a", "b", "c"]), 41)
W = RNG.uniform(0, 3, 41)
W[:5] = 0.0
Y = RNG.normal(size=(41, 2))
Y[3, 0] = Y[4, 0]                                           # a tie among the targets


@pytest.mark.parametrize("sample_weight", [None, W])
@pytest.mark.parametrize("strategy", ["most_frequent", "prior", "stratified", "uniform", "constant"])
def test_classifier_agrees_with_scikit_learn(strategy, sample_weight):
    kwargs = {"constant": "b"} if strategy == "constant" else {}
    ours = DummyClassifier(strategy=strategy, random_state=3, **kwargs).fit(X, LABELS, sample_weight=sample_weight)
    theirs = skd.DummyClassifier(strategy=strategy, random_state=3, **kwargs).fit(X, LABELS, sample_weight=sample_weight)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_allclose(ours.class_prior_, theirs.class_prior_, rtol=1e-15)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_array_equal(ours.predict_proba(X), theirs.predict_proba(X))


def test_majority_ties_go_to_the_first_class_and_weights_count():
    clf = DummyClassifier(strategy="most_frequent").fit(np.zeros((4, 1)), [2, 1, 1, 2])
    assert clf.predict([[0.0]])[0] == 1
    clf = DummyClassifier(strategy="most_frequent").fit(np.zeros((4, 1)), [2, 1, 1, 2], sample_weight=[1, 1, 1, 1.5])
    assert clf.predict([[0.0]])[0] == 2
    np.testing.assert_allclose(clf.class_prior_, [2 / 4.5, 2.5 / 4.5])


@pytest.mark.parametrize("sample_weight", [None, W, np.ones(41)])
@pytest.mark.parametrize("strategy, kwargs", [("mean", {}), ("median", {}), ("quantile", {"quantile": 0.3}),
                                              ("quantile", {"quantile": 0.0}), ("quantile", {"quantile": 1.0}),
                                              ("constant", {"constant": [1.0, 2.0]})])
def test_regressor_agrees_with_scikit_learn(strategy, kwargs, sample_weight):
    ours = DummyRegressor(strategy=strategy, **kwargs).fit(X, Y, sample_weight=sample_weight)
    theirs = skd.DummyRegressor(strategy=strategy, **kwargs).fit(X, Y, sample_weight=sample_weight)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-15)
    one = DummyRegressor(strategy=strategy, **{k: (v[0] if k == "constant" else v) for k, v in kwargs.items()})
    assert one.fit(X, Y[:, 0]).predict(X[:3]).shape == (3,)


def test_weighted_quantile_is_the_inverted_cdf():
    y = np.array([[3.0], [1.0], [2.0], [4.0]])
    assert weighted_quantile(y, np.ones(4), 0.5)[0] == 2.0          # the lower median, not 2.5
    assert weighted_quantile(y, np.array([0.0, 0.0, 1.0, 1.0]), 0.0)[0] == 2.0   # zero weights skipped at q = 0
    assert weighted_quantile(y, np.array([1.0, 1.0, 1.0, 5.0]), 0.5)[0] == 4.0
    # a weight of 2 is a duplicated row
    dup = weighted_quantile(np.vstack([y, y[:1]]), np.ones(5), 0.4)
    np.testing.assert_array_equal(weighted_quantile(y, np.array([2.0, 1, 1, 1]), 0.4), dup)


@pytest.mark.parametrize("make, error, message", [
    (lambda: DummyClassifier(strategy="mode").fit(X, LABELS), ValueError, "strategy must be one of"),
    (lambda: DummyClassifier(strategy="constant").fit(X, LABELS), ValueError, "needs a constant"),
    (lambda: DummyClassifier(strategy="constant", constant="z").fit(X, LABELS), ValueError, "not one of the training"),
    (lambda: DummyClassifier().fit(X, LABELS, sample_weight=-W), ValueError, "non-negative"),
    (lambda: DummyClassifier().fit(X, LABELS, sample_weight=np.zeros(41)), ValueError, "all are zero"),
    (lambda: DummyClassifier().fit(X, Y[:, 0]), ValueError, "Unknown label type"),
    (lambda: DummyRegressor(strategy="quantile").fit(X, Y), ValueError, "needs quantile"),
    (lambda: DummyRegressor(strategy="quantile", quantile=1.5).fit(X, Y), ValueError, "quantile must be <= 1"),
    (lambda: DummyRegressor(strategy="constant").fit(X, Y), ValueError, "needs constant"),
    (lambda: DummyRegressor(strategy="constant", constant=[1.0]).fit(X, Y), ValueError, "one value per output"),
    (lambda: DummyRegressor().fit(X, np.where(Y > 1, np.nan, Y)), ValueError, "NaN"),
    (lambda: DummyRegressor().fit(X, Y, sample_weight=np.zeros(41)), ValueError, "all are zero"),
])
def test_bad_input_gets_a_clear_error(make, error, message):
    with pytest.raises(error, match=message):
        make()
