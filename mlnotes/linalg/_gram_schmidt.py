r"""Gram-Schmidt orthonormalisation, classical and modified (chapter 1, *Linear algebra*)."""

import numpy as np

from ..utils.validation import as_float_matrix, check_option
from ._validation import check_tolerance

_METHODS = ("modified", "classical")


def gram_schmidt(A, *, method="modified", tol=None):
    r"""An orthonormal basis of the column space of ``A``, by Gram-Schmidt.

    The columns :math:`a_1, \dots, a_n` are processed in order. Each one loses its components
    along the basis vectors found so far,

    .. math:: \tilde a_j = a_j - \sum_{q \in B} (q^\top a_j)\, q ,

    and :math:`\tilde a_j / \lVert \tilde a_j\rVert_2` joins the basis :math:`B` unless the
    column was (numerically) a combination of the earlier ones.

    Parameters
    ----------
    A : array of shape (m, n)
    method : {"modified", "classical"}, default "modified"
        ``"classical"`` computes all the coefficients :math:`q^\top a_j` from the original column
        (one matrix-vector product, as in the formula above). ``"modified"`` subtracts the
        projections one basis vector at a time, each coefficient computed from the *current*
        residual; the two agree in exact arithmetic, but the modified version loses orthogonality
        in proportion to the condition number :math:`\kappa(A)` instead of :math:`\kappa(A)^2`.
    tol : float, optional
        Relative threshold for dropping a column: :math:`a_j` is treated as dependent on the
        earlier columns, and dropped, when :math:`\lVert \tilde a_j\rVert_2 \le
        \mathrm{tol}\,\lVert a_j\rVert_2` (zero columns are always dropped). Default
        :math:`\sqrt{\epsilon} \approx 1.5\cdot 10^{-8}`: the computed residual of an exactly
        dependent column is a small multiple of :math:`\epsilon` (times the condition number of
        the earlier columns), that of an independent column is of the order of its sine of angle
        to their span. Use ``tol=0`` to keep every column whose residual is not exactly zero.

    Returns
    -------
    Q : array of shape (m, r)
        Orthonormal columns (:math:`Q^\top Q = I_r` up to rounding) spanning the column space of
        ``A``. Dependent columns are dropped, so ``r`` is the rank of ``A`` (in exact arithmetic;
        numerically, the number of columns that are not within ``tol`` of the span of the earlier
        ones). For ``A`` of full column rank, ``Q`` is the ``Q`` of the thin QR factorisation
        with positive diagonal of ``R``.

    Raises
    ------
    ValueError
        If ``A`` is not 2-D, is empty or not finite, ``method`` is unknown or ``tol`` negative.

    Notes
    -----
    Derived in chapter 1, *Linear algebra*, which also shows the loss of orthogonality
    :math:`\lVert Q^\top Q - I\rVert` of both methods against :math:`\kappa(A)`. Gram-Schmidt is
    not rank-revealing: for numerically rank-deficient matrices use :func:`rank` (singular values)
    or a Householder QR (``numpy.linalg.qr``), which is orthogonal to machine precision for
    every ``A``.
    """
    A = as_float_matrix(A, "A")
    check_option(method, "method", _METHODS)
    tol = check_tolerance(tol, "tol", np.sqrt(np.finfo(float).eps))
    m, n = A.shape
    norms = np.linalg.norm(A, axis=0)
    Q = np.empty((m, min(m, n)))
    r = 0
    if method == "classical":
        for j in range(n):
            Qr = Q[:, :r]
            a_tilde = A[:, j] - Qr @ (Qr.T @ A[:, j])
            r = _append_if_independent(Q, r, a_tilde, tol * norms[j])
        return Q[:, :r].copy()
    # modified: once q is accepted, its component is removed from all later columns at once, so
    # that every later coefficient is computed from the current residual
    R = A.copy()
    for j in range(n):
        r_before = r
        r = _append_if_independent(Q, r, R[:, j], tol * norms[j])
        if r > r_before:
            q = Q[:, r - 1]
            R[:, j + 1:] -= np.outer(q, q @ R[:, j + 1:])
    return Q[:, :r].copy()


def _append_if_independent(Q, r, a_tilde, threshold):
    """Store ``a_tilde / |a_tilde|`` as column ``r`` of ``Q`` unless its norm is ``<= threshold``
    (or zero, or ``Q`` is full); return the new number of columns."""
    length = np.linalg.norm(a_tilde)
    if length <= threshold or length == 0.0 or r == Q.shape[1]:
        return r
    Q[:, r] = a_tilde / length
    return r + 1
