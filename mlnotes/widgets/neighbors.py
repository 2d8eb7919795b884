"""Drawings and demos of chapter 18, *Nearest neighbours and evaluation*: k-nearest-neighbour regions as k
changes, and the ROC and precision-recall curves with the point of one decision threshold marked."""

from numbers import Integral, Real

import numpy as np

from ..metrics import precision_recall_curve, roc_curve
from ..neighbors import KNeighborsClassifier
from ..plotting import check_points_2d, draw_decision_boundary
from ..utils.validation import as_float_vector, check_option, check_scalar

__all__ = ["draw_knn_regions", "draw_threshold_curves", "threshold_counts", "knn_demo", "threshold_demo"]


def draw_knn_regions(ax, model, X, y, *, query=None, resolution=150, padding=0.5):
    r"""Draw the decision regions of a fitted k-nearest-neighbour classifier in the plane, and optionally one query
    with segments to its :math:`k` neighbours.

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted KNeighborsClassifier
        Of :mod:`mlnotes.neighbors` or scikit-learn, on two features.
    X : array of shape (n_samples, 2)
        The training points.
    y : array of shape (n_samples,)
    query : array of shape (2,), optional
        A point whose neighbours (``model.kneighbors``) are joined to it by segments.
    resolution : int, default 150
    padding : float, default 0.5

    Returns
    -------
    ax : matplotlib Axes
    """
    X, y = check_points_2d(X, y)
    draw_decision_boundary(ax, model, X, y, resolution=resolution, padding=padding, show_proba=False)
    if query is not None:
        q = as_float_vector(query, "query")
        if q.shape != (2,):
            raise ValueError(f"query must be one point of the plane, shape (2,), got {q.shape}")
        neighbours = model.kneighbors(q[None, :], return_distance=False)[0]
        for j in neighbours:
            ax.plot([q[0], X[j, 0]], [q[1], X[j, 1]], color="k", linewidth=0.8, zorder=3)
        ax.scatter([q[0]], [q[1]], marker="*", s=180, color="w", edgecolors="k", zorder=4,
                   label=f"query and its {len(neighbours)} neighbours")
    return ax


def threshold_counts(y_true, y_score, threshold):
    r"""The confusion counts of the rule "positive when :math:`s \ge t`": ``(TP, FP, FN, TN)``.

    Parameters
    ----------
    y_true : array of shape (n_samples,) in {0, 1}
    y_score : array of shape (n_samples,)
    threshold : float

    Returns
    -------
    tuple of int
    """
    y_true = as_float_vector(y_true, "y_true")
    y_score = as_float_vector(y_score, "y_score", len(y_true))
    if not np.all((y_true == 0) | (y_true == 1)):
        raise ValueError("y_true must hold the labels 0 and 1")
    t = check_scalar(threshold, "threshold", Real, allow_inf=True)
    predicted = y_score >= t
    positive = y_true == 1
    return (int(np.sum(predicted & positive)), int(np.sum(predicted & ~positive)),
            int(np.sum(~predicted & positive)), int(np.sum(~predicted & ~positive)))


def draw_threshold_curves(ax_roc, ax_pr, y_true, y_score, threshold):
    r"""Draw the ROC curve (true against false positive rate) and the precision-recall curve, each with the point
    of the rule :math:`s \ge t` marked.

    Parameters
    ----------
    ax_roc, ax_pr : matplotlib Axes
    y_true : array of shape (n_samples,) in {0, 1}
    y_score : array of shape (n_samples,)
    threshold : float

    Returns
    -------
    counts : tuple of int
        ``(TP, FP, FN, TN)`` at the threshold (:func:`threshold_counts`).
    """
    counts = threshold_counts(y_true, y_score, threshold)
    tp, fp, fn, tn = counts
    fpr, tpr, _ = roc_curve(y_true, y_score, drop_intermediate=False)
    ax_roc.plot(fpr, tpr, color="C0", label="ROC curve")
    ax_roc.plot([0, 1], [0, 1], color="0.5", linestyle=":", label="random scores")
    ax_roc.scatter([fp / (fp + tn)], [tp / (tp + fn)], s=80, color="C3", zorder=3, label=f"t = {threshold:g}")
    ax_roc.set(xlabel="false positive rate FP/(FP + TN)", ylabel="true positive rate (recall)", xlim=(-0.02, 1.02),
               ylim=(-0.02, 1.02), aspect="equal")
    ax_roc.legend(loc="lower right")
    precision, recall, _ = precision_recall_curve(y_true, y_score)
    ax_pr.step(recall, precision, where="post", color="C0", label="precision-recall curve")
    base = float(np.mean(np.asarray(y_true) == 1))
    ax_pr.axhline(base, color="0.5", linestyle=":", label=f"base rate {base:.2f}")
    if tp + fp > 0:
        ax_pr.scatter([tp / (tp + fn)], [tp / (tp + fp)], s=80, color="C3", zorder=3, label=f"t = {threshold:g}")
    ax_pr.set(xlabel="recall TP/(TP + FN)", ylabel="precision TP/(TP + FP)", xlim=(-0.02, 1.02), ylim=(0.0, 1.02))
    ax_pr.legend(loc="lower left")
    return counts


def _demo_data(n_per_class, random_state):
    """Three overlapping Gaussian classes in the plane, labels 0, 1, 2."""
    from ..datasets import make_gaussian_classes

    return make_gaussian_classes([[-1.0, 0.0], [1.0, 0.6], [0.0, -1.4]], 0.55 * np.eye(2), n_per_class,
                                 random_state=random_state)


def _demo_model(k, weights, X, y):
    """The classifier the k demo draws."""
    k = check_scalar(k, "k", Integral, min_val=1, max_val=len(y))
    check_option(weights, "weights", ("uniform", "distance"))
    return KNeighborsClassifier(k, weights=weights).fit(X, y)


def knn_demo(*, n_per_class=50, random_state=0):
    """A widget: a slider for k and a menu for the weights; redraws the regions of
    :class:`mlnotes.neighbors.KNeighborsClassifier` on three Gaussian classes, with the training accuracy and the
    accuracy on a fresh sample of the same classes.

    Parameters
    ----------
    n_per_class : int >= 2, default 50
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    n_per_class = check_scalar(n_per_class, "n_per_class", Integral, min_val=2)
    X, y = _demo_data(n_per_class, random_state)
    X_new, y_new = _demo_data(n_per_class, random_state + 1)

    def update(k, weights):
        model = _demo_model(k, weights, X, y)
        fig, ax = plt.subplots(figsize=(6.2, 4.8))
        draw_knn_regions(ax, model, X, y, query=[0.0, 0.0])
        ax.legend(loc="upper left")
        ax.set_title(f"k = {k}, {weights} votes: training accuracy {model.score(X, y):.2f}, "
                     f"new data {model.score(X_new, y_new):.2f}")
        plt.show()

    return widgets.interactive(
        update,
        k=widgets.IntSlider(value=5, min=1, max=min(60, len(y)), step=1, description="k"),
        weights=widgets.Dropdown(options=["uniform", "distance"], value="uniform", description="weights"))


def threshold_demo(y_true, y_score):
    """A widget: a slider for the decision threshold t; redraws :func:`draw_threshold_curves` and prints the
    confusion matrix and the scores at t.

    Parameters
    ----------
    y_true : array of shape (n_samples,) in {0, 1}
    y_score : array of shape (n_samples,)

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    y_score = as_float_vector(y_score, "y_score")
    threshold_counts(y_true, y_score, 0.5)                 # validates the labels once

    def update(threshold):
        fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(7.2, 3.8), layout="constrained")
        tp, fp, fn, tn = draw_threshold_curves(ax_roc, ax_pr, y_true, y_score, threshold)
        precision = tp / (tp + fp) if tp + fp else float("nan")
        fig.suptitle(f"t = {threshold:.2f}:  TP {tp}, FP {fp}, FN {fn}, TN {tn};  precision {precision:.2f}, "
                     f"recall {tp / (tp + fn):.2f}, specificity {tn / (tn + fp):.2f}")
        plt.show()

    lo, hi = float(y_score.min()), float(y_score.max())
    return widgets.interactive(update, threshold=widgets.FloatSlider(
        value=float(np.median(y_score)), min=lo, max=hi, step=(hi - lo) / 100 or 0.01, description="threshold t"))
