"""The ensembles of trees predict through ``mlnotes.tree._tree.StackedTrees`` (every sample down every tree at
once) and must give, bit for bit, what the member-by-member path gave: the reference below is that path, kept
here (each tree's own descent, one depth at a time, and the sum over the members in member order)."""

import numpy as np
import pytest

from mlnotes.ensemble import (BaggingClassifier, BaggingRegressor, GradientBoostingClassifier,
                              GradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor)
from mlnotes.tree import DecisionTreeClassifier, _tree
from mlnotes.tree._tree import StackedTrees


def reference_apply(tree, Xf):
    """The leaves of one tree as ``Tree.apply`` found them before the stacked descent."""
    node = np.zeros(Xf.shape[0], dtype=np.intp)
    active = np.flatnonzero(tree.children_left[node] != -1)
    while active.size:
        nodes = node[active]
        go_left = Xf[active, tree.feature[nodes]].astype(np.float64) <= tree.threshold[nodes]
        node[active] = np.where(go_left, tree.children_left[nodes], tree.children_right[nodes])
        active = active[tree.children_left[node[active]] != -1]
    return node


def reference_average(ensemble, X):
    """The members' class fractions (on the ensemble's classes) or predictions, summed in member order and
    divided by the number of members, each member seeing its own columns of ``X`` as float32."""
    X = np.asarray(X, dtype=np.float64)
    classifier = hasattr(ensemble, "classes_")
    total = np.zeros((X.shape[0], len(ensemble.classes_) if classifier else 1))
    for member, features in zip(ensemble.estimators_, ensemble.estimators_features_):
        Xf = X[:, features].astype(np.float32)
        leaves = reference_apply(member.tree_, Xf)
        if classifier:
            values = np.zeros((X.shape[0], total.shape[1]))
            values[:, member.classes_.astype(int)] = member.tree_.value[leaves, 0, :]
        else:
            values = member.tree_.value[leaves, 0, :1]
        total += values
    total /= len(ensemble.estimators_)
    return total if classifier else total[:, 0]


def reference_boosting_raw(model, X):
    """The boosting scores after each stage, shape (n_stages, n_samples, n_trees_per_round)."""
    Xf = np.asarray(X, dtype=np.float64).astype(np.float32)
    raw = model._raw_from_init(np.asarray(X, dtype=np.float64))
    stages = []
    for stage in model.estimators_:
        for k, tree in enumerate(stage):
            raw[:, k] += model.learning_rate * tree.tree_.value[reference_apply(tree.tree_, Xf), 0, 0]
        stages.append(raw.copy())
    return np.array(stages)


def assert_same_bits(actual, expected):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    assert np.array_equal(actual.view(np.uint8), expected.view(np.uint8))


def data(kind, n=300, d=6, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if kind == "regression":
        return X, X[:, 0] + X[:, 1] * X[:, 2] + 0.3 * rng.normal(size=n)
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)           # three classes
    if kind == "rare":                                                 # a class of two samples: missing from
        y[:2] = 3                                                      # many bootstrap samples
    return X, y


CLASSIFIERS = [
    ("forest", lambda: RandomForestClassifier(30, random_state=0), "classes"),
    ("one tree", lambda: RandomForestClassifier(1, random_state=1), "classes"),
    ("stumps of depth 0", lambda: RandomForestClassifier(5, min_impurity_decrease=1.0, random_state=2), "classes"),
    ("rare class", lambda: RandomForestClassifier(40, max_depth=4, random_state=3), "rare"),
    ("entropy, no bootstrap", lambda: RandomForestClassifier(8, criterion="entropy", bootstrap=False,
                                                             random_state=4), "classes"),
    ("bagging, feature subsets", lambda: BaggingClassifier(n_estimators=12, max_features=0.5, random_state=5),
     "classes"),
    ("bagging, features with replacement", lambda: BaggingClassifier(n_estimators=12, max_features=4,
                                                                     bootstrap_features=True, random_state=6),
     "rare"),
]


@pytest.mark.parametrize("name, make, kind", CLASSIFIERS, ids=[c[0] for c in CLASSIFIERS])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_classifier_probabilities_are_the_member_by_member_ones(name, make, kind, dtype):
    X, y = data(kind)
    model = make().fit(X, y)
    X_test = np.random.default_rng(9).normal(size=(500, X.shape[1])).astype(dtype)
    if kind == "rare":
        assert any(len(member.classes_) < len(model.classes_) for member in model.estimators_)
    if name == "stumps of depth 0":
        assert all(member.tree_.node_count == 1 for member in model.estimators_)
    assert_same_bits(model.predict_proba(X_test), reference_average(model, X_test))


@pytest.mark.parametrize("make", [lambda: RandomForestRegressor(25, random_state=0),
                                  lambda: RandomForestRegressor(3, max_depth=1, max_features=0.5, random_state=1),
                                  lambda: BaggingRegressor(n_estimators=10, max_features=3, random_state=2)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_regressor_predictions_are_the_member_by_member_ones(make, dtype):
    X, y = data("regression")
    model = make().fit(X, y)
    X_test = np.random.default_rng(8).normal(size=(400, X.shape[1])).astype(dtype)
    assert_same_bits(model.predict(X_test), reference_average(model, X_test))


def test_forest_apply_is_each_trees_leaves():
    X, y = data("classes")
    forest = RandomForestClassifier(20, random_state=0).fit(X, y)
    expected = np.column_stack([reference_apply(tree.tree_, X.astype(np.float32)) for tree in forest.estimators_])
    assert_same_bits(forest.apply(X), expected)


@pytest.mark.parametrize("make, kind", [
    (lambda: GradientBoostingClassifier(n_estimators=30, max_depth=3, random_state=0), "classes"),
    (lambda: GradientBoostingClassifier(n_estimators=20, subsample=0.7, random_state=1), "rare"),
    (lambda: GradientBoostingRegressor(n_estimators=40, max_depth=4, random_state=2), "regression"),
    (lambda: GradientBoostingRegressor(n_estimators=10, loss="huber", min_impurity_decrease=1e9, random_state=3),
     "regression"),
])
def test_boosting_scores_and_leaves_are_the_tree_by_tree_ones(make, kind):
    X, y = data(kind)
    model = make().fit(X, y)
    X_test = np.random.default_rng(7).normal(size=(300, X.shape[1])).astype(np.float32)
    stages = reference_boosting_raw(model, X_test)
    assert_same_bits(np.array(list(model._staged_raw(X_test))), stages)
    assert_same_bits(model._raw_predict(X_test), stages[-1])
    leaves = np.stack([np.column_stack([reference_apply(tree.tree_, X_test) for tree in stage])
                       for stage in model.estimators_], axis=1)
    assert_same_bits(model.apply(X_test), leaves)


def test_small_blocks_give_the_same_numbers(monkeypatch):
    """Many blocks of pairs, of rows and of trees (a last block shorter than the others) change nothing."""
    X, y = data("classes")
    X_test = np.random.default_rng(6).normal(size=(257, X.shape[1]))
    forest = RandomForestClassifier(13, random_state=0).fit(X, y)
    boosting = GradientBoostingClassifier(n_estimators=9, random_state=0).fit(X, y)
    expected = forest.predict_proba(X_test), boosting.predict_proba(X_test), forest.apply(X_test)
    monkeypatch.setattr(_tree, "_BLOCK_ROWS", 10)
    monkeypatch.setattr(_tree, "_BLOCK_PAIRS", 35)
    monkeypatch.setattr(_tree, "_BLOCK_LEAVES", 1000)
    for actual, wanted in zip((forest.predict_proba(X_test), boosting.predict_proba(X_test), forest.apply(X_test)),
                              expected):
        assert_same_bits(actual, wanted)
    assert_same_bits(forest.predict_proba(X_test), reference_average(forest, X_test))


def test_tree_apply_is_the_depth_by_depth_descent():
    X, y = data("classes", n=2000, d=10)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    Xf = np.random.default_rng(5).normal(size=(3000, 10)).astype(np.float32)
    assert_same_bits(tree.apply(Xf), reference_apply(tree, Xf))
    stack = StackedTrees([tree, tree])
    assert_same_bits(stack.descend(Xf) - stack.offsets, np.column_stack([reference_apply(tree, Xf)] * 2))


def test_columns_no_member_uses_are_not_converted():
    """A bagging member sees only its columns: a value too large for float32 elsewhere raises nothing, as before;
    in a column a member splits on it raises the trees' error."""
    X, y = data("classes")
    model = BaggingClassifier(n_estimators=1, max_features=1, random_state=0).fit(X, y)
    X_test = X[:5].copy()
    unused = np.setdiff1d(np.arange(X.shape[1]), model.estimators_features_[0])[0]
    X_test[:, unused] = 1e300
    assert_same_bits(model.predict_proba(X_test), reference_average(model, X_test))
    X_test[:, model.estimators_features_[0][0]] = 1e300
    with pytest.raises(ValueError, match="too large for float32"), np.errstate(over="ignore"):
        model.predict_proba(X_test)


def test_members_that_are_not_trees_take_the_member_path():
    from sklearn.linear_model import LogisticRegression

    X, y = data("classes")
    model = BaggingClassifier(LogisticRegression(max_iter=500), n_estimators=3, random_state=0).fit(X, y)
    assert model._sum_over_trees(X, model._node_proba, model.n_classes_) is None
    total, _ = model._accumulate(X, model._member_proba, model.n_classes_)
    assert_same_bits(model.predict_proba(X), total / 3)
