r"""Poisson regression: a generalised linear model with the log link (chapter 12, *Linear classification*, GLMs).

Counts :math:`y_i \in \{0, 1, 2, \dots\}` are modelled as :math:`y_i \sim \mathrm{Poisson}(\mu_i)` with
:math:`\log \mu_i = x_i^\top w + b`. The objective is scikit-learn's ``PoissonRegressor`` objective, the mean
half deviance plus an L2 penalty, which up to a constant is

.. math:: F(w, b) = \frac1S \sum_i s_i \big(e^{z_i} - y_i z_i\big) + \frac{\alpha}{2}\|w\|^2, \qquad z_i = x_i^\top w + b,

with gradient :math:`\frac1S X^\top \operatorname{diag}(s)(\mu - y) + \alpha w` and Hessian
:math:`\frac1S X^\top \operatorname{diag}(s\,\mu) X + \alpha I`: the same shape as logistic regression's,
because both use the canonical link of their distribution.
"""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.metrics import d2_tweedie_score
from sklearn.utils.validation import validate_data

from ..utils.validation import (as_finite_array, as_float_matrix, as_float_vector, check_bool, check_sample_weight,
                                check_scalar)
from ._glm import check_solver_params, fit_glm, warn_unless_converged
from ._models import linear_scores


def _design(X, fit_intercept):
    return np.column_stack([X, np.ones(X.shape[0])]) if fit_intercept else X


def _check_poisson_arguments(w, X, y, sample_weight, alpha, fit_intercept):
    """Light checks of the arguments of :func:`poisson_objective` and :func:`poisson_hessian`: shapes,
    finite values, non-negative targets and weights, ``alpha >= 0``. Returns them as float arrays."""
    X = as_float_matrix(X)
    y = as_float_vector(y, "y", X.shape[0])
    if (y < 0).any():
        raise ValueError("y must hold non-negative counts (or rates); got negative values")
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    alpha = check_scalar(alpha, "alpha", min_val=0)
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    w = as_finite_array(w, "w")
    size = X.shape[1] + int(fit_intercept)
    if w.shape != (size,):
        raise ValueError(f"w must have shape ({size},): the {X.shape[1]} weights"
                         f"{' followed by the intercept' if fit_intercept else ''}, got shape {w.shape}")
    return w, X, y, sample_weight, alpha, fit_intercept


def poisson_objective(w, X, y, sample_weight, alpha, fit_intercept=True):
    """Value and gradient of the penalised Poisson objective.

    Parameters
    ----------
    w : array of shape (n_features + fit_intercept,)
        The weights followed by the intercept.
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
        Non-negative counts (or rates).
    sample_weight : array of shape (n_samples,)
        Non-negative, not all 0.
    alpha : float >= 0
    fit_intercept : bool

    Returns
    -------
    value : float
    gradient : array of shape (n_features + fit_intercept,)

    Raises
    ------
    ValueError
        If the shapes do not fit together, an entry is not finite, a target or weight is negative, or
        ``alpha < 0``.
    """
    return _poisson_objective(*_check_poisson_arguments(w, X, y, sample_weight, alpha, fit_intercept))


def _poisson_objective(w, X, y, sample_weight, alpha, fit_intercept=True):
    """:func:`poisson_objective` without the checks (called at every iteration of the solvers)."""
    Xt = _design(X, fit_intercept)
    s = sample_weight / sample_weight.sum()
    z = Xt @ w
    mu = np.exp(z)
    coef = w[: X.shape[1]]
    value = s @ (mu - y * z) + 0.5 * alpha * coef @ coef
    grad = Xt.T @ (s * (mu - y))
    grad[: X.shape[1]] += alpha * coef
    return float(value), grad


def poisson_hessian(w, X, y, sample_weight, alpha, fit_intercept=True):
    r"""Hessian of :func:`poisson_objective`, shape (n_features + fit_intercept, n_features + fit_intercept).

    :math:`\frac1S \tilde X^\top \operatorname{diag}(s\,\mu) \tilde X + \alpha I` on the weights; the
    arguments are those of :func:`poisson_objective`, checked the same way.
    """
    return _poisson_hessian(*_check_poisson_arguments(w, X, y, sample_weight, alpha, fit_intercept))


def _poisson_hessian(w, X, y, sample_weight, alpha, fit_intercept=True):
    """:func:`poisson_hessian` without the checks."""
    Xt = _design(X, fit_intercept)
    s = sample_weight / sample_weight.sum()
    A = Xt * np.sqrt(s * np.exp(Xt @ w))[:, None]
    H = A.T @ A
    idx = np.arange(X.shape[1])
    H[idx, idx] += alpha
    return H


class PoissonRegression(RegressorMixin, BaseEstimator):
    r"""Poisson regression (log link) with an L2 penalty, as scikit-learn's ``PoissonRegressor``.

    Parameters
    ----------
    alpha : float >= 0, default 1
        L2 penalty on the weights (not the intercept), as in scikit-learn.
    fit_intercept : bool, default True
    solver : {"lbfgs", "newton"}, default "lbfgs"
    tol : float > 0, default 1e-4
        ``"lbfgs"``: largest gradient entry; ``"newton"``: largest step.
    max_iter : int, default 100

    Attributes
    ----------
    coef_ : array of shape (n_features,)
    intercept_ : float
    n_iter_ : int
    n_features_in_ : int

    Notes
    -----
    The mean prediction is :math:`e^{x^\top w + b}`, always positive; :meth:`score` is the fraction of
    deviance explained :math:`D^2`, as scikit-learn's. Derived in chapter 12 from the
    Poisson log-likelihood.
    """

    def __init__(self, alpha=1.0, *, fit_intercept=True, solver="lbfgs", tol=1e-4, max_iter=100):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.positive_only = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit the model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Non-negative targets, not all zero.
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        self : object
        """
        alpha = check_scalar(self.alpha, "alpha", min_val=0)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        check_solver_params(self.solver, self.tol, self.max_iter)
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        if (y < 0).any():
            raise ValueError("Poisson regression needs non-negative targets y (counts); got negative values")
        s = check_sample_weight(sample_weight, X.shape[0])
        if s @ y <= 0:
            raise ValueError("Poisson regression needs some positive target: with all y = 0 the fitted mean "
                             "tends to 0 and the intercept to minus infinity")
        w0 = np.zeros(X.shape[1] + int(fit_intercept))
        if fit_intercept:
            w0[-1] = np.log(s @ y / s.sum())       # start at the best constant model
        result = fit_glm(self, _poisson_objective, _poisson_hessian, w0, (X, y, s, alpha, fit_intercept), X, s)
        warn_unless_converged(result, self.solver)
        self.coef_ = result.x[: X.shape[1]].copy()
        self.intercept_ = float(result.x[-1]) if fit_intercept else 0.0
        self.n_iter_ = result.n_iter
        return self

    def predict(self, X):
        """Predicted means :math:`e^{Xw + b}`, shape (n_samples,)."""
        return np.exp(linear_scores(self, X))

    def score(self, X, y, sample_weight=None):
        r"""The fraction of Poisson deviance explained, :math:`D^2 = 1 - D(y, \hat\mu) / D(y, \bar y)`, as
        scikit-learn's ``PoissonRegressor.score`` (not :math:`R^2`).

        :math:`D(y, \mu) = 2\sum_i s_i\,(y_i \log(y_i/\mu_i) - y_i + \mu_i)` is the (weighted) Poisson deviance
        and :math:`\bar y` the weighted mean of ``y``: 1 for a perfect fit, 0 for the best constant model.
        """
        y = np.asarray(y, dtype=np.float64)
        return float(d2_tweedie_score(y, self.predict(X), sample_weight=sample_weight, power=1))
