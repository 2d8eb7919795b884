"""Drawings and the demo of chapter 20, *Bootstrap, bagging and random forests*: the regions of a forest as trees
are added, and its out-of-bag and test errors against the number of trees."""

import copy
from numbers import Integral

import numpy as np

from ..ensemble import RandomForestClassifier, staged_errors
from ..plotting import check_points_2d, draw_decision_boundary
from ..utils.validation import check_scalar

__all__ = ["draw_forest", "draw_error_path", "first_trees", "forest_demo"]


def first_trees(forest, n_trees):
    """A copy of a fitted forest (or bagging ensemble) that keeps only its first ``n_trees`` members."""
    n_trees = check_scalar(n_trees, "n_trees", Integral, min_val=1)
    if n_trees > len(forest.estimators_):
        raise ValueError(f"n_trees = {n_trees} exceeds the {len(forest.estimators_)} members of the ensemble")
    part = copy.copy(forest)
    part.estimators_ = forest.estimators_[:n_trees]
    part.estimators_samples_ = forest.estimators_samples_[:n_trees]
    part.estimators_features_ = forest.estimators_features_[:n_trees]
    return part


def draw_forest(ax, model, X, y, *, resolution=150, padding=0.5):
    """Draw the decision regions of a fitted ensemble classifier in the plane with its probability contours and the
    training points (:func:`mlnotes.plotting.draw_decision_boundary`).

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted classifier with two classes and ``predict_proba``, fitted on two features
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)
    resolution : int, default 150
    padding : float, default 0.5

    Returns
    -------
    ax : matplotlib Axes
    """
    X, y = check_points_2d(X, y)
    if len(model.classes_) != 2:
        raise ValueError(f"draw_forest draws a two-class ensemble, got {len(model.classes_)} classes")
    return draw_decision_boundary(ax, model, X, y, resolution=resolution, padding=padding)


def draw_error_path(ax, model, X_train, y_train, X_test, y_test, *, label="", colour="C0", mark=None):
    """Draw the out-of-bag error (solid) and the test error (dashed) of the first b members against b.

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted bagging or random forest of :mod:`mlnotes.ensemble`, fitted on ``(X_train, y_train)``
    X_train, y_train : the training data
    X_test, y_test : held-out data
    label : str
        Prefix of the two legend entries.
    colour : matplotlib colour
    mark : int, optional
        Draw a vertical line at b = ``mark``.

    Returns
    -------
    oob, test : ndarray of shape (n_estimators,)
        The two curves.
    """
    oob = staged_errors(model, X_train, y_train, out_of_bag=True)
    test = staged_errors(model, X_test, y_test)
    b = np.arange(1, len(oob) + 1)
    ax.plot(b, oob, color=colour, label=f"{label}out-of-bag".strip())
    ax.plot(b, test, color=colour, ls="--", label=f"{label}test".strip())
    if mark is not None:
        ax.axvline(mark, color="k", lw=0.8, ls=":")
    ax.set(xlabel="number of trees $b$", ylabel="error rate")
    return oob, test


def _demo_data(n_samples, random_state):
    """Two interleaved half-moons with noise (scikit-learn's ``make_moons``), labels 0 and 1, and a test set."""
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=2 * n_samples, noise=0.3, random_state=random_state)
    return X[:n_samples], y[:n_samples], X[n_samples:], y[n_samples:]


def _demo_forest(max_features, X, y, *, n_estimators=100, random_state=0):
    """The forest of the demo: ``max_features`` 1 (a random feature per split) or 2 (bagged trees)."""
    max_features = check_scalar(max_features, "max_features", Integral, min_val=1, max_val=2)
    return RandomForestClassifier(n_estimators, max_features=max_features, oob_score=True,
                                  random_state=random_state).fit(X, y)


def forest_demo(*, n_samples=200, max_trees=100, random_state=0):
    r"""A widget: a slider for the number of trees and a menu for ``max_features`` (1: a random forest, 2: bagged
    trees) on two noisy half-moons; draws the regions of the first :math:`b` trees and the out-of-bag and test errors
    against :math:`b`. The forests are fitted once (per ``max_features``) and cut to their first :math:`b` trees.

    Parameters
    ----------
    n_samples : int >= 10, default 200
        Training points (and as many test points).
    max_trees : int >= 2, default 100
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=10)
    max_trees = check_scalar(max_trees, "max_trees", Integral, min_val=2)
    X, y, X_test, y_test = _demo_data(n_samples, random_state)
    forests = {}

    def update(n_trees, max_features):
        if max_features not in forests:
            forests[max_features] = _demo_forest(max_features, X, y, n_estimators=max_trees, random_state=random_state)
        forest = forests[max_features]
        fig, (left, right) = plt.subplots(1, 2, figsize=(7.2, 3.6), layout="constrained")
        draw_forest(left, first_trees(forest, n_trees), X, y, resolution=100)
        left.set_title(f"{n_trees} tree{'s' if n_trees > 1 else ''}, max_features = {max_features}")
        draw_error_path(right, forest, X, y, X_test, y_test, mark=n_trees)
        right.legend(loc="upper right")
        right.set_title("error against the number of trees")
        plt.show()

    return widgets.interactive(
        update,
        n_trees=widgets.IntSlider(value=10, min=1, max=max_trees, step=1, description="trees b"),
        max_features=widgets.Dropdown(options=[("1 (random forest)", 1), ("2 (bagging)", 2)], value=1,
                                      description="max_features"),
    )
