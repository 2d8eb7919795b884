r"""Deterministic descent methods: gradient descent (fixed step or backtracking) and Newton's method.

Derived in chapter 6, *Gradient methods*: the update :math:`x_{k+1} = x_k - \eta \nabla f(x_k)` (a minus
sign: descent), the step-size bound :math:`\eta \le 1/L` for an :math:`L`-smooth convex :math:`f`, the
Armijo condition, exact line search, and the Newton step
:math:`x_{k+1} = x_k - [\nabla^2 f(x_k)]^{-1} \nabla f(x_k)`.
"""

import warnings

import numpy as np
from scipy import linalg, optimize

from ..utils.validation import check_option, check_scalar
from ._result import History
from ._validation import as_start_point, check_iterations, checked_gradient, checked_value


class LineSearchError(ValueError):
    """A line search found no acceptable step."""


def _below_rounding(change, value):
    """Whether a change of ``f`` is within a few rounding errors of its value."""
    return abs(change) <= 8 * np.finfo(float).eps * max(abs(value), np.finfo(float).tiny)


def _at_new_iterate(f, value, grad, x_new, *, overflow, nan):
    """``(f(x_new), grad(x_new), its norm, None)``, or ``(..., message)`` if the step diverged.

    The message is ``overflow`` if ``x_new``, the value or the gradient overflowed, and ``nan`` if the value
    is NaN (the step left the domain of ``f``); a NaN gradient at a finite ``x_new`` raises ``ValueError``.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        if not np.isfinite(x_new).all():
            return np.inf, None, np.inf, overflow
        fx_new = value(x_new)
        if f is not None and not np.isfinite(fx_new):
            return fx_new, None, np.inf, nan if np.isnan(fx_new) else overflow
        g_new = checked_gradient(grad, x_new, allow_overflow=True)
        g_norm = np.linalg.norm(g_new)
    return fx_new, g_new, g_norm, None if np.isfinite(g_norm) else overflow


def _point_and_direction(x, g):
    """``x`` (a finite start point) and ``g`` as float vectors of the same shape."""
    x = as_start_point(x)
    g = np.asarray(g, dtype=float)
    if g.shape != x.shape:
        raise ValueError(f"g must have the shape of x, {x.shape}, got {g.shape}")
    return x, g


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
    LineSearchError
        (a ``ValueError``) If no step satisfies the condition: for a differentiable ``f`` either ``g`` is
        not its gradient, or the decrease asked for is below the rounding error of ``f`` (then ``x`` is a
        minimiser to the precision of ``f``; the message says which).
    """
    x, g = _point_and_direction(x, g)
    step_size = check_scalar(step_size, "step_size", min_val=0, include_boundaries="neither")
    shrink = check_scalar(shrink, "shrink", min_val=0, max_val=1, include_boundaries="neither")  # 1: no change
    c = check_scalar(c, "c", min_val=0, max_val=1, include_boundaries="right")
    fx = checked_value(f, x) if fx is None else fx
    decrease = c * (g @ g)
    eta = step_size
    for _ in range(max_halvings):
        f_new = checked_value(f, x - eta * g)
        # NaN and inf compare False: shrink further. Asking f_new < f(x) as well keeps rounding from
        # accepting a step that changes nothing (f(x) - eta*decrease == f(x) once it is below rounding)
        if f_new <= fx - eta * decrease and (f_new < fx or decrease == 0):
            return eta
        eta *= shrink
    if _below_rounding(f_new - fx, fx):
        raise LineSearchError(f"backtracking found no step satisfying the Armijo condition after {max_halvings} "
                              "reductions: the decrease it asks for is below the rounding error of f, so x is "
                              "a minimiser to the precision of f (ask for a larger tol)")
    raise LineSearchError(f"backtracking found no step satisfying the Armijo condition after {max_halvings} "
                          "reductions: is g the gradient of f at x?")


def exact_line_search(f, x, g, *, step_size=1.0, xtol=1e-8):
    r"""Exact line search along the negative gradient: :math:`\eta^* = \arg\min_{\eta > 0} f(x - \eta g)`.

    The one-dimensional problem is solved by Brent's method (``scipy.optimize.minimize_scalar``),
    started from the bracket :math:`(0, \text{step\_size})`.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float
    x : array of shape (d,)
        Current point.
    g : array of shape (d,)
        Gradient of ``f`` at ``x`` (the search direction is :math:`-g`).
    step_size : float > 0, default 1
        Second point of the initial bracket: a guess of the scale of :math:`\eta^*`.
    xtol : float > 0, default 1e-8
        Relative tolerance of Brent's method on :math:`\eta`.

    Returns
    -------
    eta : float
        The minimising step, > 0.

    Raises
    ------
    LineSearchError
        (a ``ValueError``) If the step found is not positive and finite or does not decrease ``f``:
        ``g`` is not a descent direction, ``f`` is unbounded below along it, or the change of ``f`` along
        the line is below its rounding error (then ``x`` is a minimiser to the precision of ``f``; the
        message says which).

    Notes
    -----
    For a quadratic :math:`f(x) = \tfrac12 x^\top A x - b^\top x` with :math:`A \succ 0` the minimiser is
    :math:`\eta^* = g^\top g / g^\top A g` (derived in chapter 6, *Gradient methods*), and consecutive
    gradients are orthogonal: :math:`\nabla f(x - \eta^* g)^\top g = 0`.
    """
    x, g = _point_and_direction(x, g)
    step_size = check_scalar(step_size, "step_size", min_val=0, include_boundaries="neither")
    xtol = check_scalar(xtol, "xtol", min_val=0, include_boundaries="neither")
    with np.errstate(over="ignore", invalid="ignore"):
        line = optimize.minimize_scalar(lambda eta: checked_value(f, x - eta * g), bracket=(0.0, step_size),
                                        method="brent", options={"xtol": xtol})
    eta = float(line.x)
    fx = checked_value(f, x)
    if not (np.isfinite(eta) and eta > 0 and np.isfinite(line.fun) and line.fun < fx):
        if np.isfinite(line.fun) and _below_rounding(line.fun - fx, fx):
            raise LineSearchError("exact line search: f does not change along -g beyond its rounding error, so x "
                                  "is a minimiser to the precision of f (ask for a larger tol)")
        raise LineSearchError(f"exact line search found no minimiser at a positive step (got {eta:g}): "
                              "is g the gradient of f at x, and is f bounded below along -g?")
    return eta


def minimize_scalar_bounded(fun, bounds, *, xatol=1e-5):
    r"""Minimise a function of one real variable over a closed interval: :math:`\arg\min_{a \le t \le b} f(t)`.

    The bounded line search of the library: Brent's method restricted to the interval
    (``scipy.optimize.minimize_scalar`` with ``method="bounded"``), which needs function values only.
    Used for the step of forward stagewise additive modelling (:func:`mlnotes.ensemble.fsam`) and for a
    Bayes action between support points (:func:`mlnotes.risk.bayes_action`).

    Parameters
    ----------
    fun : callable, float -> float
        The function to minimise; it is called with scalars inside ``bounds`` only.
    bounds : pair of floats (low, high)
        The interval, with finite ``low < high``.
    xatol : float > 0, default 1e-5
        Absolute tolerance on the minimiser :math:`t` (the method adds a relative
        :math:`\sqrt{\varepsilon}\,|t|` of its own).

    Returns
    -------
    x : float
        The minimiser found, in ``[low, high]``.
    value : float
        ``fun(x)``.

    Raises
    ------
    TypeError
        If ``fun`` is not callable.
    ValueError
        If ``bounds`` is not a pair of finite numbers with ``low < high``, or ``xatol`` is not positive.

    Notes
    -----
    The method finds a local minimiser: for a unimodal ``fun`` on the interval (a convex one, as in both
    uses above) that is the minimiser. A minimum at an end point is approached to within about ``xatol``,
    not returned exactly.
    """
    if not callable(fun):
        raise TypeError(f"fun must be a callable float -> float, got {type(fun).__name__}")
    try:
        low, high = bounds
    except (TypeError, ValueError):
        raise ValueError(f"bounds must be a pair (low, high), got {bounds!r}") from None
    low = check_scalar(low, "bounds[0]")
    high = check_scalar(high, "bounds[1]")
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise ValueError(f"bounds must be finite with low < high, got ({low}, {high})")
    xatol = check_scalar(xatol, "xatol", min_val=0, include_boundaries="neither")
    found = optimize.minimize_scalar(fun, bounds=(low, high), method="bounded", options={"xatol": xatol})
    return float(found.x), float(found.fun)


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
        With a line search it is the first step tried (default 1).
    line_search : {None, "armijo", "exact"}
        ``"armijo"`` chooses each step by :func:`backtracking`, ``"exact"`` by :func:`exact_line_search`.
    tol : float >= 0, default 1e-6
        Stop when :math:`\|\nabla f(x_k)\|_2 \le` ``tol``.
    max_iter : int, default 1000
    warn : bool, default True
        Warn (``ConvergenceWarning``) when the method stops without meeting the stopping rule.

    Returns
    -------
    OptimizeResult
        With the path of iterates, values, gradient norms and step sizes. If the iterates, values or
        gradients overflow (a step size above :math:`2/L` on a quadratic), or ``f`` is NaN at a new iterate
        (the step left its domain), the method stops, keeps the last good iterate and reports
        ``converged=False`` with a message saying it diverged.

    Raises
    ------
    ValueError
        For bad parameters, and if ``grad`` returns NaN at a finite point (or infinity at ``x0``).

    Notes
    -----
    For a convex ``f`` whose gradient is :math:`L`-Lipschitz and a fixed step :math:`\eta \le 1/L`, the
    values decrease monotonically and (derived in chapter 6, *Gradient methods*)

    .. math:: f(x_k) - f(x^*) \le \frac{\|x_0 - x^*\|^2}{2 \eta k}.
    """
    x = as_start_point(x0)
    max_iter, tol = check_iterations(max_iter, tol)
    if line_search not in (None, "armijo", "exact"):
        raise ValueError(f"line_search must be None, 'armijo' or 'exact', got {line_search!r}")
    if line_search is None and step_size is None:
        raise ValueError("give a fixed step_size, or a line_search ('armijo' or 'exact')")
    if line_search is not None and f is None:
        raise ValueError(f"the {line_search} line search needs the objective f")
    step_size = 1.0 if step_size is None else check_scalar(step_size, "step_size", low=0, include_low=False)
    value = (lambda z: checked_value(f, z)) if f is not None else (lambda z: np.nan)

    fx, g = value(x), checked_gradient(grad, x)
    history = History(x, fx, np.linalg.norm(g))
    for _ in range(max_iter):
        if np.linalg.norm(g) <= tol:
            return history.result(True, f"gradient norm <= tol = {tol:g}")
        try:
            if line_search == "armijo":
                eta = backtracking(f, x, g, fx=fx, step_size=step_size)
            elif line_search == "exact":
                eta = exact_line_search(f, x, g, step_size=step_size)
            else:
                eta = step_size
        except LineSearchError as error:
            return history.result(False, f"stopped: {error}", warn=warn)
        with np.errstate(over="ignore", invalid="ignore"):
            x_new = x - eta * g
        fx_new, g_new, g_norm, message = _at_new_iterate(
            f, value, grad, x_new, overflow=f"diverged: the iterates overflowed with step size {eta:g}",
            nan=f"diverged: f is NaN after step {len(history.step_sizes) + 1}: the step left the domain of f")
        if message is not None:
            return history.result(False, message, warn=warn)
        x, fx, g = x_new, fx_new, g_new
        history.append(x, fx, g_norm, eta)
    if np.linalg.norm(g) <= tol:
        return history.result(True, f"gradient norm <= tol = {tol:g}")
    return history.result(False, f"max_iter = {max_iter} reached with gradient norm {np.linalg.norm(g):.3g}",
                          warn=warn)


def _checked_hessian(hess, x, k):
    """``hess(x)`` as a finite symmetric float array of shape (d, d); ``k`` numbers the iterate in messages."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        H = np.asarray(hess(x), dtype=float)
    if H.shape != (x.size, x.size):
        raise ValueError(f"hess(x) must have shape {(x.size, x.size)}, got {H.shape}")
    if not np.isfinite(H).all():
        raise ValueError(f"hess(x) contains NaN or infinity at iterate {k}")
    asymmetry = np.abs(H - H.T).max()
    if asymmetry > 1e-8 * np.abs(H).max():
        raise ValueError(f"hess(x) is not symmetric at iterate {k} (max |H - H^T| = {asymmetry:.3g}): a Hessian "
                         "is symmetric, and the symmetric solver would read only one triangle of it")
    return H


def _newton_step(H, g, k, damped):
    r"""Solve :math:`H\delta = -g` with a symmetric solver. A singular ``H`` raises, unless ``damped``: then an
    ill-conditioned or singular ``H`` (a redundant model, or rounding) gets the least-squares solution."""
    if not damped:
        try:
            return linalg.solve(H, -g, assume_a="sym")
        except linalg.LinAlgError:
            raise ValueError(f"the Hessian is singular at iterate {k}: Newton's step is undefined there") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", linalg.LinAlgWarning)
            return linalg.solve(H, -g, assume_a="sym")
    except (linalg.LinAlgError, linalg.LinAlgWarning):
        return -linalg.lstsq(H, g)[0]


def _armijo_along(f, grad, x, fx, g, delta, free, c=1e-4, min_step=1e-10):
    r"""The Armijo backtracking of Newton's method: halve :math:`\eta` from 1 until
    :math:`f(x + \eta\delta) \le f(x) + c\,\eta\, g^\top\delta`.

    Near the minimum the decrease asked for is below the rounding of ``f`` and the values cannot decide;
    then a step that shrinks the gradient is accepted (as scikit-learn's Newton solver does). Returns the
    step and the new point, value and gradient, or ``None`` if no step down to ``min_step`` is accepted.
    """
    slope = g @ delta[free]
    if not slope < 0:
        return None
    rounding = 10 * np.finfo(float).eps * max(abs(fx), 1.0)
    eta = 1.0
    while eta >= min_step:
        x_new = x + eta * delta
        f_new = f(x_new)
        if f_new <= fx + c * eta * slope:
            return eta, x_new, f_new, checked_gradient(grad, x_new, allow_overflow=True)
        if abs(f_new - fx) <= rounding:
            g_new = checked_gradient(grad, x_new, allow_overflow=True)
            if np.abs(g_new[free]).sum() < np.abs(g).sum():
                return eta, x_new, f_new, g_new
        eta *= 0.5
    return None


def newton(f, grad, hess, x0, *, line_search=None, tol=1e-10, max_iter=100, fixed=(), warn=True):
    r"""Minimise ``f`` by Newton's method :math:`x_{k+1} = x_k - \eta_k [\nabla^2 f(x_k)]^{-1}\nabla f(x_k)`.

    Each step solves the linear system :math:`\nabla^2 f(x_k)\,\delta = -\nabla f(x_k)` with a symmetric
    solver (LDL factorisation); it never forms the inverse. Without a line search :math:`\eta_k = 1` (the
    pure method); with ``line_search="armijo"`` (damped Newton) :math:`\eta_k` is halved from 1 until the
    Armijo condition :math:`f(x_k + \eta\delta) \le f(x_k) + c\,\eta\,\nabla f(x_k)^\top\delta` holds. This
    damped method is the one the GLM estimators run (``LogisticRegression(solver="newton")``, probit,
    Poisson, through :func:`minimize`).

    Parameters
    ----------
    f : callable, array of shape (d,) -> float, or None
        The objective: recorded in the history, and a NaN value stops the run (it left the domain of f).
        Needed for the line search.
    grad : callable, array of shape (d,) -> array of shape (d,)
    hess : callable, array of shape (d,) -> array of shape (d, d)
        Symmetric (to a relative ``1e-8``), as every Hessian of a twice continuously differentiable ``f``.
    x0 : array of shape (d,)
    line_search : {None, "armijo"}, default None
    tol : float >= 0, default 1e-10
        Stop when :math:`\|\nabla f(x_k)\|_2 \le` ``tol`` (over the coordinates not ``fixed``).
    max_iter : int, default 100
    fixed : sequence of int, default ()
        Coordinates held at their start value (Newton's method on the others): a redundant
        parametrisation, such as the softmax model's last intercept, has a singular Hessian otherwise.
    warn : bool, default True

    Returns
    -------
    OptimizeResult
        The run stops (``converged=False``, a message saying it diverged, the last good iterate kept)
        when an iterate, ``f`` or the gradient overflows, or ``f`` is NaN at a new iterate: far from the
        minimiser Newton's step can leave the domain of ``f`` (from :math:`\theta_0 = 3` on
        :math:`\theta - \ln\theta` it lands on :math:`-3`). With the line search it stops when no step
        length down to 1e-10 decreases ``f`` (the objective is flat or unbounded below along the Newton
        direction, or the Hessian is wrong); that is convergence only if the decrease the quadratic model
        predicts, :math:`\tfrac12\lambda^2 = -\tfrac12\nabla f^\top\delta`, is below the rounding error of
        ``f`` (the minimum reached to working precision).

    Raises
    ------
    ValueError
        If the Hessian has the wrong shape, is not symmetric or not finite, or is singular at an iterate
        (without a line search; with it, the least-squares step is taken); if ``grad`` returns NaN at a
        finite point (or infinity at ``x0``).

    Notes
    -----
    Newton's method minimises the quadratic model of ``f`` at :math:`x_k` exactly, so it solves a
    quadratic in one step; near a minimiser with positive definite Hessian it converges quadratically
    (the error is squared at every step). With an indefinite Hessian the step still solves the model's
    stationarity condition but may head to a saddle point or a maximum; the line search then refuses an
    uphill direction.
    """
    x = as_start_point(x0)
    max_iter, tol = check_iterations(max_iter, tol)
    line_search = check_option(line_search, "line_search", (None, "armijo"))
    if line_search is not None and f is None:
        raise ValueError("the armijo line search needs the objective f")
    free = np.setdiff1d(np.arange(x.size), np.asarray(fixed, dtype=int))
    value = (lambda z: checked_value(f, z)) if f is not None else (lambda z: np.nan)
    fx, g = value(x), checked_gradient(grad, x)
    history = History(x, fx, np.linalg.norm(g[free]))
    for _ in range(max_iter):
        if np.linalg.norm(g[free]) <= tol:
            return history.result(True, f"gradient norm <= tol = {tol:g}")
        k = len(history.step_sizes)
        H = _checked_hessian(hess, x, k)
        delta = np.zeros_like(x)
        delta[free] = _newton_step(H[np.ix_(free, free)], g[free], k, damped=line_search is not None)
        if line_search is None:
            eta = 1.0
            with np.errstate(over="ignore", invalid="ignore"):
                x_new = x + delta
            fx_new, g_new, g_norm, message = _at_new_iterate(
                f, value, grad, x_new, overflow=f"diverged: the iterates overflowed at step {k + 1}",
                nan=f"diverged: f is NaN after step {k + 1}: Newton's step left the domain of f")
            if message is not None:
                return history.result(False, message, warn=warn)
        else:
            accepted = _armijo_along(value, grad, x, fx, g[free], delta, free)
            if accepted is None:
                predicted = -0.5 * (g[free] @ delta[free])
                if abs(predicted) <= 10 * np.finfo(float).eps * max(abs(fx), 1.0):
                    return history.result(True, "the decrease Newton's step predicts is below the rounding error "
                                          "of f: the minimum is reached to working precision")
                return history.result(False, f"newton stopped after {k} iterations without converging: the line "
                                      "search found no decrease along the Newton direction (the objective may "
                                      "have no minimiser, or the features may need scaling)", warn=warn)
            eta, x_new, fx_new, g_new = accepted
            g_norm = np.linalg.norm(g_new[free])
        x, fx, g = x_new, fx_new, g_new
        history.append(x, fx_new, g_norm, eta)
    if np.linalg.norm(g[free]) <= tol:
        return history.result(True, f"gradient norm <= tol = {tol:g}")
    return history.result(False, f"max_iter = {max_iter} reached with gradient norm {np.linalg.norm(g[free]):.3g}",
                          warn=warn)
