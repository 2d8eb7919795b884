"""Demo of chapter "Gradient methods": optimiser paths on the contours of a 2-D quadratic, and the step size."""

import numpy as np

from ..optim import gradient_descent
from ..plotting import draw_descent_paths
from ..utils.validation import as_float_vector, check_scalar

__all__ = ["quadratic_2d", "draw_descent_paths", "step_size_demo"]


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
