"""Breiman's ordering against the exhaustive search, and reduced-error pruning against a brute-force replay."""

import numpy as np
import pytest

from mlnotes.tree import DecisionTreeClassifier, categorical_split, reduced_error_prune


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification"])
def test_ordering_finds_the_exhaustive_optimum(criterion):
    rng = np.random.default_rng(0)
    for _ in range(100):
        q = int(rng.integers(2, 9))
        categories = rng.integers(0, q, size=50)
        y = rng.integers(0, 2, size=50)
        w = rng.uniform(0.0, 2.0, size=50)
        fast = categorical_split(categories, y, w, criterion=criterion)
        slow = categorical_split(categories, y, w, criterion=criterion, method="exhaustive")
        q_seen = len(np.unique(categories))
        assert fast["n_candidates"] == q_seen - 1 and slow["n_candidates"] == 2 ** (q_seen - 1) - 1
        assert fast["impurity"] == pytest.approx(slow["impurity"], abs=1e-12)


def test_categorical_split_errors():
    with pytest.raises(ValueError, match="2 categories"):
        categorical_split([1, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError, match="2 classes"):
        categorical_split([1, 2, 3], [0, 1, 2])
    with pytest.raises(ValueError, match="method"):
        categorical_split([1, 2], [0, 1], method="fast")


def _errors(est, X, y):
    return int((est.predict(X) != y).sum())


def test_reduced_error_pruning_stops_when_every_collapse_raises_the_error():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + X[:, 1] + rng.normal(size=400) > 0).astype(int)
    est = DecisionTreeClassifier().fit(X[:250], y[:250])
    pruned, errors = reduced_error_prune(est, X[250:], y[250:])
    assert errors[0] == _errors(est, X[250:], y[250:])
    assert errors[-1] == _errors(pruned, X[250:], y[250:])
    assert np.all(np.diff(errors) <= 0) and errors[-1] < errors[0]
    assert pruned.tree_.node_count < est.tree_.node_count
    # brute force: collapsing any remaining internal node of the pruned tree raises the validation error
    t = pruned.tree_
    paths = pruned.decision_path(X[250:]).toarray().astype(bool)
    for node in np.flatnonzero(t.children_left != -1):
        predicted = pruned.predict(X[250:])
        reach = paths[:, node]
        predicted[reach] = pruned.classes_[t.value[node, 0].argmax()]
        assert (predicted != y[250:]).sum() > errors[-1]
    # the original estimator is untouched
    assert est.tree_.node_count > pruned.tree_.node_count


def test_reduced_error_prune_errors():
    X = np.arange(10.0)[:, None]
    y = np.array([0, 1] * 5)
    est = DecisionTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match="not seen"):
        reduced_error_prune(est, X, y + 5)
    with pytest.raises(ValueError, match="shape"):
        reduced_error_prune(est, X, y[:3])
