"""Demos of chapter "Linear classification": decision regions, and the penalty C of logistic regression."""

import numpy as np

from ..linear import LogisticRegression
from ..utils.validation import as_float_matrix, check_scalar

#: Light region colours and strong point colours, one per class (up to 6 classes).
_REGION_COLOURS = ["#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1", "#d9d9d9"]
_POINT_COLOURS = ["C0", "C1", "C2", "C4", "C3", "C7"]
_MARKERS = ["o", "s", "^", "D", "v", "P"]


def _check_2d(X, y):
    X = as_float_matrix(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have exactly 2 features to be drawn in the plane, got {X.shape[1]}")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
    return X, y


def draw_decision_boundary(ax, model, X, y, *, resolution=200, padding=0.5, levels=(0.1, 0.25, 0.75, 0.9),
                           show_proba=True):
    """Draw the decision regions of a fitted classifier in the plane, its boundary, and the data.

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted classifier
        With ``predict`` and ``classes_``; for two classes the boundary is drawn from
        ``decision_function`` (the level set 0) when it exists, else from ``predict_proba`` (the level
        set 1/2).
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)
        Labels, from ``model.classes_``.
    resolution : int, default 200
        Grid points per axis.
    padding : float, default 0.5
        Margin around the data, in data units.
    levels : sequence of float in (0, 1)
        For two classes and a model with ``predict_proba``: the probability contours
        :math:`p(y = 1 \\mid x)` drawn (dashed) besides the boundary (``show_proba=True``).
    show_proba : bool, default True

    Returns
    -------
    ax : matplotlib Axes
    """
    X, y = _check_2d(X, y)
    if isinstance(resolution, bool) or not isinstance(resolution, (int, np.integer)) or resolution < 2:
        raise ValueError(f"resolution must be an integer >= 2, got {resolution!r}")
    padding = check_scalar(padding, "padding", low=0.0)
    classes = np.asarray(model.classes_)
    if len(classes) > len(_REGION_COLOURS):
        raise ValueError(f"at most {len(_REGION_COLOURS)} classes can be drawn, got {len(classes)}")
    from matplotlib.colors import ListedColormap

    lo, hi = X.min(axis=0) - padding, X.max(axis=0) + padding
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    grid = np.column_stack([g0.ravel(), g1.ravel()])
    region = np.searchsorted(classes, model.predict(grid)).reshape(g0.shape)
    K = len(classes)
    ax.contourf(g0, g1, region, levels=np.arange(K + 1) - 0.5, cmap=ListedColormap(_REGION_COLOURS[:K]))
    if K == 2 and hasattr(model, "decision_function"):
        ax.contour(g0, g1, model.decision_function(grid).reshape(g0.shape), levels=[0.0], colors="k",
                   linewidths=1.5)
    elif K == 2:
        ax.contour(g0, g1, model.predict_proba(grid)[:, 1].reshape(g0.shape), levels=[0.5], colors="k",
                   linewidths=1.5)
    else:
        ax.contour(g0, g1, region, levels=np.arange(K) + 0.5, colors="k", linewidths=1.0)
    if K == 2 and show_proba and hasattr(model, "predict_proba") and len(levels):
        levels = sorted(check_scalar(v, "level", low=0.0, include_low=False, high=1.0) for v in levels)
        P = model.predict_proba(grid)[:, 1].reshape(g0.shape)
        cs = ax.contour(g0, g1, P, levels=levels, colors="0.35", linewidths=0.8, linestyles="--")
        ax.clabel(cs, fontsize=7, fmt="%.2f")
    for k, label in enumerate(classes):
        mask = y == label
        ax.scatter(X[mask, 0], X[mask, 1], s=16, color=_POINT_COLOURS[k], marker=_MARKERS[k],
                   edgecolors="k", linewidths=0.3, label=f"class {label}")
    ax.set(xlim=(lo[0], hi[0]), ylim=(lo[1], hi[1]), xlabel="$x_1$", ylabel="$x_2$")
    return ax


def logistic_c_demo(X, y, *, log10_C=0.0):
    """A widget: a slider for log10(C) refits a binary :class:`~mlnotes.linear.LogisticRegression` and
    redraws its decision boundary and probability contours with :func:`draw_decision_boundary`.

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

    X, y = _check_2d(X, y)
    if len(np.unique(y)) != 2:
        raise ValueError(f"logistic_c_demo needs exactly 2 classes, got {len(np.unique(y))}")
    log10_C = check_scalar(log10_C, "log10_C", low=-3.0, high=3.0)

    def update(log10_C):
        model = LogisticRegression(C=10.0**log10_C, solver="newton", max_iter=200).fit(X, y)
        fig, ax = plt.subplots(figsize=(5.6, 4.4))
        draw_decision_boundary(ax, model, X, y)
        ax.set_title(f"C = {10.0**log10_C:.3g}: |w| = {np.linalg.norm(model.coef_):.2f}, "
                     f"training accuracy {model.score(X, y):.2f}", fontsize=9)
        ax.legend(loc="upper left", fontsize=8)
        plt.show()

    return widgets.interactive(
        update, log10_C=widgets.FloatSlider(value=log10_C, min=-3.0, max=3.0, step=0.25, description="log10 C"))
