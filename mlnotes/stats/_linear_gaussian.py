r"""The linear-Gaussian model :math:`x \sim \mathcal N(\mu, \Sigma)`, :math:`y = Ax + b + \epsilon`,
:math:`\epsilon \sim \mathcal N(0, R)` independent of :math:`x`.

Derived in chapter 3, *Probability and Gaussians*; Bayesian linear regression and Gaussian
processes are instances (the weights are :math:`x`, the design matrix is :math:`A`).
"""

import numpy as np
from scipy import linalg

from ..utils.validation import as_float_matrix, check_option
from ._checks import covariance_cholesky, gaussian_parameters, mean_vector, symmetrize
from ._gaussian import condition_on_factor

METHODS = ("auto", "covariance", "precision")


def _linear_gaussian_inputs(mean, cov, A, noise_cov, b):
    """Validate the model's parameters; returns mu, Sigma, L_Sigma, A, R, L_R, b."""
    mu, S, L_S = gaussian_parameters(mean, cov)
    d = S.shape[0]
    if A is not None and np.ndim(A) != 2:
        raise ValueError(f"A must be a 2-D array of shape (m, {d}), got {np.ndim(A)}-D input")
    A = as_float_matrix(A, "A")
    if A.shape[1] != d:
        raise ValueError(f"A has {A.shape[1]} columns but x has dimension {d}")
    m = A.shape[0]
    R, L_R = covariance_cholesky(noise_cov, "noise_cov", m)
    b = np.zeros(m) if b is None else mean_vector(b, m, "b", "A has {d} rows")
    return mu, S, L_S, A, R, L_R, b


def linear_gaussian_marginal(mean, cov, A, noise_cov, b=None):
    r"""Distribution of :math:`y = Ax + b + \epsilon` when :math:`x \sim \mathcal N(\mu, \Sigma)`.

    Parameters
    ----------
    mean : array of shape (d,)
        :math:`\mu`.
    cov : array of shape (d, d)
        :math:`\Sigma`, symmetric positive definite.
    A : array of shape (m, d)
    noise_cov : array of shape (m, m)
        :math:`R`, the covariance of the noise :math:`\epsilon`, symmetric positive definite.
    b : array of shape (m,), optional
        Offset (default 0).

    Returns
    -------
    mean_y : ndarray of shape (m,)
        :math:`A\mu + b`.
    cov_y : ndarray of shape (m, m)
        :math:`A\Sigma A^\top + R`.

    Notes
    -----
    Derived in chapter 3, *Probability and Gaussians*. With :math:`A = I` it is the convolution
    of two Gaussians: the sum of independent Gaussian vectors is Gaussian, means and covariances add.
    """
    mu, S, L_S, A, R, _, b = _linear_gaussian_inputs(mean, cov, A, noise_cov, b)
    V = L_S.T @ A.T                                                   # A Sigma A^T = V^T V
    return A @ mu + b, symmetrize(V.T @ V + R)


def linear_gaussian_posterior(mean, cov, A, noise_cov, y, b=None, *, method="auto"):
    r"""Posterior of :math:`x` given an observation :math:`y` of :math:`y = Ax + b + \epsilon`.

    Parameters
    ----------
    mean : array of shape (d,)
        Prior mean :math:`\mu`.
    cov : array of shape (d, d)
        Prior covariance :math:`\Sigma`, symmetric positive definite.
    A : array of shape (m, d)
    noise_cov : array of shape (m, m)
        Noise covariance :math:`R`, symmetric positive definite.
    y : array of shape (m,)
        The observation.
    b : array of shape (m,), optional
        Offset (default 0).
    method : {"auto", "covariance", "precision"}
        ``"covariance"`` factorises an m x m matrix (the gain form), ``"precision"`` a d x d one. Both give
        the same posterior in exact arithmetic; ``"auto"`` is the precision form, whose covariance
        :math:`H^\top H` is positive semi-definite by construction. The gain form subtracts
        :math:`KA\Sigma` from :math:`\Sigma` and can lose the posterior covariance to cancellation when
        the observations are much more precise than the prior (prior variances 1e6..1e-6 and noise 1e-12
        gave a negative eigenvalue); use it for its smaller system only on well-scaled problems.

    Returns
    -------
    mean_post : ndarray of shape (d,)
    cov_post : ndarray of shape (d, d)

    Notes
    -----
    Covariance (gain) form, from conditioning the joint Gaussian of :math:`(x, y)`:

    .. math::

        K = \Sigma A^\top (A\Sigma A^\top + R)^{-1},\quad
        \mu_{x\mid y} = \mu + K(y - A\mu - b),\quad \Sigma_{x\mid y} = \Sigma - K A \Sigma ,

    computed with the Cholesky factor of :math:`A\Sigma A^\top + R` and triangular solves.

    Precision form (equal by the Woodbury identity):

    .. math::

        \Sigma_{x\mid y} = (\Sigma^{-1} + A^\top R^{-1} A)^{-1},\quad
        \mu_{x\mid y} = \Sigma_{x\mid y}\big(\Sigma^{-1}\mu + A^\top R^{-1}(y - b)\big)
        = \mu + \Sigma_{x\mid y} A^\top R^{-1}(y - A\mu - b).

    Forming :math:`\Sigma^{-1}` explicitly would cost the digits that :math:`\Sigma`'s condition
    number takes, so the precision is whitened by :math:`\Sigma = L_\Sigma L_\Sigma^\top` and
    :math:`R = L_R L_R^\top` instead: with :math:`U = L_R^{-1} A L_\Sigma` (m x d),

    .. math::

        \Sigma^{-1} + A^\top R^{-1} A = L_\Sigma^{-\top}(I + U^\top U)L_\Sigma^{-1},\qquad
        \Sigma_{x\mid y} = H^\top H,\quad H = J^{-1} L_\Sigma^\top,

    where :math:`I + U^\top U = JJ^\top` is factorised through the QR factorisation of the stacked
    :math:`[U; I]` (so :math:`U^\top U` is never formed, which would square :math:`U`'s condition number), and :math:`\mu_{x\mid y} = \mu + H^\top J^{-1} U^\top L_R^{-1}(y - A\mu - b)`.
    Only triangular solves: no inverse is formed in either method.

    Derived in chapter 3, *Probability and Gaussians*.
    """
    mu, S, L_S, A, R, L_R, b = _linear_gaussian_inputs(mean, cov, A, noise_cov, b)
    m, d = A.shape
    y = mean_vector(y, m, "y", "A has {d} rows")
    if check_option(method, "method", METHODS) == "auto":
        method = "precision"
    residual = y - A @ mu - b
    if method == "covariance":
        V = L_S.T @ A.T                                                       # A Sigma A^T = V^T V
        L = linalg.cholesky(symmetrize(V.T @ V + R), lower=True)
        mean_post, cov_post, _ = condition_on_factor(mu, S, L, A @ S, residual)  # Cov[y, x] = A Sigma
        return mean_post, cov_post
    U = linalg.solve_triangular(L_R, A @ L_S, lower=True)                     # L_R^{-1} A L_Sigma, (m, d)
    # I + U^T U = J J^T from the QR factorisation of [U; I], which does not square U's condition number
    J = linalg.qr(np.vstack([U, np.eye(d)]), mode="r")[0][:d].T
    H = linalg.solve_triangular(J, L_S.T, lower=True)                         # J^{-1} L_Sigma^T
    w = linalg.solve_triangular(J, U.T @ linalg.solve_triangular(L_R, residual, lower=True), lower=True)
    return mu + H.T @ w, symmetrize(H.T @ H)
