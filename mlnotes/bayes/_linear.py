r"""Bayesian linear regression with a Gaussian prior and known noise variance (chapter 11).

Prior :math:`w \sim \mathcal N(m_0, S_0)`, likelihood :math:`y_i \mid x_i, w \sim \mathcal N(x_i^\top w, \sigma^2 / t_i)`
(:math:`t_i` the sample weights). The posterior is Gaussian, :math:`w \mid \mathcal D \sim \mathcal N(m_N, S_N)`, with

.. math::
    S_N^{-1} = S_0^{-1} + \frac{1}{\sigma^2} X^\top T X, \qquad
    m_N = S_N\Big(S_0^{-1} m_0 + \frac{1}{\sigma^2} X^\top T y\Big),

and the predictive distribution of a new :math:`y` at :math:`x` is
:math:`\mathcal N(x^\top m_N,\ \sigma^2 + x^\top S_N x)`. Both precision and precision-times-mean are sums over
samples, so updating with batches one after another (:meth:`BayesianLinearRegression.partial_fit`) gives
exactly the posterior of one batch update with all the data.
"""

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_sample_weight, check_scalar


def gaussian_posterior(X, y, *, noise_var, prior_mean, prior_cov, sample_weight=None):
    r"""Posterior mean and covariance of the weights of a linear-Gaussian model.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    noise_var : float > 0
        :math:`\sigma^2`.
    prior_mean : array of shape (n_features,)
        :math:`m_0`.
    prior_cov : array of shape (n_features, n_features)
        :math:`S_0`, symmetric positive definite.
    sample_weight : array of shape (n_samples,), optional

    Returns
    -------
    mean : array of shape (n_features,)
        :math:`m_N`.
    cov : array of shape (n_features, n_features)
        :math:`S_N`.
    """
    t = np.ones(X.shape[0]) if sample_weight is None else sample_weight
    prior_precision = _inverse_spd(prior_cov, "prior_cov")
    precision = prior_precision + (X.T * t) @ X / noise_var
    cov = _inverse_spd(precision, "the posterior precision")
    mean = cov @ (prior_precision @ prior_mean + (X.T * t) @ y / noise_var)
    return mean, cov


def _inverse_spd(A, name):
    """Inverse of a symmetric positive definite matrix by Cholesky, with a clear error if it is not."""
    try:
        factor = linalg.cho_factor(A)
    except linalg.LinAlgError:
        raise ValueError(f"{name} must be symmetric positive definite") from None
    inverse = linalg.cho_solve(factor, np.eye(A.shape[0]))
    return (inverse + inverse.T) / 2


class BayesianLinearRegression(RegressorMixin, BaseEstimator):
    r"""Bayesian linear regression with known noise variance and a Gaussian prior on the weights.

    Parameters
    ----------
    noise_var : float > 0, default 1
        Variance :math:`\sigma^2` of the observation noise (scikit-learn's ``BayesianRidge`` calls its
        inverse ``alpha_``).
    prior_var : float > 0, default 1
        Prior variance :math:`\sigma_p^2` of each weight: :math:`S_0 = \sigma_p^2 I` (``BayesianRidge``'s
        ``lambda_`` is its inverse). Ignored if ``prior_cov`` is given.
    prior_mean : array of shape (n_features,), optional
        :math:`m_0` (zeros by default).
    prior_cov : array of shape (n_features, n_features), optional
        A full prior covariance :math:`S_0`.
    fit_intercept : bool, default True
        Estimate an intercept by centring the data, as scikit-learn does: it gets a flat prior, and its
        own uncertainty is not part of ``predict(return_std=True)``.

    Attributes
    ----------
    coef_ : array of shape (n_features,)
        Posterior mean :math:`m_N`.
    sigma_ : array of shape (n_features, n_features)
        Posterior covariance :math:`S_N`.
    intercept_ : float
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 11, *Probabilistic regression*. The posterior mean equals the ridge solution
    with penalty :math:`\lambda = \sigma^2 / \sigma_p^2` (scikit-learn's ``Ridge(alpha=noise_var / prior_var)``).
    :meth:`partial_fit` accumulates the sufficient statistics :math:`\sum t_i`, :math:`\sum t_i x_i`,
    :math:`\sum t_i y_i`, :math:`\sum t_i x_i x_i^\top`, :math:`\sum t_i x_i y_i`, so sequential updates
    reproduce the batch posterior exactly, also with an intercept.
    """

    def __init__(self, noise_var=1.0, prior_var=1.0, *, prior_mean=None, prior_cov=None, fit_intercept=True):
        self.noise_var = noise_var
        self.prior_var = prior_var
        self.prior_mean = prior_mean
        self.prior_cov = prior_cov
        self.fit_intercept = fit_intercept

    def _prior(self, n_features):
        check_scalar(self.noise_var, "noise_var", low=0, include_low=False)
        if self.prior_cov is None:
            S0 = check_scalar(self.prior_var, "prior_var", low=0, include_low=False) * np.eye(n_features)
        else:
            S0 = np.asarray(self.prior_cov, dtype=float)
            if S0.shape != (n_features, n_features) or not np.isfinite(S0).all() or not np.allclose(S0, S0.T):
                raise ValueError(f"prior_cov must be a finite symmetric ({n_features}, {n_features}) matrix, "
                                 f"got shape {S0.shape}")
        m0 = np.zeros(n_features) if self.prior_mean is None else np.asarray(self.prior_mean, dtype=float)
        if m0.shape != (n_features,) or not np.isfinite(m0).all():
            raise ValueError(f"prior_mean must be a finite vector of shape ({n_features},), got shape {m0.shape}")
        return m0, S0

    def fit(self, X, y, sample_weight=None):
        """Compute the posterior from the data (forgetting earlier calls).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Weight :math:`t_i`: sample i has noise variance :math:`\\sigma^2 / t_i`.

        Returns
        -------
        self : object
        """
        for name in ("n_seen_", "_stats"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X, y, sample_weight=None):
        """Update the posterior with a new batch (the current posterior acts as the prior).

        Parameters are those of :meth:`fit`.
        """
        first = not hasattr(self, "_stats")
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64, reset=first)
        y = np.asarray(y, dtype=np.float64)
        t = check_sample_weight(sample_weight, X.shape[0])
        batch = [t.sum(), t @ X, t @ y, (X.T * t) @ X, (X.T * t) @ y]
        self._stats = batch if first else [a + b for a, b in zip(self._stats, batch)]
        self.n_seen_ = (0 if first else self.n_seen_) + X.shape[0]
        self._posterior()
        return self

    def _posterior(self):
        sw, sx, sy, Sxx, Sxy = self._stats
        m0, S0 = self._prior(Sxx.shape[0])
        if self.fit_intercept:                       # centre with the weighted means
            x_bar, y_bar = sx / sw, sy / sw
            Sxx, Sxy = Sxx - sw * np.outer(x_bar, x_bar), Sxy - sw * x_bar * y_bar
        else:
            x_bar, y_bar = np.zeros_like(sx), 0.0
        prior_precision = _inverse_spd(S0, "prior_cov")
        self.sigma_ = _inverse_spd(prior_precision + Sxx / self.noise_var, "the posterior precision")
        self.coef_ = self.sigma_ @ (prior_precision @ m0 + Sxy / self.noise_var)
        self.intercept_ = float(y_bar - x_bar @ self.coef_)
        self.x_mean_ = x_bar

    def predict(self, X, return_std=False):
        """Predictive mean, and optionally its standard deviation :math:`\\sqrt{\\sigma^2 + x^\\top S_N x}`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        return_std : bool, default False

        Returns
        -------
        y_mean : array of shape (n_samples,)
        y_std : array of shape (n_samples,), if ``return_std``
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        y_mean = X @ self.coef_ + self.intercept_
        if not return_std:
            return y_mean
        Xc = X - self.x_mean_
        return y_mean, np.sqrt(self.noise_var + np.einsum("ij,jk,ik->i", Xc, self.sigma_, Xc))

    def sample_coef(self, n_samples=1, random_state=None):
        """Draw weight vectors from the posterior, shape (n_samples, n_features)."""
        check_is_fitted(self)
        rng = np.random.default_rng(random_state)
        return rng.multivariate_normal(self.coef_, self.sigma_, size=n_samples, method="cholesky")
