"""Basic behaviour of mlnotes.tree: fitting, predicting, the tree_ arrays, weights, errors."""

import numpy as np
import pytest
from sklearn import tree as sk_tree

from mlnotes.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _data(seed=0, n=200, d=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.normal(size=n) > 1).astype(int) + (X[:, 2] > 1)
    return X, y


def test_full_tree_fits_training_data_and_matches_sklearn_predictions():
    X, y = _data()
    ours = DecisionTreeClassifier().fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0).fit(X, y)
    assert (ours.predict(X) == y).all()
    assert ours.tree_.node_count == ours.tree_.children_left.shape[0]
    leaves = ours.apply(X)
    assert (ours.tree_.children_left[leaves] == -1).all()
    np.testing.assert_allclose(ours.predict_proba(X).sum(axis=1), 1.0)
    assert ours.get_n_leaves() == theirs.get_n_leaves() or abs(ours.get_n_leaves() - theirs.get_n_leaves()) < 5


def test_shallow_tree_equals_sklearn_tree():
    X, y = _data(2)
    for criterion in ("gini", "entropy"):
        ours = DecisionTreeClassifier(criterion=criterion, max_depth=3).fit(X, y).tree_
        theirs = sk_tree.DecisionTreeClassifier(criterion=criterion, max_depth=3, random_state=0).fit(X, y).tree_
        for name in ("children_left", "children_right", "feature", "n_node_samples"):
            np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
        for name in ("threshold", "impurity", "weighted_n_node_samples", "value"):
            np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=0, atol=1e-12)


def test_regressor_equals_sklearn_at_depth_three():
    X, _ = _data(1)
    y = X[:, 0] + np.sin(X[:, 1])
    ours = DecisionTreeRegressor(max_depth=3).fit(X, y)
    theirs = sk_tree.DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(ours.tree_.feature, theirs.tree_.feature)
    np.testing.assert_allclose(ours.tree_.threshold, theirs.tree_.threshold, rtol=0, atol=0)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=0, atol=1e-12)


def test_weight_two_equals_duplicated_row():
    X, y = _data(3, n=60)
    w = np.ones(60)
    w[:10] = 2
    weighted = DecisionTreeClassifier(max_depth=4).fit(X, y, sample_weight=w).tree_
    dup = DecisionTreeClassifier(max_depth=4).fit(np.vstack([X, X[:10]]), np.concatenate([y, y[:10]])).tree_
    np.testing.assert_array_equal(weighted.feature, dup.feature)
    np.testing.assert_array_equal(weighted.threshold, dup.threshold)
    np.testing.assert_allclose(weighted.weighted_n_node_samples, dup.weighted_n_node_samples)
    np.testing.assert_allclose(weighted.value, dup.value)


def test_max_features_gives_random_per_node_subsets():
    X, y = _data(4, d=8)
    a = DecisionTreeClassifier(max_features=2, random_state=0).fit(X, y)
    b = DecisionTreeClassifier(max_features=2, random_state=0).fit(X, y)
    c = DecisionTreeClassifier(max_features=2, random_state=1).fit(X, y)
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    assert a.tree_.node_count != c.tree_.node_count or not np.array_equal(a.tree_.feature, c.tree_.feature)
    assert (a.predict(X) == y).all()


def test_one_class_is_a_single_leaf():
    X, _ = _data()
    est = DecisionTreeClassifier().fit(X, np.zeros(len(X)))
    assert est.tree_.node_count == 1 and (est.predict(X) == 0).all()


@pytest.mark.parametrize("kwargs, match", [
    ({"criterion": "nope"}, "criterion"), ({"criterion": "squared_error"}, "other kind"),
    ({"max_depth": 0}, "max_depth"), ({"min_samples_leaf": 0}, "min_samples_leaf"),
])
def test_bad_parameters_raise(kwargs, match):
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        DecisionTreeClassifier(**kwargs).fit(X, y)


def test_bad_inputs_raise():
    X, y = _data()
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DecisionTreeClassifier().fit(Xn, y)
    with pytest.raises(ValueError, match="negative"):
        DecisionTreeClassifier().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="zero"):
        DecisionTreeClassifier().fit(X, y, sample_weight=np.zeros(len(y)))


def test_more_bad_inputs_raise():
    X, y = _data()
    with pytest.raises(ValueError, match="other kind"):
        DecisionTreeRegressor(criterion="gini").fit(X, y.astype(float))
    with pytest.raises(ValueError, match="infinity"):
        DecisionTreeRegressor().fit(np.where(X > 2, np.inf, X), y.astype(float))
    with pytest.raises(ValueError, match="max_features"):
        DecisionTreeClassifier(max_features=10).fit(X, y)
    with pytest.raises(ValueError, match="ccp_alpha"):
        DecisionTreeClassifier(ccp_alpha=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="class"):
        DecisionTreeClassifier().fit(X, X[:, 0])             # continuous targets are not class labels
    with pytest.raises(ValueError, match="features"):
        DecisionTreeClassifier().fit(X, y).predict(X[:, :2])


@pytest.mark.parametrize("case", ["one class", "constant target", "min_samples_split above n", "one sample"])
def test_a_tree_that_is_a_single_leaf_fits_and_has_zero_importances_as_sklearns(case):
    # review R1 (importances of a leaf-only tree raised numpy's casting error) and R6 (one sample was refused)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(12, 3))
    y_class, y_value = (X[:, 0] > 0).astype(int), X[:, 1].copy()
    params = {}
    if case == "one class":
        y_class[:] = 1
    elif case == "constant target":
        y_value[:] = 2.5
    elif case == "min_samples_split above n":
        params = {"min_samples_split": 20}
    else:
        X, y_class, y_value = X[:1], y_class[:1], y_value[:1]
    pairs = []
    if case != "constant target":                     # the leaf-only classifier
        pairs.append((DecisionTreeClassifier(**params), sk_tree.DecisionTreeClassifier(**params), y_class))
    if case != "one class":                           # the leaf-only regressor
        pairs.append((DecisionTreeRegressor(**params), sk_tree.DecisionTreeRegressor(**params), y_value))
    for ours, theirs, y in pairs:
        ours.fit(X, y)
        theirs.fit(X, y)
        assert ours.tree_.node_count == theirs.tree_.node_count == 1
        assert ours.feature_importances_.dtype == np.float64
        np.testing.assert_array_equal(ours.feature_importances_, theirs.feature_importances_)
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-15, atol=0)   # a mean: last bit
