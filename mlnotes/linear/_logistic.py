r"""Logistic regression, binary and multinomial, by L-BFGS or Newton's method (chapter 12, *Linear classification*).

The objective is scikit-learn's, divided by :math:`C\,S` with :math:`S = \sum_i s_i` (the same minimiser):

.. math::
    F(W, b) = \frac{1}{S}\sum_{i=1}^n s_i\,\ell\big(y_i, W x_i + b\big) + \frac{1}{2CS}\|W\|_F^2 ,

with the cross-entropy :math:`\ell` of the sigmoid (two classes, one weight vector) or of the softmax
(:math:`K > 2` classes, one weight vector per class), and an unpenalised intercept. Its gradient is
:math:`\frac1S X^\top \operatorname{diag}(s)(P - Y) + W / (CS)` where :math:`P` holds the predicted
probabilities: the derivation of the chapter.
"""

import warnings

import numpy as np
from scipy.special import expit, log_softmax, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import LabelEncoder
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..losses import (binary_cross_entropy, binary_cross_entropy_grad, softmax_cross_entropy,
                      softmax_cross_entropy_grad)
from ..utils.validation import as_finite_array, as_float_matrix, check_sample_weight
from ._newton import check_solver_params, minimize_objective, warn_unless_converged


def _split(theta, n_features, n_outputs, fit_intercept):
    """Parameter vector -> (W of shape (K, d), b of shape (K,)); theta holds one row [w_k, b_k] per output."""
    M = theta.reshape(n_outputs, n_features + int(fit_intercept))
    return M[:, :n_features], (M[:, n_features] if fit_intercept else np.zeros(n_outputs))


def _penalty(C, S):
    """The coefficient 1/(CS) of the penalty ||W||^2 / 2 (0 for C = inf)."""
    return 0.0 if np.isinf(C) else 1.0 / (C * S)


def _check_glm_arguments(theta, X, Y, sample_weight, C, fit_intercept, *, n_outputs=None):
    """Validate the arguments of the objective and Hessian functions of the classification GLMs.

    Light checks (shapes, finite values, ranges), so that a wrong call fails with a clear message
    instead of a numpy broadcasting error or a silent NaN. ``n_outputs`` fixes the number of columns
    of ``Y`` (1 for the probit model). Returns the arguments as float arrays.
    """
    X = as_float_matrix(X)
    n, d = X.shape
    Y = as_finite_array(Y, "Y")
    if Y.ndim != 2 or Y.shape[0] != n or (n_outputs is not None and Y.shape[1] != n_outputs):
        cols = "K" if n_outputs is None else str(n_outputs)
        raise ValueError(f"Y must have shape (n_samples, {cols}) = ({n}, {cols}), got shape {Y.shape}")
    if ((Y < 0) | (Y > 1)).any():
        raise ValueError("Y must hold labels in [0, 1] (0/1 labels, or one-hot rows)")
    sample_weight = check_sample_weight(sample_weight, n)
    if isinstance(C, bool) or not isinstance(C, (int, float, np.number)) or np.isnan(C) or C <= 0:
        raise ValueError(f"C must be a positive number (np.inf for no penalty), got {C!r}")
    if not isinstance(fit_intercept, (bool, np.bool_)):
        raise TypeError(f"fit_intercept must be True or False, got {fit_intercept!r}")
    theta = as_finite_array(theta, "theta")
    size = Y.shape[1] * (d + int(fit_intercept))
    if theta.shape != (size,):
        raise ValueError(f"theta must have shape ({size},): one row [w_k{', b_k' if fit_intercept else ''}] of "
                         f"{d + int(fit_intercept)} entries for each of the {Y.shape[1]} output(s), got shape "
                         f"{theta.shape}")
    return theta, X, Y, sample_weight, float(C), bool(fit_intercept)


def logistic_objective(theta, X, Y, sample_weight, C, fit_intercept=True):
    r"""Value and gradient of the (binary or multinomial) logistic regression objective.

    Parameters
    ----------
    theta : array of shape (K * (n_features + fit_intercept),)
        One row :math:`[w_k, b_k]` per output, concatenated.
    X : array of shape (n_samples, n_features)
    Y : array of shape (n_samples, K)
        ``K = 1``: the 0/1 labels of the positive class (sigmoid model); ``K > 2``: one-hot labels
        (softmax model).
    sample_weight : array of shape (n_samples,)
    C : float > 0 or inf
        Inverse penalty strength (``inf``: no penalty).
    fit_intercept : bool

    Returns
    -------
    value : float
    gradient : array of the shape of ``theta``

    Raises
    ------
    ValueError
        If the shapes do not fit together, an entry is not finite, a label is outside [0, 1], a
        weight is negative (or all are 0), or ``C`` is not a positive number or ``inf``.
    """
    return _logistic_objective(*_check_glm_arguments(theta, X, Y, sample_weight, C, fit_intercept))


def _logistic_objective(theta, X, Y, sample_weight, C, fit_intercept=True):
    """:func:`logistic_objective` without the checks (called at every iteration of the solvers)."""
    n_features, K = X.shape[1], Y.shape[1]
    W, b = _split(theta, n_features, K, fit_intercept)
    Z = X @ W.T + b                                             # scores, (n, K)
    if K == 1:
        losses = binary_cross_entropy(Y[:, 0], Z[:, 0])
        R = binary_cross_entropy_grad(Y[:, 0], Z[:, 0])[:, None]   # dloss/dz = sigma(z) - y
    else:
        losses = softmax_cross_entropy(Y, Z)
        R = softmax_cross_entropy_grad(Y, Z)                        # softmax(Z) - Y
    S = sample_weight.sum()
    penalty = _penalty(C, S)
    value = sample_weight @ losses / S + 0.5 * penalty * np.sum(W * W)
    sR = R * (sample_weight / S)[:, None]
    grad_W = sR.T @ X + penalty * W
    grad = np.column_stack([grad_W, sR.sum(axis=0)]) if fit_intercept else grad_W
    return float(value), grad.ravel()


def logistic_hessian(theta, X, Y, sample_weight, C, fit_intercept=True):
    r"""Hessian of :func:`logistic_objective`, of shape (len(theta), len(theta)).

    With :math:`\tilde X = [X, 1]` (or :math:`X` without intercept) and :math:`P` the predicted
    probabilities, the block of outputs :math:`(k, l)` is
    :math:`\frac1S \tilde X^\top \operatorname{diag}(s_i p_{ik}(\delta_{kl} - p_{il})) \tilde X`, plus
    :math:`I/(CS)` on the weights. For the sigmoid model (one output) that is
    :math:`\frac1S \tilde X^\top \operatorname{diag}(s_i p_i(1-p_i)) \tilde X + I/(CS)`: positive definite
    for finite C, so the objective is strictly convex. The arguments are those of
    :func:`logistic_objective`, checked the same way.
    """
    return _logistic_hessian(*_check_glm_arguments(theta, X, Y, sample_weight, C, fit_intercept))


def _logistic_hessian(theta, X, Y, sample_weight, C, fit_intercept=True):
    """:func:`logistic_hessian` without the checks."""
    n_features, K = X.shape[1], Y.shape[1]
    W, b = _split(theta, n_features, K, fit_intercept)
    Xt = np.column_stack([X, np.ones(X.shape[0])]) if fit_intercept else X
    S = sample_weight.sum()
    s = sample_weight / S
    Z = X @ W.T + b
    if K == 1:
        p = expit(Z[:, 0])
        A = Xt * np.sqrt(s * p * (1 - p))[:, None]
        H = A.T @ A                                             # a symmetric rank-n update (BLAS syrk)
    else:
        P = softmax(Z, axis=1)
        H = np.block([[Xt.T @ (Xt * (s * P[:, k] * ((k == m) - P[:, m]))[:, None]) for m in range(K)]
                      for k in range(K)])
    weights = np.tile(np.arange(Xt.shape[1]) < n_features, K)   # the weight entries (not intercepts) of theta
    H[weights, weights] += _penalty(C, S)
    return H


def _separates(Z, codes, sample_weight):
    """True if the scores ``Z`` (n, K outputs) classify every sample of positive weight strictly correctly.

    Then the data are linearly separable, and without penalty the likelihood has no maximiser: scaling
    the weights up makes every sample's loss smaller.
    """
    keep = sample_weight > 0
    Z, codes = Z[keep], codes[keep]
    if Z.shape[1] == 1:                                   # sigmoid/probit model: the sign of the score
        return bool(np.all((2 * codes - 1) * Z[:, 0] > 0))
    rows = np.arange(len(codes))
    others = Z.copy()
    others[rows, codes] = -np.inf
    return bool(np.all(Z[rows, codes] > others.max(axis=1)))


class LogisticRegression(ClassifierMixin, BaseEstimator):
    r"""Logistic regression with an L2 penalty: binary (sigmoid) or multinomial (softmax).

    Minimises scikit-learn's objective :math:`C\sum_i s_i\,\ell_i + \tfrac12\|W\|^2` (the intercept is
    not penalised), so ``C`` means what it means in scikit-learn and the solutions agree.

    Parameters
    ----------
    C : float > 0, default 1
        Inverse regularisation strength; ``np.inf`` fits without penalty. On linearly separable data the
        unpenalised likelihood has no maximiser: the fit then warns (``ConvergenceWarning``).
    fit_intercept : bool, default True
    solver : {"lbfgs", "newton"}, default "lbfgs"
        ``"lbfgs"``: scipy's L-BFGS-B on :func:`logistic_objective`; ``"newton"``: Newton's method (IRLS
        for two classes) with the exact :func:`logistic_hessian` and a backtracking line search.
    tol : float > 0, default 1e-4
        ``"lbfgs"``: stop when the largest gradient entry is at most ``tol``; ``"newton"``: stop after a
        full Newton step that changes no parameter by more than ``tol`` and whose half squared Newton
        decrement (the predicted decrease of the objective) is at most ``tol``.
    max_iter : int, default 100

    Attributes
    ----------
    classes_ : array of shape (n_classes,)
    coef_ : array of shape (1, n_features) for two classes, else (n_classes, n_features)
    intercept_ : array of shape (1,) or (n_classes,)
        For the softmax model the intercepts are defined up to a common constant; they are returned
        with sum 0, as scikit-learn's solver produces them.
    n_iter_ : array of shape (1,)
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 12, *Linear classification*: the gradient :math:`X^\top(p - y)` of the negative
    log-likelihood, its Hessian :math:`X^\top \operatorname{diag}(p(1-p)) X`, convexity and Newton/IRLS.
    """

    # the model's pieces, replaced by subclasses with another link (ProbitRegression, chapter 12):
    # the objective and its Hessian, the inverse link F with p(y = 1 | x) = F(z) and log F (stable)
    _objective = staticmethod(_logistic_objective)
    _hessian = staticmethod(_logistic_hessian)
    _inverse_link = staticmethod(expit)
    _log_inverse_link = staticmethod(lambda z: -np.logaddexp(0, -z))
    _multiclass = True          # K > 2 classes: the softmax model

    def __init__(self, C=1.0, *, fit_intercept=True, solver="lbfgs", tol=1e-4, max_iter=100):
        self.C = C
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

    def _check_params(self):
        if isinstance(self.C, bool) or not isinstance(self.C, (int, float, np.number)) or np.isnan(self.C) \
                or self.C <= 0:
            raise ValueError(f"C must be a positive number (np.inf for no penalty), got {self.C!r}")
        return check_solver_params(self.solver, self.tol, self.max_iter)

    def fit(self, X, y, sample_weight=None):
        """Fit the model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (any hashable values; at least two distinct classes).
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        self : object
        """
        tol = self._check_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        encoder = LabelEncoder().fit(y)
        self.classes_ = encoder.classes_
        K = len(self.classes_)
        if K < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes in the data, but the "
                             f"data contain only one class: {self.classes_[0]!r}")
        if K > 2 and not self._multiclass:
            raise ValueError(f"Only binary classification is supported by {type(self).__name__}: got {K} classes "
                             f"{self.classes_[:5]}; use OneVsRestClassifier({type(self).__name__}()) for more")
        s = np.ones(X.shape[0]) if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        codes = encoder.transform(y)
        if len(np.unique(codes[s > 0])) < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes with positive sample_weight; "
                             f"all the weight is on class {self.classes_[codes[s > 0][0]]!r}")
        Y = (codes == 1).astype(float)[:, None] if K == 2 else np.eye(K)[codes]
        n_out = Y.shape[1]
        args = (X, Y, s, float(self.C), self.fit_intercept)
        theta0 = np.zeros(n_out * (X.shape[1] + int(self.fit_intercept)))
        # the softmax intercepts are defined up to a constant: Newton pins the last one (theta's last entry)
        pinned = [theta0.size - 1] if (self.fit_intercept and n_out > 1) else []
        theta, n_iter, converged, status = minimize_objective(self._objective, self._hessian, theta0, args,
                                                              solver=self.solver, tol=tol, max_iter=self.max_iter,
                                                              pinned=pinned)
        W, b = _split(theta, X.shape[1], n_out, self.fit_intercept)
        if n_out > 1 and self.fit_intercept:
            b = b - b.mean()
        self.coef_, self.intercept_ = W.copy(), b.copy()
        self.n_iter_ = np.array([n_iter])
        if np.isinf(self.C) and _separates(X @ W.T + b, codes, s):
            warnings.warn(f"{type(self).__name__}(C=inf): the fitted weights classify every training sample "
                          "correctly, so the classes are linearly separable and the maximum-likelihood estimate "
                          "does not exist (the likelihood keeps growing as the weights grow along a separating "
                          "direction); the coefficients returned are an arbitrary point on the way to infinity. "
                          "Use a finite C.", ConvergenceWarning, stacklevel=2)
        else:
            warn_unless_converged(self.solver, converged, status, n_iter, self.max_iter)
        return self

    def decision_function(self, X):
        """Scores :math:`Xw + b`: shape (n_samples,) for two classes (positive: ``classes_[1]``), else
        (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        Z = X @ self.coef_.T + self.intercept_
        return Z[:, 0] if Z.shape[1] == 1 else Z

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes), columns in the order of ``classes_``."""
        Z = self.decision_function(X)
        if Z.ndim == 1:
            p = self._inverse_link(Z)
            return np.column_stack([1 - p, p])
        return softmax(Z, axis=1)

    def predict_log_proba(self, X):
        """Logarithms of :meth:`predict_proba`, computed stably from the scores."""
        Z = self.decision_function(X)
        if Z.ndim == 1:
            return np.column_stack([self._log_inverse_link(-Z), self._log_inverse_link(Z)])
        return log_softmax(Z, axis=1)

    def predict(self, X):
        """The most probable class of each sample, shape (n_samples,)."""
        Z = self.decision_function(X)
        idx = (Z > 0).astype(int) if Z.ndim == 1 else Z.argmax(axis=1)
        return self.classes_[idx]
