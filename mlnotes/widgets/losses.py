"""Demo of chapter "Loss functions": square, absolute and Huber line fits as one point becomes an outlier."""

import numpy as np

from ..linear import fit_linear
from ..losses import REGRESSION_LOSSES
from ..utils.validation import as_float_vector, check_scalar

__all__ = ["draw_robust_fit", "robust_fit_demo"]

_STYLE = {"square": ("C0", "-", "square"), "absolute": ("C2", "--", "absolute"), "huber": ("C1", "-.", "Huber")}


def _check_index(index, n):
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < n:
        raise ValueError(f"outlier_index must be an integer in [0, {n}), got {index!r}")
    return int(index)


def draw_robust_fit(ax, x, y, *, delta=1.0, outlier_index=None, outlier_shift=0.0):
    """Draw 1-D data with the lines that minimise the square, absolute and Huber losses.

    Parameters
    ----------
    ax : matplotlib Axes
    x, y : arrays of shape (n_samples,)
    delta : float > 0, default 1
        Huber's threshold.
    outlier_index : int, optional
        Sample whose target is moved by ``outlier_shift`` before fitting (circled in the plot).
    outlier_shift : float, default 0

    Returns
    -------
    fits : dict
        ``{"square": (w, b), "absolute": (w, b), "huber": (w, b)}`` with slope ``w`` (float) and intercept ``b``,
        from :func:`mlnotes.linear.fit_linear`.
    """
    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0]).copy()
    delta = check_scalar(delta, "delta", low=0, include_low=False)
    if outlier_index is not None:
        outlier_index = _check_index(outlier_index, x.shape[0])
        y[outlier_index] += check_scalar(outlier_shift, "outlier_shift")
    fits = {}
    for loss in REGRESSION_LOSSES:
        w, b = fit_linear(x[:, None], y, loss, delta=delta)
        fits[loss] = (float(w[0]), b)
    grid = np.array([x.min(), x.max()])
    ax.scatter(x, y, s=18, color="0.35", zorder=3, label="data")
    if outlier_index is not None:
        ax.scatter(x[outlier_index], y[outlier_index], s=80, facecolors="none", edgecolors="C3", zorder=4,
                   label="moved point")
    for loss, (w, b) in fits.items():
        color, ls, name = _STYLE[loss]
        if loss == "huber":
            name = f"{name} ($\\delta$={delta:g})"
        label = f"{name}, slope {w:.2f}"
        ax.plot(grid, w * grid + b, color=color, ls=ls, lw=2, label=label)
    ax.set_xlabel("$x$")
    ax.set_ylabel("$y$")
    ax.legend(loc="upper left", fontsize=9)
    return fits


def robust_fit_demo(x, y, *, outlier_index=0, delta=1.0):
    """A widget: sliders for the shift of one point and for Huber's delta; redraws the three fits.

    Parameters
    ----------
    x, y : arrays of shape (n_samples,)
    outlier_index : int, default 0
        Which sample the shift slider moves.
    delta : float > 0, default 1
        Initial value of the delta slider.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    outlier_index = _check_index(outlier_index, x.shape[0])
    delta = check_scalar(delta, "delta", low=0.1, high=5.0)
    spread = float(np.ptp(y)) or 1.0

    def update(shift, delta):
        fig, ax = plt.subplots(figsize=(6, 3.8))
        draw_robust_fit(ax, x, y, delta=delta, outlier_index=outlier_index, outlier_shift=shift)
        plt.show()

    return widgets.interactive(
        update,
        shift=widgets.FloatSlider(value=0.0, min=-4 * spread, max=4 * spread, step=spread / 10,
                                  description="move point"),
        delta=widgets.FloatSlider(value=delta, min=0.1, max=5.0, step=0.1, description="Huber δ"),
    )
