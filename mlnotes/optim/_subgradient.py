r"""Subgradient descent (chapter 8, *Subgradient methods*).

It replaces the gradient of a non-differentiable convex function by any subgradient and returns the best
iterate seen, because a subgradient step can increase the objective.
"""

import numpy as np

from ._result import History
from ._schedules import as_schedule, checked_step
from ._validation import as_start_point, check_iterations, checked_gradient, checked_value


def subgradient_descent(f, subgrad, x0, *, step_size, max_iter=1000):
    r"""Subgradient descent :math:`x_{k+1} = x_k - \eta_k g_k`, :math:`g_k \in \partial f(x_k)`, returning the best iterate.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float
        Convex objective (needed: the method returns the best iterate).
    subgrad : callable, array of shape (d,) -> array of shape (d,)
        Returns one subgradient of ``f`` at the point.
    x0 : array of shape (d,)
    step_size : float or callable ``t -> eta_t``
        A constant (converges only to a neighbourhood of the minimum, of size proportional to the step)
        or a schedule such as ``inverse_time`` or ``inverse_sqrt`` (:math:`\sum \eta_t = \infty`,
        :math:`\eta_t \to 0`: the best value converges to the minimum).
    max_iter : int, default 1000

    Returns
    -------
    OptimizeResult
        ``x`` and ``fun`` are the best iterate and its value; ``path`` and ``values`` hold every iterate,
        so a plot shows that the objective is not monotone. ``converged`` is True only if a zero
        subgradient was found (then ``0 \in \partial f(x)`` proves ``x`` optimal); otherwise the method ran
        its ``max_iter`` steps, which is how subgradient descent is normally stopped, and no warning is given.
    """
    x = as_start_point(x0)
    max_iter, _ = check_iterations(max_iter, 0.0)
    schedule = as_schedule(step_size)
    fx = checked_value(f, x)
    g = checked_gradient(subgrad, x)
    history = History(x, fx, np.linalg.norm(g))
    best_x, best_f = x, fx
    for t in range(1, max_iter + 1):
        if not g.any():
            return history.result(True, "a zero subgradient: the point is a minimiser", x=best_x, fun=best_f)
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
