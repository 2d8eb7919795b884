r"""The multiclass SVM of Crammer and Singer by subgradient descent (chapter 12, *Linear classification*).

A linear compatibility score :math:`h(x, y) = \langle w, \psi(x, y)\rangle` with the *multivector*
feature map :math:`\psi(x, y) = e_y \otimes x` (the input copied into the block of class :math:`y`), so
that :math:`h(x, y) = w_y^\top x` with one weight vector :math:`w_y` per class. The margin of sample
:math:`i` against class :math:`y` is :math:`m_{i,y}(w) = h(x_i, y_i) - h(x_i, y)`, and the objective is
scikit-learn's ``LinearSVC(multi_class="crammer_singer")`` objective

.. math::
    F(w) = \tfrac12\|w\|^2 + C \sum_{i=1}^n \max_{y \ne y_i} \max\big(0,\ 1 - m_{i,y}(w)\big),

which is the notes' :math:`\tfrac12\|w\|^2 + \frac{C'}{n}\sum_i \dots` with :math:`C = C'/n`. It is
1-strongly convex but not differentiable; it is minimised by subgradient descent with the step
:math:`\eta_t = 1/t`.
"""

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from ..optim import inverse_time, subgradient_descent
from ..utils.validation import as_float_matrix, as_float_vector, check_bool, check_sample_weight, check_scalar
from ._multiclass import _validate_classes


def multivector_feature(X, y, n_classes):
    r"""The multivector feature map :math:`\psi(x, y) = e_y \otimes x`, one row per sample.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of int of shape (n_samples,)
        Class indices in ``0, ..., n_classes - 1``.
    n_classes : int

    Returns
    -------
    Psi : array of shape (n_samples, n_classes * n_features)
        Row ``i`` is zero except for the block ``y_i``, which holds ``x_i``; so
        ``Psi @ W.ravel() = (X @ W.T)[i, y_i]`` for ``W`` of shape (n_classes, n_features).
    """
    X = as_float_matrix(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"y must be an integer array of shape ({X.shape[0]},), got {y.dtype} of shape {y.shape}")
    n_classes = check_scalar(n_classes, "n_classes", Integral, min_val=1)
    if y.size and (y.min() < 0 or y.max() >= n_classes):
        raise ValueError(f"class indices must lie in [0, {n_classes}), got values in [{y.min()}, {y.max()}]")
    n, d = X.shape
    Psi = np.zeros((n, n_classes, d))
    Psi[np.arange(n), y] = X
    return Psi.reshape(n, n_classes * d)


def _check_problem(w, X, y, C):
    X = as_float_matrix(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or not np.issubdtype(y.dtype, np.integer) or (y.size and y.min() < 0):
        raise ValueError(f"y must hold non-negative class indices, shape ({X.shape[0]},), got {y.dtype} {y.shape}")
    w = as_float_vector(w, "w")
    if w.size % X.shape[1] or w.size // X.shape[1] <= y.max():
        raise ValueError(f"w must have n_classes * n_features entries with n_features = {X.shape[1]} and "
                         f"n_classes > {y.max()}, got {w.size} entries")
    return w.reshape(-1, X.shape[1]), X, y, check_scalar(C, "C", min_val=0, include_boundaries="neither")


def _most_violating(W, X, y):
    """Scores S (n, K), the most violating wrong class of each sample and its loss max(0, 1 - m)."""
    S = X @ W.T
    rows = np.arange(X.shape[0])
    augmented = S + 1.0                       # 1 + h(x_i, y) - h(x_i, y_i) + h(x_i, y_i), for y != y_i
    augmented[rows, y] = -np.inf
    y_hat = augmented.argmax(axis=1)
    loss = np.maximum(0.0, augmented[rows, y_hat] - S[rows, y])
    return y_hat, loss


def multiclass_hinge_objective(w, X, y, C):
    r"""The Crammer-Singer objective :math:`\tfrac12\|w\|^2 + C\sum_i \max_{y \ne y_i}(1 - m_{i,y}(w))_+`.

    Parameters
    ----------
    w : array of shape (n_classes * n_features,)
        The rows :math:`w_1, \dots, w_K` of the weight matrix, concatenated.
    X : array of shape (n_samples, n_features)
    y : array of int of shape (n_samples,)
        Class indices.
    C : float > 0

    Returns
    -------
    float
    """
    return _hinge_objective(*_check_problem(w, X, y, C))


def _hinge_objective(W, X, y, C):
    """:func:`multiclass_hinge_objective` on checked arguments, with the weights as a matrix (K, d); ``C`` a
    number or one weight per sample (``C * sample_weight``)."""
    _, loss = _most_violating(W, X, y)
    return float(0.5 * np.sum(W * W) + np.sum(C * loss))


def multiclass_hinge_subgradient(w, X, y, C):
    r"""A subgradient of :func:`multiclass_hinge_objective`.

    For each sample with a positive loss, the most violating class :math:`\hat y_i = \arg\max_{y \ne y_i}
    h(x_i, y)` contributes :math:`\psi(x_i, \hat y_i) - \psi(x_i, y_i)`; the others contribute 0:

    .. math:: g = w + C \sum_{i:\ 1 - m_{i,\hat y_i} > 0} \big(\psi(x_i, \hat y_i) - \psi(x_i, y_i)\big).

    Returns
    -------
    array of shape (n_classes * n_features,)
    """
    return _hinge_subgradient(*_check_problem(w, X, y, C))


def _hinge_subgradient(W, X, y, C):
    """:func:`multiclass_hinge_subgradient` on checked arguments, with the weights as a matrix (K, d)."""
    y_hat, loss = _most_violating(W, X, y)
    active = loss > 0
    CX = np.broadcast_to(C, loss.shape)[active][:, None] * X[active]
    G = np.zeros_like(W)
    np.add.at(G, y_hat[active], CX)
    np.add.at(G, y[active], -CX)
    return (W + G).ravel()


class MulticlassSVM(ClassifierMixin, BaseEstimator):
    r"""Multiclass linear SVM (Crammer-Singer) trained by subgradient descent.

    Predicts :math:`\arg\max_y \langle w, \psi(x, y)\rangle = \arg\max_y w_y^\top x + b_y`.

    Parameters
    ----------
    C : float > 0, default 1
        Weight of the summed hinge losses, as scikit-learn's ``LinearSVC(multi_class="crammer_singer")``
        (the notes' :math:`C/n`, with the mean loss, is ``C / n_samples`` here).
    fit_intercept : bool, default True
        Append a constant feature 1 to every input; its weights are the intercepts :math:`b_y`. As in
        ``LinearSVC`` (with ``intercept_scaling=1``), they are penalised like the other weights.
    max_iter : int, default 1000
        Number of subgradient steps :math:`w \leftarrow w - g / t`.

    Attributes
    ----------
    classes_ : array of shape (n_classes,)
    coef_ : array of shape (n_classes, n_features)
    intercept_ : array of shape (n_classes,)
    objective_ : float
        The objective at the returned (best) iterate.
    n_iter_ : int
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 12, *Linear classification*: the multivector construction, the margin and the
    subgradient. The objective is 1-strongly convex, so subgradient descent with :math:`\eta_t = 1/t`
    converges (its best value to within :math:`O(G^2 \log t / t)` of the minimum).
    """

    def __init__(self, C=1.0, *, fit_intercept=True, max_iter=1000):
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter

    def fit(self, X, y, sample_weight=None):
        """Fit the weights by subgradient descent.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            At least two classes (any labels).
        sample_weight : array-like of shape (n_samples,), optional
            Sample ``i``'s hinge loss is weighted by ``C * sample_weight[i]`` (as in ``LinearSVC``).

        Returns
        -------
        self : object
        """
        C = check_scalar(self.C, "C", min_val=0, include_boundaries="neither")
        check_scalar(self.max_iter, "max_iter", Integral, min_val=1)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        X, y = _validate_classes(self, X, y, dtype=np.float64)
        C = C * check_sample_weight(sample_weight, X.shape[0])
        codes = np.searchsorted(self.classes_, y)
        K = len(self.classes_)
        Xt = np.column_stack([X, np.ones(X.shape[0])]) if fit_intercept else X
        shape = (K, Xt.shape[1])                  # checked once here; the loop calls the unchecked cores
        result = subgradient_descent(lambda w: _hinge_objective(w.reshape(shape), Xt, codes, C),
                                     lambda w: _hinge_subgradient(w.reshape(shape), Xt, codes, C),
                                     np.zeros(K * Xt.shape[1]), step_size=inverse_time(1.0),
                                     max_iter=self.max_iter)
        W = result.x.reshape(K, Xt.shape[1])
        self.coef_ = W[:, : X.shape[1]].copy()
        self.intercept_ = W[:, -1].copy() if fit_intercept else np.zeros(K)
        self.objective_ = result.fun
        self.n_iter_ = result.n_iter
        if not result.fun < result.values[0]:
            # at w = 0 every loss is 1; no iterate did better: the steps 1/t overshot for the scale of the data
            warnings.warn(f"MulticlassSVM: subgradient descent made no progress from w = 0 in {result.n_iter} steps "
                          f"(objective {result.fun:.6g}): the steps 1/t are far too long for features of this "
                          "scale; standardise the features (or lower C)", ConvergenceWarning, stacklevel=2)
        return self

    def _compatibility(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_.T + self.intercept_

    def decision_function(self, X):
        """Compatibility scores :math:`w_y^\\top x + b_y`, shape (n_samples, n_classes); for two classes, as
        scikit-learn, the difference of the two scores, shape (n_samples,) (positive: ``classes_[1]``)."""
        S = self._compatibility(X)
        return S[:, 1] - S[:, 0] if S.shape[1] == 2 else S

    def predict(self, X):
        """The class of the largest score, shape (n_samples,)."""
        S = self._compatibility(X)
        return self.classes_[S.argmax(axis=1)]
