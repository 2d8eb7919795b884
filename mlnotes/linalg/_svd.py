r"""Rank, null space and pseudo-inverse from the singular value decomposition.

All three read the SVD :math:`A = U \Sigma V^\top` of chapter 1, *Linear algebra*: the rank is the
number of non-zero singular values, the null space is spanned by the right singular vectors of
the zero singular values, and the pseudo-inverse inverts the non-zero ones. In floating point,
"non-zero" means "above a cut-off"; the defaults are numpy's and scipy's, so the results agree
with ``np.linalg.matrix_rank``, ``scipy.linalg.null_space`` and ``np.linalg.pinv``.
"""

import numpy as np

from ..utils.validation import as_float_matrix
from ._validation import check_tolerance, default_rcond


def singular_values(A):
    r"""The singular values :math:`\sigma_1 \ge \dots \ge \sigma_k \ge 0` of ``A``, :math:`k = \min(m, n)`.

    Parameters
    ----------
    A : array of shape (m, n)

    Returns
    -------
    s : array of shape (min(m, n),)
        In decreasing order; all are non-negative, and exactly :math:`\operatorname{rank} A`
        of them are non-zero (in exact arithmetic).
    """
    A = as_float_matrix(A, "A")
    return np.linalg.svd(A, compute_uv=False)


def rank(A, tol=None):
    r"""Numerical rank of ``A``: the number of singular values above ``tol``.

    Parameters
    ----------
    A : array of shape (m, n)
    tol : float, optional
        Absolute threshold: singular values ``> tol`` count. Default
        ``S.max() * max(m, n) * eps``, as in ``numpy.linalg.matrix_rank``.

    Returns
    -------
    r : int
        :math:`0 \le r \le \min(m, n)`.

    Raises
    ------
    ValueError
        If ``A`` is not 2-D, is empty or not finite, or ``tol`` is negative.

    Notes
    -----
    :math:`\operatorname{rank} A = \#\{i : \sigma_i > 0\}` (derived in chapter 1, *Linear
    algebra*). Counting non-zero *eigenvalues* instead is wrong for matrices that are not
    diagonalisable, e.g. :math:`\begin{psmallmatrix}0&1\\0&0\end{psmallmatrix}` has rank 1 and
    eigenvalues 0, 0.
    """
    A = as_float_matrix(A, "A")
    s = np.linalg.svd(A, compute_uv=False)
    tol = check_tolerance(tol, "tol", s.max() * default_rcond(A))
    return int(np.count_nonzero(s > tol))


def _svd_above(A, rcond):
    """The SVD of validated ``A`` and the number r of singular values ``> rcond * s.max()``."""
    U, s, Vt = np.linalg.svd(A, full_matrices=True)
    rcond = check_tolerance(rcond, "rcond", default_rcond(A))
    r = int(np.count_nonzero(s > rcond * s.max()))
    return U, s, Vt, r


def null_space(A, rcond=None):
    r"""An orthonormal basis of the null space :math:`\ker A = \{x : Ax = 0\}`.

    Parameters
    ----------
    A : array of shape (m, n)
    rcond : float, optional
        Relative cut-off: singular values ``<= rcond * S.max()`` count as zero. Default
        ``max(m, n) * eps``, as in ``scipy.linalg.null_space``.

    Returns
    -------
    N : array of shape (n, n - r)
        Orthonormal columns (:math:`N^\top N = I`) with :math:`AN \approx 0`; ``r`` is the
        numerical rank. The basis is unique only up to a rotation of its columns: compare
        projectors :math:`NN^\top`, not the columns.

    Notes
    -----
    The columns are the right singular vectors :math:`v_{r+1}, \dots, v_n` of the zero singular
    values. Rank-nullity, :math:`\dim\ker A + \operatorname{rank} A = n`, holds by construction
    (chapter 1, *Linear algebra*).
    """
    A = as_float_matrix(A, "A")
    _, _, Vt, r = _svd_above(A, rcond)
    return Vt[r:].T.copy()


def pinv(A, rcond=None):
    r"""The Moore-Penrose pseudo-inverse :math:`A^+ = V \Sigma^+ U^\top`.

    Parameters
    ----------
    A : array of shape (m, n)
    rcond : float, optional
        Relative cut-off: singular values ``<= rcond * S.max()`` are treated as zero (their
        reciprocal is replaced by 0). Default ``max(m, n) * eps`` (numpy's ``pinv`` with
        ``rtol=None``).

    Returns
    -------
    A_pinv : array of shape (n, m)
        Satisfies the four Penrose conditions :math:`AA^+A = A`, :math:`A^+AA^+ = A^+`,
        :math:`(AA^+)^\top = AA^+`, :math:`(A^+A)^\top = A^+A`.

    Notes
    -----
    :math:`\Sigma^+` transposes :math:`\Sigma` and inverts its non-zero entries. For any
    :math:`u`, :math:`x = A^+ u` minimises :math:`\lVert Ax - u\rVert_2` and, among all
    minimisers, has the smallest norm; with full column rank,
    :math:`A^+ = (A^\top A)^{-1} A^\top`. Derived in chapter 1, *Linear algebra*.
    """
    A = as_float_matrix(A, "A")
    U, s, Vt, r = _svd_above(A, rcond)
    return (Vt[:r].T / s[:r]) @ U[:, :r].T
