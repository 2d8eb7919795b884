r"""Demo of chapter "Subgradient methods": subgradient descent on :math:`f(x) = |x_1| + 2|x_2|` with a
choice of step-size schedule."""

import numpy as np

from ..optim import inverse_sqrt, inverse_time, subgradient_descent
from ..utils.validation import as_float_vector, check_scalar

__all__ = ["draw_subgradient_steps", "subgradient_demo"]

#: The schedules the demo offers: name -> step_size argument of subgradient_descent, given eta0.
SCHEDULES = {
    "constant": lambda eta0: eta0,
    "1/sqrt(k)": inverse_sqrt,
    "1/k": inverse_time,
    "Polyak": lambda eta0: "polyak",
}

WEIGHTS = np.array([1.0, 2.0])


def _f(x):
    return float(WEIGHTS @ np.abs(x))


def _subgrad(x):
    return WEIGHTS * np.sign(x)


def draw_subgradient_steps(ax_path, ax_values=None, *, schedule="constant", eta0=0.3, n_iter=50, x0=(2.6, 1.3),
                           contours=True, color="C0"):
    r"""Run subgradient descent on :math:`f(x) = |x_1| + 2|x_2|` and draw its path and values.

    Parameters
    ----------
    ax_path : matplotlib Axes
        Receives the contours of ``f`` (if ``contours``) and the path of iterates.
    ax_values : matplotlib Axes, optional
        Receives :math:`f(x_k)` (thin) and the best value so far (thick) on a log scale; the minimum
        is :math:`f^\star = 0`, at the origin.
    schedule : {"constant", "1/sqrt(k)", "1/k", "Polyak"}
        Step sizes :math:`\eta_0`, :math:`\eta_0/\sqrt k`, :math:`\eta_0/k`, or Polyak's
        :math:`f(x_k)/\|g_k\|^2` (which ignores ``eta0``).
    eta0 : float > 0, default 0.3
    n_iter : int, default 50
    x0 : array of shape (2,), default (2.6, 1.3)
    contours : bool, default True
    color : matplotlib colour

    Returns
    -------
    OptimizeResult
        The run of :func:`mlnotes.optim.subgradient_descent`.
    """
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {list(SCHEDULES)}, got {schedule!r}")
    eta0 = check_scalar(eta0, "eta0", low=0, include_low=False)
    x0 = as_float_vector(x0, "x0", 2)
    step_size = SCHEDULES[schedule](eta0)
    result = subgradient_descent(_f, _subgrad, x0, step_size=step_size, max_iter=n_iter,
                                 f_star=0.0 if schedule == "Polyak" else None)
    label = schedule if schedule == "Polyak" else f"{schedule}, $\\eta_0$ = {eta0:g}"
    if contours:
        r = 1.1 * max(np.abs(x0).max(), 1.0)
        grid = np.linspace(-r, r, 121)
        X1, X2 = np.meshgrid(grid, grid)
        F = np.abs(X1) + 2 * np.abs(X2)
        ax_path.contour(X1, X2, F, levels=np.linspace(0.5, 3 * r, 10), colors="0.6", linewidths=0.8)
        ax_path.scatter([0], [0], marker="*", s=120, color="k", zorder=4, label="minimiser")
        ax_path.set(xlabel="$x_1$", ylabel="$x_2$", aspect="equal")
    path = result.path
    ax_path.plot(path[:, 0], path[:, 1], "-o", ms=2.5, lw=1, color=color, label=label)
    ax_path.scatter(*result.x, s=60, facecolors="none", edgecolors=color, zorder=5)
    if ax_values is not None:
        k = np.arange(len(result.values))
        floor = 1e-16  # the log scale cannot show f = 0 exactly
        ax_values.semilogy(k, np.maximum(result.values, floor), color=color, lw=0.8, alpha=0.6)
        ax_values.semilogy(k, np.maximum(np.minimum.accumulate(result.values), floor), color=color, lw=2,
                           label=f"{label}: best so far")
        ax_values.set(xlabel="iteration $k$", ylabel="$f(x_k) - f^\\star$")
    return result


def subgradient_demo(*, x0=(2.6, 1.3)):
    """A widget: a schedule menu and sliders for the step size and the number of steps; redraws the path
    of subgradient descent on the contours of :math:`|x_1| + 2|x_2|` and the values over the iterations.

    Parameters
    ----------
    x0 : array of shape (2,), default (2.6, 1.3)
        Start point.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    x0 = as_float_vector(x0, "x0", 2)

    def update(schedule, eta0, n_iter):
        fig, (ax_path, ax_values) = plt.subplots(1, 2, figsize=(9, 3.8))
        draw_subgradient_steps(ax_path, ax_values, schedule=schedule, eta0=eta0, n_iter=n_iter, x0=x0)
        ax_values.legend()
        plt.tight_layout()
        plt.show()

    return widgets.interactive(
        update,
        schedule=widgets.Dropdown(options=list(SCHEDULES), value="constant", description="schedule"),
        eta0=widgets.FloatLogSlider(value=0.3, base=10, min=-2, max=0.5, step=0.1, description="η0"),
        n_iter=widgets.IntSlider(value=50, min=5, max=300, step=5, description="steps"),
    )
