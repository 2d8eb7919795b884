"""Drawings and the demo of chapter 19, *Decision trees*: a fitted tree beside the partition of the plane it makes,
and the effect of the depth."""

from numbers import Integral

import numpy as np

from ..plotting import check_points_2d
from ..utils.validation import check_scalar

__all__ = ["leaf_boxes", "draw_tree", "draw_partition", "tree_depth_demo"]


def _check_tree(estimator, n_features=None):
    tree = getattr(estimator, "tree_", None)
    if tree is None:
        raise ValueError("the estimator is not fitted: it has no tree_")
    if n_features is not None and tree.n_features != n_features:
        raise ValueError(f"the tree was fitted on {tree.n_features} features; the drawing needs {n_features} features")
    return tree


def leaf_boxes(estimator, lower, upper):
    r"""The axis-aligned box of every node of a fitted tree on two features, inside ``[lower, upper]``.

    Parameters
    ----------
    estimator : fitted decision tree with a ``tree_`` on 2 features
    lower, upper : array-like of shape (2,)
        The box of the root (e.g. the data's range with a margin).

    Returns
    -------
    boxes : ndarray of shape (n_nodes, 2, 2)
        ``boxes[t] = [[x_lo, x_hi], [y_lo, y_hi]]``: the points that reach node ``t`` (within the root box) are
        exactly those in it (left: ``x_j <= threshold``, right: ``x_j > threshold``).
    """
    tree = _check_tree(estimator, 2)
    lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    if lower.shape != (2,) or upper.shape != (2,) or not (lower < upper).all():
        raise ValueError("lower and upper must be two points of the plane with lower < upper")
    boxes = np.empty((tree.node_count, 2, 2))
    boxes[0] = np.column_stack([lower, upper])
    nodes = np.array([0])
    while nodes.size:                                           # a loop over depths
        nodes = nodes[tree.children_left[nodes] != -1]
        f, t = tree.feature[nodes], tree.threshold[nodes]
        left, right = tree.children_left[nodes], tree.children_right[nodes]
        boxes[left] = boxes[nodes]
        boxes[right] = boxes[nodes]
        boxes[left, f, 1] = np.minimum(boxes[nodes, f, 1], t)
        boxes[right, f, 0] = np.maximum(boxes[nodes, f, 0], t)
        nodes = np.concatenate([left, right])
    return boxes


def draw_partition(ax, estimator, X, y, *, padding=0.5, show_splits=True):
    """Draw the partition of the plane a fitted classification tree makes: one rectangle per leaf, coloured by
    its predicted class, the split segments, and the data.

    Parameters
    ----------
    ax : matplotlib Axes
    estimator : fitted classifier with ``tree_`` and ``classes_`` (mlnotes' or scikit-learn's), on 2 features
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)
    padding : float >= 0, default 0.5
    show_splits : bool, default True
        Draw each split as a segment inside its node's box, thicker near the root.

    Returns
    -------
    ax : matplotlib Axes
    """
    import matplotlib.patches as patches

    X, y = check_points_2d(X, y)
    tree = _check_tree(estimator, 2)
    padding = check_scalar(padding, "padding", min_val=0.0)
    lower, upper = X.min(axis=0) - padding, X.max(axis=0) + padding
    boxes = leaf_boxes(estimator, lower, upper)
    classes = list(estimator.classes_)
    leaves = np.flatnonzero(tree.children_left == -1)
    for leaf in leaves:
        k = int(tree.value[leaf, 0].argmax())
        (x0, x1), (y0, y1) = boxes[leaf]
        ax.add_patch(patches.Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor=f"C{k}", alpha=0.18, edgecolor="none"))
    if show_splits:
        depth = tree.node_depth if hasattr(tree, "node_depth") else None
        for node in np.flatnonzero(tree.children_left != -1):
            (x0, x1), (y0, y1) = boxes[node]
            width = 2.4 if depth is None else max(0.8, 2.4 - 0.4 * depth[node])
            if tree.feature[node] == 0:
                ax.plot([tree.threshold[node]] * 2, [y0, y1], color="k", lw=width)
            else:
                ax.plot([x0, x1], [tree.threshold[node]] * 2, color="k", lw=width)
    for k, label in enumerate(classes):
        mask = y == label
        ax.scatter(X[mask, 0], X[mask, 1], s=18, color=f"C{k}", edgecolors="k", linewidths=0.4,
                   label=f"class {label}")
    ax.set(xlim=(lower[0], upper[0]), ylim=(lower[1], upper[1]), xlabel="$x_1$", ylabel="$x_2$")
    return ax


def draw_tree(ax, estimator, *, feature_names=("$x_1$", "$x_2$"), max_depth=None):
    """Draw a fitted classification tree as a diagram: each internal node shows its test, each leaf its predicted
    class and sample count, coloured as in :func:`draw_partition`.

    Parameters
    ----------
    ax : matplotlib Axes
    estimator : fitted classifier with ``tree_`` and ``classes_``
    feature_names : sequence of str, default ("$x_1$", "$x_2$")
    max_depth : int or None
        Draw only the nodes up to this depth.

    Returns
    -------
    ax : matplotlib Axes
    """
    tree = _check_tree(estimator)
    if len(feature_names) < tree.n_features:
        raise ValueError(f"feature_names has {len(feature_names)} names for {tree.n_features} features")
    left, right = tree.children_left, tree.children_right
    depth = np.zeros(tree.node_count, dtype=int)
    internal = np.flatnonzero(left != -1)
    for node in internal:                                     # pre-order: parents come first
        depth[left[node]] = depth[right[node]] = depth[node] + 1
    shown = np.ones(tree.node_count, dtype=bool) if max_depth is None else depth <= max_depth
    is_leaf = (left == -1) | (depth == (np.inf if max_depth is None else max_depth))
    # x of a shown leaf: its rank among shown leaves in pre-order (= left to right); parents: mean of children
    x = np.zeros(tree.node_count)
    shown_leaves = np.flatnonzero(shown & is_leaf)
    x[shown_leaves] = np.arange(len(shown_leaves))
    for node in internal[::-1]:
        if shown[node] and not is_leaf[node]:
            x[node] = (x[left[node]] + x[right[node]]) / 2
    for node in np.flatnonzero(shown & ~is_leaf):
        for child in (left[node], right[node]):
            ax.plot([x[node], x[child]], [-depth[node], -depth[child]], color="0.4", lw=1, zorder=1)
    from matplotlib.colors import to_rgb

    for node in np.flatnonzero(shown):
        k = int(tree.value[node, 0].argmax())
        if is_leaf[node]:
            text = f"{estimator.classes_[k]}\nn={tree.n_node_samples[node]}"
            light = 0.35 * np.array(to_rgb(f"C{k}")) + 0.65                # opaque: the edges stay behind it
            box = dict(boxstyle="round", facecolor=tuple(light), edgecolor=f"C{k}")
        else:
            text = f"{feature_names[tree.feature[node]]} ≤ {tree.threshold[node]:.2f}"
            box = dict(boxstyle="round", facecolor="white", edgecolor="0.3")
        ax.text(x[node], -depth[node], text, ha="center", va="center", bbox=box, zorder=2)
    ax.set_xlim(-0.7, max(len(shown_leaves) - 1, 0) + 0.7)
    ax.set_ylim(-depth[shown].max() - 0.5, 0.5)
    ax.axis("off")
    return ax


def _demo_data(n_samples, random_state):
    """Two noisy half-moons (scikit-learn's ``make_moons``), split 2:1 into training and test points."""
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=n_samples, noise=0.3, random_state=random_state)
    n_train = 2 * n_samples // 3
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]


def _demo_model(max_depth, X, y):
    """The tree the demo draws: gini, the given depth."""
    from ..tree import DecisionTreeClassifier

    max_depth = check_scalar(max_depth, "max_depth", Integral, min_val=1)
    return DecisionTreeClassifier(max_depth=max_depth).fit(X, y)


def tree_depth_demo(*, n_samples=240, random_state=0):
    """A widget: a slider for ``max_depth``; refits :class:`mlnotes.tree.DecisionTreeClassifier` on noisy half-moons
    and redraws the partition (:func:`draw_partition`) beside the top of the tree (:func:`draw_tree`), with the
    training and test accuracy.

    Parameters
    ----------
    n_samples : int >= 6, default 240
        Points of the data set (two thirds for training).
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    X, y, X_test, y_test = _demo_data(check_scalar(n_samples, "n_samples", Integral, min_val=6), random_state)

    def update(max_depth):
        model = _demo_model(max_depth, X, y)
        fig, (ax_part, ax_tree) = plt.subplots(1, 2, figsize=(7.3, 3.8), layout="constrained",
                                               gridspec_kw={"width_ratios": [1, 1.3]})
        draw_partition(ax_part, model, X, y)
        draw_tree(ax_tree, model, max_depth=3)
        ax_part.set_title(f"depth {model.get_depth()}, {model.get_n_leaves()} leaves\ntrain "
                          f"{model.score(X, y):.2f}, test {model.score(X_test, y_test):.2f}")
        ax_tree.set_title("the tree (first 3 levels)")
        plt.show()

    return widgets.interactive(update, max_depth=widgets.IntSlider(value=3, min=1, max=10, description="max_depth"))
