r"""One entry point for the models: minimise an objective that follows the library's contract.

``objective(w, *args) -> (value, grad)`` (see :mod:`mlnotes.optim`) is minimised by L-BFGS (scipy's
L-BFGS-B, optionally within box bounds) or by :func:`mlnotes.optim.newton` with the Armijo line search, the
Newton method of chapter 6. Whatever the method, convergence means the stopping rule of this module, checked
here on the returned point: the Euclidean norm of the (projected) gradient is at most ``tol``. A method's
own claim of success is not trusted (scipy's L-BFGS-B also stops when the objective stops decreasing, far
from a minimiser when the problem is badly scaled).
"""

import numpy as np
from scipy import optimize

from ..utils.validation import check_option
from ._descent import newton
from ._result import History, OptimizeResult
from ._validation import as_start_point, check_iterations

METHODS = ("lbfgs", "newton")


class _Objective:
    """Splits ``objective(w, *args) -> (value, grad)`` into ``f(w)`` and ``grad(w)`` with one evaluation per
    point, in the variables ``u = w * scale`` (a diagonal change of variables: the gradient in ``u`` is the
    gradient in ``w`` divided by ``scale``). Overflow (e.g. ``exp`` of a far trial point) gives ``inf``,
    which the line searches reject, instead of a warning."""

    def __init__(self, objective, args, scale):
        self.objective, self.args, self.scale = objective, args, scale
        self._u, self._value, self._grad = None, None, None

    def __call__(self, u):
        if self._u is None or not np.array_equal(u, self._u):
            with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
                value, grad = self.objective(u / self.scale, *self.args)
            self._u, self._value, self._grad = np.array(u), float(value), np.asarray(grad, dtype=float) / self.scale
        return self._value, self._grad

    def value(self, u):
        return self(u)[0]

    def grad(self, u):
        return self(u)[1]


def column_scale(X, fit_intercept, n_outputs=1, sample_weight=None):
    r"""The diagonal change of variables that puts the weights of a linear model on the scale of the data.

    Returns a vector of the layout ``[w_1..w_d, (b)]`` repeated ``n_outputs`` times: the (``sample_weight``
    weighted) root mean square of each column of ``X`` (1 for a column of zeros, and for the intercept);
    weighted, so that a weight of 2 and a repeated sample give the same scale, hence the same iterates. With :math:`u_j = s_j w_j`
    the model's scores :math:`\sum_j (x_{ij}/s_j) u_j` are those of features of unit size, so that
    L-BFGS sees a well-scaled problem whatever the units of the features (chapter 6: the condition
    number governs gradient methods).
    """
    s = np.sqrt(np.average(np.square(X), axis=0, weights=sample_weight))
    s = np.where(s > 0, s, 1.0)
    if fit_intercept:
        s = np.append(s, 1.0)
    return np.tile(s, n_outputs)


def check_bounds(bounds, n_params):
    """Box bounds as an array of shape (n_params, 2) of lower and upper bounds (``-inf``/``inf``: none).

    Parameters
    ----------
    bounds : array-like of shape (n_params, 2), or None
        One ``(low, high)`` pair per parameter; None in a pair means unbounded on that side.
    n_params : int

    Returns
    -------
    ndarray of shape (n_params, 2), or None if ``bounds`` is None

    Raises
    ------
    TypeError
        If an entry is not a number (or None).
    ValueError
        If the shape is not (n_params, 2), an entry is NaN, a lower bound is ``+inf`` or an upper bound
        ``-inf``, or a lower bound exceeds its upper bound.
    """
    if bounds is None:
        return None
    try:
        B = np.array([[-np.inf if low is None else low, np.inf if high is None else high] for low, high in bounds],
                     dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"bounds must be {n_params} pairs (low, high) of numbers or None, got {bounds!r} "
                        f"({exc})") from None
    if B.shape != (n_params, 2):
        raise ValueError(f"bounds must have shape ({n_params}, 2), one (low, high) per parameter, got {B.shape}")
    if np.isnan(B).any() or np.isposinf(B[:, 0]).any() or np.isneginf(B[:, 1]).any():
        raise ValueError(f"bounds must hold numbers (low < inf, high > -inf), got {B.tolist()}")
    if (B[:, 0] > B[:, 1]).any():
        j = int(np.argmax(B[:, 0] > B[:, 1]))
        raise ValueError(f"bounds of parameter {j} are empty: low = {B[j, 0]} > high = {B[j, 1]}")
    return B


def projected_gradient(w, grad, bounds=None):
    r"""The first-order optimality measure of a box-constrained problem, :math:`w - \Pi(w - \nabla f(w))`.

    :math:`\Pi` clips to the box ``bounds`` (shape (p, 2)); it is the gradient itself where no bound is
    active, and zero in a coordinate held at a bound by a gradient that pushes out of the box. With
    ``bounds=None`` it is ``grad``. A point is stationary for the box-constrained problem exactly when it
    is zero.
    """
    if bounds is None:
        return grad
    return w - np.clip(w - grad, bounds[:, 0], bounds[:, 1])


def minimize(objective, w0, args=(), *, method="lbfgs", hess=None, tol=1e-4, max_iter=100, scale=None, fixed=(),
             bounds=None, warn=True):
    r"""Minimise a smooth objective ``objective(w, *args) -> (value, grad)`` from ``w0``.

    Parameters
    ----------
    objective : callable
        ``objective(w, *args)`` returns the value (float) and the gradient (shape of ``w``).
    w0 : array of shape (p,)
        Start point.
    args : tuple
        Further arguments of ``objective`` and ``hess`` (data, weights, penalty).
    method : {"lbfgs", "newton"}, default "lbfgs"
        ``"lbfgs"``: scipy's L-BFGS-B; ``"newton"``: :func:`newton` with ``line_search="armijo"`` and the
        exact Hessian ``hess``.
    hess : callable, optional
        ``hess(w, *args)`` returns the Hessian, shape (p, p); needed for ``"newton"``.
    tol : float >= 0, default 1e-4
        Converged when :math:`\|\nabla f(w)\|_2 \le` ``tol`` (gradient in the original variables); with
        ``bounds``, the projected gradient of :func:`projected_gradient` instead.
    max_iter : int, default 100
    scale : array of shape (p,), optional
        A diagonal change of variables :math:`u = w \odot s` for L-BFGS (see :func:`column_scale`); the
        minimiser and the stopping rule are those of the original problem. Newton's method is invariant
        to it and ignores it.
    fixed : sequence of int
        Coordinates held at their start value (Newton only; e.g. a redundant intercept).
    bounds : array-like of shape (p, 2), optional
        Box constraints ``low[j] <= w[j] <= high[j]`` (None or ``inf`` on a side: unbounded), for
        ``"lbfgs"`` only (L-BFGS-B); ``w0`` is clipped into the box first. Checked by :func:`check_bounds`.
    warn : bool, default True
        Warn (``ConvergenceWarning``) when the stopping rule is not met.

    Returns
    -------
    OptimizeResult
        ``converged`` is this function's check of the gradient at ``x``, not the method's report.

    Raises
    ------
    ValueError
        On a bad option, ``method="newton"`` without ``hess`` or with ``bounds``, or bad ``bounds``/``scale``.
    """
    method = check_option(method, "method", METHODS)
    w = as_start_point(w0)
    max_iter, tol = check_iterations(max_iter, tol)
    bounds = check_bounds(bounds, w.size)
    if method == "newton" and bounds is not None:
        raise ValueError("bounds need method='lbfgs' (L-BFGS-B); Newton's method here is unconstrained")
    if bounds is not None:
        w = np.clip(w, bounds[:, 0], bounds[:, 1])
    if method == "newton":
        if hess is None:
            raise ValueError("method='newton' needs the Hessian: pass hess(w, *args)")
        f = _Objective(objective, args, np.ones_like(w))
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            return newton(f.value, f.grad, lambda w_: hess(w_, *args), w, line_search="armijo", tol=tol,
                          max_iter=max_iter, fixed=fixed, warn=warn)
    scale = np.ones_like(w) if scale is None else np.asarray(scale, dtype=float)
    if scale.shape != w.shape or not (np.isfinite(scale).all() and (scale > 0).all()):
        raise ValueError(f"scale must hold {w.size} positive finite numbers, got {scale!r}")
    f = _Objective(objective, args, scale)
    gradient = "gradient" if bounds is None else "projected gradient"
    history = History(w, *_value_and_norm(f, w * scale, scale, bounds))
    # scipy's own tests: gtol on the scaled gradient (a necessary condition, checked again below), and an
    # ftol at the rounding of f so that it does not stop while the objective still decreases
    result = optimize.minimize(f, w * scale, jac=True, method="L-BFGS-B",
                               bounds=None if bounds is None else bounds * scale[:, None],
                               options={"maxiter": max_iter, "maxls": 50, "gtol": tol / np.sqrt(w.size) / scale.max(),
                                        "ftol": 0.0})
    x = result.x / scale
    value, grad_norm = _value_and_norm(f, result.x, scale, bounds)
    history.append(x, value, grad_norm, np.nan)
    n_iter = int(result.nit)
    g_u = projected_gradient(result.x, f.grad(result.x), None if bounds is None else bounds * scale[:, None])
    if np.isfinite(value) and grad_norm <= tol:
        converged, message = True, f"{gradient} norm <= tol = {tol:g}"
    elif np.isfinite(value) and _below_rounding(0.5 * g_u @ result.hess_inv.matvec(g_u), value):
        # the quasi-Newton model predicts a decrease below the rounding error of f: as far as the values
        # of f can tell, this is the minimum (the Newton decrement criterion of newton(), with L-BFGS's
        # approximation of the inverse Hessian)
        converged, message = True, (f"the decrease the L-BFGS model predicts is below the rounding error of f "
                                    f"({gradient} norm {grad_norm:.3g}): the minimum is reached to working precision")
    else:
        converged, message = False, (f"lbfgs: {result.message}; the {gradient} norm {grad_norm:.3g} is above "
                                     f"tol = {tol:g} after {n_iter} iterations")
    out = history.result(converged, message, warn=warn)
    out.n_iter = n_iter
    return out


def _below_rounding(predicted, value):
    """Whether a predicted decrease of ``f`` (>= 0 for a descent model) is within the rounding error of ``f``."""
    return bool(0 <= predicted <= 10 * np.finfo(float).eps * max(abs(value), 1.0))


def _value_and_norm(f, u, scale, bounds=None):
    """The objective and the norm of its (projected) gradient in the original variables at ``u``."""
    value, g = f(u)
    return value, float(np.linalg.norm(projected_gradient(u / scale, g * scale, bounds)))
