r"""Non-smooth convex objectives and their subgradients, the steps of chapter 8, *Subgradient methods*.

- the lasso objective :math:`\frac{1}{2n}\|y - Xw\|_2^2 + \alpha\|w\|_1` (scikit-learn's scaling) and a
  subgradient of it, the one of smallest norm, so that its norm measures the distance of 0 from the
  subdifferential (zero exactly at a minimiser);
- the primal objective of the linear support vector machine,
  :math:`\frac{\lambda}{2}\|w\|_2^2 + \frac1n\sum_i \max(0, 1 - y_i w^\top x_i)`, and a subgradient of it;
- :func:`subgradient_gap`, which tests the subgradient inequality at given points, and
  :func:`polyak_step`, the step size that minimises the one-step distance bound.
"""

import numpy as np

from ..losses import hinge, hinge_grad, margin
from ..utils.validation import as_float_matrix, as_float_vector, check_scalar


def _check_problem(X, y, w):
    X = as_float_matrix(X, "X")
    y = as_float_vector(y, "y", X.shape[0])
    w = as_float_vector(w, "w")
    if w.shape[0] != X.shape[1]:
        raise ValueError(f"w has {w.shape[0]} entries but X has {X.shape[1]} features")
    return X, y, w


def lasso_objective(X, y, w, alpha):
    r"""The lasso objective :math:`f(w) = \frac{1}{2n}\|y - Xw\|_2^2 + \alpha\|w\|_1`.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    w : array of shape (n_features,)
    alpha : float >= 0
        Weight of the L1 penalty (scikit-learn's ``Lasso(alpha=...)``, same scaling).

    Returns
    -------
    float
    """
    X, y, w = _check_problem(X, y, w)
    alpha = check_scalar(alpha, "alpha", low=0)
    r = y - X @ w
    return float(r @ r / (2 * X.shape[0]) + alpha * np.abs(w).sum())


def lasso_subgradient(X, y, w, alpha):
    r"""The subgradient of smallest norm of the lasso objective at ``w``.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    w : array of shape (n_features,)
    alpha : float >= 0

    Returns
    -------
    g : array of shape (n_features,)
        An element of :math:`\partial f(w)`; ``g == 0`` exactly when ``w`` minimises the objective.

    Notes
    -----
    With :math:`c = \frac1n X^\top(Xw - y)`, the gradient of the smooth part, the subdifferential is
    (derived in chapter 8, *Subgradient methods*)

    .. math:: \partial f(w) = \{c + \alpha s : s_j = \operatorname{sign}(w_j) \text{ if } w_j \ne 0,\ s_j \in [-1, 1] \text{ if } w_j = 0\}.

    Where :math:`w_j = 0` the element closest to zero is :math:`c_j - \operatorname{clip}(c_j, -\alpha, \alpha)`,
    the soft-thresholded :math:`c_j`; elsewhere :math:`g_j = c_j + \alpha\operatorname{sign}(w_j)`.
    """
    X, y, w = _check_problem(X, y, w)
    alpha = check_scalar(alpha, "alpha", low=0)
    c = X.T @ (X @ w - y) / X.shape[0]
    return np.where(w != 0, c + alpha * np.sign(w), c - np.clip(c, -alpha, alpha))


def svm_primal_objective(X, y, w, lam):
    r"""The primal objective of the linear SVM, :math:`f(w) = \frac{\lambda}{2}\|w\|_2^2 + \frac1n\sum_i \max(0, 1 - y_i w^\top x_i)`.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        Append a column of ones for an intercept (it is then penalised like the other weights).
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    w : array of shape (n_features,)
    lam : float >= 0
        Regularisation strength :math:`\lambda`; scikit-learn's ``C`` (objective
        :math:`\frac12\|w\|^2 + C\sum_i \max(0, 1 - y_i w^\top x_i)`) corresponds to :math:`\lambda = 1/(nC)`.

    Returns
    -------
    float
    """
    X, y, w = _check_problem(X, y, w)
    lam = check_scalar(lam, "lam", low=0)
    return float(lam / 2 * (w @ w) + hinge(margin(y, X @ w)).mean())


def svm_primal_subgradient(X, y, w, lam):
    r"""A subgradient of the linear SVM's primal objective (see :func:`svm_primal_objective`).

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    w : array of shape (n_features,)
    lam : float >= 0

    Returns
    -------
    g : array of shape (n_features,)

    Notes
    -----
    By the chain rule for an affine argument (derived in chapter 8, *Subgradient methods*),

    .. math:: g = \lambda w - \frac1n \sum_{i:\ y_i w^\top x_i < 1} y_i x_i \in \partial f(w);

    a sample exactly on the margin, :math:`y_i w^\top x_i = 1`, contributes 0 (any multiple
    :math:`-s\,y_i x_i` with :math:`s \in [0, 1]` would do), as in :func:`mlnotes.losses.hinge_grad`.
    """
    X, y, w = _check_problem(X, y, w)
    lam = check_scalar(lam, "lam", low=0)
    phi_prime = hinge_grad(margin(y, X @ w))
    return lam * w + X.T @ (phi_prime * y) / X.shape[0]


def subgradient_gap(f, x, g, Z):
    r"""The subgradient inequality's slack :math:`f(z) - f(x) - g^\top(z - x)` at each point ``z`` of ``Z``.

    ``g`` is a subgradient of ``f`` at ``x`` iff the slack is :math:`\ge 0` at every :math:`z`; on a
    finite set of points a negative entry disproves it and non-negative entries are evidence.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float
    x : array of shape (d,)
    g : array of shape (d,)
        The candidate subgradient.
    Z : array of shape (m, d)
        Test points.

    Returns
    -------
    slack : array of shape (m,)
    """
    x = as_float_vector(x, "x")
    g = as_float_vector(g, "g", None)
    if g.shape != x.shape:
        raise ValueError(f"g must have the shape of x, {x.shape}, got {g.shape}")
    Z = as_float_matrix(Z, "Z")
    if Z.shape[1] != x.shape[0]:
        raise ValueError(f"the points Z must have {x.shape[0]} columns (the dimension of x), got {Z.shape[1]}")
    fz = np.array([f(z) for z in Z], dtype=float)
    return fz - float(f(x)) - (Z - x) @ g


def polyak_step(fx, f_star, g):
    r"""Polyak's step size :math:`\eta = (f(x) - f^\star) / \|g\|_2^2`.

    Parameters
    ----------
    fx : float
        The objective at the current point.
    f_star : float
        The minimum value of the objective (must be known).
    g : array of shape (d,)
        A non-zero subgradient at the current point.

    Returns
    -------
    float
        The step that minimises the right-hand side of the one-step bound
        :math:`\|x - \eta g - x^\star\|^2 \le \|x - x^\star\|^2 - 2\eta(f(x) - f^\star) + \eta^2\|g\|^2`
        (derived in chapter 8, *Subgradient methods*): the midpoint of the interval of steps that move
        closer to every minimiser.

    Raises
    ------
    ValueError
        If ``fx < f_star`` (then ``f_star`` is not the minimum) or ``g`` is zero.
    """
    fx = check_scalar(fx, "fx")
    f_star = check_scalar(f_star, "f_star")
    g = as_float_vector(g, "g")
    if fx < f_star:
        raise ValueError(f"f(x) = {fx:g} is below f_star = {f_star:g}: f_star is not the minimum value")
    gg = float(g @ g)
    if gg == 0:
        raise ValueError("the subgradient is zero: the point is a minimiser and no step is needed")
    return (fx - f_star) / gg
