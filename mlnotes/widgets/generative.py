"""Demo of chapter 13, *Generative classifiers*: class densities and the boundaries of LDA, QDA and naive Bayes."""

import numpy as np

from ..datasets import make_gaussian_classes
from ..generative import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis, class_gaussians
from ..plotting import POINT_COLOURS, check_points_2d, draw_boundary, draw_decision_boundary, plane_grid
from ..utils.validation import check_scalar

__all__ = ["draw_class_densities", "generative_demo"]


def draw_class_densities(ax, model, X, y, *, compare=None, sigmas=(1.0, 2.0), resolution=150, padding=1.0):
    r"""Draw a Gaussian generative classifier in the plane: decision regions and boundary, the ellipses of its
    class densities, and the data.

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis or GaussianNB
        On two features.
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)
        Labels, from ``model.classes_``.
    compare : fitted classifier, optional
        A second model whose boundary is drawn dashed over the first (e.g. LDA over QDA).
    sigmas : sequence of float
        The class ellipses drawn: the level sets :math:`(x - \mu_k)^\top \Sigma_k^{-1} (x - \mu_k) = s^2` of the
        Mahalanobis distance, one per ``s`` (1 and 2 "standard deviations").
    resolution : int, default 150
        Grid points per axis.
    padding : float, default 1.0
        Margin around the data, in data units.

    Returns
    -------
    ax : matplotlib Axes
    """
    X, y = check_points_2d(X, y)
    sigmas = sorted(check_scalar(s, "sigma", low=0.0, include_low=False) for s in sigmas)
    priors, means, covariances = class_gaussians(model)
    if means.shape[1] != 2:
        raise ValueError(f"the model must be fitted on 2 features to be drawn in the plane, got {means.shape[1]}")
    draw_decision_boundary(ax, model, X, y, resolution=resolution, padding=padding, show_proba=False)
    g0, g1, grid = plane_grid(None, None, resolution, ax=ax)
    for k, (mu, S) in enumerate(zip(means, covariances)):
        r = grid - mu
        mahalanobis2 = np.sum(r * np.linalg.solve(S, r.T).T, axis=1).reshape(g0.shape)
        ax.contour(g0, g1, mahalanobis2, levels=np.square(sigmas), colors=POINT_COLOURS[k], linewidths=1.0,
                   linestyles="-", alpha=0.8)
        ax.scatter(*mu, marker="x", s=60, color=POINT_COLOURS[k], linewidths=2, zorder=4)
    if compare is not None:
        draw_boundary(ax, compare, g0, g1, colors="k", linewidths=1.5, linestyles="--")
    return ax


def generative_demo(*, n_samples=100, random_state=0):
    """A widget: sliders for the scale and the correlation of the covariance of class 1 (class 0 keeps the
    identity); refits LDA and QDA and redraws the class ellipses, the bending QDA boundary (solid) and the
    straight LDA boundary (dashed) with :func:`draw_class_densities`.

    Parameters
    ----------
    n_samples : int, default 100
        Samples per class.
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 3:
        raise ValueError(f"n_samples must be an integer >= 3 (per class), got {n_samples!r}")

    def update(scale, rho):
        # class 0 ~ N(0, I), class 1 ~ N((2.5, 1), scale^2 [[1, rho], [rho, 1]]), from one fixed normal sample
        covariance_1 = scale**2 * np.array([[1.0, rho], [rho, 1.0]])
        X, y = make_gaussian_classes([[0.0, 0.0], [2.5, 1.0]], [np.eye(2), covariance_1], n_samples,
                                     random_state=random_state)
        lda = LinearDiscriminantAnalysis().fit(X, y)
        qda = QuadraticDiscriminantAnalysis().fit(X, y)
        fig, ax = plt.subplots(figsize=(6.2, 4.6))
        draw_class_densities(ax, qda, X, y, compare=lda)
        handles = [Line2D([], [], color="k", lw=1.5, label=f"QDA, training accuracy {qda.score(X, y):.2f}"),
                   Line2D([], [], color="k", lw=1.5, ls="--", label=f"LDA, training accuracy {lda.score(X, y):.2f}")]
        ax.legend(handles=handles, loc="upper left", fontsize=9)
        ax.set_title(rf"class 1: $\Sigma_1$ = {scale:.2f}$^2$ [[1, {rho:.2f}], [{rho:.2f}, 1]], "
                     r"class 0: $\Sigma_0 = I$", fontsize=9)
        plt.show()

    return widgets.interactive(
        update,
        scale=widgets.FloatSlider(value=1.8, min=0.3, max=3.0, step=0.1, description="scale of Σ₁"),
        rho=widgets.FloatSlider(value=0.6, min=-0.9, max=0.9, step=0.1, description="ρ of Σ₁"),
    )
