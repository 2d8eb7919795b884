r"""The least-squares solver of the library: :math:`\min_W \|Y - XW\|_F^2 + \sum_k \alpha_k \|W_{:,k}\|^2`.

One function, four methods, each the one a chapter derives (chapter 9, *Linear regression*): a complete
orthogonal factorisation (LAPACK ``gelsy``, the minimum-norm solution when ``X`` is rank deficient), the
normal equations by Cholesky, and ridge by Cholesky (primal or dual form) or by the SVD. The linear models
(:class:`~mlnotes.linear.LinearRegression`, :class:`~mlnotes.linear.Ridge`, the chapter's step functions),
the robust line fits of chapter 5 (:func:`~mlnotes.linear.fit_linear`) and the polynomial fits of chapter 4
(:func:`~mlnotes.risk.fit_polynomial`) all solve their least-squares problems here.
"""

import numpy as np
from scipy import linalg

METHODS = ("lstsq", "normal", "cholesky", "svd")


def least_squares(X, Y, alpha=0.0, *, method="lstsq", tol=None, sample_weight=None, overwrite_X=False):
    r"""Solve the (ridge-penalised, weighted) least-squares problem for every column of ``Y``.

    Minimises :math:`\sum_i t_i (y_{ik} - x_i^\top w_k)^2 + \alpha_k \|w_k\|^2` for each target ``k``.
    The arrays are assumed validated (finite, matching shapes): the public functions and estimators that
    call it check their input.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    Y : array of shape (n_samples, n_targets)
    alpha : float or array of shape (n_targets,), default 0
        Ridge penalties (0 for ``"lstsq"`` and ``"normal"``; > 0 for ``"cholesky"``).
    method : {"lstsq", "normal", "cholesky", "svd"}, default "lstsq"
        ``"lstsq"``: rank-revealing orthogonal factorisation, singular values below ``tol`` times the
        largest treated as zero; ``"normal"``: :math:`X^\top T X w = X^\top T y` by Cholesky (raises when
        ``X`` lacks full column rank); ``"cholesky"``: :math:`(X^\top X + \alpha I) w = X^\top y`, or the
        dual :math:`w = X^\top (X X^\top + \alpha I)^{-1} y` when ``n_features > n_samples``; ``"svd"``:
        :math:`w = V\,\mathrm{diag}(s_j/(s_j^2 + \alpha))\,U^\top y`, singular values below
        ``max(n, d) * eps * s_max`` treated as zero (the minimum-norm solution at ``alpha = 0``).
    tol : float, optional
        ``"lstsq"`` only: the relative cut-off of the singular values (LAPACK's default if None).
    sample_weight : array of shape (n_samples,), optional
        ``"normal"`` only (the others take :math:`\sqrt{t_i}`-scaled rows).
    overwrite_X : bool, default False
        Let LAPACK destroy ``X`` (``"lstsq"`` and ``"svd"``; saves a copy when the caller owns ``X``).

    Returns
    -------
    W : array of shape (n_features, n_targets)
    rank : int or None
        The numerical rank of ``X`` (``"lstsq"`` and ``"svd"``), None otherwise.

    Raises
    ------
    ValueError
        ``"normal"``: if :math:`X^\top T X` is (numerically) singular; ``"cholesky"``: if an ``alpha`` is not
        positive.
    """
    alphas = np.broadcast_to(np.asarray(alpha, dtype=float), (Y.shape[1],))
    if method == "lstsq":
        W, _, rank, _ = linalg.lstsq(X, Y, cond=tol, lapack_driver="gelsy", check_finite=False,
                                     overwrite_a=overwrite_X)
        return W, int(rank)
    if method == "normal":
        return _normal_equations(X, Y, sample_weight), None
    if method == "cholesky":
        return _ridge_cholesky(X, Y, alphas), None
    if method == "svd":
        return _ridge_svd(X, Y, alphas, overwrite_X)
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def _normal_equations(X, y, t=None):
    """The normal equations on validated, finite arrays (``t=None``: unit weights)."""
    XtT = X.T if t is None else X.T * t
    gram = XtT @ X
    gram_diag_max = np.max(np.diag(gram))
    try:
        factor = linalg.cho_factor(gram, overwrite_a=True)
    except linalg.LinAlgError:
        raise ValueError(
            f"X^T T X is singular: X (shape {X.shape}) does not have full column rank "
            f"{X.shape[1]}; the normal equations have no unique solution"
        ) from None
    if np.min(np.abs(np.diag(factor[0]))) ** 2 < 1e-13 * gram_diag_max:
        raise ValueError(
            f"X^T T X is numerically singular: X (shape {X.shape}) is rank deficient "
            "(collinear columns); the normal equations have no unique solution"
        )
    return linalg.cho_solve(factor, XtT @ y)


def _ridge_cholesky(X, Y, alphas):
    """Ridge by Cholesky on validated arrays: ``Y`` (n_samples, n_targets), ``alphas``
    (n_targets,); returns W of shape (n_features, n_targets)."""
    if (alphas <= 0).any():
        raise ValueError("the Cholesky ridge solver (ridge_closed_form) needs alpha > 0 (X^T X + alpha I is then positive definite)")
    n, d = X.shape
    primal = d <= n
    G = X.T @ X if primal else X @ X.T
    B = X.T @ Y if primal else Y
    W = np.empty((d, Y.shape[1]))
    for a in np.unique(alphas):
        cols = alphas == a
        A = G.copy()
        A.flat[:: A.shape[0] + 1] += a
        sol = linalg.solve(A, B[:, cols], assume_a="pos", overwrite_a=True)
        W[:, cols] = sol if primal else X.T @ sol
    return W


def _ridge_svd(X, Y, alphas, overwrite_X=False):
    """Ridge by the SVD on validated, finite arrays: ``Y`` (n_samples, n_targets), ``alphas``
    (n_targets,); returns W of shape (n_features, n_targets) and the numerical rank. ``overwrite_X=True`` lets LAPACK
    destroy ``X`` (saves a copy when the caller owns it)."""
    shape = X.shape
    U, s, Vt = linalg.svd(X, full_matrices=False, lapack_driver="gesdd", overwrite_a=overwrite_X,
                          check_finite=False)
    # s is sorted in decreasing order, so the kept singular values are a prefix: slice (views)
    rank = int(np.count_nonzero(s > max(shape) * np.finfo(float).eps * (s[0] if s.size else 0.0)))
    s_kept = s[:rank, None]
    shrink = s_kept / (s_kept**2 + alphas[None, :])  # (rank, n_targets)
    return Vt[:rank].T @ (shrink * (U[:, :rank].T @ Y)), rank
