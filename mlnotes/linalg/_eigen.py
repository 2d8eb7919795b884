r"""Eigenvalue tools: the positive semi-definiteness test and power iteration (chapter 1,
*Linear algebra*; power iteration is reused by PCA)."""

import warnings
from numbers import Integral

import numpy as np

from ..utils.validation import as_float_vector, check_scalar
from ._validation import as_square_matrix, check_tolerance


def is_psd(A, tol=1e-10):
    r"""Whether :math:`x^\top A x \ge 0` for every :math:`x` (positive semi-definiteness).

    Parameters
    ----------
    A : array of shape (n, n)
        Any real square matrix. It need not be symmetric: the quadratic form only sees the
        symmetric part, :math:`x^\top A x = x^\top S x` with :math:`S = (A + A^\top)/2`, so the
        test is :math:`\lambda_{\min}(S) \ge 0`.
    tol : float, default 1e-10
        Relative tolerance for rounding: ``A`` counts as PSD when
        :math:`\lambda_{\min}(S) \ge -\mathrm{tol}\cdot\max_i |\lambda_i(S)|`.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``A`` is not square (the quadratic form is undefined), not finite, or ``tol < 0``.

    Notes
    -----
    For a symmetric matrix, PSD is equivalent to "no negative eigenvalue". For a non-symmetric
    one, the eigenvalues of ``A`` itself say nothing: :math:`\begin{psmallmatrix}1&4\\0&1\end{psmallmatrix}`
    has eigenvalues 1, 1 and :math:`x^\top A x = -2` at :math:`x = (1, -1)`. Nor does the sign
    of the determinant: :math:`\det(-I_2) = 1`. See chapter 1, *Linear algebra*, errata LA-5
    and LA-6.
    """
    A = as_square_matrix(A)
    tol = check_tolerance(tol, "tol", 1e-10)
    eigenvalues = np.linalg.eigvalsh((A + A.T) / 2)
    return bool(eigenvalues[0] >= -tol * np.abs(eigenvalues).max())


def power_iteration(A, *, n_iter=1000, tol=1e-10, x0=None, random_state=None, return_n_iter=False):
    r"""The dominant eigenpair of a square matrix by power iteration.

    Repeats :math:`x \leftarrow Ax / \lVert Ax\rVert_2` from a random unit vector and estimates
    the eigenvalue by the Rayleigh quotient :math:`\lambda = x^\top A x`. It stops when the
    residual is small, :math:`\lVert Ax - \lambda x\rVert_2 \le \mathrm{tol}\,\lVert A\rVert_F`.

    Parameters
    ----------
    A : array of shape (n, n)
        Meant for symmetric matrices (covariance and Gram matrices), where the eigenvalues are
        real and the iteration converges to an eigenvector of the eigenvalue of largest absolute
        value at the rate :math:`|\lambda_2 / \lambda_1|` per step.
    n_iter : int, default 1000
        Maximum number of matrix-vector products.
    tol : float, default 1e-10
        Relative residual at which to stop. For symmetric ``A`` the returned :math:`\lambda` is
        then within :math:`\mathrm{tol}\,\lVert A\rVert_F` of an eigenvalue.
    x0 : array of shape (n,), optional
        Starting vector (non-zero); random :math:`\mathcal N(0, I)` by default.
    random_state : int, numpy Generator or None
        Seed of the random start.
    return_n_iter : bool, default False
        Also return the number of iterations used.

    Returns
    -------
    lambda_ : float
        The Rayleigh quotient at the final iterate (keeps the sign of the eigenvalue, unlike
        :math:`\lVert Ax\rVert_2`).
    v : array of shape (n,)
        Unit eigenvector estimate; its sign is fixed so that its entry of largest absolute
        value is positive.
    n_iter : int
        Only if ``return_n_iter``.

    Warns
    -----
    ConvergenceWarning
        (scikit-learn's) when the residual is still above ``tol`` after ``n_iter`` steps; the
        last iterate is returned. This happens when the top two eigenvalues are close in absolute
        value and, always, when :math:`\lambda_2 = -\lambda_1` (e.g. ``diag(1, -1)``): the
        iterate then oscillates between two vectors and never settles. Shifting, ``A + cI``,
        separates them.

    Raises
    ------
    ValueError
        If ``A`` is not square or not finite, ``x0`` is zero or of the wrong length, ``n_iter``
        is not a positive integer or ``tol < 0``.

    Notes
    -----
    With :math:`A = V\Lambda V^\top` and :math:`x = \sum_j \alpha_j v_j`,
    :math:`A^s x = \sum_j \alpha_j \lambda_j^s v_j`, dominated by :math:`\alpha_1\lambda_1^s v_1`
    when :math:`|\lambda_1| > |\lambda_2|` and :math:`\alpha_1 \ne 0` (derived in chapter 1,
    *Linear algebra*). A random start has :math:`\alpha_1 \ne 0` with probability one; a start
    orthogonal to :math:`v_1` can converge to another eigenpair. If :math:`\lambda_1` is
    repeated (:math:`\lambda_1 = \lambda_2`), the iteration converges, to *an* eigenvector of
    :math:`\lambda_1`: the projection of the start onto that eigenspace, which depends on the start.
    """
    A = as_square_matrix(A)
    n_iter = check_scalar(n_iter, "n_iter", Integral, min_val=1)
    tol = check_tolerance(tol, "tol", 1e-10)
    n = A.shape[0]
    if x0 is None:
        x = np.random.default_rng(random_state).standard_normal(n)
    else:
        x = as_float_vector(x0, "x0", n).copy()
        if not np.any(x):
            raise ValueError("x0 must be non-zero")
    x /= np.linalg.norm(x)
    scale = np.linalg.norm(A)
    converged = False
    for step in range(1, n_iter + 1):
        z = A @ x
        lambda_ = float(x @ z)
        if np.linalg.norm(z - lambda_ * x) <= tol * scale:  # also stops at once for A = 0
            converged = True
            break
        x = z / np.linalg.norm(z)  # z != 0 here: z = 0 would have passed the residual test
    if not converged:
        lambda_ = float(x @ A @ x)  # the Rayleigh quotient of the iterate that is returned
        # imported here: scikit-learn's package import costs ~0.8 s, which chapter 1 need not pay
        from sklearn.exceptions import ConvergenceWarning

        warnings.warn(f"power iteration did not converge in {n_iter} iterations (residual above "
                      f"tol={tol:g} relative to ||A||_F); the top eigenvalues may be equal in absolute "
                      "value with opposite signs, or too close", ConvergenceWarning, stacklevel=2)
    x = x if x[np.argmax(np.abs(x))] > 0 else -x
    return (lambda_, x, step) if return_n_iter else (lambda_, x)
