"""mlnotes.tree against scikit-learn and against brute force: the same trees on tie-free nodes, ties only where the
decrease is equal, criteria, pruning path, importances, traversals, weights."""

import itertools

import numpy as np
import pytest
from sklearn import tree as sk_tree

from mlnotes.tree import DecisionTreeClassifier, DecisionTreeRegressor, best_split, entropy, gini, misclassification

ARRAYS = ("children_left", "children_right", "feature", "n_node_samples")
FLOATS = ("threshold", "impurity", "weighted_n_node_samples", "value")


def _classification(seed, n=150, d=4, k=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    score = X[:, 0] + X[:, 1] ** 2 + rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, k + 1)[1:-1]))
    return X, y


def _assert_same_tree(ours, theirs, atol=1e-12):
    assert ours.node_count == theirs.node_count
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
    for name in FLOATS:
        np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=0, atol=atol, err_msg=name)


def _decrease(X, y, w, idx, feature, threshold, criterion):
    """Weighted impurity decrease of splitting the samples idx at (feature, threshold), by direct counting."""
    left = X[idx, feature].astype(np.float32) <= threshold

    def impurity(mask):
        yy, ww = y[idx][mask], w[idx][mask]
        if criterion == "squared_error":
            mean = np.average(yy, weights=ww)
            return np.average((yy - mean) ** 2, weights=ww)
        p = np.bincount(yy, weights=ww, minlength=y.max() + 1)
        return {"gini": gini, "entropy": entropy}[criterion](p)

    W = w[idx].sum()
    return impurity(np.ones(len(idx), bool)) - (w[idx][left].sum() * impurity(left)
                                                + w[idx][~left].sum() * impurity(~left)) / W


def _walk_until_tie(ours, theirs, X, y, w, criterion):
    """Walk both trees together; where they differ, the two splits must have the same decrease (a tie between
    features). Returns the number of such ties."""
    a, b = ours.tree_, theirs.tree_
    ties = 0
    stack = [(0, 0, np.arange(len(X)))]
    while stack:
        i, j, idx = stack.pop()
        assert a.n_node_samples[i] == b.n_node_samples[j]
        np.testing.assert_allclose(a.value[i], b.value[j], rtol=0, atol=1e-12)
        leaf_a, leaf_b = a.children_left[i] == -1, b.children_left[j] == -1
        if leaf_a and leaf_b:
            continue
        assert leaf_a == leaf_b, "one tree splits a node the other leaves"
        if a.feature[i] != b.feature[j] or a.threshold[i] != b.threshold[j]:
            da = _decrease(X, y, w, idx, a.feature[i], a.threshold[i], criterion)
            db = _decrease(X, y, w, idx, b.feature[j], b.threshold[j], criterion)
            assert da == pytest.approx(db, rel=1e-12, abs=1e-14)
            ties += 1
            continue                                   # the subtrees below now hold other samples
        left = X[idx, a.feature[i]].astype(np.float32) <= a.threshold[i]
        stack += [(a.children_left[i], b.children_left[j], idx[left]),
                  (a.children_right[i], b.children_right[j], idx[~left])]
    return ties


# seeds whose depth-limited trees meet no tie between features (checked by _walk_until_tie: 0 ties), so that
# scikit-learn's random feature order cannot matter and the trees must be identical
TIE_FREE_SEEDS = (1, 3, 4, 5)


@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("seed", TIE_FREE_SEEDS)
def test_depth_limited_classifier_equals_sklearn(criterion, seed):
    X, y = _classification(seed, n=300)
    kwargs = dict(criterion=criterion, max_depth=3, min_samples_leaf=5)
    ours = DecisionTreeClassifier(**kwargs).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, **kwargs).fit(X, y)
    _assert_same_tree(ours.tree_, theirs.tree_)
    X_test = np.random.default_rng(99).normal(size=(300, X.shape[1]))
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    np.testing.assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ours.apply(X_test), theirs.apply(X_test))
    assert (ours.decision_path(X_test) != theirs.decision_path(X_test)).nnz == 0
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, rtol=0, atol=1e-12)
    assert ours.get_depth() == theirs.get_depth() and ours.get_n_leaves() == theirs.get_n_leaves()


@pytest.mark.parametrize("seed", range(3))
def test_weighted_regressor_equals_sklearn(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(200, 3))
    y = np.sin(4 * X[:, 0]) + X[:, 1] + 0.1 * rng.normal(size=200)
    w = rng.uniform(0.5, 2.0, size=200)
    kwargs = dict(max_depth=4, min_samples_leaf=4, min_samples_split=10)
    ours = DecisionTreeRegressor(**kwargs).fit(X, y, sample_weight=w)
    theirs = sk_tree.DecisionTreeRegressor(random_state=0, **kwargs).fit(X, y, sample_weight=w)
    _assert_same_tree(ours.tree_, theirs.tree_, atol=1e-10)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, rtol=0, atol=1e-10)


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_full_depth_trees_differ_from_sklearn_only_at_ties(criterion):
    total_ties = 0
    for seed in range(3):
        X, y = _classification(seed, n=120)
        w = np.random.default_rng(seed).integers(1, 4, size=len(y)).astype(float)
        ours = DecisionTreeClassifier(criterion=criterion).fit(X, y, sample_weight=w)
        theirs = sk_tree.DecisionTreeClassifier(criterion=criterion, random_state=seed).fit(X, y, sample_weight=w)
        total_ties += _walk_until_tie(ours, theirs, X, y, w, criterion)
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    assert total_ties > 0            # full trees do meet ties (e.g. 2-sample nodes any feature separates)


def test_full_depth_regressor_differs_only_at_ties():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(100, 3))
    y = X[:, 0] - X[:, 2] + 0.3 * rng.normal(size=100)
    w = np.ones(100)
    ours = DecisionTreeRegressor().fit(X, y)
    theirs = sk_tree.DecisionTreeRegressor(random_state=0).fit(X, y)
    _walk_until_tie(ours, theirs, X, y, w, "squared_error")
    np.testing.assert_allclose(ours.predict(X), y, rtol=0, atol=1e-12)


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification", "squared_error"])
def test_best_split_equals_brute_force(criterion):
    rng = np.random.default_rng(1)
    for _ in range(5):
        X = rng.normal(size=(25, 3))
        y = rng.normal(size=25) if criterion == "squared_error" else rng.integers(0, 3, size=25)
        w = rng.uniform(0.2, 3, size=25)
        found = best_split(X, y, w, criterion=criterion)
        brute = []
        for j in range(3):
            v = np.unique(X[:, j].astype(np.float32)).astype(float)
            for t in v[:-1] / 2 + v[1:] / 2:
                left = X[:, j].astype(np.float32) <= t
                if criterion == "squared_error":
                    sse = sum(np.sum(w[m] * (y[m] - np.average(y[m], weights=w[m])) ** 2) for m in (left, ~left))
                    brute.append((-sse, j, t))
                else:
                    imp = {"gini": gini, "entropy": entropy, "misclassification": misclassification}[criterion]
                    cost = sum(w[m].sum() * imp(np.bincount(y[m], weights=w[m], minlength=3)) for m in (left, ~left))
                    brute.append((-cost, j, t))
        best = max(b[0] for b in brute)
        winners = [(j, t) for value, j, t in brute if value >= best - 1e-12 * max(1, abs(best))]
        assert (found["feature"], found["threshold"]) == min(winners)   # ties: lowest feature, then threshold


def test_misclassification_criterion_grows_consistent_tree():
    X, y = _classification(2)
    est = DecisionTreeClassifier(criterion="misclassification", max_depth=4).fit(X, y)
    t = est.tree_
    counts = t.value[:, 0, :] * t.weighted_n_node_samples[:, None]
    np.testing.assert_allclose(t.impurity, 1 - counts.max(axis=1) / t.weighted_n_node_samples, atol=1e-15)
    internal = np.flatnonzero(t.children_left != -1)
    L, R = t.children_left[internal], t.children_right[internal]
    W = t.weighted_n_node_samples
    decrease = W[internal] * t.impurity[internal] - W[L] * t.impurity[L] - W[R] * t.impurity[R]
    assert (decrease >= -1e-9).all()


@pytest.mark.parametrize("Tree, SkTree, y_kind", [
    (DecisionTreeClassifier, sk_tree.DecisionTreeClassifier, "class"),
    (DecisionTreeRegressor, sk_tree.DecisionTreeRegressor, "real")])
def test_pruning_path_and_pruned_trees_equal_sklearn(Tree, SkTree, y_kind):
    X, y = _classification(1, n=300)
    if y_kind == "real":
        y = X[:, 0] + 0.5 * np.random.default_rng(0).normal(size=300)
    kwargs = dict(max_depth=4, min_samples_leaf=5)
    ours = Tree(**kwargs).cost_complexity_pruning_path(X, y)
    theirs = SkTree(random_state=0, **kwargs).cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(ours["ccp_alphas"], theirs["ccp_alphas"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(ours["impurities"], theirs["impurities"], rtol=0, atol=1e-10)
    assert np.all(np.diff(ours["ccp_alphas"]) >= 0)
    alphas = theirs["ccp_alphas"]
    # at an alpha ON the path, float rounding of the effective alphas decides; between two it cannot
    between = (alphas[1:] + alphas[:-1]) / 2
    exact = alphas[1::2] if y_kind == "class" else []   # class counts: our impurities are bit-identical
    for alpha in [*between, *exact]:
        a = Tree(ccp_alpha=alpha, **kwargs).fit(X, y)
        b = SkTree(ccp_alpha=alpha, random_state=0, **kwargs).fit(X, y)
        # the same pruned tree, except below a node where two features tie (then both splits decrease equally)
        assert a.tree_.node_count == b.tree_.node_count
        criterion = "gini" if y_kind == "class" else "squared_error"
        _walk_until_tie(a, b, X, y, np.ones(len(y)), criterion)


def test_weight_two_equals_duplicate_and_zero_weight_equals_removal():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(80, 3))
    y = rng.integers(0, 10, size=80).astype(float)        # integer targets: sums exact, so ties are exact ties
    w = rng.integers(0, 3, size=80).astype(float)
    weighted = DecisionTreeRegressor().fit(X, y, sample_weight=w)
    repeated = DecisionTreeRegressor().fit(np.repeat(X, w.astype(int), axis=0), np.repeat(y, w.astype(int)))
    for name in ("feature", "threshold", "children_left"):
        np.testing.assert_array_equal(getattr(weighted.tree_, name), getattr(repeated.tree_, name))
    np.testing.assert_allclose(weighted.tree_.weighted_n_node_samples, repeated.tree_.weighted_n_node_samples)
    np.testing.assert_allclose(weighted.predict(X), repeated.predict(X), rtol=0, atol=1e-12)


def test_max_features_draws_a_uniform_feature_at_each_node():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 5))
    y = rng.integers(0, 2, size=60)
    roots = np.array([DecisionTreeClassifier(max_features=1, random_state=s, max_depth=1).fit(X, y).tree_.feature[0]
                      for s in range(400)])
    counts = np.bincount(roots, minlength=5)
    # each feature is the root's with probability 1/5: 80 expected, binomial sd 8, allow 4.5 sd
    assert np.all(np.abs(counts - 80) < 36), counts
    est = DecisionTreeClassifier(max_features=2, random_state=0).fit(X, y)
    assert est.max_features_ == 2 and (est.predict(X) == y).all()
    est_sqrt = DecisionTreeClassifier(max_features="sqrt", random_state=0).fit(X, y)
    assert est_sqrt.max_features_ == 2


def test_max_features_skips_constant_features():
    rng = np.random.default_rng(1)
    X = np.column_stack([np.zeros(50), np.ones(50), rng.normal(size=50)])
    y = (X[:, 2] > 0).astype(int)
    for seed in range(20):
        est = DecisionTreeClassifier(max_features=1, random_state=seed).fit(X, y)
        assert est.tree_.node_count == 3 and est.tree_.feature[0] == 2


def test_min_impurity_decrease_and_min_samples_match_sklearn():
    X, y = _classification(3, n=300)
    for kwargs in ({"min_impurity_decrease": 0.01}, {"min_samples_split": 30}, {"min_samples_leaf": 0.05},
                   {"min_weight_fraction_leaf": 0.1}):
        kwargs = {"max_depth": 4, **kwargs}
        ours = DecisionTreeClassifier(**kwargs).fit(X, y)
        theirs = sk_tree.DecisionTreeClassifier(random_state=0, **kwargs).fit(X, y)
        _assert_same_tree(ours.tree_, theirs.tree_)


def test_constant_features_and_duplicate_rows():
    X = np.array([[1.0, 5.0], [1.0, 5.0], [1.0, 5.0], [1.0, 5.0]])
    est = DecisionTreeClassifier().fit(X, [0, 1, 0, 1])
    assert est.tree_.node_count == 1
    np.testing.assert_allclose(est.predict_proba(X), 0.5)
    assert (est.predict(X) == 0).all()                  # ties of fraction: the first class, as scikit-learn


def test_tree_value_is_writable_and_used_by_predict():
    X, y = _classification(0)
    est = DecisionTreeRegressor(max_depth=2).fit(X, y.astype(float))
    leaves = est.apply(X)
    est.tree_.value[leaves[0], 0, 0] = 123.0
    assert est.predict(X[:1])[0] == 123.0


def test_impurity_functions():
    for p in itertools.product([0.0, 0.2, 0.5, 1.0], repeat=2):
        if sum(p) == 0:
            continue
        q = np.array(p) / sum(p)
        assert gini(p) == pytest.approx(1 - (q ** 2).sum())
        assert misclassification(p) == pytest.approx(1 - q.max())
    assert entropy([1, 1, 1, 1]) == pytest.approx(2.0)
    assert entropy([1, 1], base="e") == pytest.approx(np.log(2))
    with pytest.raises(ValueError, match="non-negative"):
        gini([-1, 2])
    with pytest.raises(ValueError, match="positive sum"):
        entropy([0, 0])


def test_max_features_trees_match_sklearn_statistically():
    # random feature subsets cannot give scikit-learn's trees (another random stream), but the same kind of trees:
    # over 30 seeds, the mean size and the mean test accuracy agree closely
    rng = np.random.default_rng(11)
    X = rng.normal(size=(400, 6))
    y = (X[:, 0] + X[:, 1] - X[:, 2] + 0.7 * rng.normal(size=400) > 0).astype(int)
    X_test = rng.normal(size=(1000, 6))
    y_test = (X_test[:, 0] + X_test[:, 1] - X_test[:, 2] > 0).astype(int)
    ours, theirs = [], []
    for seed in range(30):
        a = DecisionTreeClassifier(max_features=2, random_state=seed, min_samples_leaf=3).fit(X, y)
        b = sk_tree.DecisionTreeClassifier(max_features=2, random_state=seed, min_samples_leaf=3).fit(X, y)
        ours.append((a.tree_.node_count, a.score(X_test, y_test), a.get_depth()))
        theirs.append((b.tree_.node_count, b.score(X_test, y_test), b.get_depth()))
    ours, theirs = np.mean(ours, axis=0), np.mean(theirs, axis=0)
    assert abs(ours[0] - theirs[0]) < 0.1 * theirs[0]          # mean number of nodes within 10%
    assert abs(ours[1] - theirs[1]) < 0.02                      # mean test accuracy within 2 points
    assert abs(ours[2] - theirs[2]) < 1.5                       # mean depth within 1.5 levels
