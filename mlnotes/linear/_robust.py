r"""Empirical risk minimisation of a linear model under a distance-based regression loss.

For a loss :math:`\psi` of the residual, :func:`fit_linear` minimises

.. math:: \hat R(w, b) = \frac1n \sum_{i=1}^n \psi(y_i - w^\top x_i - b)

for :math:`\psi` the square, absolute or Huber loss, each with the method that suits it: least squares
in closed form (:func:`mlnotes.optim.least_squares`, orthogonal factorisation), the absolute loss as a linear program (:func:`mlnotes.optim.linear_program`), and the Huber loss
(convex and :math:`C^1`) by gradient descent (:func:`mlnotes.optim.gradient_descent`) with the fixed
step :math:`1/L`. Derived and compared in
chapter 5, *Loss functions* (robust line fits).
"""

import numpy as np

from ..losses import REGRESSION_LOSSES, huber, huber_grad
from ..optim import gradient_descent, least_squares, linear_program
from ..utils.validation import as_float_matrix, as_float_vector, check_bool, check_option, check_scalar

def _least_squares(A, y):
    return least_squares(A, y[:, None])[0][:, 0]


def _least_absolute_deviations(A, y):
    r"""Solve :math:`\min_\theta \sum_i |y_i - a_i^\top\theta|` as the linear program
    :math:`\min \sum_i t_i` subject to :math:`-t \le y - A\theta \le t` (HiGHS)."""
    n, p = A.shape
    cost = np.concatenate([np.zeros(p), np.ones(n)])
    A_ub = np.block([[-A, -np.eye(n)], [A, -np.eye(n)]])
    b_ub = np.concatenate([-y, y])
    bounds = [(None, None)] * p + [(0, None)] * n
    return linear_program(cost, A_ub, b_ub, bounds)[:p]       # always feasible and bounded below


def _huber_descent(A, y, delta, tol, max_iter):
    r"""Gradient descent on :math:`\frac1n\sum_i \mathrm{huber}_\delta(y_i - a_i^\top\theta)`, started at the
    least-squares solution, with the fixed step :math:`1/L`, :math:`L = \lambda_{\max}(A^\top A)/n`: the
    Huber loss has :math:`0 \le \psi'' \le 1`, so the risk is :math:`L`-smooth."""
    n = A.shape[0]
    L = np.linalg.eigvalsh(A.T @ A / n).max()
    risk = lambda theta: float(np.mean(huber(y - A @ theta, delta)))
    grad = lambda theta: -A.T @ huber_grad(y - A @ theta, delta) / n
    result = gradient_descent(risk, grad, _least_squares(A, y), step_size=1.0 / L, tol=tol, max_iter=max_iter)
    return result.x


def fit_linear(X, y, loss="square", *, delta=1.0, fit_intercept=True, tol=1e-10, max_iter=10000):
    r"""Fit :math:`\hat y = w^\top x + b` by minimising the empirical risk of a regression loss.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    loss : {"square", "absolute", "huber"}, default "square"
        ``"square"``: least squares (orthogonal factorisation; the minimum-norm solution if it is not
        unique). ``"absolute"``: least absolute deviations, solved exactly as a linear program.
        ``"huber"``: gradient descent with step :math:`1/L` from the least-squares solution.
    delta : float > 0, default 1
        Huber's threshold (ignored by the other losses).
    fit_intercept : bool, default True
    tol : float >= 0, default 1e-10
        Huber only: stop when the gradient norm (in standardised features) is below ``tol``.
    max_iter : int, default 10000
        Huber only: the most gradient steps (a ``ConvergenceWarning`` if they do not suffice).

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float
        The intercept (0.0 when ``fit_intercept=False``).

    Notes
    -----
    The minimised risk is :math:`\frac1n\sum_i \psi(y_i - w^\top x_i - b)` (:func:`mlnotes.losses.regression_risk`). The
    features are centred (with an intercept) and scaled to unit variance before the Huber descent, which
    changes the parametrisation but not the residuals, so the minimiser is mapped back exactly; it keeps
    :math:`A^\top A/n` well conditioned, so that a fixed step converges in tens of iterations. The absolute
    loss may have several minimisers (a whole segment of lines); the linear program returns one vertex.
    Derived in chapter 5, *Loss functions*.
    """
    X = as_float_matrix(X, "X")
    y = as_float_vector(y, "y", X.shape[0])
    check_option(loss, "loss", REGRESSION_LOSSES)
    delta = check_scalar(delta, "delta", min_val=0, include_boundaries="neither")
    check_bool(fit_intercept, "fit_intercept")
    mean = X.mean(axis=0) if fit_intercept else np.zeros(X.shape[1])
    scale = np.sqrt(np.mean((X - mean) ** 2, axis=0))
    scale = np.where(scale > 0, scale, 1.0)
    Z = (X - mean) / scale
    A = np.column_stack([Z, np.ones(X.shape[0])]) if fit_intercept else Z
    if loss == "square":
        theta = _least_squares(A, y)
    elif loss == "absolute":
        theta = _least_absolute_deviations(A, y)
    else:
        theta = _huber_descent(A, y, delta, tol, max_iter)
    w = theta[:X.shape[1]] / scale
    b = float(theta[-1] - w @ mean) if fit_intercept else 0.0
    return w, b
