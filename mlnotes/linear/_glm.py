r"""Generalised linear models for classification: the link in, the fit out (chapter 12, *Linear classification*).

A model of this family is fixed by its :class:`Link`: the inverse link :math:`F` with
:math:`p(y = 1 \mid x) = F(w^\top x + b)`, and the penalised negative log-likelihood it implies (with its
gradient and Hessian). :class:`GLMClassifier` turns a link into a scikit-learn classifier whose
:meth:`~GLMClassifier.fit` is the whole algorithm in one place: validate, encode the labels, minimise the
objective with :func:`mlnotes.optim.minimize` (L-BFGS, or the damped Newton method of chapter 6), store
the coefficients, and say whether it converged. :class:`~mlnotes.linear.LogisticRegression` (logit link,
and the softmax for more classes) and :class:`~mlnotes.linear.ProbitRegression` (probit link) are two
links; :class:`~mlnotes.linear.PoissonRegression` is the regression GLM with the log link and uses the
same :func:`fit_glm`.
"""

import warnings
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Callable

import numpy as np
from scipy.special import log_softmax, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from ..optim import column_scale, minimize
from ._models import linear_scores
from ..utils.validation import (check_bool, check_classes, check_option, check_sample_weight, check_scalar,
                                check_square_sums)

SOLVERS = ("lbfgs", "newton")


@dataclass(frozen=True)
class Link:
    r"""A binary GLM: its inverse link and the objective it implies.

    Attributes
    ----------
    name : str
    inverse : callable
        :math:`F(z) = p(y = 1 \mid x)` for scores ``z``.
    log_inverse : callable
        :math:`\log F(z)`, computed stably.
    objective : callable
        ``objective(w, X, Y, sample_weight, C, fit_intercept) -> (value, grad)``, the library's contract.
    hessian : callable
        ``hessian(w, X, Y, sample_weight, C, fit_intercept) -> array (p, p)``.
    multiclass : bool
        Whether the model has a multiclass form (the softmax for the logit link).
    """

    name: str
    inverse: Callable
    log_inverse: Callable
    objective: Callable
    hessian: Callable
    multiclass: bool = False


def check_solver_params(solver, tol, max_iter):
    """The solver options shared by the GLM estimators; returns ``(solver, tol, max_iter)``."""
    return (check_option(solver, "solver", SOLVERS),
            check_scalar(tol, "tol", min_val=0, include_boundaries="neither"),
            check_scalar(max_iter, "max_iter", Integral, min_val=1))


def fit_glm(estimator, objective, hessian, w0, args, X, sample_weight, *, n_outputs=1, fixed=()):
    """Minimise a GLM objective with the estimator's ``solver``, ``tol`` and ``max_iter``.

    L-BFGS runs on the weights rescaled by the size of the features (:func:`mlnotes.optim.column_scale`),
    so it converges whatever their units; the stopping rule (gradient norm at most ``tol``) is checked
    on the result. Returns the :class:`mlnotes.optim.OptimizeResult`; the caller warns.
    """
    solver, tol, max_iter = check_solver_params(estimator.solver, estimator.tol, estimator.max_iter)
    check_square_sums(X)
    return minimize(objective, w0, args, method=solver, hess=hessian, tol=tol, max_iter=max_iter,
                    scale=column_scale(X, estimator.fit_intercept, n_outputs, sample_weight), fixed=fixed, warn=False)


def warn_unless_converged(result, solver):
    """The estimators' ``ConvergenceWarning`` (pointing at the caller of ``fit``) when a fit did not converge."""
    if not result.converged:
        warnings.warn(f"{solver} did not converge: {result.message}; increase max_iter, or check the data",
                      ConvergenceWarning, stacklevel=3)


def _separates(Z, codes, sample_weight):
    """True if the scores ``Z`` (n, K outputs) classify every sample of positive weight strictly correctly.

    Then the data are linearly separable, and without penalty the likelihood has no maximiser: scaling
    the weights up makes every sample's loss smaller.
    """
    keep = sample_weight > 0
    Z, codes = Z[keep], codes[keep]
    if Z.shape[1] == 1:                                   # one output: the sign of the score
        return bool(np.all((2 * codes - 1) * Z[:, 0] > 0))
    rows = np.arange(len(codes))
    others = Z.copy()
    others[rows, codes] = -np.inf
    return bool(np.all(Z[rows, codes] > others.max(axis=1)))


def split_params(w, n_features, n_outputs, fit_intercept):
    """Parameter vector -> (W of shape (K, d), b of shape (K,)); ``w`` holds one row [w_k, b_k] per output."""
    M = w.reshape(n_outputs, n_features + int(fit_intercept))
    return M[:, :n_features], (M[:, n_features] if fit_intercept else np.zeros(n_outputs))


class GLMClassifier(ClassifierMixin, BaseEstimator):
    r"""A linear classifier fitted by penalised maximum likelihood under a :class:`Link`.

    Subclasses set ``link``; everything else is here. The objective is scikit-learn's
    :math:`C\sum_i s_i\,\ell_i + \tfrac12\|W\|^2` divided by :math:`CS` (the intercept is not penalised).

    Parameters
    ----------
    C : float > 0 or inf, default 1
        Inverse regularisation strength; ``np.inf`` fits without penalty.
    fit_intercept : bool, default True
    solver : {"lbfgs", "newton"}, default "lbfgs"
        ``"lbfgs"``: scipy's L-BFGS-B on rescaled weights; ``"newton"``: :func:`mlnotes.optim.newton` with
        the exact Hessian and the Armijo line search (IRLS for two classes).
    tol : float > 0, default 1e-4
        Converged when the Euclidean norm of the objective's gradient is at most ``tol``.
    max_iter : int, default 100
    """

    link: Link

    def __init__(self, C=1.0, *, fit_intercept=True, solver="lbfgs", tol=1e-4, max_iter=100):
        self.C = C
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

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
        name = type(self).__name__
        C = check_scalar(self.C, "C", Real, min_val=0, include_boundaries="neither", allow_inf=True)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        check_solver_params(self.solver, self.tol, self.max_iter)
        X, y, codes = check_classes(self, X, y, binary=not self.link.multiclass, dtype=np.float64)
        K = len(self.classes_)
        s = check_sample_weight(sample_weight, X.shape[0])
        if len(np.unique(codes[s > 0])) < 2:
            raise ValueError(f"{name} needs samples of at least 2 classes with positive sample_weight; all the "
                             f"weight is on class {self.classes_[codes[s > 0][0]]!r}")
        # one output (the positive class's 0/1 label) for two classes, else one-hot rows (the softmax model)
        Y = (codes == 1).astype(float)[:, None] if K == 2 else np.eye(K)[codes]
        n_out = Y.shape[1]
        w0 = np.zeros(n_out * (X.shape[1] + int(fit_intercept)))
        # the softmax intercepts are defined up to a constant: Newton holds the last one at 0
        fixed = [w0.size - 1] if (fit_intercept and n_out > 1) else []
        result = fit_glm(self, self.link.objective, self.link.hessian, w0, (X, Y, s, C, fit_intercept), X, s,
                         n_outputs=n_out, fixed=fixed)
        W, b = split_params(result.x, X.shape[1], n_out, fit_intercept)
        if n_out > 1 and fit_intercept:
            b = b - b.mean()
        self.coef_, self.intercept_ = W.copy(), b.copy()
        self.n_iter_ = np.array([result.n_iter])
        if np.isinf(C) and _separates(X @ W.T + b, codes, s):
            warnings.warn(f"{name}(C=inf): the fitted weights classify every training sample correctly, so the "
                          "classes are linearly separable and the maximum-likelihood estimate does not exist (the "
                          "likelihood keeps growing as the weights grow along a separating direction); the "
                          "coefficients returned are an arbitrary point on the way to infinity. Use a finite C.",
                          ConvergenceWarning, stacklevel=2)
        else:
            warn_unless_converged(result, self.solver)
        return self

    def decision_function(self, X):
        """Scores :math:`Xw + b`: shape (n_samples,) for two classes (positive: ``classes_[1]``), else
        (n_samples, n_classes)."""
        Z = linear_scores(self, X)
        return Z[:, 0] if Z.shape[1] == 1 else Z

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes), columns in the order of ``classes_``."""
        Z = self.decision_function(X)
        if Z.ndim == 1:
            p = self.link.inverse(Z)
            return np.column_stack([1 - p, p])
        return softmax(Z, axis=1)

    def predict_log_proba(self, X):
        """Logarithms of :meth:`predict_proba`, computed stably from the scores."""
        Z = self.decision_function(X)
        if Z.ndim == 1:
            return np.column_stack([self.link.log_inverse(-Z), self.link.log_inverse(Z)])
        return log_softmax(Z, axis=1)

    def predict(self, X):
        """The most probable class of each sample, shape (n_samples,)."""
        Z = self.decision_function(X)
        idx = (Z > 0).astype(int) if Z.ndim == 1 else Z.argmax(axis=1)
        return self.classes_[idx]
