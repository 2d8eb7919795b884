"""Demos of chapter "Linear classification": decision regions, and the penalty C of logistic regression."""

import numpy as np

from ..linear import LogisticRegression
from ..plotting import check_points_2d, draw_decision_boundary
from ..utils.validation import check_scalar

__all__ = ["draw_decision_boundary", "logistic_c_demo"]

def logistic_c_demo(X, y, *, log10_C=0.0):
    """A widget: a slider for log10(C) refits a binary :class:`~mlnotes.linear.LogisticRegression` and
    redraws its decision boundary and probability contours with
    :func:`mlnotes.plotting.draw_decision_boundary`.

    Parameters
    ----------
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)
        Two classes.
    log10_C : float, default 0
        Initial slider position, in [-3, 3].

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    X, y = check_points_2d(X, y)
    if len(np.unique(y)) != 2:
        raise ValueError(f"logistic_c_demo needs exactly 2 classes, got {len(np.unique(y))}")
    log10_C = check_scalar(log10_C, "log10_C", low=-3.0, high=3.0)

    def update(log10_C):
        model = LogisticRegression(C=10.0**log10_C, solver="newton", max_iter=200).fit(X, y)
        fig, ax = plt.subplots(figsize=(5.6, 4.4))
        draw_decision_boundary(ax, model, X, y)
        ax.set_title(f"C = {10.0**log10_C:.3g}: |w| = {np.linalg.norm(model.coef_):.2f}, "
                     f"training accuracy {model.score(X, y):.2f}", fontsize=9)
        ax.legend(loc="upper left", fontsize=9)
        plt.show()

    return widgets.interactive(
        update, log10_C=widgets.FloatSlider(value=log10_C, min=-3.0, max=3.0, step=0.25, description="log10 C"))
