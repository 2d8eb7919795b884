r"""Standardisation, the z-score of each feature (chapter 18, *Nearest neighbours and evaluation*)."""

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_bool, check_sample_weight

_EPS = np.finfo(np.float64).eps


def weighted_mean_and_variance(X, sample_weight=None):
    r"""Column means and (biased, ``ddof = 0``) variances of ``X``, weighted, by the corrected two-pass algorithm.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    sample_weight : ndarray of shape (n_samples,), optional
        Non-negative, not all zero (validated by the caller); None: all 1.

    Returns
    -------
    mean, var : ndarray of shape (n_features,)
    total_weight : float
        :math:`W = \sum_i s_i` (:math:`n` without weights).

    Notes
    -----
    With :math:`W = \sum_i s_i`, :math:`\bar x = \frac1W\sum_i s_i x_i` and :math:`r_i = x_i - \bar x`,

    .. math:: \sigma^2 = \frac1W\Big(\sum_i s_i r_i^2 - \frac1W\Big(\sum_i s_i r_i\Big)^2\Big),

    the second term (zero in exact arithmetic) removes most of the rounding of :math:`\bar x` (Chan, Golub and
    LeVeque's corrected two-pass algorithm, scikit-learn's computation, in the same order of operations).
    """
    if sample_weight is None:
        total = float(X.shape[0])
        mean = X.sum(axis=0) / total
        r = X - mean
        correction = r.sum(axis=0)
        r **= 2
        unnormalised = r.sum(axis=0)
    else:
        # the total weight per column, summed row after row as scikit-learn does (the same rounding)
        total = (sample_weight[:, None] * np.ones((1, X.shape[1]))).sum(axis=0)
        mean = (sample_weight @ X) / total
        r = X - mean
        correction = sample_weight @ r
        r **= 2
        unnormalised = sample_weight @ r
    unnormalised -= correction**2 / total
    return mean, unnormalised / total, float(total) if np.ndim(total) == 0 else float(total[0])


class StandardScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    r"""Standardise features: :math:`z = (x - \mu)/\sigma`, column by column (the z-score).

    Parameters
    ----------
    with_mean : bool, default True
        Subtract the mean :math:`\mu_j`.
    with_std : bool, default True
        Divide by the standard deviation :math:`\sigma_j` (``ddof = 0``).
    copy : bool, default True
        Accepted for scikit-learn's interface; the input is never modified.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,) or None
        None when both ``with_mean`` and ``with_std`` are False (as scikit-learn).
    var_ : ndarray of shape (n_features,) or None
        None when ``with_std`` is False.
    scale_ : ndarray of shape (n_features,) or None
        :math:`\sigma_j`, or 1 for a constant feature (see Notes); None when ``with_std`` is False.
    n_samples_seen_ : int or float
        The number of samples, or the sum of the sample weights.
    n_features_in_ : int

    Raises
    ------
    ValueError
        NaN or infinity, empty input, negative or all-zero ``sample_weight``; in ``transform``: the wrong number of
        features.

    Notes
    -----
    With sample weights :math:`s_i` the mean and variance are weighted (:func:`weighted_mean_and_variance`); a weight
    of 2 is a duplicated row. A feature is *constant* when its variance is below the rounding level,
    :math:`\sigma_j^2 \le W\epsilon\,\sigma_j^2 + (W\mu_j\epsilon)^2` (:math:`W` the total weight): its scale is set to 1,
    so it is centred and not blown up (scikit-learn's rule, so the two agree on such columns). scikit-learn also
    ignores NaN and accepts sparse input and ``partial_fit``; this class rejects NaN and needs dense input.
    Chapter 18.
    """

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def fit(self, X, y=None, sample_weight=None):
        """Compute the mean and scale of each column of ``X`` (n_samples, n_features); ``sample_weight``
        (n_samples,) non-negative, not all zero, or None. ``y`` is ignored. Returns ``self``."""
        check_bool(self.with_mean, "with_mean")
        check_bool(self.with_std, "with_std")
        check_bool(self.copy, "copy")
        X = validate_data(self, X, dtype=np.float64)
        weights = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        if not self.with_mean and not self.with_std:
            self.mean_ = self.var_ = self.scale_ = None
            self.n_samples_seen_ = X.shape[0]           # scikit-learn counts samples here, not weights
            return self
        mean, var, total = weighted_mean_and_variance(X, weights)
        self.mean_ = mean
        self.n_samples_seen_ = X.shape[0] if weights is None else total
        if self.with_std:
            self.var_ = var
            constant = var <= total * _EPS * var + (total * mean * _EPS) ** 2
            scale = np.sqrt(np.maximum(var, 0.0))        # a constant column's variance can round below 0
            scale[constant | (scale < 10 * _EPS)] = 1.0
            self.scale_ = scale
        else:
            self.var_ = self.scale_ = None
        return self

    def transform(self, X, copy=None):
        """:math:`(x - \\mu)/\\sigma` for each row of ``X`` (n_samples, n_features); a new array."""
        check_is_fitted(self, "n_samples_seen_")
        X = validate_data(self, X, reset=False, dtype=np.float64, copy=True)
        if self.with_mean:
            X -= self.mean_
        if self.with_std:
            X /= self.scale_
        return X

    def inverse_transform(self, X, copy=None):
        """:math:`z\\sigma + \\mu`: back to the original units; a new array."""
        check_is_fitted(self, "n_samples_seen_")
        X = validate_data(self, X, reset=False, dtype=np.float64, copy=True)
        if self.with_std:
            X *= self.scale_
        if self.with_mean:
            X += self.mean_
        return X
