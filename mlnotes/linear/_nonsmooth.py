r"""The non-smooth objectives of two linear models and their subgradients (chapter 8, *Subgradient methods*).

They follow the library's objective contract (:mod:`mlnotes.optim`): ``objective(w, X, y, penalty)``, the
penalty named as scikit-learn names it for that model.

- the lasso objective :math:`\frac{1}{2n}\|y - Xw\|_2^2 + \alpha\|w\|_1` (scikit-learn's ``Lasso``) and a
  subgradient of it, the one of smallest norm, so that its norm measures the distance of 0 from the
  subdifferential (zero exactly at a minimiser);
- the primal objective of the linear support vector machine,
  :math:`\frac12\|w\|_2^2 + C\sum_i \max(0, 1 - y_i w^\top x_i)` (scikit-learn's ``LinearSVC`` with the
  hinge loss), and a subgradient of it. The notes' form :math:`\frac{\lambda}{2}\|w\|^2 + \frac1n\sum_i
  \max(0, 1 - y_i w^\top x_i)` is this objective times :math:`\lambda` at :math:`C = 1/(n\lambda)`.

The solvers that minimise them (:func:`mlnotes.optim.subgradient_descent`, with
:func:`mlnotes.optim.polyak_step`) live in :mod:`mlnotes.optim`.
"""

import numpy as np

from ..losses import hinge, hinge_grad, margin
from ..utils.validation import check_linear_problem, check_scalar


def _check_lasso(w, X, y, alpha):
    """The arguments of the lasso functions, checked: float arrays of matching shapes and ``alpha >= 0``."""
    X, y, w = check_linear_problem(X, y, w)
    return w, X, y, check_scalar(alpha, "alpha", min_val=0)


def _check_svm(w, X, y, C):
    """The arguments of the SVM functions, checked: float arrays of matching shapes, labels in {-1, +1},
    finite scores and ``C > 0``."""
    X, y, w = check_linear_problem(X, y, w)
    C = check_scalar(C, "C", min_val=0, include_boundaries="neither")
    margin(y, X @ w)                            # checks the labels (+-1) and that the scores are finite
    return w, X, y, C


def lasso_objective(w, X, y, alpha):
    r"""The lasso objective :math:`f(w) = \frac{1}{2n}\|y - Xw\|_2^2 + \alpha\|w\|_1`.

    Parameters
    ----------
    w : array of shape (n_features,)
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    alpha : float >= 0
        Weight of the L1 penalty (scikit-learn's ``Lasso(alpha=...)``, same scaling).

    Returns
    -------
    float
    """
    w, X, y, alpha = _check_lasso(w, X, y, alpha)
    r = y - X @ w
    return float(r @ r / (2 * X.shape[0]) + alpha * np.abs(w).sum())


def lasso_subgradient(w, X, y, alpha):
    r"""The subgradient of smallest norm of the lasso objective at ``w``.

    Parameters
    ----------
    w : array of shape (n_features,)
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
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
    w, X, y, alpha = _check_lasso(w, X, y, alpha)
    c = X.T @ (X @ w - y) / X.shape[0]
    return np.where(w != 0, c + alpha * np.sign(w), c - np.clip(c, -alpha, alpha))


def svm_primal_objective(w, X, y, C):
    r"""The primal objective of the linear SVM, :math:`f(w) = \frac12\|w\|_2^2 + C\sum_i \max(0, 1 - y_i w^\top x_i)`.

    Parameters
    ----------
    w : array of shape (n_features,)
    X : array of shape (n_samples, n_features)
        Append a column of ones for an intercept (it is then penalised like the other weights).
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    C : float > 0
        Weight of the hinge losses, scikit-learn's ``LinearSVC(C=...)``; the notes' :math:`\lambda` is
        :math:`1/(nC)` (their objective is this one times :math:`\lambda`).

    Returns
    -------
    float
    """
    w, X, y, C = _check_svm(w, X, y, C)
    return _svm_primal_objective(w, X, y, C)


def _svm_primal_objective(w, X, y, C):
    """:func:`svm_primal_objective` on checked arguments (called at every step of the solvers)."""
    return float((w @ w) / 2 + C * hinge(y * (X @ w)).sum())


def svm_primal_subgradient(w, X, y, C):
    r"""A subgradient of the linear SVM's primal objective (see :func:`svm_primal_objective`).

    Parameters
    ----------
    w : array of shape (n_features,)
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    C : float > 0

    Returns
    -------
    g : array of shape (n_features,)

    Notes
    -----
    By the chain rule for an affine argument (derived in chapter 8, *Subgradient methods*),

    .. math:: g = w - C \sum_{i:\ y_i w^\top x_i < 1} y_i x_i \in \partial f(w);

    a sample exactly on the margin, :math:`y_i w^\top x_i = 1`, contributes 0 (any multiple
    :math:`-s\,y_i x_i` with :math:`s \in [0, 1]` would do), as in :func:`mlnotes.losses.hinge_grad`.
    """
    w, X, y, C = _check_svm(w, X, y, C)
    return _svm_primal_subgradient(w, X, y, C)


def _svm_primal_subgradient(w, X, y, C):
    """:func:`svm_primal_subgradient` on checked arguments (called at every step of the solvers)."""
    return w + C * (X.T @ (hinge_grad(y * (X @ w)) * y))
