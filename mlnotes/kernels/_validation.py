r"""Validation of kernel matrices for the methods that take one (chapter 15: Mercer's condition)."""

from numbers import Integral, Real

import numpy as np

from ..utils.validation import as_float_matrix, check_bool, check_scalar


def check_kernel_matrix(K, name="K", *, shape=None, require_psd=True, require_symmetric=None, tol=1e-10):
    r"""Validate a kernel matrix and return it as a float array.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples), or (n_samples_X, n_samples_Y) between two sample sets
    name : str, default "K"
        The argument's name, used in the messages.
    shape : tuple of (int or None, int or None), optional
        The expected shape; ``None`` in a place accepts any size (e.g. ``(None, n_train)`` for the kernel
        between test points and the training points).
    require_psd : bool, default True
        Require a symmetric positive semidefinite matrix (and so a square one): the Gram matrix of a valid
        kernel on one sample set, as kernel ridge, kernel PCA and Gaussian processes need.
    require_symmetric : bool, optional
        Require a square symmetric matrix; default: the same as ``require_psd``.
    tol : float, default 1e-10
        Relative tolerance for rounding: symmetric when :math:`\max|K - K^\top| \le \mathrm{tol}\,\max|K|`,
        positive semidefinite when :math:`\lambda_{\min}(K) \ge -\mathrm{tol}\,\max_i|\lambda_i(K)|`.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    TypeError
        If ``K`` is not numeric, or an option has the wrong type.
    ValueError
        If ``K`` is not 2-D, empty, has NaN or infinity, has the wrong shape, is not square or not symmetric
        where that is required, or is not positive semidefinite (the message gives the smallest eigenvalue).

    Notes
    -----
    Mercer's condition on a finite sample set: :math:`K` is symmetric and

    .. math:: c^\top K c = \sum_{i,j} c_i c_j\, k(x_i, x_j) \ge 0 \quad \text{for every } c \in \mathbb R^n,
        \quad\text{i.e.}\quad \lambda_{\min}(K) \ge 0.

    The test first tries a Cholesky factorisation of :math:`K + \mathrm{tol}\cdot\max_i|K_{ii}|\,I`
    (:math:`\tfrac13 n^3` flops), which succeeds when :math:`\lambda_{\min}(K) > -\mathrm{tol}\max_i|K_{ii}|`,
    a stricter bound since :math:`\max_i |K_{ii}| \le \max_i|\lambda_i|`; only when it fails are the
    eigenvalues computed, to decide and to report the smallest. Chapter 15.
    """
    K = as_float_matrix(K, name)
    require_psd = check_bool(require_psd, "require_psd")
    require_symmetric = require_psd if require_symmetric is None else check_bool(require_symmetric,
                                                                                  "require_symmetric")
    tol = check_scalar(tol, "tol", Real, min_val=0)
    if shape is not None:
        if not isinstance(shape, tuple) or len(shape) != 2:
            raise TypeError(f"shape must be a tuple (n_rows, n_cols) of ints or None, got {shape!r}")
        for size, axis in zip(shape, ("n_rows", "n_cols")):
            if size is not None:
                check_scalar(size, f"shape's {axis}", Integral, min_val=1)
        if any(size is not None and size != actual for size, actual in zip(shape, K.shape)):
            expected = tuple("any" if size is None else size for size in shape)
            raise ValueError(f"{name} must have shape {expected}, got {K.shape}".replace("'", ""))
    if not (require_symmetric or require_psd):
        return K
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square kernel matrix (n_samples, n_samples), got shape {K.shape}")
    asymmetry = np.abs(K - K.T)
    worst = np.unravel_index(np.argmax(asymmetry), K.shape)
    if asymmetry[worst] > tol * np.abs(K).max():
        i, j = worst
        raise ValueError(f"{name} is not symmetric: |{name}[{i}, {j}] - {name}[{j}, {i}]| = {asymmetry[worst]:.3g} "
                         f"> tol * max|{name}| = {tol * np.abs(K).max():.3g}; a kernel has k(x, y) = k(y, x)")
    if require_psd:
        shift = tol * np.abs(np.diag(K)).max()
        try:
            if shift == 0:
                raise np.linalg.LinAlgError
            np.linalg.cholesky(K + shift * np.eye(K.shape[0]))
        except np.linalg.LinAlgError:
            eigenvalues = np.linalg.eigvalsh(K)
            floor = -tol * np.abs(eigenvalues).max()
            if eigenvalues[0] < floor:
                raise ValueError(f"{name} is not positive semidefinite: its smallest eigenvalue is "
                                 f"{eigenvalues[0]:.6g} "
                                 f"(< -tol * max|eigenvalue| = {floor:.3g}), so c^T {name} c < 0 for its eigenvector "
                                 f"c: not the Gram matrix of a kernel (Mercer's condition, chapter 15)") from None
    return K
