"""Generic figure helpers: drawings that take a fitted model or plain arrays, and fit nothing themselves.

Chapter-specific drawings (which fit a model of one family to show one idea) live with their widget in
:mod:`mlnotes.widgets`; the helpers here serve every family (a decision boundary is drawn the same way for a
logistic regression, an SVM or a tree). Matplotlib is imported inside the functions that draw a new figure,
so importing this module is cheap.
"""

import numpy as np

from ..utils.validation import as_float_matrix, as_float_vector, check_scalar

__all__ = ["draw_boundary", "draw_decision_boundary", "draw_descent_paths", "draw_matrix_action",
           "check_points_2d", "plane_grid", "POINT_COLOURS", "REGION_COLOURS", "MARKERS"]

#: Light region colours and strong point colours, one per class (up to 6 classes).
REGION_COLOURS = ["#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1", "#d9d9d9"]
POINT_COLOURS = ["C0", "C1", "C2", "C4", "C3", "C7"]
MARKERS = ["o", "s", "^", "D", "v", "P"]


def check_points_2d(X, y):
    """Validate points to be drawn in the plane.

    Parameters
    ----------
    X : array of shape (n_samples, 2)
    y : array of shape (n_samples,)

    Returns
    -------
    X : float array of shape (n_samples, 2)
    y : array of shape (n_samples,)
    """
    X = as_float_matrix(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have exactly 2 features to be drawn in the plane, got {X.shape[1]}")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
    return X, y


def _check_resolution(resolution):
    """A drawing's grid points per axis: an integer >= 2."""
    if isinstance(resolution, bool) or not isinstance(resolution, (int, np.integer)) or resolution < 2:
        raise ValueError(f"resolution must be an integer >= 2, got {resolution!r}")


def plane_grid(lo, hi, resolution, *, ax=None):
    """A regular grid of a rectangle of the plane: the points at which a drawing evaluates a model.

    Parameters
    ----------
    lo, hi : pairs of float, or None
        The lower-left and upper-right corners :math:`(x_1, x_2)`. With ``ax``, pass None for both: the
        rectangle is the one the axes show (``ax.get_xlim()``, ``ax.get_ylim()``).
    resolution : int >= 2
        Grid points per axis.
    ax : matplotlib Axes, optional

    Returns
    -------
    g0, g1 : ndarrays of shape (resolution, resolution)
        The coordinates, as from ``np.meshgrid`` (``g0`` varies along the columns).
    points : ndarray of shape (resolution ** 2, 2)
        The grid points, one per row, in the order of ``g0.ravel()``: a model's output on them reshaped
        to ``g0.shape`` can be passed to ``ax.contour(g0, g1, ...)``.

    Raises
    ------
    ValueError
        If ``resolution`` is not an integer >= 2, or the corners are given with ``ax`` or missing without it.
    """
    _check_resolution(resolution)
    if ax is not None:
        if lo is not None or hi is not None:
            raise ValueError("pass either the corners lo, hi or ax (the rectangle its limits show), not both")
        (lo0, hi0), (lo1, hi1) = ax.get_xlim(), ax.get_ylim()
    elif lo is None or hi is None:
        raise ValueError("the corners lo and hi are needed without ax")
    else:
        (lo0, lo1), (hi0, hi1) = lo, hi
    g0, g1 = np.meshgrid(np.linspace(lo0, hi0, resolution), np.linspace(lo1, hi1, resolution))
    return g0, g1, np.column_stack([g0.ravel(), g1.ravel()])


def draw_boundary(ax, model, g0, g1, *, region=None, **style):
    """Draw the decision boundary of a fitted classifier on a grid of the plane (no regions, no data).

    For two classes the boundary is the level set 0 of ``decision_function`` when the model has one,
    else the level set 1/2 of ``predict_proba``; for more classes it is drawn between the predicted
    regions.

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted classifier
        With ``predict`` and ``classes_``.
    g0, g1 : arrays of shape (n_rows, n_columns)
        The grid, as from ``np.meshgrid``.
    region : int array of shape (n_rows, n_columns), optional
        The index in ``model.classes_`` of the prediction at each grid point, if already computed.
    **style
        Passed to ``ax.contour`` (e.g. ``colors``, ``linewidths``, ``linestyles``).

    Returns
    -------
    matplotlib ContourSet
    """
    grid = np.column_stack([g0.ravel(), g1.ravel()])
    classes = np.asarray(model.classes_)
    if len(classes) == 2 and hasattr(model, "decision_function"):
        return ax.contour(g0, g1, model.decision_function(grid).reshape(g0.shape), levels=[0.0], **style)
    if len(classes) == 2:
        return ax.contour(g0, g1, model.predict_proba(grid)[:, 1].reshape(g0.shape), levels=[0.5], **style)
    if region is None:
        region = np.searchsorted(classes, model.predict(grid)).reshape(g0.shape)
    return ax.contour(g0, g1, region, levels=np.arange(len(classes)) + 0.5, **style)


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
    X, y = check_points_2d(X, y)
    _check_resolution(resolution)
    padding = check_scalar(padding, "padding", low=0.0)
    classes = np.asarray(model.classes_)
    if len(classes) > len(REGION_COLOURS):
        raise ValueError(f"at most {len(REGION_COLOURS)} classes can be drawn, got {len(classes)}")
    from matplotlib.colors import ListedColormap

    lo, hi = X.min(axis=0) - padding, X.max(axis=0) + padding
    g0, g1, grid = plane_grid(lo, hi, resolution)
    region = np.searchsorted(classes, model.predict(grid)).reshape(g0.shape)
    K = len(classes)
    ax.contourf(g0, g1, region, levels=np.arange(K + 1) - 0.5, cmap=ListedColormap(REGION_COLOURS[:K]))
    draw_boundary(ax, model, g0, g1, region=region, colors="k", linewidths=1.5 if K == 2 else 1.0)
    if K == 2 and show_proba and hasattr(model, "predict_proba") and len(levels):
        levels = sorted(check_scalar(v, "level", low=0.0, include_low=False, high=1.0) for v in levels)
        P = model.predict_proba(grid)[:, 1].reshape(g0.shape)
        cs = ax.contour(g0, g1, P, levels=levels, colors="0.35", linewidths=0.8, linestyles="--")
        ax.clabel(cs, fontsize=9, fmt="%.2f")
    for k, label in enumerate(classes):
        mask = y == label
        ax.scatter(X[mask, 0], X[mask, 1], s=16, color=POINT_COLOURS[k], marker=MARKERS[k],
                   edgecolors="k", linewidths=0.3, label=f"class {label}")
    ax.set(xlim=(lo[0], hi[0]), ylim=(lo[1], hi[1]), xlabel="$x_1$", ylabel="$x_2$")
    return ax


def _as_2x2(A):
    A = as_float_matrix(A, "A")
    if A.shape != (2, 2):
        raise ValueError(f"A must be a 2x2 matrix, got shape {A.shape}")
    return A


def _real_eigenpairs(A, *, imag_tol=1e-12):
    """The real eigenpairs of a 2x2 matrix as a list of ``(lambda, unit vector)``: empty when the
    eigenvalues are complex (e.g. a rotation); for a defective matrix numpy returns two (nearly)
    parallel vectors."""
    eigenvalues, vectors = np.linalg.eig(A)
    if np.max(np.abs(eigenvalues.imag)) > imag_tol:
        return []
    return [(float(lam.real), vectors[:, i].real / np.linalg.norm(vectors[:, i].real))
            for i, lam in enumerate(eigenvalues)]


def draw_matrix_action(A, ax=None):
    r"""Draw the image of the unit circle under a 2x2 matrix, with its SVD and eigenvectors.

    The unit circle (grey, dashed) maps to an ellipse (blue) whose semi-axes are
    :math:`\sigma_1 u_1` and :math:`\sigma_2 u_2`, the images :math:`A v_i = \sigma_i u_i` of the
    right singular vectors :math:`v_i` (drawn on the circle). Real eigenvectors, when there are
    any, are drawn as dotted lines: along them :math:`A` only stretches (or flips). The title
    gives :math:`\det A = \pm\sigma_1\sigma_2`.

    Parameters
    ----------
    A : array of shape (2, 2)
    ax : matplotlib Axes, optional
        Where to draw (a new figure if None).

    Returns
    -------
    ax : matplotlib Axes
    """
    import matplotlib.pyplot as plt

    A = _as_2x2(A)
    if ax is None:
        _, ax = plt.subplots(figsize=(4.8, 5.6))
    U, s, Vt = np.linalg.svd(A)
    flip = np.where(Vt[:, 0] < 0, -1.0, 1.0)  # singular pairs (v_i, u_i) are defined up to a joint sign:
    U, Vt = U * flip, Vt * flip[:, None]     # draw v_i pointing right, for readability
    t = np.linspace(0, 2 * np.pi, 241)
    circle = np.vstack([np.cos(t), np.sin(t)])
    ellipse = A @ circle
    ax.plot(*circle, color="0.6", ls="--", lw=1, label="unit circle")
    ax.plot(*ellipse, color="C0", lw=2, label="image $A x$ of the circle")
    for i, color in enumerate(("C1", "C2")):
        v, image = Vt[i], s[i] * U[:, i]
        ax.annotate("", xy=v, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color=color, lw=1.2, ls="--"))
        ax.annotate("", xy=image, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color=color, lw=2.2))
        ax.plot([], [], color=color, lw=2, label=f"$v_{i + 1}$ (dashed) $\\mapsto \\sigma_{i + 1} u_{i + 1}$, "
                                                f"$\\sigma_{i + 1}$ = {s[i]:.2f}")
    reach = max(1.2, 1.15 * s[0])
    pairs = _real_eigenpairs(A)
    for lam, q in pairs:
        ax.plot([-reach * q[0], reach * q[0]], [-reach * q[1], reach * q[1]], color="C3", ls=":", lw=1.5,
                label=f"eigenvector, $\\lambda$ = {lam:.2f}")
    if not pairs:
        ax.plot([], [], color="C3", ls=":", label="no real eigenvector")
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-reach, reach)
    ax.set_aspect("equal")
    ax.set_title(f"det A = {np.linalg.det(A):.2f}  (|det A| = $\\sigma_1\\sigma_2$ = {s[0] * s[1]:.2f})")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=2)
    return ax


def _check_hessian(A):
    A = as_float_matrix(A, "A")
    if A.shape != (2, 2):
        raise ValueError(f"A must be a 2x2 matrix (the Hessian of a 2-D quadratic), got shape {A.shape}")
    if not np.allclose(A, A.T):
        raise ValueError("A must be symmetric")
    if np.linalg.eigvalsh(A).min() < 0:
        raise ValueError("A must be positive semidefinite, so that the quadratic is convex")
    return A


def draw_descent_paths(ax, A, paths, *, x_star=(0.0, 0.0), lim=None, n_levels=12, legend=True):
    r"""Draw the contours of :math:`f(x) = \tfrac12 (x - x^*)^\top A (x - x^*)` and optimiser paths on them.

    Parameters
    ----------
    ax : matplotlib Axes
    A : array of shape (2, 2)
        Symmetric positive semidefinite Hessian.
    paths : dict of str -> array of shape (k, 2)
        Iterates of each method (e.g. ``OptimizeResult.path``), drawn as connected markers from the
        start (a square) on.
    x_star : array of shape (2,), default (0, 0)
        The minimiser, marked with a star.
    lim : float, optional
        Half-width of the square window around ``x_star``; default 1.15 times the largest distance of a
        start point from ``x_star``. Iterates outside the window (a diverging path) are clipped.
    n_levels : int, default 12
        Number of contour lines, spaced geometrically in value.
    legend : bool, default True

    Returns
    -------
    ax : matplotlib Axes
    """
    A = _check_hessian(A)
    x_star = as_float_vector(x_star, "x_star", 2)
    if not isinstance(paths, dict) or not paths:
        raise ValueError("paths must be a non-empty dict mapping a label to an array of shape (k, 2)")
    paths = {label: as_float_matrix(path, f"paths[{label!r}]") for label, path in paths.items()}
    for label, path in paths.items():
        if path.shape[1] != 2:
            raise ValueError(f"paths[{label!r}] must have shape (k, 2), got {path.shape}")
    starts = np.array([path[0] for path in paths.values()])
    if lim is None:
        lim = 1.15 * max(np.abs(starts - x_star).max(), 1e-12)
    lim = check_scalar(lim, "lim", low=0.0, include_low=False)

    grid = np.linspace(-lim, lim, 121)
    U, V = np.meshgrid(grid + x_star[0], grid + x_star[1])
    D = np.stack([U - x_star[0], V - x_star[1]], axis=-1)
    F = 0.5 * np.einsum("...i,ij,...j->...", D, A, D)
    top = max(0.5 * d @ A @ d for d in starts - x_star)
    top = top if top > 0 else F.max()
    levels = top * np.geomspace(1e-3, 1.0, n_levels)
    ax.contour(U, V, F, levels=levels, colors="0.6", linewidths=0.8)
    for k, (label, path) in enumerate(paths.items()):
        color = f"C{k % 10}"
        ax.plot(path[:, 0], path[:, 1], "-o", color=color, ms=3, lw=1.2, label=label)
        ax.plot(*path[0], "s", color=color, ms=6)
    ax.plot(*x_star, "*", color="k", ms=12)
    ax.set_xlim(x_star[0] - lim, x_star[0] + lim)
    ax.set_ylim(x_star[1] - lim, x_star[1] + lim)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    if legend:
        ax.legend(loc="upper left")
    return ax
