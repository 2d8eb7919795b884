r"""The multivariate Gaussian: log-density, marginals, conditionals and products.

Derived in chapter 3, *Probability and Gaussians*. Every function works with the Cholesky factor
:math:`L` of a covariance (:math:`\Sigma = LL^\top`) and triangular solves, never with an explicit
inverse, so ill-conditioned covariances lose as few digits as possible.
"""

import numpy as np
from scipy import linalg

from ._checks import covariance_cholesky, gaussian_parameters, index_set, mean_vector, points, symmetrize

LOG_2PI = np.log(2 * np.pi)


def log_density_whitened(L, Z):
    r"""Log-density of :math:`\mathcal N(\mu, LL^\top)` at points given by their whitened residuals.

    Parameters
    ----------
    L : ndarray of shape (d, d)
        Lower Cholesky factor of the covariance.
    Z : ndarray of shape (d, n)
        Columns :math:`z = L^{-1}(x - \mu)`.

    Returns
    -------
    ndarray of shape (n,)
        :math:`-\frac d2 \log 2\pi - \sum_i \log L_{ii} - \frac12 \lVert z \rVert^2`.
    """
    return -0.5 * L.shape[0] * LOG_2PI - np.sum(np.log(np.diag(L))) - 0.5 * np.sum(Z**2, axis=0)


def condition_on_factor(mean, cov, L, cross, residual):
    r"""The Gaussian update shared by conditioning, products and linear-Gaussian posteriors.

    For a Gaussian vector :math:`x \sim \mathcal N(m, S)` and an observed Gaussian vector
    :math:`o` with covariance :math:`G = LL^\top` and cross-covariance
    :math:`C = \operatorname{Cov}[o, x]`, observing :math:`o = \mathbb E[o] + r` gives
    :math:`x \mid o \sim \mathcal N(m + C^\top G^{-1} r,\ S - C^\top G^{-1} C)`.

    Parameters
    ----------
    mean : ndarray of shape (d,)
        :math:`m`.
    cov : ndarray of shape (d, d)
        :math:`S`.
    L : ndarray of shape (k, k)
        Lower Cholesky factor of :math:`G`.
    cross : ndarray of shape (k, d)
        :math:`C`.
    residual : ndarray of shape (k,)
        :math:`r`.

    Returns
    -------
    mean_new : ndarray of shape (d,)
    cov_new : ndarray of shape (d, d)
    z : ndarray of shape (k,)
        The whitened residual :math:`L^{-1} r`, so that :math:`\log\mathcal N(r \mid 0, G)` can be
        computed without a second factorisation (:func:`log_density_whitened`).

    Notes
    -----
    With :math:`V = L^{-1} C` and :math:`z = L^{-1} r` (two triangular solves),
    :math:`C^\top G^{-1} r = V^\top z` and :math:`C^\top G^{-1} C = V^\top V`: no inverse is formed.
    """
    V = linalg.solve_triangular(L, cross, lower=True)                       # (k, d)
    z = linalg.solve_triangular(L, residual, lower=True)                    # (k,)
    return mean + V.T @ z, symmetrize(cov - V.T @ V), z


def mvn_logpdf(X, mean, cov):
    r"""Log-density of the multivariate Gaussian :math:`\mathcal N(\mu, \Sigma)`.

    Parameters
    ----------
    X : array of shape (n, d) or (d,)
        Points (rows) at which to evaluate the log-density; a 1-D array is a single point (and,
        when d = 1, so is a number, as for ``mean``). One-dimensional data of n points must have
        shape (n, 1).
    mean : array of shape (d,)
        A number is accepted when d = 1.
    cov : array of shape (d, d)
        Symmetric positive definite covariance.

    Returns
    -------
    logpdf : ndarray of shape (n,), or float for a single point

    Raises
    ------
    TypeError
        If an argument is None or not numeric.
    ValueError
        If the shapes do not match, an input contains NaN or infinity, or ``cov`` is not
        symmetric positive definite.

    Notes
    -----
    With :math:`\Sigma = LL^\top` and :math:`z = L^{-1}(x - \mu)` (a triangular solve),

    .. math::

        \log \mathcal N(x \mid \mu, \Sigma) = -\frac d2 \log 2\pi - \sum_{i=1}^d \log L_{ii}
        - \frac12 \lVert z \rVert^2 ,

    because :math:`\log\det\Sigma = 2\sum_i \log L_{ii}` and
    :math:`(x-\mu)^\top\Sigma^{-1}(x-\mu) = \lVert L^{-1}(x-\mu)\rVert^2`. Derived in chapter 3,
    *Probability and Gaussians*.
    """
    mu, S, L = gaussian_parameters(mean, cov)
    X_arr, single = points(X, S.shape[0])
    Z = linalg.solve_triangular(L, (X_arr - mu).T, lower=True)          # (d, n)
    logpdf = log_density_whitened(L, Z)
    return float(logpdf[0]) if single else logpdf


def gaussian_marginal(mean, cov, idx):
    r"""Marginal of the coordinates ``idx`` of :math:`\mathcal N(\mu, \Sigma)`.

    Parameters
    ----------
    mean : array of shape (d,)
    cov : array of shape (d, d)
        Symmetric positive definite.
    idx : int or sequence of int
        The coordinates :math:`a` to keep (distinct, in ``range(d)``).

    Returns
    -------
    mean_a : ndarray of shape (k,)
    cov_aa : ndarray of shape (k, k)

    Notes
    -----
    :math:`x_a \sim \mathcal N(\mu_a, \Sigma_{aa})`: marginalising a Gaussian keeps the
    corresponding entries of the mean and block of the covariance. Derived in chapter 3,
    *Probability and Gaussians*.
    """
    mu, S, _ = gaussian_parameters(mean, cov)
    a = index_set(idx, S.shape[0], "idx")
    return mu[a], S[np.ix_(a, a)]


def gaussian_condition(mean, cov, idx_given, x_given, idx=None):
    r"""Conditional distribution of some coordinates of a Gaussian given the values of others.

    Parameters
    ----------
    mean : array of shape (d,)
    cov : array of shape (d, d)
        Symmetric positive definite.
    idx_given : int or sequence of int
        The observed coordinates (block 2).
    x_given : float or array of shape (len(idx_given),)
        Their observed values :math:`x_2`.
    idx : int or sequence of int, optional
        The coordinates (block 1) whose conditional is returned; default: every coordinate not
        in ``idx_given``, in increasing order. Must not overlap ``idx_given``.

    Returns
    -------
    mean_cond : ndarray of shape (k,)
        :math:`\mu_{1\mid 2} = \mu_1 + \Sigma_{12}\Sigma_{22}^{-1}(x_2 - \mu_2)`.
    cov_cond : ndarray of shape (k, k)
        :math:`\Sigma_{1\mid 2} = \Sigma_{11} - \Sigma_{12}\Sigma_{22}^{-1}\Sigma_{21}`, the Schur
        complement of :math:`\Sigma_{22}`.

    Raises
    ------
    ValueError
        For invalid Gaussian parameters, indices out of range, repeated or overlapping index
        sets, nothing left to condition, or an ``x_given`` of the wrong length.

    Notes
    -----
    With :math:`\Sigma_{22} = L_2 L_2^\top` and :math:`V = L_2^{-1}\Sigma_{21}` (a triangular solve),
    :math:`\Sigma_{1\mid 2} = \Sigma_{11} - V^\top V` and
    :math:`\mu_{1\mid 2} = \mu_1 + V^\top L_2^{-1}(x_2 - \mu_2)`. The same result in terms of the
    precision matrix :math:`\Lambda = \Sigma^{-1}` is :math:`\Sigma_{1\mid2} = \Lambda_{11}^{-1}`,
    :math:`\mu_{1\mid2} = \mu_1 - \Lambda_{11}^{-1}\Lambda_{12}(x_2 - \mu_2)`. Derived in chapter 3,
    *Probability and Gaussians*.
    """
    mu, S, _ = gaussian_parameters(mean, cov)
    d = S.shape[0]
    given = index_set(idx_given, d, "idx_given")
    if idx is None:
        keep = np.setdiff1d(np.arange(d), given)
        if keep.size == 0:
            raise ValueError("idx_given covers every coordinate: nothing is left to condition")
    else:
        keep = index_set(idx, d, "idx")
        overlap = np.intersect1d(keep, given)
        if overlap.size:
            raise ValueError(f"idx and idx_given overlap at {overlap.tolist()}: a coordinate cannot be "
                             "both conditioned on and returned")
    x2 = mean_vector(x_given, given.size, "x_given", "idx_given has {d}")
    L2 = linalg.cholesky(S[np.ix_(given, given)], lower=True)              # a block of an SPD matrix is SPD
    mean_cond, cov_cond, _ = condition_on_factor(mu[keep], S[np.ix_(keep, keep)], L2,
                                                 S[np.ix_(given, keep)], x2 - mu[given])
    return mean_cond, cov_cond


def gaussian_product(mean_a, cov_a, mean_b, cov_b):
    r"""Product of two Gaussian densities in the same variable: a scaled Gaussian.

    Parameters
    ----------
    mean_a, mean_b : arrays of shape (d,)
    cov_a, cov_b : arrays of shape (d, d)
        Symmetric positive definite.

    Returns
    -------
    mean : ndarray of shape (d,)
        :math:`c = C(A^{-1}a + B^{-1}b) = a + A(A+B)^{-1}(b - a)`.
    cov : ndarray of shape (d, d)
        :math:`C = (A^{-1} + B^{-1})^{-1} = A - A(A+B)^{-1}A`.
    log_scale : float
        :math:`\log \mathcal N(a \mid b, A + B)`.

    Notes
    -----
    :math:`\mathcal N(x\mid a, A)\,\mathcal N(x\mid b, B) = \mathcal N(a\mid b, A+B)\,\mathcal N(x\mid c, C)`.
    The forms on the right avoid inverting :math:`A` and :math:`B`: one Cholesky factorisation
    :math:`A + B = LL^\top` serves the mean, the covariance and the log-scale. Derived in chapter 3,
    *Probability and Gaussians*.
    """
    A, _ = covariance_cholesky(cov_a, "cov_a")
    d = A.shape[0]
    B, _ = covariance_cholesky(cov_b, "cov_b", d)
    a = mean_vector(mean_a, d, "mean_a")
    b = mean_vector(mean_b, d, "mean_b")
    L = linalg.cholesky(A + B, lower=True)
    mean, cov, z = condition_on_factor(a, A, L, A, b - a)                   # z = L^{-1}(b - a)
    log_scale = float(log_density_whitened(L, z[:, None])[0])              # ||z|| is that of L^{-1}(a - b)
    return mean, cov, log_scale
