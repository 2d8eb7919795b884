"""mlnotes.widgets.forest: the regions of a forest, its error curves against the number of trees, and the demo of
chapter 20."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlnotes.ensemble import staged_errors  # noqa: E402
from mlnotes.widgets.forest import (_demo_data, _demo_forest, draw_error_path, draw_forest, first_trees,  # noqa: E402
                                    forest_demo)


def test_first_trees_keeps_the_first_members_and_leaves_the_forest_alone():
    X, y, X_test, _ = _demo_data(60, 0)
    forest = _demo_forest(1, X, y, n_estimators=12)
    part = first_trees(forest, 4)
    assert len(part.estimators_) == 4 and len(forest.estimators_) == 12
    np.testing.assert_allclose(part.predict_proba(X_test),
                               np.mean([tree.predict_proba(X_test) for tree in forest.estimators_[:4]], axis=0))
    with pytest.raises(ValueError, match="exceeds"):
        first_trees(forest, 13)
    with pytest.raises(ValueError, match="n_trees"):
        first_trees(forest, 0)


def test_draw_error_path_draws_the_staged_errors():
    X, y, X_test, y_test = _demo_data(60, 0)
    forest = _demo_forest(2, X, y, n_estimators=10)
    fig, ax = plt.subplots()
    oob, test = draw_error_path(ax, forest, X, y, X_test, y_test, label="f: ", mark=5)
    np.testing.assert_allclose(test, staged_errors(forest, X_test, y_test))
    lines = {line.get_label(): line for line in ax.get_lines()}
    np.testing.assert_allclose(lines["f: out-of-bag"].get_ydata(), oob)
    np.testing.assert_allclose(lines["f: test"].get_ydata(), test)
    plt.close(fig)


def test_draw_forest_rejects_what_it_cannot_draw():
    X, y, _, _ = _demo_data(60, 0)
    forest = _demo_forest(1, X, y, n_estimators=5)
    fig, ax = plt.subplots()
    draw_forest(ax, forest, X, y, resolution=30)
    with pytest.raises(ValueError, match="2 features"):
        draw_forest(ax, forest, np.hstack([X, X]), y)
    plt.close(fig)


def test_the_demo_parameters_matter():
    X, y, X_test, y_test = _demo_data(200, 0)
    forest, bagged = _demo_forest(1, X, y, n_estimators=60), _demo_forest(2, X, y, n_estimators=60)
    # more trees: the held-out error of 60 trees is below that of one tree
    errors = staged_errors(forest, X_test, y_test)
    assert errors[-1] < errors[0]
    # max_features changes the trees: one feature per split against both
    assert not np.allclose(forest.predict_proba(X_test), bagged.predict_proba(X_test))
    with pytest.raises(ValueError, match="max_features"):
        _demo_forest(3, X, y)


def test_forest_demo_builds_the_widget_and_validates():
    pytest.importorskip("ipywidgets")
    demo = forest_demo(n_samples=40, max_trees=5)
    names = {getattr(child, "description", None) for child in demo.children}
    assert {"trees b", "max_features"} <= names
    plt.close("all")
    with pytest.raises(ValueError, match="n_samples"):
        forest_demo(n_samples=2)
