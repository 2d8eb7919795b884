r"""The linear SVM in the primal, trained by subgradient descent (chapter 14, reusing chapter 8's solver)."""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from ..linear import svm_primal_objective, svm_primal_subgradient
from ..linear._models import linear_scores
from ..linear._nonsmooth import _svm_primal_objective, _svm_primal_subgradient
from ..optim import inverse_time, subgradient_descent
from ..utils.validation import check_bool, check_classes, check_scalar


def linear_svm_objective(theta, X, y, C):
    r"""The soft-margin primal with an unpenalised intercept, :math:`\tfrac12\lVert w\rVert^2 + C\sum_i \max(0, 1 - y_i(w^\top x_i + b))`.

    Parameters
    ----------
    theta : array of shape (n_features + 1,)
        :math:`(w, b)`: the weights, then the intercept.
    X, y, C
        As in :func:`mlnotes.linear.svm_primal_objective` (``X`` without the column of ones; labels in
        {-1, +1}).

    Returns
    -------
    float

    Notes
    -----
    :func:`mlnotes.linear.svm_primal_objective` on :math:`[X, \mathbf 1]` penalises :math:`b` with the weights;
    subtracting :math:`b^2/2` removes that penalty. Chapter 14.
    """
    X1 = np.hstack([np.asarray(X, dtype=float), np.ones((len(X), 1))])
    svm_primal_objective(theta, X1, y, C)       # the checks
    return _unpenalised_intercept_objective(theta, X1, y, C)


def _unpenalised_intercept_objective(theta, X1, y, C):
    """:func:`linear_svm_objective` on checked arguments, ``X1 = [X, 1]``."""
    return _svm_primal_objective(theta, X1, y, C) - theta[-1] ** 2 / 2


def linear_svm_subgradient(theta, X, y, C):
    r"""A subgradient of :func:`linear_svm_objective`, shape (n_features + 1,).

    Notes
    -----
    .. math:: g = \Big(w - C\sum_{i \in S} y_i x_i,\ -C\sum_{i \in S} y_i\Big),\quad
        S = \{i : y_i(w^\top x_i + b) < 1\}.
    """
    X1 = np.hstack([np.asarray(X, dtype=float), np.ones((len(X), 1))])
    svm_primal_subgradient(theta, X1, y, C)     # the checks
    return _unpenalised_intercept_subgradient(theta, X1, y, C)


def _unpenalised_intercept_subgradient(theta, X1, y, C):
    """:func:`linear_svm_subgradient` on checked arguments, ``X1 = [X, 1]``."""
    g = _svm_primal_subgradient(theta, X1, y, C)
    g[-1] -= theta[-1]
    return g


class LinearSVM(ClassifierMixin, BaseEstimator):
    r"""Linear soft-margin SVM trained in the primal by subgradient descent (chapter 8's solver).

    Parameters
    ----------
    C : float > 0, default 1.0
        Weight of the hinge losses, as in :class:`mlnotes.svm.SVC` with a linear kernel.
    fit_intercept : bool, default True
        Learn an intercept :math:`b`, not penalised.
    max_iter : int >= 1, default 1000
        Subgradient steps.
    step_size : float or callable, optional
        A constant or a schedule ``t -> eta_t``; default :math:`\eta_t = 1/t` (Pegasos's step for the
        1-strongly convex :math:`\tfrac12\lVert w\rVert^2`).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) with two classes, else (n_classes, n_features)
        One-vs-rest with more classes, as scikit-learn's ``LinearSVC``.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    objective_ : ndarray of shape (1,) or (n_classes,)
        The primal objective at the returned (best) iterate of each problem.
    n_iter_ : int
    n_features_in_ : int

    Notes
    -----
    .. math:: \min_{w, b}\ \tfrac12\lVert w\rVert_2^2 + C\sum_i \max\big(0,\ 1 - y_i(w^\top x_i + b)\big),

    the hinge form of the soft-margin SVM (equal to the slack form, chapter 14). Subgradient descent returns the
    best iterate and converges slowly: on the tests' data (150 points, 3 features), 1000 steps leave a relative
    gap to the optimum that :class:`SVC` (``kernel="linear"``) reaches of 4e-6 at C = 1 and 2e-4 at C = 10
    (measured); the tests require 1e-4 for C <= 1 and 1e-3 for C = 10. The default step :math:`1/t` suits
    standardised features; on unscaled ones (e.g. raw breast cancer data, features up to 4e3) every iterate
    can be worse than the start, and the fit then warns (``ConvergenceWarning``) that it returns the zero
    model. Chapter 14.
    """

    def __init__(self, C=1.0, fit_intercept=True, max_iter=1000, step_size=None):
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.step_size = step_size

    def fit(self, X, y):
        """Fit on ``X`` of shape (n_samples, n_features) and labels ``y`` of shape (n_samples,)."""
        X, y, _ = check_classes(self, X, y, dtype=np.float64)
        C = check_scalar(self.C, "C", Real, min_val=0, include_boundaries="neither")
        max_iter = check_scalar(self.max_iter, "max_iter", Integral, min_val=1)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        step_size = inverse_time(1.0) if self.step_size is None else self.step_size
        k = len(self.classes_)
        targets = [self.classes_[1]] if k == 2 else list(self.classes_)
        d = X.shape[1]
        # checked once here; the steps call the unchecked cores
        Z = np.hstack([X, np.ones((len(X), 1))]) if fit_intercept else X
        objective, subgradient = ((_unpenalised_intercept_objective, _unpenalised_intercept_subgradient)
                                  if fit_intercept else (_svm_primal_objective, _svm_primal_subgradient))
        coef, intercepts, values = [], [], []
        for target in targets:
            y_pm = np.where(y == target, 1.0, -1.0)
            result = subgradient_descent(lambda theta: objective(theta, Z, y_pm, C),
                                         lambda theta: subgradient(theta, Z, y_pm, C),
                                         np.zeros(Z.shape[1]), step_size=step_size, max_iter=max_iter)
            if result.fun >= C * len(y_pm):
                # the objective at w = 0, b = 0 is C n: no step improved on the start, so the returned model is
                # the zero model (typically a first step 1/t far too long for unscaled features)
                warnings.warn(f"LinearSVM: no subgradient step improved on w = 0 (objective {result.fun:.6g} = C n) "
                              f"for class {target}, whose scores are therefore all 0. Standardise the features or "
                              f"pass a smaller step_size", ConvergenceWarning, stacklevel=2)
            coef.append(result.x[:d])
            intercepts.append(result.x[d] if fit_intercept else 0.0)
            values.append(result.fun)
        self.coef_ = np.array(coef)
        self.intercept_ = np.array(intercepts)
        self.objective_ = np.array(values)
        self.n_iter_ = max_iter
        return self

    def decision_function(self, X):
        r"""Scores :math:`w^\top x + b`: shape (n_samples,) with two classes (positive: ``classes_[1]``), else
        (n_samples, n_classes)."""
        scores = linear_scores(self, X)
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict(self, X):
        """The class of the largest score (two classes: the sign), shape (n_samples,)."""
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[scores.argmax(axis=1)]
