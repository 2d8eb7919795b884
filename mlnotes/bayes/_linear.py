r"""Bayesian linear regression with a Gaussian prior and known noise variance (chapter 11).

Prior :math:`w \sim \mathcal N(m_0, S_0)`, likelihood :math:`y_i \mid x_i, w \sim \mathcal N(x_i^\top w, \sigma^2 / t_i)`
(:math:`t_i` the sample weights). The posterior is Gaussian, :math:`w \mid \mathcal D \sim \mathcal N(m_N, S_N)`, with

.. math::
    S_N^{-1} = S_0^{-1} + \frac{1}{\sigma^2} X^\top T X, \qquad
    m_N = S_N\Big(S_0^{-1} m_0 + \frac{1}{\sigma^2} X^\top T y\Big),

and the predictive distribution of a new :math:`y` at :math:`x` is
:math:`\mathcal N(x^\top m_N,\ \sigma^2 + x^\top S_N x)`.

:class:`BayesianLinearRegression` keeps, for all the data seen so far, the total weight, the weighted means
and the *centred* scatter matrices, and merges batches with Chan's update, so that updating with batches one
after another (:meth:`BayesianLinearRegression.partial_fit`) gives the posterior of one update with all the
data, and data far from the origin (a large offset in a feature) lose no accuracy to cancellation.

Numerics: precisions are factorised by Cholesky, with no jitter added; a prior covariance or a posterior
precision that is not numerically positive definite raises a ``ValueError`` that names it.
"""

from numbers import Integral
from typing import NamedTuple

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_square_sums
from ..utils.validation import as_float_matrix, as_float_vector, check_sample_weight, check_scalar

#: Largest relative asymmetry max|S - S^T| / max|S| accepted in a covariance matrix (rounding, not a typo).
_SYMMETRY_RTOL = 1e-10


def gaussian_posterior(X, y, *, noise_var, prior_mean, prior_cov, sample_weight=None):
    r"""Posterior mean and covariance of the weights of a linear-Gaussian model (no intercept).

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

    Notes
    -----
    :math:`S_N^{-1} = S_0^{-1} + \sigma^{-2} X^\top T X` and :math:`m_N = S_N (S_0^{-1} m_0 + \sigma^{-2} X^\top T y)`,
    derived in chapter 11, *Probabilistic regression* (completing the square in :math:`w`). Used with the
    previous posterior as the prior, it performs one step of sequential updating.
    """
    X = as_float_matrix(X, "X")
    y = as_float_vector(y, "y", X.shape[0])
    noise_var = check_scalar(noise_var, "noise_var", low=0, include_low=False)
    d = X.shape[1]
    prior_mean = as_float_vector(prior_mean, "prior_mean")
    if prior_mean.shape != (d,):
        raise ValueError(f"prior_mean must have shape ({d},) to match X, got shape {prior_mean.shape}")
    prior_cov = _check_prior_cov(prior_cov, d)
    t = check_sample_weight(sample_weight, X.shape[0])
    return _posterior(prior_mean, prior_cov, (X.T * t) @ X, (X.T * t) @ y, noise_var)


def _posterior(prior_mean, prior_cov, gram, cross, noise_var):
    r"""``(m_N, S_N)`` from the prior and the data's :math:`X^\top T X` (``gram``) and :math:`X^\top T y` (``cross``).

    The one place where the posterior is computed: :math:`S_N^{-1} = S_0^{-1} + \text{gram}/\sigma^2` is factorised
    once by Cholesky; the mean solves :math:`S_N^{-1} m_N = S_0^{-1} m_0 + \text{cross}/\sigma^2` with that factor.
    """
    prior_precision = _inverse_spd(prior_cov, "prior_cov")
    factor = _cholesky(prior_precision + gram / noise_var, "the posterior precision")
    cov = linalg.cho_solve(factor, np.eye(len(prior_mean)))
    mean = linalg.cho_solve(factor, prior_precision @ prior_mean + cross / noise_var)
    return mean, (cov + cov.T) / 2


def _check_prior_cov(S0, d):
    """``S0`` as a finite symmetric (d, d) float array (symmetrised), or a ValueError naming the problem.

    Symmetry is tested relative to the size of the entries: ``max|S0 - S0^T| <= 1e-10 max|S0|``.
    """
    S0 = np.asarray(S0, dtype=float)
    if S0.shape != (d, d):
        raise ValueError(f"prior_cov must be a ({d}, {d}) matrix to match the features, got shape {S0.shape}")
    if not np.isfinite(S0).all():
        raise ValueError("prior_cov must be finite; it contains NaN or infinity")
    if np.abs(S0 - S0.T).max() > _SYMMETRY_RTOL * np.abs(S0).max():
        raise ValueError(f"prior_cov must be symmetric (to a relative tolerance of {_SYMMETRY_RTOL:g})")
    return (S0 + S0.T) / 2


def _cholesky(A, name):
    """Cholesky factor of ``A`` for ``scipy.linalg.cho_solve``; no jitter: a clear error if ``A`` is not SPD."""
    try:
        return linalg.cho_factor(A)
    except linalg.LinAlgError:
        raise ValueError(f"{name} must be symmetric positive definite (its Cholesky factorisation failed)") from None


def _inverse_spd(A, name):
    """Inverse of a symmetric positive definite matrix by Cholesky, with a clear error if it is not."""
    inverse = linalg.cho_solve(_cholesky(A, name), np.eye(A.shape[0]))
    return (inverse + inverse.T) / 2


class _Moments(NamedTuple):
    r"""Sufficient statistics of weighted data: total weight :math:`W = \sum_i t_i`, weighted means
    :math:`\bar x`, :math:`\bar y`, centred scatter :math:`M = \sum_i t_i (x_i - \bar x)(x_i - \bar x)^\top` and
    cross term :math:`c = \sum_i t_i (x_i - \bar x)(y_i - \bar y)`."""

    weight: float
    x_mean: np.ndarray
    y_mean: float
    scatter: np.ndarray
    cross: np.ndarray

    @classmethod
    def empty(cls, d):
        return cls(0.0, np.zeros(d), 0.0, np.zeros((d, d)), np.zeros(d))

    @classmethod
    def of(cls, X, y, t):
        """The moments of one batch. The means take a second pass (a correction by the mean of the
        residuals), which removes the rounding error of the first when the data sit far from 0."""
        W = float(t.sum())
        x_mean = t @ X / W
        x_mean = x_mean + t @ (X - x_mean) / W
        y_mean = float(t @ y) / W
        y_mean = y_mean + float(t @ (y - y_mean)) / W
        Xc, yc = X - x_mean, y - y_mean
        return cls(W, x_mean, y_mean, (Xc.T * t) @ Xc, (Xc.T * t) @ yc)

    def merge(self, other):
        r"""The moments of both data sets together (Chan et al.'s pairwise update):
        :math:`M = M_a + M_b + \frac{W_a W_b}{W_a + W_b}\,\delta\delta^\top` with :math:`\delta = \bar x_b - \bar x_a`,
        and likewise :math:`c = c_a + c_b + \frac{W_a W_b}{W_a + W_b}\,\delta\,(\bar y_b - \bar y_a)`."""
        W = self.weight + other.weight
        dx, dy = other.x_mean - self.x_mean, other.y_mean - self.y_mean
        share, coupling = other.weight / W, self.weight * other.weight / W
        return _Moments(W, self.x_mean + share * dx, self.y_mean + share * dy,
                        self.scatter + other.scatter + coupling * np.outer(dx, dx),
                        self.cross + other.cross + coupling * dx * dy)

    def uncentred(self):
        r""":math:`X^\top T X = M + W \bar x \bar x^\top` and :math:`X^\top T y = c + W \bar x \bar y` (no intercept)."""
        return (self.scatter + self.weight * np.outer(self.x_mean, self.x_mean),
                self.cross + self.weight * self.x_mean * self.y_mean)


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
        A full prior covariance :math:`S_0`, symmetric positive definite.
    fit_intercept : bool, default True
        Estimate an intercept by centring the data, as scikit-learn does: the intercept gets a flat prior
        and is plugged in at its posterior mean :math:`\bar y - \bar x^\top m_N`. Its own uncertainty, a variance
        :math:`\sigma^2 / \sum_i t_i` at the centre of the data, is *not* part of ``predict(return_std=True)``
        (as in ``BayesianRidge``).

    Attributes
    ----------
    coef_ : array of shape (n_features,)
        Posterior mean :math:`m_N`.
    sigma_ : array of shape (n_features, n_features)
        Posterior covariance :math:`S_N`.
    intercept_ : float
    x_mean_ : array of shape (n_features,)
        Weighted mean of the features seen (zeros if ``fit_intercept=False``).
    n_seen_ : int
        Number of samples seen.
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 11, *Probabilistic regression*. The posterior mean equals the ridge solution
    with penalty :math:`\lambda = \sigma^2 / \sigma_p^2` (scikit-learn's ``Ridge(alpha=noise_var / prior_var)``).
    :meth:`partial_fit` keeps the total weight :math:`\sum_i t_i`, the weighted means :math:`\bar x, \bar y` and the
    centred scatter matrices :math:`\sum_i t_i (x_i - \bar x)(x_i - \bar x)^\top`, :math:`\sum_i t_i (x_i - \bar x)(y_i - \bar y)`,
    merged across batches with Chan's update; sequential updates reproduce the batch posterior, also with an
    intercept, and centring never subtracts two large raw sums. Precisions are factorised by Cholesky with no
    jitter: one that is not numerically positive definite raises ``ValueError``.
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
            S0 = _check_prior_cov(self.prior_cov, n_features)
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
        for name in ("n_seen_", "_moments"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X, y, sample_weight=None):
        """Update the posterior with a new batch (the current posterior acts as the prior).

        Parameters are those of :meth:`fit`.
        """
        first = not hasattr(self, "_moments")
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64, reset=first)
        check_square_sums(X)
        y = np.asarray(y, dtype=np.float64)
        t = check_sample_weight(sample_weight, X.shape[0])
        batch = _Moments.of(X, y, t)
        self._moments = batch if first else self._moments.merge(batch)
        self.n_seen_ = (0 if first else self.n_seen_) + X.shape[0]
        self._update()
        return self

    def reset(self, n_features):
        """Forget all data: the posterior becomes the prior, so that :meth:`predict` gives the prior predictive
        and :meth:`sample_coef` draws from the prior. Needs ``fit_intercept=False`` (with a flat prior on the
        intercept, the prior predictive is not a distribution).

        Parameters
        ----------
        n_features : int >= 1

        Returns
        -------
        self : object
        """
        n_features = check_scalar(n_features, "n_features", Integral, min_val=1)
        if self.fit_intercept:
            raise ValueError("reset() needs fit_intercept=False: the flat prior on the intercept has no "
                             "predictive distribution before any data")
        self._moments = _Moments.empty(int(n_features))
        self.n_features_in_ = int(n_features)
        self.__dict__.pop("feature_names_in_", None)
        self.n_seen_ = 0
        self._update()
        return self

    def _update(self):
        moments = self._moments
        m0, S0 = self._prior(len(moments.x_mean))
        if self.fit_intercept:
            if moments.weight == 0:
                raise ValueError("fit_intercept=True needs data: the intercept has a flat prior")
            gram, cross = moments.scatter, moments.cross
            x_mean, y_mean = moments.x_mean, moments.y_mean
        else:
            gram, cross = moments.uncentred()
            x_mean, y_mean = np.zeros_like(moments.x_mean), 0.0
        self.coef_, self.sigma_ = _posterior(m0, S0, gram, cross, float(self.noise_var))
        self.intercept_ = float(y_mean - x_mean @ self.coef_)
        self.x_mean_ = x_mean

    def predict(self, X, return_std=False):
        """Predictive mean, and optionally its standard deviation :math:`\\sqrt{\\sigma^2 + \\tilde x^\\top S_N \\tilde x}`.

        With an intercept, :math:`\\tilde x = x - \\bar x` (the features centred as in fitting) and the intercept's
        own uncertainty is left out, as in scikit-learn's ``BayesianRidge``; without, :math:`\\tilde x = x`.

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
        """Draw weight vectors from the posterior.

        Parameters
        ----------
        n_samples : int >= 1, default 1
        random_state : int or numpy Generator, optional

        Returns
        -------
        W : array of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=1)
        rng = np.random.default_rng(random_state)
        return rng.multivariate_normal(self.coef_, self.sigma_, size=int(n_samples), method="cholesky")
