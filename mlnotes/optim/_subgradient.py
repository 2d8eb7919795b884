r"""Subgradient descent (chapter 8, *Subgradient methods*).

It replaces the gradient of a non-differentiable convex function by any subgradient and returns the best
iterate seen, because a subgradient step can increase the objective.
"""

import numpy as np

from ..utils.validation import check_scalar
from ._nonsmooth import polyak_step
from ._result import History
from ._schedules import as_schedule, checked_step
from ._validation import as_start_point, check_iterations, checked_gradient, checked_value


def subgradient_descent(f, subgrad, x0, *, step_size, max_iter=1000, f_star=None):
    r"""Subgradient descent :math:`x_{k+1} = x_k - \eta_k g_k`, :math:`g_k \in \partial f(x_k)`, returning the best iterate.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float
        Convex objective (needed: the method returns the best iterate).
    subgrad : callable, array of shape (d,) -> array of shape (d,)
        Returns one subgradient of ``f`` at the point.
    x0 : array of shape (d,)
    step_size : float, callable ``t -> eta_t``, or ``"polyak"``
        A constant (converges only to a neighbourhood of the minimum, of size proportional to the step),
        a schedule such as ``inverse_time`` or ``inverse_sqrt`` (:math:`\sum \eta_t = \infty`,
        :math:`\eta_t \to 0`: the best value converges to the minimum), or ``"polyak"`` for
        :func:`polyak_step`, :math:`\eta_t = (f(x_t) - f^\star)/\|g_t\|^2`, which needs ``f_star``.
    max_iter : int, default 1000
    f_star : float, optional
        The minimum value of ``f``; required by (and only used with) ``step_size="polyak"``.

    Returns
    -------
    OptimizeResult
        ``x`` and ``fun`` are the best iterate and its value; ``path`` and ``values`` hold every iterate,
        so a plot shows that the objective is not monotone. ``converged`` is True only if a zero
        subgradient was found (then ``0 \in \partial f(x)`` proves ``x`` optimal) or, with Polyak's step,
        an iterate attained ``f_star``; otherwise the method ran its ``max_iter`` steps, which is how
        subgradient descent is normally stopped, and no warning is given.

    Notes
    -----
    Each step satisfies, for every point :math:`z` (derived in chapter 8),

    .. math:: \|x_{k+1} - z\|^2 \le \|x_k - z\|^2 - 2\eta_k\,(f(x_k) - f(z)) + \eta_k^2\|g_k\|^2,

    so after :math:`K` steps :math:`\min_{k<K} f(x_k) - f(z) \le \big(\|x_0 - z\|^2 + \sum_k \eta_k^2\|g_k\|^2\big) / \big(2\sum_k \eta_k\big)`.
    """
    x = as_start_point(x0)
    max_iter, _ = check_iterations(max_iter, 0.0)
    polyak = isinstance(step_size, str)
    if polyak:
        if step_size != "polyak":
            raise ValueError(f"step_size must be a positive number, a schedule or 'polyak', got {step_size!r}")
        if f_star is None:
            raise ValueError("Polyak's step size needs the minimum value: pass f_star")
        f_star = check_scalar(f_star, "f_star")
    elif f_star is not None:
        raise ValueError("f_star is only used with step_size='polyak'")
    else:
        schedule = as_schedule(step_size)
    fx = checked_value(f, x)
    g = checked_gradient(subgrad, x)
    history = History(x, fx, np.linalg.norm(g))
    best_x, best_f = x, fx
    for t in range(1, max_iter + 1):
        if not g.any():
            return history.result(True, "a zero subgradient: the point is a minimiser", x=best_x, fun=best_f)
        if polyak:
            if fx == f_star:
                return history.result(True, f"f(x) reached f_star = {f_star:g}", x=best_x, fun=best_f)
            eta = polyak_step(fx, f_star, g)          # raises if f(x) < f_star: then f_star is not the minimum
        else:
            eta = checked_step(schedule, t)
        x = x - eta * g
        fx = checked_value(f, x)
        if not (np.isfinite(x).all() and np.isfinite(fx)):
            return history.result(False, f"diverged at step {t} with step size {eta:g}", x=best_x, fun=best_f,
                                  warn=False)
        g = checked_gradient(subgrad, x)
        history.append(x, fx, np.linalg.norm(g), eta)
        if fx < best_f:
            best_x, best_f = x, fx
    return history.result(False, f"ran max_iter = {max_iter} steps; returned the best iterate", x=best_x,
                          fun=best_f, warn=False)
