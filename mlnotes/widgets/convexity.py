r"""Demo of chapter 7, *Convexity and Lagrangian duality*: a chord above (or below) the graph.

A function is convex when every chord lies on or above its graph:
:math:`f(\theta a + (1-\theta) b) \le \theta f(a) + (1-\theta) f(b)` for :math:`\theta \in [0, 1]`.
:func:`draw_chord` draws one chord and marks where it dips below the graph; :func:`convexity_demo`
moves its endpoints with sliders.
"""

import numpy as np

from ..utils.validation import check_scalar

__all__ = ["chord_gap", "draw_chord", "convexity_demo"]

#: The functions offered by the demo: name -> (vectorised function, plotting domain, label in TeX).
FUNCTIONS = {
    "x^2": (np.square, (-2.0, 2.0), r"x^2"),
    "|x|": (np.abs, (-2.0, 2.0), r"|x|"),
    "exp(x)": (np.exp, (-2.0, 2.0), r"e^x"),
    "-log(x)": (lambda x: -np.log(x), (0.05, 3.0), r"-\log x"),
    "log(1 + exp(-x))": (lambda x: np.logaddexp(0.0, -x), (-3.0, 3.0), r"\log(1 + e^{-x})"),
    "(x^2 - 1)^2": (lambda x: (x**2 - 1.0) ** 2, (-1.6, 1.6), r"(x^2 - 1)^2"),
    "sin(x)": (np.sin, (-np.pi, np.pi), r"\sin x"),
    "x^3": (lambda x: x**3, (-1.5, 1.5), r"x^3"),
}


def _resolve(f, domain):
    if isinstance(f, str):
        if f not in FUNCTIONS:
            raise ValueError(f"unknown function {f!r}; choose one of {sorted(FUNCTIONS)} or pass a callable")
        func, default, tex = FUNCTIONS[f]
        return func, (default if domain is None else domain), tex
    if not callable(f):
        raise TypeError(f"f must be a callable or one of {sorted(FUNCTIONS)}, got {type(f).__name__}")
    if domain is None:
        raise ValueError("give the plotting domain (lo, hi) for a callable f")
    return f, domain, "f(x)"


def chord_gap(f, a, b, theta):
    r"""The gap :math:`\theta f(a) + (1-\theta) f(b) - f(\theta a + (1-\theta) b)` (negative where the chord
    lies below the graph, which a convex function never allows).

    Parameters
    ----------
    f : callable, vectorised
    a, b : float
        Endpoints of the chord.
    theta : float or array
        Weights in [0, 1].

    Returns
    -------
    float or array, shaped like ``theta``
    """
    theta = np.asarray(theta, dtype=float)
    return theta * f(a) + (1 - theta) * f(b) - f(theta * a + (1 - theta) * b)


def draw_chord(ax, f, a, b, *, theta=None, domain=None, n_points=401, title=None):
    r"""Draw the graph of ``f``, the chord from :math:`(a, f(a))` to :math:`(b, f(b))`, and mark in red the
    part of the chord that lies below the graph (a violation of convexity).

    Parameters
    ----------
    ax : matplotlib Axes
    f : str or callable
        A name from :data:`FUNCTIONS` or a vectorised function of one variable.
    a, b : float
        Endpoints of the chord (inside ``domain``).
    theta : float in [0, 1], optional
        Also mark the point :math:`\theta a + (1-\theta) b` on the graph and on the chord.
    domain : (float, float), optional
        Plotting interval; required for a callable ``f``, else the default of that function.
    n_points : int, default 401
        Resolution of the graph and of the chord.
    title : str, optional
        Axes title (default: the function's name and whether this chord violates convexity).

    Returns
    -------
    min_gap : float
        The smallest gap :math:`\theta f(a) + (1-\theta) f(b) - f(\theta a + (1-\theta) b)` over the
        chord; negative when the chord dips below the graph.
    """
    func, domain, name = _resolve(f, domain)
    lo, hi = (check_scalar(domain[0], "domain[0]"), check_scalar(domain[1], "domain[1]"))
    if not lo < hi:
        raise ValueError(f"domain must satisfy lo < hi, got {domain}")
    a, b = check_scalar(a, "a", low=lo, high=hi), check_scalar(b, "b", low=lo, high=hi)
    grid = np.linspace(lo, hi, n_points)
    thetas = np.linspace(0.0, 1.0, n_points)
    points = thetas * a + (1 - thetas) * b
    chord = thetas * func(a) + (1 - thetas) * func(b)
    gap = chord - func(points)
    below = np.where(gap < -1e-12, chord, np.nan)

    violated = bool((gap < -1e-12).any())
    ax.plot(grid, func(grid), color="C0", lw=2, label=f"${name}$")
    ax.plot(points, chord, color="C1", lw=1.5, label="chord")
    ax.plot(points, below, color="C3", lw=3, label="chord below the graph" if violated else None)
    ax.fill_between(points, func(points), chord, where=gap >= 0, color="C2", alpha=0.15, interpolate=True)
    ax.fill_between(points, func(points), chord, where=gap < 0, color="C3", alpha=0.25, interpolate=True)
    ax.scatter([a, b], [func(a), func(b)], color="C1", zorder=3)
    if theta is not None:
        theta = check_scalar(theta, "theta", low=0.0, high=1.0)
        z = theta * a + (1 - theta) * b
        ax.plot([z, z], [func(z), theta * func(a) + (1 - theta) * func(b)], color="k", ls=":", lw=1)
        ax.scatter([z], [func(z)], color="C0", zorder=4, s=25)
        ax.scatter([z], [theta * func(a) + (1 - theta) * func(b)], color="C1", zorder=4, s=25)
    min_gap = float(gap.min())
    verdict = "chord below the graph" if violated else "chord on or above the graph"
    ax.set_title(title if title is not None else f"${name}$: {verdict}", fontsize=10)
    ax.set_xlabel("$x$")
    ax.legend(loc="best", fontsize=9)
    return min_gap


def convexity_demo(function="(x^2 - 1)^2"):
    """A widget: choose a function and move the chord's endpoints and the point theta; the chord turns red
    where it lies below the graph.

    Parameters
    ----------
    function : str
        Initial choice, one of :data:`FUNCTIONS`.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    if function not in FUNCTIONS:
        raise ValueError(f"unknown function {function!r}; choose one of {sorted(FUNCTIONS)}")

    def update(name, a, b, theta):
        lo, hi = FUNCTIONS[name][1]
        fig, ax = plt.subplots(figsize=(6, 3.8))
        draw_chord(ax, name, min(max(a, lo), hi), min(max(b, lo), hi), theta=theta)
        plt.show()

    lo, hi = FUNCTIONS[function][1]
    a = widgets.FloatSlider(value=lo + 0.05 * (hi - lo), min=lo, max=hi, step=(hi - lo) / 100, description="a")
    b = widgets.FloatSlider(value=lo + 0.95 * (hi - lo), min=lo, max=hi, step=(hi - lo) / 100, description="b")
    name = widgets.Dropdown(options=list(FUNCTIONS), value=function, description="f")

    def on_function(change):
        # move the endpoint sliders to the new function's domain (widen first, so min <= max throughout)
        new_lo, new_hi = FUNCTIONS[change["new"]][1]
        for slider, share in ((a, 0.05), (b, 0.95)):
            slider.max = max(slider.max, new_hi)
            slider.min = new_lo
            slider.max = new_hi
            slider.step = (new_hi - new_lo) / 100
            slider.value = new_lo + share * (new_hi - new_lo)

    name.observe(on_function, names="value")
    theta = widgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.02, description="θ")
    return widgets.interactive(update, name=name, a=a, b=b, theta=theta)
