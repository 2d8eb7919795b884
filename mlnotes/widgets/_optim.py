"""Demo of chapter "Gradient methods": optimiser paths on the contours of a 2-D quadratic, and the step size."""

import numpy as np

from ..optim import gradient_descent
from ..utils.validation import as_float_matrix, as_float_vector, check_scalar


def quadratic_2d(condition_number, *, L=1.0, angle=np.pi / 6):
    r"""The Hessian :math:`A = R\,\mathrm{diag}(L, L/\kappa)\,R^\top` of a 2-D quadratic, rotated by ``angle``.

    Parameters
    ----------
    condition_number : float >= 1
        :math:`\kappa = \lambda_{\max} / \lambda_{\min}`.
    L : float > 0, default 1
        The largest eigenvalue (the Lipschitz constant of the gradient).
    angle : float, default pi/6
        Rotation of the eigenvectors away from the axes, in radians.

    Returns
    -------
    A : array of shape (2, 2)
        Symmetric positive definite.
    """
    kappa = check_scalar(condition_number, "condition_number", low=1.0)
    L = check_scalar(L, "L", low=0.0, include_low=False)
    c, s = np.cos(angle), np.sin(angle)
    R = np.array([[c, -s], [s, c]])
    return R @ np.diag([L, L / kappa]) @ R.T


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
        ax.legend(loc="upper left", fontsize=8)
    return ax


def step_size_demo(*, x0=(-3.0, 1.5), n_steps=40, angle=np.pi / 6):
    r"""A widget: sliders for the step size (as a multiple of :math:`1/L`) and the condition number.

    Gradient descent runs ``n_steps`` fixed steps on :math:`f(x) = \tfrac12 x^\top A x` with
    :math:`A` from :func:`quadratic_2d` (largest eigenvalue :math:`L = 1`); the path is drawn on the
    contours. Each eigen-direction is multiplied by :math:`1 - \eta\lambda_i` per step, so the path
    converges for :math:`\eta < 2/L` and diverges past it.

    Parameters
    ----------
    x0 : array of shape (2,)
        Start point.
    n_steps : int, default 40
    angle : float
        Rotation of the quadratic's axes.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    x0 = as_float_vector(x0, "x0", 2)
    if isinstance(n_steps, bool) or not isinstance(n_steps, (int, np.integer)) or n_steps < 1:
        raise ValueError(f"n_steps must be a positive integer, got {n_steps!r}")
    lim = 1.15 * np.abs(x0).max()

    def update(eta_times_L, condition_number):
        A = quadratic_2d(condition_number, angle=angle)
        eigenvalues = np.linalg.eigvalsh(A)
        factor = np.abs(1 - eta_times_L * eigenvalues).max()
        result = gradient_descent(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, x0, step_size=eta_times_L,
                                  tol=1e-12, max_iter=int(n_steps), warn=False)
        fig, ax = plt.subplots(figsize=(5.2, 4.6))
        draw_descent_paths(ax, A, {f"GD, $\\eta$ = {eta_times_L:.2f}/L": result.path}, lim=lim)
        verdict = "converges" if factor < 1 else ("oscillates" if factor == 1 else "diverges")
        ax.set_title(f"$\\kappa$ = {condition_number:.0f}: max$_i|1 - \\eta\\lambda_i|$ = {factor:.3f} ({verdict});\n"
                     f"f after {result.n_iter} steps: {result.values[-1]:.2e}", fontsize=9)
        plt.show()

    return widgets.interactive(
        update,
        eta_times_L=widgets.FloatSlider(value=1.0, min=0.1, max=2.3, step=0.05, description="η · L"),
        condition_number=widgets.FloatSlider(value=10.0, min=1.0, max=50.0, step=1.0, description="κ"),
    )
