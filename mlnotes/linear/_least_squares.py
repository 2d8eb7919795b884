"""The least-squares steps derived in the chapter "Linear regression".

Each function is one step of the derivation, written with the chapter's names:
``X`` is the design matrix (n_samples, n_features), ``y`` the targets, ``w`` the weights,
``b`` the intercept, ``t`` the sample weights (the diagonal of ``T``) and ``alpha`` the ridge
penalty. The estimators in :mod:`mlnotes.linear._models` are assembled from these steps.
"""

import numpy as np

from ..optim import least_squares
from ..utils.validation import (as_float_matrix, as_float_vector, check_linear_problem, check_sample_weight,
                                check_scalar)


def _as_targets(y, n_samples):
    """Validate targets of shape (n_samples,) or (n_samples, n_targets)."""
    y_arr = np.asarray(y, dtype=float) if y is not None else None
    if y_arr is not None and y_arr.ndim == 2:
        if y_arr.shape[0] != n_samples:
            raise ValueError(f"y has {y_arr.shape[0]} rows but X has {n_samples} samples")
        return as_float_matrix(y_arr, "y")
    return as_float_vector(y, "y", n_samples)


def _check_data(X, y, sample_weight):
    """``X``, targets ``y`` (one or several) and sample weights, checked; ``t`` is None for unit weights."""
    X = as_float_matrix(X)
    y = _as_targets(y, X.shape[0])
    return X, y, None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])


def least_squares_loss(X, y, w, b=0.0, sample_weight=None):
    r"""Weighted sum of squared residuals :math:`\sum_i t_i (y_i - x_i^\top w - b)^2`.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    w : array of shape (n_features,)
    b : float, default 0
    sample_weight : array of shape (n_samples,), optional
        The weights :math:`t_i` (all ones by default).

    Returns
    -------
    loss : float
    """
    X, y, w = check_linear_problem(X, y, w)
    t = check_sample_weight(sample_weight, X.shape[0])
    residual = y - X @ w - b
    return float(t @ residual**2)


def least_squares_1d(x, y):
    r"""Closed-form slope and intercept of simple linear regression.

    Minimises :math:`\sum_i (y_i - w x_i - b)^2` over :math:`w, b \in \mathbb R`.

    Parameters
    ----------
    x : array of shape (n_samples,)
    y : array of shape (n_samples,)

    Returns
    -------
    w : float
        :math:`\hat w = \sum_i (x_i-\bar x)(y_i-\bar y) / \sum_i (x_i-\bar x)^2`.
    b : float
        :math:`\hat b = \bar y - \hat w \bar x`.

    Raises
    ------
    ValueError
        If all ``x`` are equal (the slope is not identified).

    Notes
    -----
    Derived in chapter "Linear regression" (tutorial question 9 of 004, with the erratum on the
    denominator's missing sum).
    """
    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    x_bar, y_bar = x.mean(), y.mean()
    Sxx = np.sum((x - x_bar) ** 2)
    # The rounding error of each computed deviation x_i - x_bar is at most about
    # n * eps * max|x_i|, so a Sxx below n times its square is indistinguishable from 0.
    n, eps = x.shape[0], np.finfo(float).eps
    if np.all(x == x[0]) or Sxx <= n * (n * eps * np.max(np.abs(x))) ** 2:
        raise ValueError("all x are equal: the slope is not identified (sum of (x_i - x_bar)^2 is 0)")
    w = np.sum((x - x_bar) * (y - y_bar)) / Sxx
    b = y_bar - w * x_bar
    return float(w), float(b)


def center(X, y, sample_weight=None):
    r"""Subtract the (weighted) means of the columns of ``X`` and of ``y``.

    With an unpenalised intercept, the optimal :math:`b = \bar y - \bar x^\top w`, so the weights
    can be fitted on centred data and the intercept recovered afterwards.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,) or (n_samples, n_targets)
    sample_weight : array of shape (n_samples,), optional
        Non-negative, not all zero.

    Returns
    -------
    X_centered : array of shape (n_samples, n_features)
    y_centered : array like ``y``
    x_bar : array of shape (n_features,)
    y_bar : float or array of shape (n_targets,)
    """
    X, y, t = _check_data(X, y, sample_weight)
    return _center(X, y, t)


def _center(X, y, t=None):
    """:func:`center` on validated arrays (``t=None``: unit weights)."""
    x_bar = np.average(X, axis=0, weights=t)
    y_bar = np.average(y, axis=0, weights=t)
    return X - x_bar, y - y_bar, x_bar, y_bar


def normal_equations(X, y, sample_weight=None):
    r"""Solve the (weighted) normal equations :math:`X^\top T X w = X^\top T y` by Cholesky.

    This is the closed form of the chapter; it needs :math:`X^\top T X` invertible, i.e. ``X``
    (restricted to samples with positive weight) of full column rank.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,) or (n_samples, n_targets)
    sample_weight : array of shape (n_samples,), optional
        The diagonal :math:`t` of :math:`T` (ones by default).

    Returns
    -------
    w : array of shape (n_features,) or (n_features, n_targets)

    Raises
    ------
    ValueError
        If :math:`X^\top T X` is singular (X has linearly dependent columns, or fewer samples
        than features): use :func:`ridge_closed_form` or a pseudo-inverse instead.
    """
    X, y, t = _check_data(X, y, sample_weight)
    return least_squares(X, y.reshape(X.shape[0], -1), method="normal", sample_weight=t)[0].reshape((X.shape[1],) + y.shape[1:])


def _check_alpha(alpha, n_targets):
    """Ridge penalty: a non-negative scalar or one per target."""
    alpha_arr = np.asarray(alpha, dtype=float) if not isinstance(alpha, (bool, str)) else None
    if alpha_arr is None or alpha_arr.ndim > 1:
        raise TypeError(f"alpha must be a non-negative number or a 1-D array of them, got {alpha!r}")
    if alpha_arr.ndim == 0:
        check_scalar(float(alpha_arr), "alpha", low=0.0)
        return np.full(n_targets, float(alpha_arr))
    if alpha_arr.shape[0] not in (1, n_targets):
        raise ValueError(f"alpha has {alpha_arr.shape[0]} entries but there are {n_targets} targets")
    if not np.all(np.isfinite(alpha_arr)) or (alpha_arr < 0).any():
        raise ValueError(f"alpha must be finite and non-negative, got {alpha_arr}")
    return np.broadcast_to(alpha_arr, (n_targets,)).copy()


def _ridge(X, y, alpha, method):
    """Validate ``X``, ``y`` and ``alpha`` and solve ridge with :func:`mlnotes.optim.least_squares` by
    ``method``; the weights have the shape of ``y`` with ``n_features`` rows."""
    X = as_float_matrix(X)
    y = _as_targets(y, X.shape[0])
    Y = y.reshape(X.shape[0], -1)
    W = least_squares(X, Y, _check_alpha(alpha, Y.shape[1]), method=method)[0]
    return W.ravel() if y.ndim == 1 else W


def ridge_closed_form(X, y, alpha):
    r"""Ridge weights :math:`w = (X^\top X + \alpha I)^{-1} X^\top y` by Cholesky.

    For ``alpha > 0`` the matrix :math:`X^\top X + \alpha I` is positive definite, so the
    Cholesky factor exists for every ``X``. When ``n_features > n_samples`` the equivalent
    dual form :math:`w = X^\top (X X^\top + \alpha I)^{-1} y` is solved instead (a smaller system).

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,) or (n_samples, n_targets)
    alpha : float or array of shape (n_targets,)
        Penalty, strictly positive here (use :func:`ridge_svd` for ``alpha = 0``).

    Returns
    -------
    w : array of shape (n_features,) or (n_features, n_targets)
    """
    return _ridge(X, y, alpha, "cholesky")


def ridge_svd(X, y, alpha):
    r"""Ridge weights from the thin SVD :math:`X = U S V^\top`: :math:`w = V \,\mathrm{diag}\big(\tfrac{s_j}{s_j^2+\alpha}\big) U^\top y`.

    Numerically stable for ill-conditioned ``X`` and valid for ``alpha = 0``, where it returns
    the minimum-norm least-squares solution :math:`X^+ y` (singular values below
    ``max(n, d) * eps * s_max`` are treated as zero).

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,) or (n_samples, n_targets)
    alpha : float or array of shape (n_targets,), non-negative

    Returns
    -------
    w : array of shape (n_features,) or (n_features, n_targets)
    """
    return _ridge(X, y, alpha, "svd")
