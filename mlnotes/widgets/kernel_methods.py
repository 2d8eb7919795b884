"""Demo of chapter 16, *Kernel methods*: kernel ridge regression as its bandwidth and its penalty change."""

from numbers import Integral

import numpy as np

from ..kernels import KernelRidge
from ..utils.validation import check_scalar

__all__ = ["make_wave", "draw_kernel_ridge", "kernel_ridge_demo"]


def make_wave(n_samples=40, *, noise=0.25, random_state=0):
    r"""Noisy samples of :math:`f(x) = \sin(2x) + x/3` on :math:`[-3, 3]`, sorted by :math:`x`.

    Parameters
    ----------
    n_samples : int >= 2, default 40
    noise : float >= 0, default 0.25
        Standard deviation of the Gaussian noise added to :math:`f`.
    random_state : int, default 0
        Seed of ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
    y : ndarray of shape (n_samples,)
    """
    n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=2)
    noise = check_scalar(noise, "noise", min_val=0.0)
    rng = np.random.default_rng(random_state)
    x = np.sort(rng.uniform(-3.0, 3.0, size=n_samples))
    return x[:, None], np.sin(2 * x) + x / 3 + noise * rng.normal(size=n_samples)


def draw_kernel_ridge(ax, X, y, *, gamma, alpha, X_test=None, y_test=None, resolution=400):
    r"""Fit ``KernelRidge(alpha, kernel="rbf", gamma)`` on one feature and draw the fit over the data.

    Parameters
    ----------
    ax : matplotlib Axes
    X : array of shape (n_samples, 1)
    y : array of shape (n_samples,)
    gamma : float > 0
        :math:`\gamma` of :math:`k(x, z) = e^{-\gamma (x - z)^2}`.
    alpha : float > 0
        The penalty of ``KernelRidge``.
    X_test, y_test : arrays of shape (n_test, 1) and (n_test,), optional
        Held-out data: their mean squared error goes into the legend.
    resolution : int, default 400
        Points of the curve.

    Returns
    -------
    model : fitted KernelRidge
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 1:
        raise ValueError(f"X must have shape (n_samples, 1) (one feature, to draw), got {X.shape}")
    model = KernelRidge(alpha=alpha, kernel="rbf", gamma=gamma).fit(X, y)
    grid = np.linspace(X.min() - 0.3, X.max() + 0.3, resolution)[:, None]
    label = f"fit: training MSE {np.mean((model.predict(X) - y) ** 2):.3f}"
    if X_test is not None:
        label += f", test MSE {np.mean((model.predict(X_test) - y_test) ** 2):.3f}"
    ax.plot(grid[:, 0], model.predict(grid), color="C3", lw=2, label=label)
    ax.scatter(X[:, 0], y, s=18, color="C0", zorder=3, label="training points")
    ax.set(xlabel="$x$", ylabel="$y$")
    return model


def kernel_ridge_demo(*, n_samples=40, random_state=0):
    r"""A widget: sliders for :math:`\log_{10}\gamma` and :math:`\log_{10}\alpha` of an RBF kernel ridge
    regression on noisy samples of a wave (:func:`make_wave`); redraws the fit, with the training and test mean
    squared errors (the test set: 200 new samples of the same wave).

    Parameters
    ----------
    n_samples : int >= 2, default 40
        Training samples.
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    X, y = make_wave(n_samples, random_state=random_state)
    X_test, y_test = make_wave(200, random_state=random_state + 1)

    def update(log10_gamma, log10_alpha):
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        draw_kernel_ridge(ax, X, y, gamma=10.0**log10_gamma, alpha=10.0**log10_alpha, X_test=X_test, y_test=y_test)
        ax.set_title(rf"RBF kernel ridge: $\gamma = 10^{{{log10_gamma:.1f}}}$, $\alpha = 10^{{{log10_alpha:.1f}}}$")
        ax.legend(loc="lower right")
        plt.show()

    return widgets.interactive(
        update,
        log10_gamma=widgets.FloatSlider(value=0.0, min=-2.0, max=3.0, step=0.25, description="log10 γ"),
        log10_alpha=widgets.FloatSlider(value=-1.0, min=-6.0, max=2.0, step=0.5, description="log10 α"),
    )
