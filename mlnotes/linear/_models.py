"""Least-squares estimators with the scikit-learn contract: ``LinearRegression`` and ``Ridge``."""

import numpy as np
from sklearn.base import BaseEstimator, MultiOutputMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..optim import least_squares
from ..utils.validation import check_option, check_sample_weight, check_scalar
from ..utils.validation import check_square_sums
from ._least_squares import _center, _check_alpha


def linear_scores(estimator, X):
    """The scores :math:`XW^\top + b` of a fitted linear model (``coef_`` of shape (n_features,) or
    (n_outputs, n_features), ``intercept_``) on ``X`` validated against its fit: shape (n_samples,) or
    (n_samples, n_outputs). The one evaluation of a linear model's scores, for the regressors' ``predict`` and
    the linear classifiers' ``decision_function``."""
    check_is_fitted(estimator)
    X = validate_data(estimator, X, reset=False, dtype=np.float64)
    return X @ estimator.coef_.T + estimator.intercept_


class LinearPredictMixin:
    """``predict`` of the fitted linear regressors: :math:`\\hat y = X w + b` from ``coef_`` and ``intercept_``."""

    def predict(self, X):
        """Predict :math:`\\hat y = X w + b`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        return linear_scores(self, X)


class _LeastSquaresBase(LinearPredictMixin, MultiOutputMixin, RegressorMixin, BaseEstimator):
    """Shared fit/predict plumbing: validate, centre for the intercept, solve, store.

    Subclasses implement ``_solve(X, Y, overwrite_X)`` on centred, sqrt-weight-scaled data
    (``Y`` of shape (n_samples, n_targets); ``overwrite_X`` is True when ``X`` is a private copy
    the solver may destroy) and return the weights of shape (n_features, n_targets).
    """

    def fit(self, X, y, sample_weight=None):
        """Fit the model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights :math:`t_i` of the squared residuals.

        Returns
        -------
        self : object
            Fitted estimator.
        """
        self._check_params()
        X, y = validate_data(self, X, y, y_numeric=True, multi_output=True, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)  # y_numeric only converts object arrays, not strings
        check_square_sums(X)
        # validate_data has checked X and y (finite, non-empty): the solvers below skip the checks
        # of the public step functions, and X is copied at most once (centring or weighting)
        t = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        owns_X = self.fit_intercept
        if self.fit_intercept:
            X, y, x_bar, y_bar = _center(X, y, t)  # new arrays
        else:
            x_bar, y_bar = np.zeros(X.shape[1]), np.zeros(y.shape[1:])
        Y = y.reshape(len(y), -1)
        if t is not None:
            sqrt_t = np.sqrt(t)[:, None]
            if owns_X:
                X *= sqrt_t
            else:
                X, owns_X = X * sqrt_t, True
            Y = Y * sqrt_t
        W = self._solve(X, Y, owns_X)  # (n_features, n_targets)
        self.coef_ = W[:, 0].copy() if y.ndim == 1 else W.T.copy()
        # as scikit-learn: 0.0 without an intercept, a float for 1-D y, else one per target
        self.intercept_ = 0.0
        if self.fit_intercept:
            intercept = y_bar - x_bar @ self.coef_.T
            self.intercept_ = float(intercept) if y.ndim == 1 else intercept
        return self



class LinearRegression(_LeastSquaresBase):
    r"""Ordinary (optionally weighted) least squares.

    Minimises :math:`\sum_i t_i (y_i - x_i^\top w - b)^2`, the objective of
    ``sklearn.linear_model.LinearRegression``.

    Parameters
    ----------
    fit_intercept : bool, default True
        Fit an unpenalised intercept :math:`b` (by centring the data).
    solver : {"lstsq", "normal"}, default "lstsq"
        ``"lstsq"``: a rank-revealing complete orthogonal factorisation (LAPACK ``gelsy``),
        numerically stable and defined for rank-deficient ``X`` (minimum-norm solution).
        ``"normal"``: the chapter's closed form, the normal equations
        :math:`X^\top T X w = X^\top T y` solved by Cholesky; raises if ``X`` lacks full
        column rank.
    tol : float, default 1e-6
        For ``"lstsq"``: singular values below ``tol`` times the largest are treated as zero
        (as scikit-learn's ``tol``).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
        0.0 when ``fit_intercept=False`` (as in scikit-learn).
    rank_ : int
        Numerical rank of the (centred, weighted) design matrix (``"lstsq"`` only, else None).
    n_features_in_ : int

    Notes
    -----
    Derived in chapter "Linear regression": setting the gradient
    :math:`-2X^\top T(y - Xw)` to zero gives the normal equations.
    """

    def __init__(self, *, fit_intercept=True, solver="lstsq", tol=1e-6):
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.tol = tol

    def _check_params(self):
        check_option(self.solver, "solver", ("lstsq", "normal"))
        check_scalar(self.tol, "tol", min_val=0)

    def _solve(self, X, Y, overwrite_X):
        W, self.rank_ = least_squares(X, Y, method=self.solver, tol=self.tol, overwrite_X=overwrite_X)
        return W


class Ridge(_LeastSquaresBase):
    r"""Least squares with an :math:`\ell_2` penalty on the weights (not on the intercept).

    Minimises :math:`\sum_i t_i (y_i - x_i^\top w - b)^2 + \alpha \lVert w \rVert_2^2`, the
    objective of ``sklearn.linear_model.Ridge`` (same ``alpha``).

    Parameters
    ----------
    alpha : float or array of shape (n_targets,), default 1.0
        Non-negative penalty; one per target for multi-output ``y``.
    fit_intercept : bool, default True
    solver : {"auto", "cholesky", "svd"}, default "auto"
        ``"cholesky"``: the closed form :math:`(X^\top X + \alpha I)^{-1} X^\top y` (or its dual
        form when ``n_features > n_samples``). ``"svd"``: shrink the singular values,
        stable for ill-conditioned ``X`` and valid for ``alpha = 0``. ``"auto"``: Cholesky when
        every ``alpha > 0``, else SVD.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
        0.0 when ``fit_intercept=False`` (as in scikit-learn).
    n_features_in_ : int

    Notes
    -----
    Derived in chapter "Linear regression": :math:`X^\top X + \alpha I` is positive definite
    for :math:`\alpha > 0`, so the solution is unique for every ``X``.
    """

    def __init__(self, alpha=1.0, *, fit_intercept=True, solver="auto"):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver

    def _check_params(self):
        check_option(self.solver, "solver", ("auto", "cholesky", "svd"))
        _check_alpha(self.alpha, np.size(self.alpha))

    def _solve(self, X, Y, overwrite_X):
        alphas = _check_alpha(self.alpha, Y.shape[1])
        solver = self.solver
        if solver == "auto":
            solver = "cholesky" if (alphas > 0).all() else "svd"
        return least_squares(X, Y, alphas, method=solver, overwrite_X=overwrite_X)[0]
