r"""Gaussian generative classifiers: LDA, QDA and Gaussian naive Bayes (chapter 13).

Each class :math:`k` gets a prior :math:`\pi_k` and a Gaussian class-conditional density
:math:`\mathcal N(\mu_k, \Sigma_k)`; the Bayes classifier picks the class with the largest log posterior

.. math:: \delta_k(x) = \log \pi_k - \tfrac12 \log\det\Sigma_k - \tfrac12 (x - \mu_k)^\top \Sigma_k^{-1} (x - \mu_k) + \text{const}.

LDA shares one covariance between classes, so the quadratic term and the log-determinant are the same for
every class and cancel in comparisons: the boundaries are linear. QDA keeps one covariance per class (and
its log-determinant: dropping it is an error of the notes); naive Bayes keeps only the diagonals.
"""

import numpy as np
from scipy import linalg
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_square_sums
from ..stats import mvn_logpdf  # chapter 3
from ..utils.validation import check_classes, check_sample_weight, check_scalar
from ._mle import gaussian_mle


def _priors(priors, codes, n_classes, sample_weight=None):
    """Class priors: the given ones (checked: positive, summing to 1), or the (weighted) class frequencies.

    A prior of 0 is refused: its class could never be predicted (its log-prior is -inf), so its samples
    should be dropped from the training data instead."""
    if priors is None:
        counts = np.bincount(codes, weights=sample_weight, minlength=n_classes)
        return counts / counts.sum()
    p = np.asarray(priors, dtype=float)
    if p.shape != (n_classes,) or not np.isfinite(p).all() or (p <= 0).any() or not np.isclose(p.sum(), 1.0):
        raise ValueError(f"priors must be {n_classes} positive numbers summing to 1 (a class of prior 0 could never "
                         f"be predicted: drop its samples instead), got {priors!r}")
    return p


def _units(X):
    """Each feature's largest magnitude (1 for a feature that is 0 throughout), shape (n_features,): the
    classifiers compute in these units, so that squares of values near the largest float (1e307) do not
    overflow and squares of values near the smallest (1e-307) do not underflow."""
    unit = np.abs(X).max(axis=0)
    unit[unit == 0] = 1.0
    return unit


def _class_moments(X, codes, n_classes, covariance_type):
    """Per class, the maximum-likelihood mean and covariance of :func:`gaussian_mle` (singular ones allowed: the
    classifiers deal with them); arrays of shape (n_classes, d) and (n_classes, d, d)."""
    moments = [gaussian_mle(X[codes == k], covariance_type, allow_singular=True) for k in range(n_classes)]
    return np.array([m for m, _ in moments]), np.array([S for _, S in moments])


class _BayesClassifier(ClassifierMixin, BaseEstimator):
    """Shared prediction of the generative classifiers (the Bayes classifier of their fitted model):
    class scores -> probabilities and labels. Subclasses define ``_scores(X)``, an (n_samples, n_classes)
    array of log joint probabilities :math:`\\log \\pi_k + \\log p(x \\mid k)`, up to a per-sample constant."""

    def decision_function(self, X):
        """Class scores :math:`\\delta_k(x)`, shape (n_samples, n_classes); for two classes
        :math:`\\delta_1 - \\delta_0`, shape (n_samples,), as scikit-learn."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        D = self._scores(X)
        return D[:, 1] - D[:, 0] if D.shape[1] == 2 else D

    def predict_log_proba(self, X):
        """Log posterior class probabilities, shape (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        D = self._scores(X)
        return D - logsumexp(D, axis=1, keepdims=True)

    def predict_proba(self, X):
        """Posterior class probabilities, shape (n_samples, n_classes)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The class of largest posterior probability, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        D = self._scores(X)
        return self.classes_[D.argmax(axis=1)]


class LinearDiscriminantAnalysis(_BayesClassifier):
    r"""Gaussian classes with one shared covariance: linear decision boundaries.

    Parameters
    ----------
    priors : array of shape (n_classes,), optional
        Class priors, positive and summing to 1 (the class frequencies by default). A prior of 0 is refused
        with a ``ValueError``: its class could never be predicted, so drop its samples instead.
    tol : float, default 1e-4
        Singular values of the within-class data, each feature scaled to unit variance, at or below ``tol``
        are dropped (a pseudo-inverse of a singular shared covariance), as in scikit-learn's ``svd`` solver.

    Attributes
    ----------
    classes_, priors_ : arrays of shape (n_classes,)
    means_ : array of shape (n_classes, n_features)
    covariance_ : array of shape (n_features, n_features)
        The pooled maximum-likelihood covariance :math:`\frac1n\sum_k\sum_{i: y_i = k}(x_i - \mu_k)(x_i - \mu_k)^\top`.
    coef_ : array of shape (n_classes, n_features), or (1, n_features) for two classes
    intercept_ : array of shape (n_classes,), or (1,)
        :math:`\delta_k(x) = w_k^\top x + b_k` with :math:`w_k = \Sigma^{-1}(\mu_k - \bar x)`,
        :math:`b_k = \log\pi_k - \tfrac12(\mu_k - \bar x)^\top\Sigma^{-1}(\mu_k - \bar x) - w_k^\top \bar x`,
        :math:`\bar x = \sum_k \pi_k \mu_k` (centring changes every score by the same amount per sample).
    rank_ : int
        The number of directions kept. When it is below ``n_features_in_`` (collinear or nearly collinear
        features), the predictions use a pseudo-inverse of ``covariance_`` and are no longer the Bayes
        classifier of the Gaussians :math:`\mathcal N(\mu_k, \Sigma)`; :func:`marginal_log_posterior` then refuses
        the model.
    n_features_in_ : int
    """

    def __init__(self, priors=None, *, tol=1e-4):
        self.priors = priors
        self.tol = tol

    def fit(self, X, y):
        """Estimate priors, class means and the shared covariance. ``X``: (n_samples, n_features); ``y``: (n_samples,)."""
        tol = check_scalar(self.tol, "tol", low=0)
        X, _, codes = check_classes(self, X, y, dtype=np.float64)
        K, n = len(self.classes_), X.shape[0]
        self.priors_ = _priors(self.priors, codes, K)
        # computed in units of each feature's largest magnitude (_units); the fit is the same in any units (the
        # residuals are standardised below), the attributes are mapped back (covariance_ may be inf or 0 then)
        self._unit = _units(X)
        X = X / self._unit
        means, class_covariances = _class_moments(X, codes, K, "full")
        # the pooled covariance: the class covariances weighted by the class frequencies (not the priors)
        covariance = np.tensordot(np.bincount(codes, minlength=K) / n, class_covariances, axes=1)
        with np.errstate(over="ignore", under="ignore"):
            self.means_ = means * self._unit
            self.covariance_ = covariance * np.outer(self._unit, self._unit)
        Xc = X - means[codes]
        # pseudo-inverse of the covariance via the SVD of the per-feature-scaled residuals
        std = Xc.std(axis=0)
        std[std == 0] = 1.0
        _, S, Vt = linalg.svd(Xc / std / np.sqrt(n), full_matrices=False)
        rank = self.rank_ = int((S > tol).sum())
        W = (Vt[:rank] / std).T / S[:rank]                 # (d, rank) with W W^T = Sigma^+
        xbar = self.priors_ @ means
        M = (means - xbar) @ W                              # class means, centred and whitened
        coef = M @ W.T                                      # in the units of _unit
        intercept = np.log(self.priors_) - 0.5 * (M**2).sum(axis=1) - coef @ xbar
        self._coef, self._intercept = coef, intercept
        with np.errstate(over="ignore", under="ignore"):
            coef = coef / self._unit
        self.coef_ = coef[1:] - coef[:1] if K == 2 else coef
        self.intercept_ = intercept[1:] - intercept[:1] if K == 2 else intercept
        return self

    def _scores(self, X):
        return (X / self._unit) @ self._coef.T + self._intercept


class QuadraticDiscriminantAnalysis(_BayesClassifier):
    r"""Gaussian classes with their own covariances: quadratic decision boundaries.

    Parameters
    ----------
    priors : array of shape (n_classes,), optional
        As for :class:`LinearDiscriminantAnalysis`.
    reg_param : float in [0, 1], default 0
        Shrinks each covariance towards the identity in its eigenbasis, :math:`(1 - r)\Sigma_k + rI`, as
        scikit-learn (needed when a class has fewer samples than features).
    tol : float >= 0, default 1e-4
        A (regularised) class covariance with an eigenvalue at or below ``tol`` is singular: ``fit`` raises.
        As in scikit-learn, the threshold is absolute, in the squared units of the features: the same data
        in other units (multiplied by 100, say) can cross it. Standardise the features, or scale ``tol``
        with them.

    Attributes
    ----------
    classes_, priors_ : arrays of shape (n_classes,)
    means_ : array of shape (n_classes, n_features)
    covariance_ : array of shape (n_classes, n_features, n_features)
        Maximum-likelihood class covariances (divided by :math:`n_k`, as scikit-learn), regularised.
    n_features_in_ : int

    Notes
    -----
    The score keeps :math:`-\tfrac12\log\det\Sigma_k`: without it a class with a wide covariance would win
    far too often.
    """

    def __init__(self, priors=None, *, reg_param=0.0, tol=1e-4):
        self.priors = priors
        self.reg_param = reg_param
        self.tol = tol

    def fit(self, X, y):
        """Estimate priors, class means and one covariance per class."""
        r = check_scalar(self.reg_param, "reg_param", low=0, high=1)
        tol = check_scalar(self.tol, "tol", low=0)
        X, _, codes = check_classes(self, X, y, dtype=np.float64)
        check_square_sums(X)           # reg_param and tol are absolute: the fit is not the same in other units
        K, d = len(self.classes_), X.shape[1]
        self.priors_ = _priors(self.priors, codes, K)
        self.means_, covs = _class_moments(X, codes, K, "full")
        self.covariance_ = (1 - r) * covs + r * np.eye(d)
        for k, S in enumerate(self.covariance_):
            if np.linalg.eigvalsh(S).min() <= tol:
                label = np.asarray(self.classes_[k]).item()
                raise ValueError(f"the covariance of class {label!r} is singular: an eigenvalue is <= tol = {tol:g} "
                                 "(collinear features or fewer samples than features); set reg_param > 0 (or, for "
                                 "features on a small scale, standardise them or lower tol)")
        return self

    def _scores(self, X):
        # log pi_k + log N(x | mu_k, Sigma_k), without the class-independent -d/2 log(2 pi) (as scikit-learn)
        const = 0.5 * X.shape[1] * np.log(2 * np.pi)
        return np.column_stack([np.log(p) + mvn_logpdf(X, m, S) + const
                                for p, m, S in zip(self.priors_, self.means_, self.covariance_)])


class GaussianNB(_BayesClassifier):
    r"""Gaussian naive Bayes: features independent given the class, each with its own variance.

    Parameters
    ----------
    priors : array of shape (n_classes,), optional
        As for :class:`LinearDiscriminantAnalysis`.
    var_smoothing : float >= 0, default 1e-9
        Adds ``var_smoothing`` times the largest feature variance to every variance, as scikit-learn.

    Attributes
    ----------
    classes_, class_prior_ : arrays of shape (n_classes,)
    theta_ : array of shape (n_classes, n_features)
        Class means.
    var_ : array of shape (n_classes, n_features)
        Class variances (maximum likelihood, plus the smoothing).
    epsilon_ : float
    n_features_in_ : int

    Notes
    -----
    The score is :math:`\log\pi_k - \sum_j \big[\tfrac12\log(2\pi\sigma_{kj}^2) + (x_j - \mu_{kj})^2 / (2\sigma_{kj}^2)\big]`:
    a product of one-dimensional Gaussians, i.e. QDA with diagonal covariances.
    """

    def __init__(self, priors=None, *, var_smoothing=1e-9):
        self.priors = priors
        self.var_smoothing = var_smoothing

    def fit(self, X, y, sample_weight=None):
        """Estimate priors, class means and per-feature class variances (weighted by ``sample_weight``,
        shape (n_samples,), if given, as scikit-learn)."""
        smoothing = check_scalar(self.var_smoothing, "var_smoothing", min_val=0)
        X, _, codes = check_classes(self, X, y, dtype=np.float64)
        s = check_sample_weight(sample_weight, X.shape[0])
        K = len(self.classes_)
        if (np.bincount(codes, weights=s, minlength=K) <= 0).any():
            raise ValueError("every class needs a sample of positive sample_weight")
        self.class_prior_ = _priors(self.priors, codes, K, s)
        # the moments are computed in units of each feature's largest magnitude, so that squares of values
        # near the largest float (1e307) do not overflow; the scores are exact in these units (the change of
        # units adds the same constant to every class), the attributes are mapped back (var_ may be inf)
        self._unit = _units(X)
        Z = X / self._unit
        # the means and the diagonals of gaussian_mle(X_k, "diag"), computed directly: gaussian_mle returns full
        # (d, d) matrices, which naive Bayes, often used with many features, must not build
        self._theta = np.array([np.average(Z[codes == k], axis=0, weights=s[codes == k]) for k in range(K)])
        var = np.array([np.average((Z[codes == k] - self._theta[k]) ** 2, axis=0, weights=s[codes == k])
                        for k in range(K)])
        # var_smoothing times the largest feature variance (as scikit-learn; weighted, so that a weight of 2 is a
        # repeated sample, where scikit-learn takes the unweighted variance), in each feature's units
        Z_var = np.average((Z - np.average(Z, axis=0, weights=s)) ** 2, axis=0, weights=s)
        largest = smoothing * (Z_var * (self._unit / self._unit.max()) ** 2).max()    # in units of the largest
        self._var = var + largest * (self._unit.max() / self._unit) ** 2
        with np.errstate(over="ignore"):
            self.epsilon_ = largest * self._unit.max() ** 2
            self.theta_ = self._theta * self._unit
            self.var_ = self._var * self._unit**2
        if (self._var <= 0).any():
            raise ValueError("a feature is constant within a class and var_smoothing is 0: its variance is 0; "
                             "set var_smoothing > 0")
        return self

    def _scores(self, X):
        Z = X / self._unit
        log_det = np.log(2 * np.pi * self._var).sum(axis=1) + 2 * np.log(self._unit).sum()       # (K,)
        with np.errstate(over="ignore"):
            sq = ((Z[:, None, :] - self._theta[None]) ** 2 / self._var[None]).sum(axis=2)   # (n, K)
        if not np.isfinite(sq).all():
            raise ValueError("X has values far outside the training range (beyond the largest float in units "
                             "of the training data): the class densities underflow to 0 for every class")
        return np.log(self.class_prior_) - 0.5 * (log_det + sq)
