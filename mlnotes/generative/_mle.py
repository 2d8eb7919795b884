r"""Maximum-likelihood estimates of a Gaussian's mean and covariance (chapter 13, *Generative classifiers*).

For :math:`x_1, \dots, x_n \sim \mathcal N(\mu, \Sigma)` the log-likelihood is maximised by the sample mean
:math:`\hat\mu = \bar x` and, depending on the family of covariances allowed,

- ``"full"``: :math:`\hat\Sigma = \frac1n \sum_i (x_i - \bar x)(x_i - \bar x)^\top` (note :math:`1/n`, not :math:`1/(n-1)`);
- ``"diag"``: the diagonal of that matrix (independent coordinates);
- ``"spherical"``: :math:`\hat\sigma^2 I` with :math:`\hat\sigma^2 = \frac{1}{nd}\sum_i \|x_i - \bar x\|^2`, the mean
  of the diagonal.

When that matrix is singular the likelihood has no maximum at all (it grows without bound as the covariance
shrinks towards it), so :func:`gaussian_mle` refuses it unless asked.
"""

import numpy as np

from ..utils.validation import as_float_matrix, check_option

COVARIANCE_TYPES = ("full", "diag", "spherical")


def _singular_reason(X, Xc, covariance_type):
    """Why the estimate of ``covariance_type`` is singular, or None if it is positive definite."""
    n, d = X.shape
    constant = np.flatnonzero(np.ptp(X, axis=0) == 0)
    if covariance_type == "spherical":
        return "all samples are equal" if constant.size == d else None
    if constant.size:
        return f"feature(s) {constant.tolist()} are constant"
    if covariance_type == "full":
        if n <= d:
            return f"n_samples = {n} <= n_features = {d}"
        if np.linalg.matrix_rank(Xc) < d:
            return "the features are collinear (the centred data have rank < n_features)"
    return None


def gaussian_mle(X, covariance_type="full", *, allow_singular=False):
    r"""Maximum-likelihood mean and covariance of the rows of ``X``.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    covariance_type : {"full", "diag", "spherical"}, default "full"
    allow_singular : bool, default False
        Return the (singular) matrix anyway when the estimate does not exist (see Raises); the
        classifiers of :mod:`mlnotes.generative` use it and handle singular covariances themselves.

    Returns
    -------
    mean : array of shape (n_features,)
    cov : array of shape (n_features, n_features)
        Always returned as a full matrix (diagonal or a multiple of the identity for the other types).

    Raises
    ------
    ValueError
        For an unknown ``covariance_type``; and, unless ``allow_singular``, when the estimate would be
        singular: a constant feature (``"full"``, ``"diag"``), all samples equal (``"spherical"``), or
        ``n_samples <= n_features`` or collinear features (``"full"``, rank of the centred data by
        ``numpy.linalg.matrix_rank``). The likelihood then has no maximum: along
        :math:`\hat\Sigma + \epsilon I`, :math:`\epsilon \to 0^+`, it tends to infinity.

    Notes
    -----
    :math:`\hat\mu = \bar x`, :math:`\hat\Sigma = S/n` with the scatter matrix
    :math:`S = \sum_i (x_i - \bar x)(x_i - \bar x)^\top`; it is the global maximum when :math:`S` is invertible,
    because the negative log-likelihood is convex in the precision :math:`\Sigma^{-1}`. Derived in chapter 13,
    *Generative classifiers*.
    """
    X = as_float_matrix(X)
    check_option(covariance_type, "covariance_type", COVARIANCE_TYPES)
    mean = X.mean(axis=0)
    Xc = X - mean
    if not allow_singular:
        reason = _singular_reason(X, Xc, covariance_type)
        if reason is not None:
            raise ValueError(f"the maximum-likelihood {covariance_type!r} covariance does not exist: {reason}, so "
                             "the estimate is singular and the likelihood is unbounded; pass allow_singular=True "
                             "to get the singular matrix anyway, or regularise")
    if covariance_type == "full":
        return mean, Xc.T @ Xc / X.shape[0]
    variances = (Xc**2).mean(axis=0)
    if covariance_type == "diag":
        return mean, np.diag(variances)
    return mean, variances.mean() * np.eye(X.shape[1])
