"""Demo of chapter "Matrix calculus": finite differences, secant against tangent, and the step size."""

import numpy as np

from ..utils import optimal_step
from ..utils._gradcheck import UNIT_ROUNDOFF
from ..utils.validation import check_scalar

__all__ = ["draw_finite_difference", "finite_difference_demo"]

#: The steps of the error curve: 10^-16 ... 10^0.
STEPS = np.logspace(-16, 0, 161)


def _difference_errors(f, df, x0, h):
    """|forward - f'(x0)| and |central - f'(x0)| for an array of steps ``h``."""
    exact = df(x0)
    forward = (f(x0 + h) - f(x0)) / h
    central = (f(x0 + h) - f(x0 - h)) / (2 * h)
    return np.abs(forward - exact), np.abs(central - exact)


def draw_finite_difference(axes, h, *, f=np.exp, df=np.exp, d2f=np.exp, d3f=np.exp, x0=1.0):
    r"""Draw secants against the tangent at ``x0`` (left) and the error against the step (right).

    Parameters
    ----------
    axes : pair of matplotlib Axes
        Left: ``f`` near ``x0`` with its tangent, the forward secant through ``x0`` and ``x0 + h``
        and the central secant through ``x0 - h`` and ``x0 + h``. Right: the errors of both
        differences for steps 1e-16 ... 1 (log-log), their error bounds, the optimal steps of
        :func:`~mlnotes.symbolic.optimal_step`, and the current ``h``.
    h : float
        The step, ``h > 0``.
    f, df, d2f, d3f : callable
        The function and its first three derivatives (vectorised; default: ``exp``).
    x0 : float
        Where the derivative is taken.

    Returns
    -------
    dict
        ``steps`` (the steps of the curve), ``forward_error`` and ``central_error`` (arrays of the
        measured errors), ``h_forward`` and ``h_central`` (the optimal steps) and
        ``forward_at_h``, ``central_at_h`` (the errors at ``h``).

    Notes
    -----
    The bounds drawn are :math:`E_f(h) = \tfrac h2 |f''| + 2u|f|/h` and
    :math:`E_c(h) = \tfrac{h^2}{6}|f'''| + u|f|/h` with :math:`u = 2^{-53}`, derived in chapter 2,
    *Matrix calculus*.
    """
    h = check_scalar(h, "h", low=0.0, include_low=False)
    x0 = check_scalar(x0, "x0")
    for g, name in [(f, "f"), (df, "df"), (d2f, "d2f"), (d3f, "d3f")]:
        if not callable(g):
            raise TypeError(f"{name} must be callable, got {type(g).__name__}")
    ax_secant, ax_error = axes
    f0, slope = float(f(x0)), float(df(x0))
    m2, m3 = abs(float(d2f(x0))), abs(float(d3f(x0)))
    u = UNIT_ROUNDOFF

    # left: the function, its tangent and the two secants
    half_width = 1.2
    t = np.linspace(x0 - half_width, x0 + half_width, 200)
    forward_slope = (f(x0 + h) - f0) / h
    central_slope = (f(x0 + h) - f(x0 - h)) / (2 * h)
    ax_secant.plot(t, f(t), color="k", lw=2, label="$f$")
    ax_secant.plot(t, f0 + slope * (t - x0), color="C2", lw=1.5, label=f"tangent, slope {slope:.6f}")
    ax_secant.plot(t, f0 + forward_slope * (t - x0), color="C0", ls="--",
                   label=f"forward secant, slope {forward_slope:.6f}")
    ax_secant.plot(t, f(x0 + h) + central_slope * (t - x0 - h), color="C1", ls=":", lw=2,
                   label=f"central secant, slope {central_slope:.6f}")
    ax_secant.scatter([x0 - h, x0, x0 + h], [f(x0 - h), f0, f(x0 + h)], color="C3", zorder=4, s=18)
    ax_secant.set(xlabel="$x$", ylabel="$f(x)$", title=f"secants with step $h$ = {h:.1e}",
                  ylim=(float(np.min(f(t))) - 0.3, float(np.max(f(t))) + 0.3))
    ax_secant.legend(fontsize=9, loc="upper left")

    # right: measured errors, bounds, optimal steps
    forward_error, central_error = _difference_errors(f, df, x0, STEPS)
    floor = 1e-17
    h_forward = optimal_step("forward", f_scale=abs(f0), derivative_scale=m2)
    h_central = optimal_step("central", f_scale=abs(f0), derivative_scale=m3)
    ax_error.loglog(STEPS, np.maximum(forward_error, floor), color="C0", lw=1, label="forward difference")
    ax_error.loglog(STEPS, np.maximum(central_error, floor), color="C1", lw=1, label="central difference")
    ax_error.loglog(STEPS, STEPS / 2 * m2 + 2 * u * abs(f0) / STEPS, color="C0", ls="--", lw=1,
                    label=r"bound $\frac{h}{2}|f''| + \frac{2u|f|}{h}$")
    ax_error.loglog(STEPS, STEPS**2 / 6 * m3 + u * abs(f0) / STEPS, color="C1", ls="--", lw=1,
                    label=r"bound $\frac{h^2}{6}|f'''| + \frac{u|f|}{h}$")
    ax_error.axvline(h_forward, color="C0", ls=":", lw=1)
    ax_error.axvline(h_central, color="C1", ls=":", lw=1)
    ax_error.text(h_forward, 3e-16, r" $h^*\propto\sqrt{u}$", color="C0", fontsize=9)
    ax_error.text(h_central, 3e-15, r" $h^*\propto u^{1/3}$", color="C1", fontsize=9)
    forward_at_h, central_at_h = (float(e[0]) for e in _difference_errors(f, df, x0, np.array([h])))
    ax_error.scatter([h, h], [max(forward_at_h, floor), max(central_at_h, floor)], color=["C0", "C1"],
                     edgecolors="k", zorder=5, s=40)
    ax_error.axvline(h, color="C3", lw=1, alpha=0.6)
    ax_error.set(xlabel="step $h$", ylabel=r"error $|D_h f(x_0) - f'(x_0)|$", ylim=(floor, 10),
                 title="error against step size")
    ax_error.legend(fontsize=9, loc="upper center")
    return {"steps": STEPS.copy(), "forward_error": forward_error, "central_error": central_error,
            "h_forward": h_forward, "h_central": h_central,
            "forward_at_h": forward_at_h, "central_at_h": central_at_h}


def finite_difference_demo(*, f=np.exp, df=np.exp, d2f=np.exp, d3f=np.exp, x0=1.0):
    """A widget: a slider for log10(h) redraws the secants and marks h on the error curve.

    Parameters
    ----------
    f, df, d2f, d3f : callable
        The function and its first three derivatives (default: ``exp``).
    x0 : float
        Where the derivative is taken.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    x0 = check_scalar(x0, "x0")

    def update(log10_h):
        fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
        draw_finite_difference(axes, 10.0**log10_h, f=f, df=df, d2f=d2f, d3f=d3f, x0=x0)
        plt.tight_layout()
        plt.show()

    return widgets.interactive(
        update,
        log10_h=widgets.FloatSlider(value=-1.0, min=-15.0, max=0.0, step=0.5, description="log10 h"),
    )
