"""Drawings and the demo of chapter 14, *Support vector machines*: margins, support vectors, and the effect of
``C`` and ``gamma``."""

from numbers import Integral

import numpy as np

from ..plotting import check_points_2d, draw_decision_boundary, plane_grid
from ..svm import SVC
from ..utils.validation import check_scalar

__all__ = ["draw_svm", "svm_demo"]

KERNELS = ("rbf", "linear", "poly")


def draw_svm(ax, model, X, y, *, resolution=200, padding=0.5):
    r"""Draw a fitted two-class SVM in the plane: decision regions, the boundary :math:`f(x) = 0` (solid), the
    margins :math:`f(x) = \pm 1` (dashed) and the support vectors (circled).

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted classifier with two classes
        With ``decision_function`` and ``support_`` (e.g. :class:`mlnotes.svm.SVC`, or scikit-learn's
        ``SVC``), fitted on two features.
    X : array of shape (n_samples, 2)
        The training points (``model.support_`` indexes them).
    y : array of shape (n_samples,)
        Labels, from ``model.classes_``.
    resolution : int, default 200
        Grid points per axis.
    padding : float, default 0.5
        Margin around the data, in data units.

    Returns
    -------
    ax : matplotlib Axes
    """
    X, y = check_points_2d(X, y)
    if len(model.classes_) != 2:
        raise ValueError(f"draw_svm draws a two-class SVM, got {len(model.classes_)} classes")
    support = np.asarray(model.support_)
    if support.size and (support.min() < 0 or support.max() >= len(X)):
        raise ValueError("model.support_ must index the rows of X: pass the training points")
    draw_decision_boundary(ax, model, X, y, resolution=resolution, padding=padding, show_proba=False)
    g0, g1, grid = plane_grid(None, None, resolution, ax=ax)
    f = model.decision_function(grid).reshape(g0.shape)
    ax.contour(g0, g1, f, levels=[-1.0, 1.0], colors="k", linewidths=1.0, linestyles="--")
    ax.scatter(X[support, 0], X[support, 1], s=90, facecolors="none", edgecolors="k", linewidths=1.2,
               label=f"support vectors ({support.size})", zorder=3)
    return ax


def _demo_data(n_samples, random_state):
    """Two interleaved half-moons with noise (scikit-learn's ``make_moons``), labels 0 and 1."""
    from sklearn.datasets import make_moons

    return make_moons(n_samples=n_samples, noise=0.25, random_state=random_state)


def _demo_model(log10_C, log10_gamma, kernel, X, y):
    """The SVC the demo draws: ``C = 10**log10_C``, ``gamma = 10**log10_gamma`` (unused by the linear kernel)."""
    log10_C = check_scalar(log10_C, "log10_C")
    log10_gamma = check_scalar(log10_gamma, "log10_gamma")
    return SVC(C=10.0**log10_C, kernel=kernel, gamma=10.0**log10_gamma, coef0=1.0, degree=3).fit(X, y)


def svm_demo(*, n_samples=100, random_state=0):
    r"""A widget: log-sliders for ``C`` and ``gamma`` and a kernel menu; refits :class:`mlnotes.svm.SVC` on two
    noisy half-moons and redraws the boundary, the margins and the support vectors with :func:`draw_svm`.

    Parameters
    ----------
    n_samples : int >= 4, default 100
        Points of the data set.
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    X, y = _demo_data(check_scalar(n_samples, "n_samples", Integral, min_val=4), random_state)

    def update(log10_C, log10_gamma, kernel):
        model = _demo_model(log10_C, log10_gamma, kernel, X, y)
        fig, ax = plt.subplots(figsize=(6.2, 4.6))
        draw_svm(ax, model, X, y)
        ax.legend(loc="upper right")
        gamma_text = "" if kernel == "linear" else rf", $\gamma$ = {10.0**log10_gamma:.3g}"
        ax.set_title(f"{kernel} kernel, C = {10.0**log10_C:.3g}{gamma_text}: "
                     f"training accuracy {model.score(X, y):.2f}")
        plt.show()

    return widgets.interactive(
        update,
        log10_C=widgets.FloatSlider(value=0.0, min=-2.0, max=3.0, step=0.25, description="log₁₀ C"),
        log10_gamma=widgets.FloatSlider(value=0.0, min=-2.0, max=2.0, step=0.25, description="log₁₀ γ"),
        kernel=widgets.Dropdown(options=KERNELS, value="rbf", description="kernel"),
    )
