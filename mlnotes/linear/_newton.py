"""The solvers shared by the GLM estimators (logistic, probit, Poisson): damped Newton's method, L-BFGS,
and their convergence warning."""

import warnings

import numpy as np
from scipy import linalg, optimize
from sklearn.exceptions import ConvergenceWarning

from ..utils.validation import check_scalar

#: Why :func:`damped_newton` stopped.
CONVERGED, MAX_ITER, LINE_SEARCH_FAILED = "converged", "max_iter", "line_search_failed"


def damped_newton(objective, hessian, theta, args, tol, max_iter, pinned=()):
    r"""Minimise ``objective(theta, *args) -> (value, gradient)`` by Newton steps with Armijo backtracking.

    Each iteration solves :math:`H \delta = -g` (Cholesky; least squares if H is singular or numerically
    so) and halves the step length until the objective decreases by at least 1e-4 of the predicted
    amount (or, when the change of the objective is at the level of its rounding, until the gradient
    gets smaller).

    Convergence is declared when the **full** Newton step :math:`\delta` is small in two senses: it
    moves no coordinate by more than ``tol``, and half the squared Newton decrement
    :math:`\tfrac12 \lambda^2 = \tfrac12 g^\top H^{-1} g = -\tfrac12 g^\top \delta` (the decrease that the
    quadratic model predicts, an estimate of the distance to the minimum in objective units) is at most
    ``tol``. By quadratic convergence the error after such a step is of order ``tol**2``. A move that is
    small only because the line search shortened a large Newton step is not convergence; if the line
    search finds no decrease at all (the step length falls below 1e-10) the method stops and reports it,
    unless the Newton step itself was already small (the minimum reached to rounding).

    Parameters
    ----------
    objective : callable
        ``objective(theta, *args)`` returns the value and the gradient (shape of ``theta``).
    hessian : callable
        ``hessian(theta, *args)`` returns the Hessian, shape (theta.size, theta.size).
    theta : array of shape (p,)
        Start point.
    args : tuple
    tol : float > 0
    max_iter : int
    pinned : sequence of int
        Coordinates held at their start value (a redundant parametrisation, e.g. the softmax model's
        last intercept).

    Returns
    -------
    theta : array of shape (p,)
        The last accepted iterate.
    n_iter : int
    status : str
        ``CONVERGED``, ``MAX_ITER`` (``max_iter`` iterations without meeting the criterion) or
        ``LINE_SEARCH_FAILED`` (no decrease along the Newton direction: the objective is flat or
        unbounded below in that direction to working precision, as on separable data without penalty).
    """
    theta = np.array(theta, dtype=float)
    free = np.setdiff1d(np.arange(theta.size), pinned)
    for n_iter in range(1, max_iter + 1):
        value, grad = objective(theta, *args)
        g = grad[free]
        if not g.any():
            return theta, n_iter - 1, CONVERGED
        H = hessian(theta, *args)[np.ix_(free, free)]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", linalg.LinAlgWarning)     # ill-conditioned: least squares
                step = -linalg.solve(H, g, assume_a="pos")
        except (linalg.LinAlgError, linalg.LinAlgWarning, ValueError):
            step = -linalg.lstsq(H, g)[0]
        decrement2 = -(g @ step)                                    # g^T H^{-1} g, the squared Newton decrement
        small = np.abs(step).max() <= tol and 0.5 * abs(decrement2) <= tol
        eta, rounding = 1.0, 10 * np.finfo(float).eps * max(abs(value), 1.0)
        while decrement2 > 0:
            candidate = theta.copy()
            candidate[free] += eta * step
            value_new, grad_new = objective(candidate, *args)
            if value_new <= value - 1e-4 * eta * decrement2:
                break
            # near the minimum the decrease is below the rounding of the objective (a mean of losses of
            # order 1, whatever its value): the values cannot decide, so accept a step that reduces the
            # gradient, as scikit-learn's Newton solver does
            if abs(value_new - value) <= rounding and np.abs(grad_new[free]).sum() < np.abs(g).sum():
                break
            eta *= 0.5
            if eta < 1e-10:                                         # no decrease along the Newton direction
                break
        if decrement2 <= 0 or eta < 1e-10:
            return theta, n_iter, CONVERGED if small else LINE_SEARCH_FAILED
        theta = candidate
        if small:
            return theta, n_iter, CONVERGED
    return theta, max_iter, MAX_ITER


def warn_unless_converged(solver, converged, status, n_iter, max_iter):
    """Issue the estimators' ``ConvergenceWarning`` when a fit did not converge, saying why.

    ``status`` is :func:`damped_newton`'s for ``solver="newton"`` (None for L-BFGS). The warning points at
    the caller of the estimator's ``fit``.
    """
    if converged:
        return
    if solver == "newton" and status == LINE_SEARCH_FAILED:
        message = (f"newton stopped after {n_iter} iterations without converging: the line search found no "
                   "decrease along the Newton direction (the objective may have no minimiser, or the features "
                   "may need scaling)")
    else:
        message = f"{solver} did not converge in max_iter = {max_iter} iterations; increase max_iter or scale the features"
    warnings.warn(message, ConvergenceWarning, stacklevel=3)


SOLVERS = ("lbfgs", "newton")


def check_solver_params(solver, tol, max_iter):
    """Validate the solver options shared by the GLM estimators; returns ``tol`` as a float."""
    if solver not in SOLVERS:
        raise ValueError(f"solver must be 'lbfgs' or 'newton', got {solver!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    return check_scalar(tol, "tol", low=0, include_low=False)


def minimize_objective(objective, hessian, theta0, args, *, solver, tol, max_iter, pinned=()):
    """Minimise a smooth convex objective by L-BFGS (scipy, scikit-learn's options) or :func:`damped_newton`.

    Returns
    -------
    theta : array of the shape of ``theta0``
    n_iter : int
    converged : bool
    status : str or None
        :func:`damped_newton`'s reason for stopping (None for L-BFGS), for :func:`warn_unless_converged`.
    """
    if solver == "lbfgs":
        result = optimize.minimize(objective, theta0, args=args, jac=True, method="L-BFGS-B",
                                   options={"maxiter": max_iter, "maxls": 50, "gtol": tol,
                                            "ftol": 64 * np.finfo(float).eps})
        return result.x, result.nit, bool(result.success or np.abs(result.jac).max() <= tol), None
    theta, n_iter, status = damped_newton(objective, hessian, theta0, args, tol, max_iter, pinned)
    return theta, n_iter, status == CONVERGED, status
