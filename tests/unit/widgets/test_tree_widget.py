"""mlnotes.widgets.tree: the partition of the plane, the tree diagram and the depth demo of chapter 19."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlnotes.tree import DecisionTreeClassifier  # noqa: E402
from mlnotes.widgets.tree import _demo_data, _demo_model, draw_partition, draw_tree, leaf_boxes, tree_depth_demo  # noqa: E402,E501


def test_leaf_boxes_contain_exactly_the_points_of_their_leaf():
    X, y, _, _ = _demo_data(120, 0)
    model = DecisionTreeClassifier(max_depth=4).fit(X, y)
    lower, upper = X.min(axis=0) - 1, X.max(axis=0) + 1
    boxes = leaf_boxes(model, lower, upper)
    leaves = np.flatnonzero(model.tree_.children_left == -1)
    grid = np.random.default_rng(0).uniform(lower, upper, size=(2000, 2))
    landed = model.apply(grid)
    for leaf in leaves:
        (x0, x1), (y0, y1) = boxes[leaf]
        inside = (grid[:, 0] > x0) & (grid[:, 0] <= x1) & (grid[:, 1] > y0) & (grid[:, 1] <= y1)
        np.testing.assert_array_equal(inside, landed == leaf)
    # the leaf boxes tile the root box
    areas = np.prod(boxes[leaves, :, 1] - boxes[leaves, :, 0], axis=1)
    assert areas.sum() == pytest.approx(np.prod(upper - lower))


def test_draw_partition_and_tree_draw_one_patch_per_leaf_and_one_label_per_node():
    X, y, _, _ = _demo_data(120, 0)
    model = DecisionTreeClassifier(max_depth=3).fit(X, y)
    fig, (a, b) = plt.subplots(1, 2)
    draw_partition(a, model, X, y)
    assert len(a.patches) == model.get_n_leaves()
    draw_tree(b, model)
    assert len(b.texts) == model.tree_.node_count
    fig2, c = plt.subplots()
    draw_tree(c, DecisionTreeClassifier().fit(X, y), max_depth=2)
    assert len(c.texts) == 7                      # the nodes up to depth 2 of a full tree
    plt.close("all")


def test_drawings_reject_what_they_cannot_draw():
    X, y, _, _ = _demo_data(60, 0)
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="not fitted"):
        draw_partition(ax, DecisionTreeClassifier(), X, y)
    with pytest.raises(ValueError, match="2 features"):
        draw_partition(ax, DecisionTreeClassifier().fit(np.hstack([X, X]), y), X, y)
    with pytest.raises(ValueError, match="lower < upper"):
        leaf_boxes(DecisionTreeClassifier().fit(X, y), [0, 0], [0, 1])
    plt.close(fig)


def test_the_depth_matters():
    X, y, X_test, y_test = _demo_data(240, 0)
    shallow, deep = _demo_model(1, X, y), _demo_model(10, X, y)
    assert shallow.get_n_leaves() == 2 and deep.get_n_leaves() > 10
    assert deep.score(X, y) > shallow.score(X, y)
    with pytest.raises(ValueError, match="max_depth"):
        _demo_model(0, X, y)


def test_tree_depth_demo_builds_and_validates():
    widget = tree_depth_demo(n_samples=60)
    assert widget.children[0].value == 3
    with pytest.raises(ValueError, match="n_samples"):
        tree_depth_demo(n_samples=2)
    plt.close("all")
