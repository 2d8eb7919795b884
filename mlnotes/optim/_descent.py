r"""Deterministic descent methods: gradient descent (fixed step or backtracking) and Newton's method.

Derived in chapter 6, *Gradient methods*: the update :math:`x_{k+1} = x_k - \eta \nabla f(x_k)` (a minus
sign: descent), the step-size bound :math:`\eta \le 1/L` for an :math:`L`-smooth convex :math:`f`, the
Armijo condition, and the Newton step :math:`x_{k+1} = x_k - [\nabla^2 f(x_k)]^{-1} \nabla f(x_k)`.
"""

import numpy as np
from scipy import linalg

from ..utils.validation import check_scalar
from ._result import History
from ._validation import as_start_point, check_iterations, checked_gradient, checked_value


def backtracking(f, x, g, *, fx=None, step_size=1.0, shrink=0.5, c=1e-4, max_halvings=30):
    r"""Armijo backtracking line search along the negative gradient.

    Starting from ``step_size``, multiply the step by ``shrink`` until the sufficient-decrease condition

    .. math:: f(x - \eta g) \le f(x) - c\,\eta\,\|g\|^2

    holds, and return that :math:`\eta`.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float
    x : array of shape (d,)
        Current point.
    g : array of shape (d,)
        Gradient of ``f`` at ``x``.
    fx : float, optional
        ``f(x)`` if already known.
    step_size : float > 0, default 1
        First step tried.
    shrink : float in (0, 1), default 0.5
    c : float in (0, 1), default 1e-4
        Fraction of the decrease predicted by the linear model that must be achieved.
    max_halvings : int, default 30
        Give up (raise) after this many reductions (the step is then below ``1e-9 * step_size``, where
        rounding error would let any direction pass).

    Returns
    -------
    eta : float
        The accepted step size.

    Raises
    ------
    ValueError
        If no step satisfies the condition, which for a differentiable ``f`` means ``g`` is not its gradient.
    """
    step_size = check_scalar(step_size, "step_size", low=0, include_low=False)
    shrink = check_scalar(shrink, "shrink", low=0, high=1, include_low=False)
    c = check_scalar(c, "c", low=0, high=1, include_low=False)
    fx = checked_value(f, x) if fx is None else fx
    decrease = c * (g @ g)
    eta = step_size
    for _ in range(max_halvings):
        f_new = checked_value(f, x - eta * g)
        if f_new <= fx - eta * decrease:          # NaN and inf compare False: shrink further
            return eta
        eta *= shrink
    raise ValueError(f"backtracking found no step satisfying the Armijo condition after {max_halvings} "
                     "reductions: is g the gradient of f at x?")


def gradient_descent(f, grad, x0, *, step_size=None, line_search=None, tol=1e-6, max_iter=1000, warn=True):
    r"""Minimise ``f`` by gradient descent :math:`x_{k+1} = x_k - \eta_k \nabla f(x_k)`.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float, or None
        The objective; needed for the line search and the history of values.
    grad : callable, array of shape (d,) -> array of shape (d,)
        Its gradient.
    x0 : array of shape (d,)
        Start point.
    step_size : float > 0, optional
        Fixed step :math:`\eta` (for an :math:`L`-smooth convex ``f``, any :math:`\eta \le 1/L` converges).
        With ``line_search="armijo"`` it is the first step tried (default 1).
    line_search : {None, "armijo"}
        ``"armijo"`` chooses each step by :func:`backtracking`.
    tol : float >= 0, default 1e-6
        Stop when :math:`\|\nabla f(x_k)\|_2 \le` ``tol``.
    max_iter : int, default 1000
    warn : bool, default True
        Warn (``ConvergenceWarning``) when the method stops without meeting the stopping rule.

    Returns
    -------
    OptimizeResult
        With the path of iterates, values, gradient norms and step sizes. If the iterates or values
        overflow (a step size above :math:`2/L` on a quadratic), the method stops, keeps the last finite
        iterate and reports ``converged=False`` with a message saying it diverged.
    """
    x = as_start_point(x0)
    max_iter, tol = check_iterations(max_iter, tol)
    if line_search not in (None, "armijo"):
        raise ValueError(f"line_search must be None or 'armijo', got {line_search!r}")
    if line_search is None and step_size is None:
        raise ValueError("give a fixed step_size, or line_search='armijo'")
    if line_search is not None and f is None:
        raise ValueError("the Armijo line search needs the objective f")
    step_size = 1.0 if step_size is None else check_scalar(step_size, "step_size", low=0, include_low=False)
    value = (lambda z: checked_value(f, z)) if f is not None else (lambda z: np.nan)

    fx, g = value(x), checked_gradient(grad, x)
    history = History(x, fx, np.linalg.norm(g))
    for _ in range(max_iter):
        if np.linalg.norm(g) <= tol:
            return history.result(True, f"gradient norm <= tol = {tol:g}")
        eta = backtracking(f, x, g, fx=fx, step_size=step_size) if line_search else step_size
        x_new = x - eta * g
        with np.errstate(over="ignore", invalid="ignore"):
            fx_new, g_new = value(x_new), checked_gradient(grad, x_new)
            g_norm = np.linalg.norm(g_new)
        if not (np.isfinite(x_new).all() and np.isfinite(g_norm) and (f is None or np.isfinite(fx_new))):
            return history.result(False, f"diverged: the iterates overflowed with step size {eta:g}", warn=warn)
        x, fx, g = x_new, fx_new, g_new
        history.append(x, fx, g_norm, eta)
    if np.linalg.norm(g) <= tol:
        return history.result(True, f"gradient norm <= tol = {tol:g}")
    return history.result(False, f"max_iter = {max_iter} reached with gradient norm {np.linalg.norm(g):.3g}",
                          warn=warn)


def newton(f, grad, hess, x0, *, tol=1e-10, max_iter=100, warn=True):
    r"""Minimise ``f`` by Newton's method :math:`x_{k+1} = x_k - [\nabla^2 f(x_k)]^{-1}\nabla f(x_k)`.

    Each step solves the linear system :math:`\nabla^2 f(x_k)\,\delta = -\nabla f(x_k)` (Cholesky when the
    Hessian is positive definite); it never forms the inverse.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float, or None
        The objective (only recorded in the history).
    grad : callable, array of shape (d,) -> array of shape (d,)
    hess : callable, array of shape (d,) -> array of shape (d, d)
    x0 : array of shape (d,)
    tol : float >= 0, default 1e-10
        Stop when :math:`\|\nabla f(x_k)\|_2 \le` ``tol``.
    max_iter : int, default 100
    warn : bool, default True

    Returns
    -------
    OptimizeResult

    Raises
    ------
    ValueError
        If the Hessian is singular at an iterate, or has the wrong shape.

    Notes
    -----
    Newton's method minimises the quadratic model of ``f`` at :math:`x_k` exactly, so it solves a
    quadratic in one step; near a minimiser with positive definite Hessian it converges quadratically
    (the error is squared at every step). With an indefinite Hessian the step still solves the model's
    stationarity condition but may head to a saddle point or a maximum.
    """
    x = as_start_point(x0)
    max_iter, tol = check_iterations(max_iter, tol)
    value = (lambda z: checked_value(f, z)) if f is not None else (lambda z: np.nan)
    g = checked_gradient(grad, x)
    history = History(x, value(x), np.linalg.norm(g))
    for _ in range(max_iter):
        if np.linalg.norm(g) <= tol:
            return history.result(True, f"gradient norm <= tol = {tol:g}")
        H = np.asarray(hess(x), dtype=float)
        if H.shape != (x.size, x.size):
            raise ValueError(f"hess(x) must have shape {(x.size, x.size)}, got {H.shape}")
        try:
            delta = linalg.solve(H, -g, assume_a="sym")
        except linalg.LinAlgError:
            raise ValueError(f"the Hessian is singular at iterate {len(history.step_sizes)}: "
                             "Newton's step is undefined there") from None
        x = x + delta
        g = checked_gradient(grad, x)
        history.append(x, value(x), np.linalg.norm(g), 1.0)
    if np.linalg.norm(g) <= tol:
        return history.result(True, f"gradient norm <= tol = {tol:g}")
    return history.result(False, f"max_iter = {max_iter} reached with gradient norm {np.linalg.norm(g):.3g}",
                          warn=warn)
