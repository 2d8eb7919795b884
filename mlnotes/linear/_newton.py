"""Damped Newton's method for the smooth convex objectives of the linear models (logistic, Poisson)."""

import numpy as np
from scipy import linalg


def damped_newton(objective, hessian, theta, args, tol, max_iter, pinned=()):
    r"""Minimise ``objective(theta, *args) -> (value, gradient)`` by Newton steps with Armijo backtracking.

    Each step solves :math:`H \delta = -g` (Cholesky; least squares if H is numerically singular) and
    halves the step length until the objective decreases by at least 1e-4 of the predicted amount. It
    stops after a step that moves no coordinate by more than ``tol``: by quadratic convergence the error
    after such a step is of order ``tol**2``.

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
    n_iter : int
    converged : bool
    """
    theta = np.array(theta, dtype=float)
    free = np.setdiff1d(np.arange(theta.size), pinned)
    for n_iter in range(1, max_iter + 1):
        value, grad = objective(theta, *args)
        g = grad[free]
        if not g.any():
            return theta, n_iter - 1, True
        H = hessian(theta, *args)[np.ix_(free, free)]
        try:
            step = -linalg.solve(H, g, assume_a="pos")
        except (linalg.LinAlgError, ValueError):
            step = -linalg.lstsq(H, g)[0]
        eta, slope = 1.0, g @ step
        while True:
            candidate = theta.copy()
            candidate[free] += eta * step
            if objective(candidate, *args)[0] <= value + 1e-4 * eta * slope or eta < 1e-10:
                break
            eta *= 0.5
        theta = candidate
        if np.abs(eta * step).max() <= tol:
            return theta, n_iter, True
    return theta, max_iter, False
