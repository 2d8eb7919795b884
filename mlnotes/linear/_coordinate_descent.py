r"""The lasso and the elastic net by cyclic coordinate descent (chapter 10, *Regularisation*).

The objective is scikit-learn's, for :math:`\alpha > 0` and :math:`0 \le \rho \le 1` (``l1_ratio``):

.. math::
    P(w) = \frac{1}{2n}\|y - Xw\|^2 + \alpha\rho\,\|w\|_1 + \frac{\alpha(1-\rho)}{2}\|w\|^2 ,

which is the lasso for :math:`\rho = 1`. With the Gram quantities :math:`Q = X^\top X / n` and
:math:`c = X^\top y / n` (the "covariance trick": formed once, after which a sweep over the coordinates
costs :math:`O(d^2)` instead of :math:`O(nd)`), the minimiser over the coordinate :math:`w_j` with the
others fixed is the soft-thresholded inner product of feature :math:`j` with the partial residual
(divided by :math:`n`)

.. math::
    w_j \leftarrow \frac{S\big(c_j - \sum_{k \ne j} Q_{jk} w_k,\ \alpha\rho\big)}{Q_{jj} + \alpha(1-\rho)},
    \qquad S(z, t) = \operatorname{sign}(z)\max(|z| - t, 0).

The sweeps stop when the duality gap (a certified bound on :math:`P(w) - P(w^*)`) falls below
``tol`` times :math:`\|y\|^2 / n`, the stopping rule of scikit-learn, so both stop at the same accuracy.

:func:`lasso_qp` solves the same lasso another way, as the notes do: as a smooth problem in the positive
and negative parts :math:`w = a - b`, :math:`a, b \ge 0`, by projected gradient.
"""

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import validate_data

from ..optim import projected_gradient_descent
from ..utils.validation import as_finite_array, as_float_matrix, as_float_vector, check_sample_weight, check_scalar
from ..utils.validation import check_square_sums
from ._least_squares import _center
from ._models import LinearPredictMixin


def soft_threshold(z, t):
    r"""Soft-thresholding :math:`S(z, t) = \operatorname{sign}(z)\max(|z| - t, 0)`, elementwise.

    The minimiser of :math:`\tfrac12 (w - z)^2 + t|w|`: it shrinks ``z`` towards 0 by ``t`` and sets it
    to exactly 0 when :math:`|z| \le t`, which is where the lasso's zeros come from.

    Parameters
    ----------
    z : float or array of any shape
    t : float >= 0
        The threshold.

    Returns
    -------
    array of the shape of ``z``
    """
    z = as_finite_array(z, "z")
    t = check_scalar(t, "t", low=0)
    return _shrink(z, t)


def _shrink(z, t):
    """:func:`soft_threshold` without the checks, for a float or an array ``z`` and ``t >= 0``.

    Written with plain arithmetic, ``(z - t)`` where ``z > t``, ``(z + t)`` where ``z < -t`` and 0 in
    between, so that it costs no numpy call on a float: the coordinate sweeps call it once per coordinate.
    """
    return (z - t) * (z > t) + (z + t) * (z < -t)


def alpha_max(X, y, *, l1_ratio=1.0):
    r"""The smallest :math:`\alpha` for which the (uncentred) elastic net solution is :math:`w = 0`.

    :math:`w = 0` is optimal iff :math:`0 \in \partial P(0)`, i.e. :math:`|c_j| \le \alpha\rho` for all
    :math:`j`, so :math:`\alpha_{\max} = \|X^\top y\|_\infty / (n\rho)`.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        Centre ``X`` and ``y`` first for a model with an intercept.
    y : array of shape (n_samples,)
    l1_ratio : float in (0, 1], default 1

    Returns
    -------
    float
    """
    X = as_float_matrix(X)
    y = as_float_vector(y, "y", X.shape[0])
    l1_ratio = check_scalar(l1_ratio, "l1_ratio", low=0, high=1, include_low=False)
    return float(np.abs(X.T @ y).max() / (X.shape[0] * l1_ratio))


def duality_gap(Q, c, yy, w, alpha_l1, alpha_l2):
    r"""Duality gap of the elastic net at ``w``, from the Gram quantities (scikit-learn's formulas / n).

    With :math:`R = y - Xw`: :math:`\|R\|^2/n = yy - 2c^\top w + w^\top Q w`, :math:`R^\top y / n = yy - c^\top w`
    and :math:`X^\top R / n = c - Qw`. For :math:`\alpha\rho > 0` the dual point is the residual scaled
    into the dual feasible set, :math:`s = \min(1, \alpha\rho / \|X^\top R/n - \alpha(1-\rho) w\|_\infty)`, and

    .. math:: G = P(w) + \tfrac{s^2}{2}\big(\|R\|^2/n + \alpha(1-\rho)\|w\|^2\big) - s\,R^\top y/n \ \ge\ P(w) - P(w^*).

    For :math:`\rho = 0` (ridge) the gap of scikit-learn's "formulation B" is used.

    Parameters
    ----------
    Q : array of shape (n_features, n_features)
        :math:`X^\top X / n`.
    c : array of shape (n_features,)
        :math:`X^\top y / n`.
    yy : float
        :math:`y^\top y / n`.
    w : array of shape (n_features,)
    alpha_l1, alpha_l2 : float
        :math:`\alpha\rho` and :math:`\alpha(1-\rho)`.

    Returns
    -------
    float
        Non-negative up to rounding; 0 exactly at the optimum.

    Raises
    ------
    ValueError
        If the shapes do not match, an entry is not finite, ``Q`` is not symmetric or ``yy < 0``, a
        penalty is negative, or both are 0 (least squares: no dual point of this form).
    """
    Q, c, yy = _check_gram(Q, c, yy)
    w = _check_coef(w, "w", c.shape[0])
    alpha_l1, alpha_l2 = _check_penalties(alpha_l1, alpha_l2)
    return _gap(c, yy, w, Q @ w, alpha_l1, alpha_l2)


def _check_gram(Q, c, yy):
    """Validate the Gram quantities Q = X^T X / n (d, d), c = X^T y / n (d,) and yy = y^T y / n >= 0."""
    Q = as_finite_array(Q, "Q")
    c = as_finite_array(c, "c")
    if c.ndim != 1:
        raise ValueError(f"c = X^T y / n must be 1-D with shape (n_features,), got shape {c.shape}")
    d = c.shape[0]
    if Q.shape != (d, d):
        raise ValueError(f"Q = X^T X / n must have shape (n_features, n_features) = ({d}, {d}) to match c, "
                         f"got shape {Q.shape}")
    if not np.allclose(Q, Q.T, rtol=1e-10, atol=1e-12 * max(float(np.abs(Q).max()), 1.0)):
        raise ValueError("Q = X^T X / n must be symmetric")
    if (np.diag(Q) < 0).any():
        raise ValueError("Q = X^T X / n must have a non-negative diagonal (it is a Gram matrix)")
    yy = check_scalar(yy, "yy", low=0)
    return Q, c, yy


def _check_coef(w, name, d):
    w = as_finite_array(w, name)
    if w.shape != (d,):
        raise ValueError(f"{name} must have shape (n_features,) = ({d},) to match c, got shape {w.shape}")
    return w


def _check_penalties(alpha_l1, alpha_l2):
    alpha_l1 = check_scalar(alpha_l1, "alpha_l1", low=0)
    alpha_l2 = check_scalar(alpha_l2, "alpha_l2", low=0)
    if alpha_l1 == 0 and alpha_l2 == 0:
        raise ValueError("alpha_l1 and alpha_l2 are both 0: that is least squares, which has neither this "
                         "dual nor a unique coordinate-descent limit; use LinearRegression")
    return alpha_l1, alpha_l2


def _gap(c, yy, w, Qw, alpha_l1, alpha_l2):
    """:func:`duality_gap` given ``Qw = Q @ w`` (kept up to date by the sweeps, so this costs O(d))."""
    R_norm2 = yy - 2 * c @ w + w @ Qw
    Ry = yy - c @ w
    w_norm2 = w @ w
    if alpha_l1 == 0:
        XtR = c - Qw
        return float(R_norm2 + 0.5 * alpha_l2 * w_norm2 - Ry + XtR @ XtR / (2 * alpha_l2))
    primal = 0.5 * (R_norm2 + alpha_l2 * w_norm2) + alpha_l1 * np.abs(w).sum()
    dual_norm = np.abs(c - Qw - alpha_l2 * w).max()
    s = min(1.0, alpha_l1 / dual_norm) if dual_norm > 0 else 1.0
    dual = -0.5 * s**2 * (R_norm2 + alpha_l2 * w_norm2) + s * Ry
    return float(primal - dual)


def _sweep(Q_cols, c, w, Qw, Q_diag, diag, alpha_l1, coordinates):
    """One pass of coordinate updates over ``coordinates``, in place on ``w`` and ``Qw = Q @ w``.

    ``Q_cols[j]`` is the column ``Q[:, j]`` as a contiguous row; ``c``, ``Q_diag`` (the diagonal of ``Q``) and
    ``diag`` (``Q_jj + alpha_l2``) are lists of Python floats and ``coordinates`` a list of ints: the loop's
    scalar arithmetic is then on Python floats, the same IEEE double operations as on numpy's float64 scalars
    (so the same results to the bit) for less time per coordinate. Returns the largest change of a coordinate.
    """
    largest = 0.0
    for j in coordinates:
        w_j = w.item(j)
        rho = c[j] - Qw.item(j) + Q_diag[j] * w_j                           # c_j - sum_{k != j} Q_jk w_k
        w_new = _shrink(rho, alpha_l1) / diag[j]                            # S(rho, alpha_l1) / (Q_jj + alpha_l2)
        if w_new != w_j:
            Qw += (w_new - w_j) * Q_cols[j]
            w[j] = w_new
            largest = max(largest, abs(w_new - w_j))
    return largest


def coordinate_descent(Q, c, yy, alpha_l1, alpha_l2, *, w0=None, tol=1e-4, max_iter=1000, change_tol=None):
    r"""Cyclic coordinate descent for the elastic net on Gram quantities.

    Each round is a sweep over every coordinate followed by sweeps over the non-zero ("active")
    coordinates only, until the largest change of a coordinate in such a sweep is at most
    ``change_tol`` times the largest coefficient; then the duality gap decides whether to stop. The
    active-set sweeps do not change the limit (every round still visits every coordinate, and only the
    gap stops the method): they skip the zeros, which the lasso keeps at zero.

    Parameters
    ----------
    Q : array of shape (n_features, n_features)
        :math:`X^\top X / n` (of centred data for a model with intercept); symmetric.
    c : array of shape (n_features,)
        :math:`X^\top y / n`.
    yy : float >= 0
        :math:`y^\top y / n` (scales the tolerance).
    alpha_l1, alpha_l2 : float >= 0
        :math:`\alpha\rho` and :math:`\alpha(1-\rho)`; not both 0.
    w0 : array of shape (n_features,), optional
        Warm start (zeros by default).
    tol : float >= 0, default 1e-4
        Stop when the duality gap is at most ``tol * yy``.
    max_iter : int, default 1000
        Maximum number of sweeps (full or active-set).
    change_tol : float >= 0, optional
        The inner tolerance: the active-set sweeps of a round stop when no coordinate changes by more
        than ``change_tol`` times :math:`\max_j |w_j|`. It only decides how often the duality gap is
        evaluated, not where the method stops. Default: ``tol``, as scikit-learn's solver.

    Returns
    -------
    w : array of shape (n_features,)
    gap : float
        The duality gap at ``w``.
    n_iter : int
        Number of sweeps.

    Raises
    ------
    ValueError
        For inconsistent shapes, non-finite entries, a non-symmetric ``Q``, negative penalties (or
        both 0), or a bad ``tol``, ``change_tol`` or ``max_iter``.

    Notes
    -----
    Derived in chapter 10, *Regularisation*: the update is the soft-thresholding
    :math:`w_j \leftarrow S(c_j - \sum_{k \ne j} Q_{jk} w_k,\ \alpha\rho) / (Q_{jj} + \alpha(1-\rho))`.
    """
    Q, c, yy = _check_gram(Q, c, yy)
    alpha_l1, alpha_l2 = _check_penalties(alpha_l1, alpha_l2)
    tol = check_scalar(tol, "tol", low=0)
    change_tol = tol if change_tol is None else check_scalar(change_tol, "change_tol", low=0)
    max_iter = _check_max_iter(max_iter)
    w0 = None if w0 is None else _check_coef(w0, "w0", c.shape[0])
    return _coordinate_descent(Q, c, yy, alpha_l1, alpha_l2, w0, tol, max_iter, change_tol)


def _coordinate_descent(Q, c, yy, alpha_l1, alpha_l2, w0, tol, max_iter, change_tol):
    """:func:`coordinate_descent` without the checks (the estimators and the paths have validated)."""
    d = c.shape[0]
    w = np.zeros(d) if w0 is None else np.array(w0, dtype=float)
    Qw = Q @ w
    diag = np.diag(Q) + alpha_l2
    every = np.flatnonzero(diag > 0).tolist()   # a zero column (constant feature after centring) keeps w_j = 0
    target = tol * yy
    gap = _gap(c, yy, w, Qw, alpha_l1, alpha_l2)
    n_iter = 0
    alpha_l1 = float(alpha_l1)
    # diag stays an array if it has a zero (a zero column without L2 that a warm start left non-zero): numpy's
    # 0/0 (nan, with its warning) as before, where Python floats would raise ZeroDivisionError
    sweep_args = (np.ascontiguousarray(Q.T), c.tolist(), w, Qw, np.diag(Q).tolist(),
                  diag.tolist() if diag.all() else diag, alpha_l1)
    while gap > target and n_iter < max_iter:
        _sweep(*sweep_args, every)
        n_iter += 1
        active = np.flatnonzero(w).tolist()
        while n_iter < max_iter and active:
            n_iter += 1
            if _sweep(*sweep_args, active) <= change_tol * np.abs(w).max():
                break
        gap = _gap(c, yy, w, Qw, alpha_l1, alpha_l2)
    return w, gap, n_iter


def _check_max_iter(max_iter):
    return check_scalar(max_iter, "max_iter", Integral, min_val=1)


def enet_path(X, y, *, l1_ratio=0.5, eps=1e-3, n_alphas=100, alphas=None, tol=1e-4, max_iter=1000):
    r"""Elastic-net coefficients along a decreasing grid of :math:`\alpha`, with warm starts.

    As scikit-learn's ``enet_path``: no intercept (centre ``X`` and ``y`` first for one), and the
    default grid is ``n_alphas`` values log-spaced from :math:`\alpha_{\max}` down to
    ``eps`` times it.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    l1_ratio : float in (0, 1], default 0.5
    eps : float > 0, default 1e-3
    n_alphas : int, default 100
    alphas : array of shape (n_alphas,), optional
        The grid (sorted into decreasing order).
    tol, max_iter
        As :func:`coordinate_descent`, per :math:`\alpha`.

    Returns
    -------
    alphas : array of shape (n_alphas,)
        Decreasing.
    coefs : array of shape (n_features, n_alphas)
    gaps : array of shape (n_alphas,)
    """
    X = as_float_matrix(X)
    y = as_float_vector(y, "y", X.shape[0])
    l1_ratio = check_scalar(l1_ratio, "l1_ratio", low=0, high=1, include_low=False)
    max_iter = _check_max_iter(max_iter)
    tol = check_scalar(tol, "tol", low=0)
    n = X.shape[0]
    if alphas is None:
        eps = check_scalar(eps, "eps", low=0, include_low=False)
        n_alphas = check_scalar(n_alphas, "n_alphas", Integral, min_val=1)
        a_max = alpha_max(X, y, l1_ratio=l1_ratio)
        alphas = np.geomspace(a_max, a_max * eps, n_alphas) if a_max > 0 else np.zeros(n_alphas)
    else:
        alphas = np.sort(as_float_vector(alphas, "alphas"))[::-1]
    if (alphas <= 0).any():
        raise ValueError("every alpha of the path must be > 0 (alpha_max is 0 when X^T y = 0: the path is w = 0)")
    Q, c, yy = X.T @ X / n, X.T @ y / n, y @ y / n
    coefs, gaps = np.empty((X.shape[1], len(alphas))), np.empty(len(alphas))
    w = np.zeros(X.shape[1])
    for k, alpha in enumerate(alphas):
        w, gaps[k], _ = _coordinate_descent(Q, c, yy, alpha * l1_ratio, alpha * (1 - l1_ratio), w, tol, max_iter,
                                            tol)
        coefs[:, k] = w
    return alphas, coefs, gaps


def lasso_qp(X, y, alpha, *, accelerated=True, tol=1e-10, max_iter=100_000):
    r"""The lasso as a bound-constrained QP in its positive and negative parts, by projected gradient.

    Writing :math:`w = a - b` with :math:`a = \max(w, 0)` and :math:`b = \max(-w, 0)` (so
    :math:`|w| = a + b`) turns the non-smooth lasso into a smooth problem over the orthant,

    .. math::
        \min_{a \ge 0,\ b \ge 0}\ \frac{1}{2n}\|y - X(a - b)\|^2 + \alpha\,\mathbf 1^\top (a + b),

    whose minimisers have :math:`a_j b_j = 0` for :math:`\alpha > 0` and give the lasso's minimiser
    :math:`w = a - b` (scikit-learn's scaling, no intercept: centre ``X`` and ``y`` first for one).
    Each step is a gradient step of size :math:`1/L`, :math:`L = 2\lambda_{\max}(X^\top X / n)` the
    Lipschitz constant of the gradient, followed by the projection :math:`\max(\cdot, 0)` onto the
    orthant (:func:`mlnotes.optim.projected_gradient_descent`); ``accelerated`` adds Nesterov's momentum
    (FISTA), which needs far fewer steps.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    alpha : float > 0
        The lasso's penalty (scikit-learn's ``alpha``).
    accelerated : bool, default True
        Use Nesterov's momentum (accelerated projected gradient) rather than plain projected gradient.
    tol : float >= 0, default 1e-10
        Stop when the duality gap of :math:`w = a - b` is at most ``tol`` times :math:`\|y\|^2 / n`,
        the stopping rule of :func:`coordinate_descent`.
    max_iter : int, default 100000
        Maximum number of projected-gradient steps; a ``ConvergenceWarning`` is issued if the gap is
        still larger.

    Returns
    -------
    a, b : arrays of shape (n_features,)
        The positive and negative parts, both >= 0; the lasso's coefficients are ``a - b``.
    gaps : array of shape (n_iter + 1,)
        The duality gap of ``a - b`` at the start (``a = b = 0``) and after every step.

    Notes
    -----
    Derived in chapter 10, *Regularisation*. The gradient is
    :math:`\nabla_a = X^\top (X(a - b) - y)/n + \alpha`, :math:`\nabla_b = -X^\top (X(a - b) - y)/n + \alpha`.
    """
    X = as_float_matrix(X)
    y = as_float_vector(y, "y", X.shape[0])
    alpha = check_scalar(alpha, "alpha", low=0, include_low=False)
    tol = check_scalar(tol, "tol", low=0)
    max_iter = _check_max_iter(max_iter)
    n, d = X.shape
    Q, c, yy = X.T @ X / n, X.T @ y / n, float(y @ y / n)
    L = 2 * float(np.linalg.eigvalsh(Q).max())
    a, b = np.zeros(d), np.zeros(d)
    gaps = [_gap(c, yy, a - b, np.zeros(d), alpha, 0.0)]
    if L == 0:                                     # X = 0: every w predicts 0, and w = 0 is optimal
        return a, b, np.array(gaps)

    def grad(z):                                   # (grad_a, grad_b), with g = X^T (X(a - b) - y) / n
        g = Q @ (z[:d] - z[d:]) - c
        return np.concatenate([g + alpha, alpha - g])

    def gap(z):
        w = z[:d] - z[d:]
        return _gap(c, yy, w, Q @ w, alpha, 0.0)

    result = projected_gradient_descent(grad, np.zeros(2 * d), lambda z: np.maximum(z, 0.0), step_size=1.0 / L,
                                        accelerated=accelerated, certificate=gap, tol=tol * yy, max_iter=max_iter,
                                        warn=False)
    a, b, gaps = result.x[:d], result.x[d:], list(result.grad_norms)
    if gaps[-1] > tol * yy:
        warnings.warn(f"projected gradient did not converge in max_iter = {max_iter} steps: duality gap "
                      f"{gaps[-1]:.3e} > tol * ||y||^2 / n = {tol * yy:.3e}; increase max_iter",
                      ConvergenceWarning, stacklevel=2)
    return a, b, np.array(gaps)


def lasso_path(X, y, *, eps=1e-3, n_alphas=100, alphas=None, tol=1e-4, max_iter=1000):
    """Lasso coefficients along a decreasing grid of alpha: :func:`enet_path` with ``l1_ratio=1``."""
    return enet_path(X, y, l1_ratio=1.0, eps=eps, n_alphas=n_alphas, alphas=alphas, tol=tol, max_iter=max_iter)


class ElasticNet(LinearPredictMixin, RegressorMixin, BaseEstimator):
    r"""Linear regression with combined L1 and L2 penalties, by cyclic coordinate descent.

    Minimises scikit-learn's objective

    .. math:: \frac{1}{2n}\|y - Xw - b\|^2 + \alpha\rho\|w\|_1 + \frac{\alpha(1-\rho)}{2}\|w\|^2

    (with sample weights :math:`t_i`, the first term is :math:`\frac{1}{2\sum_i t_i}\sum_i t_i (y_i - x_i^\top w - b)^2`).

    Parameters
    ----------
    alpha : float > 0, default 1
        Overall penalty strength.
    l1_ratio : float in [0, 1], default 0.5
        :math:`\rho`: 1 is the lasso, 0 is ridge (with ridge's ``alpha`` scaled by :math:`n`).
    fit_intercept : bool, default True
        Fit an unpenalised intercept :math:`b` (the data are centred first).
    tol : float >= 0, default 1e-4
        Stop when the duality gap is at most ``tol`` times :math:`\|y - \bar y\|^2 / n`.
    max_iter : int, default 1000
        Maximum number of sweeps; a ``ConvergenceWarning`` is issued if the gap is still larger.
    warm_start : bool, default False
        Start from the previous ``coef_`` when refitting.

    Attributes
    ----------
    coef_ : array of shape (n_features,)
    intercept_ : float
    dual_gap_ : float
        The duality gap at the solution (in units of the objective above).
    n_iter_ : int
        Number of sweeps.
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 10, *Regularisation*: the coordinate update is the soft-thresholding of the
    inner product of the feature with the partial residual (see :func:`coordinate_descent`), computed
    from :math:`Q = X^\top X/n` and :math:`c = X^\top y/n` (formed once per fit).
    """

    def __init__(self, alpha=1.0, *, l1_ratio=0.5, fit_intercept=True, tol=1e-4, max_iter=1000, warm_start=False):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.warm_start = warm_start

    def _check_params(self):
        alpha = check_scalar(self.alpha, "alpha", min_val=0)
        if alpha == 0:
            raise ValueError("alpha must be > 0; for alpha = 0 the model is least squares: use LinearRegression")
        l1_ratio = check_scalar(self.l1_ratio, "l1_ratio", low=0, high=1)
        return alpha, l1_ratio, check_scalar(self.tol, "tol", low=0), _check_max_iter(self.max_iter)

    def fit(self, X, y, sample_weight=None):
        """Fit the model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights of the squared residuals.

        Returns
        -------
        self : object
        """
        alpha, l1_ratio, tol, max_iter = self._check_params()
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64)
        check_square_sums(X)
        y = np.asarray(y, dtype=np.float64)
        t = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        if self.fit_intercept:
            X, y, x_bar, y_bar = _center(X, y, t)                  # new arrays: scaled in place below
        else:
            x_bar, y_bar = np.zeros(X.shape[1]), 0.0
            X, y = X.copy(), y.copy()
        # rows scaled by sqrt(t_i / sum(t)) (1/sqrt(n) unweighted): then Q = X^T X, c = X^T y, yy = y^T y
        row_scale = np.sqrt(np.full(X.shape[0], 1.0 / X.shape[0]) if t is None else t / t.sum())
        X *= row_scale[:, None]
        y *= row_scale
        Q, c, yy = X.T @ X, X.T @ y, float(y @ y)                # X.T @ X runs as one symmetric BLAS call
        previous = getattr(self, "coef_", None)
        w0 = previous if self.warm_start and np.shape(previous) == (X.shape[1],) else None
        w, self.dual_gap_, self.n_iter_ = _coordinate_descent(Q, c, yy, alpha * l1_ratio, alpha * (1 - l1_ratio),
                                                             w0, tol, max_iter, tol)
        if self.dual_gap_ > tol * yy:
            warnings.warn(f"coordinate descent did not converge in max_iter = {max_iter} sweeps: duality gap "
                          f"{self.dual_gap_:.3e} > tol * ||y||^2 / n = {tol * yy:.3e}; increase max_iter",
                          ConvergenceWarning, stacklevel=2)
        self.coef_ = w
        self.intercept_ = float(y_bar - x_bar @ w) if self.fit_intercept else 0.0
        return self


class Lasso(ElasticNet):
    r"""Linear regression with an L1 penalty: :math:`\frac{1}{2n}\|y - Xw - b\|^2 + \alpha\|w\|_1`.

    The :class:`ElasticNet` with ``l1_ratio=1``; see it for the parameters and attributes. Coordinates
    whose inner product with the partial residual (divided by :math:`n`) is at most :math:`\alpha` in
    absolute value are exactly 0, and for :math:`\alpha \ge \alpha_{\max}` (:func:`alpha_max`) all of
    them are.
    """

    def __init__(self, alpha=1.0, *, fit_intercept=True, tol=1e-4, max_iter=1000, warm_start=False):
        super().__init__(alpha, l1_ratio=1.0, fit_intercept=fit_intercept, tol=tol, max_iter=max_iter,
                         warm_start=warm_start)
