r"""The steps of Gaussian-process regression as small functions (chapter 17, *Gaussian processes*).

The names are those of the math (Rasmussen and Williams, Algorithm 2.1): the training kernel matrix ``K``
(shape (n, n)), the kernel between test and training points ``K_star`` (shape (m, n)), the test kernel
``K_star_star``, the lower Cholesky factor ``L`` of :math:`K + \sigma^2 I`, the weights
``alpha`` :math:`= (K + \sigma^2 I)^{-1} y` and ``v`` :math:`= L^{-1} K_\star^\top`.
:class:`~mlnotes.gp.GaussianProcessRegressor` is built from these functions.
"""

import numpy as np
from scipy.linalg import cho_solve, cholesky, solve_triangular

from ..kernels import check_kernel_matrix
from ..utils.validation import check_bool, check_scalar

LOG_2PI = np.log(2 * np.pi)

# Each public function validates its arguments when check_input=True (the default); the estimator, which has
# validated its data once, passes check_input=False so that the optimiser's inner loop does not pay for it.


def _check_factor(L):
    """``L`` as a finite square float array with a positive diagonal (a Cholesky factor)."""
    L = check_kernel_matrix(L, "L", require_psd=False)
    if L.shape[0] != L.shape[1] or not (np.diag(L) > 0).all():
        raise ValueError(f"L must be a square lower Cholesky factor with a positive diagonal (from gp_cholesky), "
                         f"got shape {L.shape}")
    return L


def _check_vector(v, name, n):
    """``v`` as a finite float vector of length ``n`` (that of ``L``)."""
    v = np.asarray(v, dtype=float)
    if v.shape != (n,) or not np.isfinite(v).all():
        raise ValueError(f"{name} must be {n} finite numbers (the size of L or K), got shape {v.shape}"
                         + ("" if v.shape != (n,) else " with NaN or inf"))
    return v


def _check_noise(noise, n):
    """``noise`` as a number >= 0 or ``n`` finite numbers >= 0."""
    if np.ndim(noise) == 0:
        return check_scalar(noise, "noise", min_val=0)
    noise = _check_vector(noise, "noise", n)
    if (noise < 0).any():
        raise ValueError(f"noise must be >= 0, got a minimum of {noise.min():.3g}")
    return noise


def gp_cholesky(K, noise=0.0, *, check_input=True):
    r"""The lower Cholesky factor :math:`L` of :math:`K + \sigma^2 I`, or a clear error.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        The training kernel matrix (symmetric positive semidefinite); not modified.
    noise : float >= 0 or ndarray of shape (n,), default 0
        :math:`\sigma^2` added to the diagonal (scikit-learn's ``alpha``): the noise variance, or a jitter.
    check_input : bool, default True
        Check that ``K`` is finite, square and symmetric and ``noise`` finite and >= 0; False skips the checks
        (for a caller that has validated, e.g. inside the hyperparameter search).

    Returns
    -------
    L : ndarray of shape (n, n)
        Lower triangular with :math:`L L^\top = K + \sigma^2 I`.

    Raises
    ------
    ValueError
        On NaN/inf, a non-square or asymmetric ``K``, a negative ``noise`` (with ``check_input``). If :math:`K + \sigma^2 I` is not numerically positive definite (e.g. duplicated inputs with no noise);
        the message says to increase ``alpha`` (or ``noise_level``).

    Notes
    -----
    Jitter policy: the only number added to the diagonal is ``noise`` (``alpha``, default ``1e-10`` in the
    estimator, as in scikit-learn); a failed factorisation is never retried with a larger jitter, so the model
    that is fitted is the model that was asked for. Chapter 17.
    """
    if check_bool(check_input, "check_input"):
        K = check_kernel_matrix(K, "K", require_psd=False, require_symmetric=True)
        noise = _check_noise(noise, K.shape[0])
    A = K.copy(order="F")
    A[np.diag_indices_from(A)] += noise
    try:
        # in place on a Fortran-ordered copy (LAPACK's layout: no further copy)
        return cholesky(A, lower=True, check_finite=False, overwrite_a=True)
    except np.linalg.LinAlgError:
        raise ValueError("K + alpha * I is not positive definite (to working precision), so it has no Cholesky "
                         "factor: the inputs are probably duplicated or nearly so with too little noise. Increase "
                         "alpha (the jitter/noise variance added to the diagonal) or noise_level") from None


def gp_weights(L, y, *, check_input=True):
    r"""The weights :math:`\alpha = (K + \sigma^2 I)^{-1} y = L^{-\top} (L^{-1} y)`.

    Parameters
    ----------
    L : ndarray of shape (n, n)
        Lower Cholesky factor from :func:`gp_cholesky`.
    y : ndarray of shape (n,)
    check_input : bool, default True
        Check ``L`` (finite, square, positive diagonal) and ``y`` (finite, length n); False skips the checks.

    Returns
    -------
    alpha : ndarray of shape (n,)
    """
    if check_bool(check_input, "check_input"):
        L = _check_factor(L)
        y = _check_vector(y, "y", L.shape[0])
    return cho_solve((L, True), y, check_finite=False)


def gp_log_marginal_likelihood(L, y, alpha, *, check_input=True):
    r"""The log marginal likelihood :math:`\log p(y \mid X, \theta)` of a zero-mean Gaussian process.

    Parameters
    ----------
    L : ndarray of shape (n, n)
        Lower Cholesky factor of :math:`K_y = K + \sigma^2 I`.
    y : ndarray of shape (n,)
    alpha : ndarray of shape (n,)
        :math:`K_y^{-1} y` (:func:`gp_weights`).
    check_input : bool, default True
        Check ``L`` (finite, square, positive diagonal), ``y`` and ``alpha`` (finite, length n); False skips.

    Returns
    -------
    float

    Notes
    -----
    .. math::
        \log p(y \mid X, \theta) = -\tfrac12 y^\top K_y^{-1} y - \tfrac12 \log\det K_y - \tfrac n2 \log 2\pi
        = -\tfrac12 y^\top\alpha - \sum_i \log L_{ii} - \tfrac n2 \log 2\pi,

    since :math:`\log\det K_y = 2\sum_i \log L_{ii}`. Chapter 17.
    """
    if check_bool(check_input, "check_input"):
        L = _check_factor(L)
        y, alpha = _check_vector(y, "y", L.shape[0]), _check_vector(alpha, "alpha", L.shape[0])
    return float(-0.5 * (y @ alpha) - np.log(np.diag(L)).sum() - 0.5 * len(y) * LOG_2PI)


def gp_inverse(L, *, check_input=True):
    r""":math:`K_y^{-1}` from its lower Cholesky factor: :math:`L^{-\top}(L^{-1} I)`, two triangular solves.

    Parameters
    ----------
    L : ndarray of shape (n, n)
    check_input : bool, default True
        Check ``L`` (finite, square, positive diagonal); False skips the check.

    Returns
    -------
    K_inv : ndarray of shape (n, n), symmetric

    Notes
    -----
    Two triangular solves with :math:`n` right-hand sides (:math:`2n^3` flops, as scikit-learn does). LAPACK's
    ``potri`` needs a third of the flops, but OpenBLAS's threaded ``potri`` was measured 10 to 1000 times
    slower on this shared 2-core machine (its threads wait for busy cores), so it is not used. Chapter 17.
    """
    if check_bool(check_input, "check_input"):
        L = _check_factor(L)
    return cho_solve((L, True), np.eye(L.shape[0]), check_finite=False)


def gp_lml_gradient(L, alpha, dK, *, check_input=True):
    r"""The gradient of the log marginal likelihood with respect to hyperparameters :math:`\theta_j`.

    Parameters
    ----------
    L : ndarray of shape (n, n)
        Lower Cholesky factor of :math:`K_y`.
    alpha : ndarray of shape (n,)
        :math:`K_y^{-1} y`.
    dK : sequence of ndarray of shape (n, n) or (n,)
        :math:`\partial K_y / \partial\theta_j`, one symmetric matrix per hyperparameter; a vector of shape
        (n,) stands for the diagonal matrix with that diagonal (e.g. :math:`\sigma_n^2 I` for a noise level
        on the log scale), so no :math:`n \times n` identity is formed.
    check_input : bool, default True
        Check ``L``, ``alpha`` and each ``dK_j`` (finite, sizes matching); False skips the checks.

    Returns
    -------
    grad : ndarray of shape (len(dK),)

    Notes
    -----
    .. math::
        \frac{\partial}{\partial\theta_j} \log p(y \mid X, \theta)
        = \tfrac12 y^\top K_y^{-1} \frac{\partial K_y}{\partial\theta_j} K_y^{-1} y
          - \tfrac12 \operatorname{tr}\Big(K_y^{-1} \frac{\partial K_y}{\partial\theta_j}\Big)
        = \tfrac12 \operatorname{tr}\Big((\alpha\alpha^\top - K_y^{-1}) \frac{\partial K_y}{\partial\theta_j}\Big),

    from :math:`\partial K^{-1} = -K^{-1} (\partial K) K^{-1}` and :math:`\partial \log\det K =
    \operatorname{tr}(K^{-1}\partial K)`. The trace of a product of symmetric matrices is the sum of their
    elementwise product, :math:`O(n^2)` per hyperparameter once :math:`W = \alpha\alpha^\top - K_y^{-1}` is
    formed. Chapter 17.
    """
    if check_bool(check_input, "check_input"):
        L = _check_factor(L)
        n = L.shape[0]
        alpha = _check_vector(alpha, "alpha", n)
        dK = [_check_vector(dK_j, f"dK[{j}]", n) if np.ndim(dK_j) == 1 else
              check_kernel_matrix(dK_j, f"dK[{j}]", shape=(n, n), require_psd=False, require_symmetric=True)
              for j, dK_j in enumerate(dK)]
    W = gp_inverse(L, check_input=False)
    np.negative(W, out=W)
    W += np.outer(alpha, alpha)
    return np.array([0.5 * (np.diag(W) @ dK_j if np.ndim(dK_j) == 1 else np.vdot(W, dK_j)) for dK_j in dK])


def gp_predict(L, alpha, K_star, K_star_star=None, K_star_star_diag=None, *, check_input=True):
    r"""Posterior mean, and the posterior covariance or variance, of :math:`f(X_\star)`.

    Parameters
    ----------
    L : ndarray of shape (n, n)
        Lower Cholesky factor of :math:`K + \sigma^2 I`.
    alpha : ndarray of shape (n,)
        :math:`(K + \sigma^2 I)^{-1} y`.
    K_star : ndarray of shape (m, n)
        :math:`k(X_\star, X)`.
    K_star_star : ndarray of shape (m, m), optional
        :math:`k(X_\star, X_\star)`: pass it for the covariance.
    K_star_star_diag : ndarray of shape (m,), optional
        Its diagonal: pass it for the variances only (:math:`O(mn^2)`, no :math:`m \times m` matrix).
    check_input : bool, default True
        Check that every argument is finite and that the sizes match; False skips the checks.

    Returns
    -------
    mean : ndarray of shape (m,)
    cov : ndarray of shape (m, m), if ``K_star_star`` is given
    var : ndarray of shape (m,), if ``K_star_star_diag`` is given
        Not clipped: rounding can make a variance slightly negative where it is 0.

    Notes
    -----
    .. math::
        \bar f_\star = K_\star \alpha, \qquad
        \operatorname{cov}(f_\star) = K_{\star\star} - K_\star (K + \sigma^2 I)^{-1} K_\star^\top
        = K_{\star\star} - v^\top v, \quad v = L^{-1} K_\star^\top.

    Neither depends on :math:`y` except through :math:`\alpha` in the mean: the covariance is a function of
    the inputs only. Chapter 17.
    """
    if check_bool(check_input, "check_input"):
        L = _check_factor(L)
        alpha = _check_vector(alpha, "alpha", L.shape[0])
        K_star = check_kernel_matrix(K_star, "K_star", shape=(None, L.shape[0]), require_psd=False)
        m = K_star.shape[0]
        if K_star_star is not None:
            K_star_star = check_kernel_matrix(K_star_star, "K_star_star", shape=(m, m), require_psd=False)
        if K_star_star_diag is not None:
            K_star_star_diag = _check_vector(K_star_star_diag, "K_star_star_diag", m)
    mean = K_star @ alpha
    if K_star_star is None and K_star_star_diag is None:
        return mean
    v = solve_triangular(L, K_star.T, lower=True, check_finite=False)
    if K_star_star is not None:
        return mean, K_star_star - v.T @ v
    return mean, K_star_star_diag - np.einsum("ij,ij->j", v, v)


def gp_variance_at_training_point(K, noise):
    r"""The exact predictive variances at the training points, in closed form.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Training kernel matrix.
    noise : float > 0
        :math:`\sigma^2`.

    Returns
    -------
    var_f : ndarray of shape (n,)
        :math:`\operatorname{var} f(x_i) = \sigma^2 - \sigma^4 [(K + \sigma^2 I)^{-1}]_{ii}`.
    var_y : ndarray of shape (n,)
        :math:`\operatorname{var} y(x_i) = 2\sigma^2 - \sigma^4 [(K + \sigma^2 I)^{-1}]_{ii} < 2\sigma^2`.

    Notes
    -----
    With :math:`K_y = K + \sigma^2 I`, :math:`K K_y^{-1} K = (K_y - \sigma^2 I) K_y^{-1} (K_y - \sigma^2 I)
    = K - \sigma^2 I + \sigma^4 K_y^{-1}`, so :math:`K_{ii} - [K K_y^{-1} K]_{ii} = \sigma^2 - \sigma^4
    [K_y^{-1}]_{ii}`. The notes' :math:`2\sigma^2` (004 line 1417) is the first-order term only. Chapter 17.
    """
    noise = check_scalar(noise, "noise", min_val=0, include_boundaries="neither")
    K_inv = gp_inverse(gp_cholesky(K, noise), check_input=False)
    var_f = noise - noise ** 2 * np.diag(K_inv)
    return var_f, var_f + noise


__all__ = ["gp_cholesky", "gp_weights", "gp_log_marginal_likelihood", "gp_inverse", "gp_lml_gradient",
           "gp_predict", "gp_variance_at_training_point"]
