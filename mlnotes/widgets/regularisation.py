r"""Demo of chapter 10, *Regularisation*: the lasso and ridge as constrained least squares in two dimensions.

For two features, the empirical risk :math:`\hat R(w) = \frac1n\|y - Xw\|^2` (centred data) has elliptical
level sets around the least-squares :math:`\hat w`. The penalised solution :math:`w_\alpha` lies where the
level set through it touches the ball :math:`\{\|w\| \le r\}` with :math:`r = \|w_\alpha\|` (the Ivanov
form of the same problem). For the :math:`\ell_1` ball the touching point is a corner, a sparse
:math:`w_\alpha`, exactly when :math:`\hat w` lies in one of four wedges with apex at the corners,
:math:`\hat w \in c + Q^{-1}N(c)`, with :math:`Q = X^\top X / n` and :math:`N(c)` the normal cone of
the ball at the corner :math:`c` (the KKT condition :math:`2Q(\hat w - c) \in \mu\,\partial\|c\|_1`).
"""

import numpy as np

from ..linear import Lasso, Ridge, lasso_path
from ..linear import alpha_max as _alpha_max
from ..utils.validation import as_float_matrix, as_float_vector, check_scalar

__all__ = ["draw_lasso_geometry", "regularisation_demo"]

PENALTIES = ("l1", "l2")

#: Colour of the regions of least-squares solutions whose constrained solution is sparse (as in the notes).
SPARSE_COLOUR = "tab:purple"


def _centred_two_features(X, y):
    X = as_float_matrix(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have exactly 2 features (columns) to draw the weight plane, got {X.shape[1]}")
    y = as_float_vector(y, "y", X.shape[0])
    if X.shape[0] < 2:
        raise ValueError("at least 2 samples are needed")
    return X - X.mean(axis=0), y - y.mean()


def _penalised_solution(X, y, alpha, penalty):
    """Coefficients of the lasso (``l1``) or ridge (``l2``) with the scaling (1/2n)||y - Xw - b||^2 + penalty."""
    if penalty == "l1":
        return Lasso(alpha, tol=1e-10, max_iter=100_000).fit(X, y).coef_
    return Ridge(alpha=X.shape[0] * alpha).fit(X, y).coef_


def _ball(radius, penalty, n_points=401):
    """Boundary of the l1 or l2 ball of the given radius, shape (n_points, 2)."""
    theta = np.linspace(0, 2 * np.pi, n_points)
    u = np.column_stack([np.cos(theta), np.sin(theta)])
    norms = np.abs(u).sum(axis=1) if penalty == "l1" else np.ones(n_points)
    return radius * u / norms[:, None]


def _shade_sparse_regions(ax, Q, radius, penalty, reach):
    """The least-squares solutions whose constrained solution (for this radius) has a zero coordinate.

    For the l1 ball: the wedge corner + Q^{-1} cone(g1, g2) at each corner, where g1, g2 span the
    normal cone there (drawn as a long parallelogram inside it, which the axes clip). For the l2 ball the normal cone at an axis point is a single ray, so the set is
    a ray (drawn dotted): sparse solutions need w_hat exactly on it.
    """
    if radius <= 0 or abs(np.linalg.det(Q)) < 1e-12 * max(np.abs(Q).max(), 1e-300) ** 2:
        return
    Q_inv = np.linalg.inv(Q)
    for sx, sy in [(1, 0), (0, 1), (-1, 0), (0, -1)]:
        corner = radius * np.array([sx, sy], dtype=float)
        if penalty == "l1":
            axis = np.array([sx, sy], dtype=float)
            other = np.array([sy, sx], dtype=float)          # perpendicular to the axis through the corner
            generators = [axis + other, axis - other]
            d1, d2 = (reach * Q_inv @ g / np.linalg.norm(Q_inv @ g) for g in generators)
            wedge = np.array([corner, corner + d1, corner + d1 + d2, corner + d2])   # inside the cone, to the edge
            ax.fill(wedge[:, 0], wedge[:, 1], color=SPARSE_COLOUR, alpha=0.18, lw=0)
        else:
            tip = corner + reach * Q_inv @ corner / np.linalg.norm(Q_inv @ corner)
            ax.plot([corner[0], tip[0]], [corner[1], tip[1]], color=SPARSE_COLOUR, ls=":", lw=1.5)


def draw_lasso_geometry(ax, X, y, alpha, *, penalty="l1", shade=True):
    r"""Draw the level sets of the empirical risk, the constraint ball and the penalised solution.

    The data are centred (the intercept is not penalised). With :math:`\alpha` in scikit-learn's
    scaling, ``penalty="l1"`` is the lasso :math:`\frac{1}{2n}\|y - Xw\|^2 + \alpha\|w\|_1`
    (``Lasso(alpha)``) and ``penalty="l2"`` is ridge in the same scaling,
    :math:`\frac{1}{2n}\|y - Xw\|^2 + \frac\alpha2\|w\|_2^2` (``Ridge(alpha=n * alpha)``). The ball drawn has
    the radius :math:`r = \|w_\alpha\|` of the solution, so :math:`w_\alpha` also solves the constrained
    (Ivanov) problem :math:`\min \hat R(w)` s.t. :math:`\|w\| \le r`: it is where the highlighted level set
    touches the ball.

    Parameters
    ----------
    ax : matplotlib Axes
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)
    alpha : float > 0
    penalty : {"l1", "l2"}, default "l1"
    shade : bool, default True
        Shade (purple) where :math:`\hat w` must lie for :math:`w_\alpha` to have a zero coordinate: four
        wedges for the :math:`\ell_1` ball, four rays (dotted) for the :math:`\ell_2` ball.

    Returns
    -------
    w : array of shape (2,)
        The penalised solution :math:`w_\alpha`.
    """
    if penalty not in PENALTIES:
        raise ValueError(f"penalty must be one of {PENALTIES}, got {penalty!r}")
    Xc, yc = _centred_two_features(X, y)
    alpha = check_scalar(alpha, "alpha", low=0, include_low=False)
    n = Xc.shape[0]
    Q = Xc.T @ Xc / n
    w_hat = np.linalg.lstsq(Xc, yc, rcond=None)[0]
    w = _penalised_solution(X, y, alpha, penalty)
    radius = float(np.abs(w).sum() if penalty == "l1" else np.linalg.norm(w))

    lim = 1.3 * max(np.abs(w_hat).max(), radius, 1e-3)
    grid = np.linspace(-lim, lim, 201)
    W1, W2 = np.meshgrid(grid, grid)
    D = np.stack([W1 - w_hat[0], W2 - w_hat[1]], axis=-1)
    R_min = float(np.sum((yc - Xc @ w_hat) ** 2) / n)
    R = np.einsum("...i,ij,...j->...", D, Q, D) + R_min      # R(w) = (w - w_hat)^T Q (w - w_hat) + R(w_hat)
    R_touch = float(np.sum((yc - Xc @ w) ** 2) / n)
    excess = max(R_touch - R_min, 1e-9 * max(R_min, 1.0))
    ax.contour(W1, W2, R, levels=R_min + excess * np.array([0.12, 0.4, 2.0, 3.5, 5.5]), colors="0.55",
               linewidths=0.8)
    ax.contour(W1, W2, R, levels=[R_min + excess], colors="C1", linewidths=1.8)
    if shade:
        _shade_sparse_regions(ax, Q, radius, penalty, reach=4 * lim)
    ball = _ball(radius, penalty)
    name = r"$\ell_1$" if penalty == "l1" else r"$\ell_2$"
    ax.fill(ball[:, 0], ball[:, 1], color="C0", alpha=0.2, lw=0)
    ax.plot(ball[:, 0], ball[:, 1], color="C0", lw=1.5, label=f"{name} ball, radius {radius:.2f}")
    ax.axhline(0, color="0.3", lw=0.6)
    ax.axvline(0, color="0.3", lw=0.6)
    ax.scatter(*w_hat, marker="*", s=140, color="k", zorder=5, label=r"least squares $\hat w$")
    ax.scatter(*w, s=45, color="C3", zorder=6, label=fr"$w_\alpha$ = ({w[0]:.2f}, {w[1]:.2f})")
    ax.set(xlim=(-lim, lim), ylim=(-lim, lim), aspect="equal", xlabel="$w_1$", ylabel="$w_2$",
           title=f"{'lasso' if penalty == 'l1' else 'ridge'}, $\\alpha$ = {alpha:.3g}")
    ax.legend(loc="lower left")
    return w


def regularisation_demo(X, y, *, n_alphas=60):
    r"""A widget: a slider for :math:`\log_{10}\alpha`; redraws the lasso and ridge geometry and the paths.

    Left and middle: :func:`draw_lasso_geometry` for the lasso and for ridge (same scaling of
    :math:`\alpha`). Right: both coefficient paths against :math:`\log_{10}\alpha` (lasso solid, ridge
    dashed), with the current :math:`\alpha` marked.

    Parameters
    ----------
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)
    n_alphas : int, default 60
        Points of the precomputed paths.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    Xc, yc = _centred_two_features(X, y)
    a_max = _alpha_max(Xc, yc)
    if a_max == 0:
        raise ValueError("X^T y = 0 after centring: every penalised solution is w = 0, there is nothing to show")
    alphas = np.geomspace(3 * a_max, 1e-3 * a_max, n_alphas)
    _, lasso_coefs, _ = lasso_path(Xc, yc, alphas=alphas, tol=1e-10, max_iter=100_000)
    n = Xc.shape[0]
    Q, c = Xc.T @ Xc / n, Xc.T @ yc / n
    ridge_coefs = np.column_stack([np.linalg.solve(Q + a * np.eye(2), c) for a in alphas])
    low, high = np.log10(alphas[-1]), np.log10(alphas[0])

    def update(log10_alpha):
        alpha = 10.0**log10_alpha
        # a 2 x 2 grid 7.2 in wide, the legend in the fourth cell: legible in the column and on a phone
        fig, grid = plt.subplots(2, 2, figsize=(7.2, 6.4), layout="constrained")
        axes = grid.ravel()
        w_lasso = draw_lasso_geometry(axes[0], X, y, alpha, penalty="l1")
        w_ridge = draw_lasso_geometry(axes[1], X, y, alpha, penalty="l2")
        ax = axes[2]
        for j, colour in enumerate(["C0", "C2"]):
            ax.plot(np.log10(alphas), lasso_coefs[j], color=colour, label=f"lasso $w_{j + 1}$")
            ax.plot(np.log10(alphas), ridge_coefs[j], color=colour, ls="--", label=f"ridge $w_{j + 1}$")
            ax.scatter([log10_alpha] * 2, [w_lasso[j], w_ridge[j]], color=colour, s=20, zorder=4)
        ax.axvline(log10_alpha, color="C3", lw=1)
        ax.set(xlabel=r"$\log_{10}\alpha$", ylabel="coefficient", title="paths", xlim=(high, low))
        axes[3].axis("off")
        axes[3].legend(*ax.get_legend_handles_labels(), loc="center")
        plt.show()

    start = round(float(np.log10(0.3 * a_max)), 2)
    return widgets.interactive(
        update,
        log10_alpha=widgets.FloatSlider(value=start, min=round(low, 2), max=round(high, 2), step=0.05,
                                        description="log10 α"),
    )
