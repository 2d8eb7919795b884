"""Random forests on mlnotes.tree (and bagging with its default tree): statistical parity with scikit-learn over
five seeds, out-of-bag estimates, per-split feature sampling, importances, class weights, determinism, staged
errors, edge cases and errors."""

import numpy as np
import pytest
import sklearn.ensemble
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine

from mlnotes.ensemble import (BaggingClassifier, BaggingRegressor, RandomForestClassifier, RandomForestRegressor,
                              staged_errors)
from mlnotes.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _split(X, y, seed, test=0.3):
    order = np.random.default_rng(seed).permutation(len(y))
    cut = int(round(len(y) * (1 - test)))
    return X[order[:cut]], X[order[cut:]], y[order[:cut]], y[order[cut:]]


@pytest.mark.parametrize("loader, band", [(load_breast_cancer, 0.02), (load_wine, 0.03)])
def test_classifier_accuracy_parity_over_five_seeds(loader, band):
    X, y = loader(return_X_y=True)
    ours, theirs, oob = [], [], []
    for seed in range(5):
        X_train, X_test, y_train, y_test = _split(X, y, seed)
        forest = RandomForestClassifier(20, oob_score=True, random_state=seed).fit(X_train, y_train)
        reference = sklearn.ensemble.RandomForestClassifier(20, random_state=seed).fit(X_train, y_train)
        ours.append(forest.score(X_test, y_test))
        theirs.append(reference.score(X_test, y_test))
        oob.append(forest.oob_score_)
    assert abs(np.mean(ours) - np.mean(theirs)) <= band, (np.mean(ours), np.mean(theirs))
    assert abs(np.mean(oob) - np.mean(ours)) <= 2 * band          # out of bag estimates held out


def test_regressor_r2_parity_over_five_seeds():
    X, y = load_diabetes(return_X_y=True)
    ours, theirs, oob = [], [], []
    for seed in range(5):
        X_train, X_test, y_train, y_test = _split(X, y, seed)
        forest = RandomForestRegressor(20, max_features=0.5, oob_score=True, random_state=seed).fit(X_train, y_train)
        reference = sklearn.ensemble.RandomForestRegressor(20, max_features=0.5, random_state=seed)
        ours.append(forest.score(X_test, y_test))
        theirs.append(reference.fit(X_train, y_train).score(X_test, y_test))
        oob.append(forest.oob_score_)
    assert abs(np.mean(ours) - np.mean(theirs)) <= 0.04, (np.mean(ours), np.mean(theirs))
    assert abs(np.mean(oob) - np.mean(ours)) <= 0.08


def test_forest_is_the_average_of_its_trees_and_oob_by_hand():
    X, y = load_iris(return_X_y=True)
    forest = RandomForestClassifier(25, oob_score=True, random_state=0).fit(X, y)
    np.testing.assert_allclose(forest.predict_proba(X),
                               np.mean([tree.predict_proba(X) for tree in forest.estimators_], axis=0), rtol=1e-12)
    total, count = np.zeros((150, 3)), np.zeros(150)
    for rows, tree in zip(forest.estimators_samples_, forest.estimators_):
        out = np.setdiff1d(np.arange(150), rows)
        total[out] += tree.predict_proba(X[out])
        count[out] += 1
    np.testing.assert_allclose(forest.oob_decision_function_, total / count[:, None], rtol=1e-12)
    assert forest.oob_score_ == pytest.approx(np.mean((total / count[:, None]).argmax(axis=1) == y))
    errors = staged_errors(forest, X, y, out_of_bag=True)
    assert errors.shape == (25,) and errors[-1] == pytest.approx(1 - forest.oob_score_)
    assert staged_errors(forest, X, y)[-1] == pytest.approx(1 - forest.score(X, y))


def test_trees_are_fitted_on_their_bootstrap_counts():
    X, y = load_iris(return_X_y=True)
    forest = RandomForestClassifier(3, max_features=None, random_state=5).fit(X, y)
    for rows, tree in zip(forest.estimators_samples_, forest.estimators_):
        # the same tree grown on the drawn rows with their repeats
        repeated = DecisionTreeClassifier(random_state=tree.random_state).fit(X[rows], y[rows])
        np.testing.assert_allclose(tree.predict_proba(X), repeated.predict_proba(X), atol=1e-12)


def test_features_are_drawn_per_split():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = (X[:, 0] > 0).astype(int)                     # feature 0 decides everything
    bagged = RandomForestClassifier(20, max_features=None, random_state=0).fit(X, y)
    forest = RandomForestClassifier(20, max_features=1, random_state=0).fit(X, y)
    assert {tree.tree_.feature[0] for tree in bagged.estimators_} == {0}
    roots = {tree.tree_.feature[0] for tree in forest.estimators_}
    assert len(roots) > 1                             # one random candidate at the root: other features win
    # but every tree finds feature 0 somewhere below: the subset is drawn anew at every split
    assert all(0 in set(tree.tree_.feature[tree.tree_.feature >= 0]) for tree in forest.estimators_)
    assert forest.feature_importances_.argmax() == 0


def test_feature_importances_are_the_normalised_mean_of_the_trees():
    X, y = load_wine(return_X_y=True)
    forest = RandomForestClassifier(15, random_state=2).fit(X, y)
    mean = np.mean([tree.feature_importances_ for tree in forest.estimators_], axis=0)
    np.testing.assert_allclose(forest.feature_importances_, mean / mean.sum(), rtol=1e-12)
    assert forest.feature_importances_.sum() == pytest.approx(1.0)
    stumps = RandomForestClassifier(5, min_samples_split=1000, random_state=0).fit(X, y)   # every tree one leaf
    np.testing.assert_array_equal(stumps.feature_importances_, np.zeros(X.shape[1]))


def test_determinism_and_n_jobs():
    X, y = load_breast_cancer(return_X_y=True)
    one = RandomForestClassifier(20, oob_score=True, random_state=3).fit(X, y)
    two = RandomForestClassifier(20, oob_score=True, random_state=3, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
    np.testing.assert_array_equal(one.oob_decision_function_, two.oob_decision_function_)
    other = RandomForestClassifier(12, random_state=4).fit(X, y)
    assert not np.array_equal(one.predict_proba(X), other.predict_proba(X))
    assert one.apply(X).shape == (len(y), 20)


def test_class_weight_is_a_sample_weight():
    X, y = load_wine(return_X_y=True)
    counts = np.bincount(y)
    balanced = RandomForestClassifier(8, class_weight="balanced", random_state=0).fit(X, y)
    weighted = RandomForestClassifier(8, random_state=0).fit(X, y, sample_weight=(len(y) / (3 * counts))[y])
    np.testing.assert_allclose(balanced.predict_proba(X), weighted.predict_proba(X), rtol=1e-12)
    as_dict = RandomForestClassifier(8, class_weight={0: 2.0, 2: 0.5}, random_state=0).fit(X, y)
    weighted = RandomForestClassifier(8, random_state=0).fit(X, y, sample_weight=np.array([2.0, 1.0, 0.5])[y])
    np.testing.assert_allclose(as_dict.predict_proba(X), weighted.predict_proba(X), rtol=1e-12)
    subsample = RandomForestClassifier(8, class_weight="balanced_subsample", random_state=0).fit(X, y)
    assert not np.allclose(subsample.predict_proba(X), balanced.predict_proba(X))


def test_zero_weights_and_max_samples():
    X, y = load_iris(return_X_y=True)
    weights = np.ones(150)
    weights[:50] = 0.0                                 # class 0 never counts
    forest = RandomForestClassifier(10, random_state=0).fit(X, y, sample_weight=weights)
    assert np.all(forest.predict_proba(X)[:, 0] == 0.0)
    small = RandomForestClassifier(6, max_samples=20, random_state=0).fit(X, y)
    assert all(len(rows) == 20 for rows in small.estimators_samples_)
    half = RandomForestRegressor(4, max_samples=0.5, random_state=0).fit(X, y.astype(float))
    assert all(len(rows) == 75 for rows in half.estimators_samples_)


def test_edge_cases():
    # duplicate rows, a constant feature, two samples, labels as strings
    X = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 1.0], [1.0, 1.0]])
    forest = RandomForestClassifier(10, random_state=0).fit(X, np.array(["a", "a", "b", "b"]))
    assert set(forest.predict(X)) <= {"a", "b"}
    two = RandomForestRegressor(5, random_state=0).fit([[0.0], [1.0]], [1.0, 3.0])
    assert np.all((two.predict([[0.0], [1.0]]) >= 1.0) & (two.predict([[0.0], [1.0]]) <= 3.0))


def test_bagging_defaults_to_the_mlnotes_tree():
    X, y = load_iris(return_X_y=True)
    bag = BaggingClassifier(n_estimators=5, random_state=0).fit(X, y)
    assert all(isinstance(member, DecisionTreeClassifier) for member in bag.estimators_)
    reg = BaggingRegressor(n_estimators=5, random_state=0).fit(X, y.astype(float))
    assert all(isinstance(member, DecisionTreeRegressor) for member in reg.estimators_)


@pytest.mark.parametrize("kwargs, match", [
    ({"n_estimators": 0}, "n_estimators"),
    ({"max_samples": 0.0}, "max_samples"),
    ({"max_samples": 1.5}, "max_samples"),
    ({"max_samples": 151}, "exceeds the number of samples"),
    ({"max_samples": 10, "bootstrap": False}, "max_samples applies to bootstrap samples"),
    ({"oob_score": True, "bootstrap": False}, "needs bootstrap=True"),
    ({"class_weight": "even"}, "class_weight"),
    ({"class_weight": {7: 1.0}}, "not a class"),
    ({"class_weight": {0: -1.0}}, "finite number >= 0"),
])
def test_errors(kwargs, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=match):
        RandomForestClassifier(**{"n_estimators": 3, **kwargs}).fit(X, y)


def test_bad_data():
    X, y = load_iris(return_X_y=True)
    forest = RandomForestClassifier(3)
    for value, match in ((np.nan, "NaN"), (np.inf, "infinity")):
        X_bad = X.copy()
        X_bad[0, 0] = value
        with pytest.raises(ValueError, match=match):
            forest.fit(X_bad, y)
    with pytest.raises(ValueError, match="only one class"):
        forest.fit(X, np.zeros(150))
    with pytest.raises(ValueError, match="negative"):
        forest.fit(X, y, sample_weight=np.r_[-1.0, np.ones(149)])
    with pytest.raises(ValueError, match="all are zero"):
        forest.fit(X, y, sample_weight=np.zeros(150))
    with pytest.raises(ValueError, match="y must have shape"):
        staged_errors(forest.fit(X, y), X, y[:10])
