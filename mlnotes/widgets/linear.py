"""Demo of chapter "Linear regression": ridge and one movable outlier."""

import numpy as np

from ..linear import LinearRegression, Ridge
from ..utils.validation import as_float_vector, check_scalar

__all__ = ["draw_ridge_fit", "ridge_outlier_demo"]


def draw_ridge_fit(ax, x, y, alpha, *, outlier_index=None, outlier_shift=0.0):
    """Draw 1-D data with its least-squares and ridge fits.

    Parameters
    ----------
    ax : matplotlib Axes
    x, y : arrays of shape (n_samples,)
    alpha : float
        Ridge penalty (scikit-learn's ``alpha``).
    outlier_index : int, optional
        Sample whose target is moved by ``outlier_shift`` before fitting.
    outlier_shift : float

    Returns
    -------
    ols, ridge : the fitted :class:`~mlnotes.linear.LinearRegression` and
        :class:`~mlnotes.linear.Ridge`.
    """
    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0]).copy()
    alpha = check_scalar(alpha, "alpha", low=0.0)
    if outlier_index is not None:
        y[outlier_index] += check_scalar(outlier_shift, "outlier_shift")
    X = x[:, None]
    ols = LinearRegression().fit(X, y)
    ridge = Ridge(alpha=alpha).fit(X, y)
    grid = np.linspace(x.min(), x.max(), 2)[:, None]
    ax.scatter(x, y, s=18, color="0.35", label="data")
    if outlier_index is not None:
        ax.scatter(x[outlier_index], y[outlier_index], s=70, facecolors="none", edgecolors="C3",
                   label="moved point")
    ax.plot(grid, ols.predict(grid), color="C0", label=f"least squares, slope {ols.coef_[0]:.2f}")
    ax.plot(grid, ridge.predict(grid), color="C1", ls="--",
            label=f"ridge $\\alpha$={alpha:g}, slope {ridge.coef_[0]:.2f}")
    ax.set_xlabel("$x$")
    ax.set_ylabel("$y$")
    ax.legend(loc="upper left", fontsize=9)
    return ols, ridge


def ridge_outlier_demo(x, y, *, outlier_index=0):
    """A widget: sliders for log10(alpha) and for the shift of one point; redraws both fits.

    Parameters
    ----------
    x, y : arrays of shape (n_samples,)
    outlier_index : int
        Which sample the shift slider moves.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    if not 0 <= outlier_index < x.shape[0]:
        raise ValueError(f"outlier_index must be in [0, {x.shape[0]}), got {outlier_index}")
    spread = float(np.ptp(y)) or 1.0

    def update(log10_alpha, shift):
        fig, ax = plt.subplots(figsize=(6, 3.6))
        draw_ridge_fit(ax, x, y, 10.0**log10_alpha, outlier_index=outlier_index, outlier_shift=shift)
        plt.show()

    return widgets.interactive(
        update,
        log10_alpha=widgets.FloatSlider(value=0.0, min=-3.0, max=3.0, step=0.25, description="log10 α"),
        shift=widgets.FloatSlider(value=0.0, min=-2 * spread, max=2 * spread, step=spread / 20,
                                  description="move point"),
    )
