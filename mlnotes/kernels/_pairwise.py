r"""Kernel matrices of two sample sets (chapter 15, *Feature maps and kernels*).

Each function takes ``X`` of shape (n_samples_X, n_features) and ``Y`` of shape (n_samples_Y, n_features)
(``Y=None`` means ``Y = X``) and returns the matrix :math:`K_{ij} = k(x_i, y_j)` of shape
(n_samples_X, n_samples_Y). Signatures, defaults (``gamma=None`` is :math:`1/d`, ``d`` the number of
features) and results are those of :mod:`sklearn.metrics.pairwise`; the values agree with scikit-learn's to
rounding (the tests ask for 1e-12), because the formulas are evaluated in the same order.
"""

import inspect
from numbers import Integral, Real

import numpy as np
from scipy.spatial.distance import cdist

from ..utils.validation import as_float_matrix, check_same_features, check_scalar


def _check_pair(X, Y):
    """Validate ``X`` and ``Y`` (real, finite, non-empty, 2-D, the same number of features).

    Returns ``(X, Y, same)``: the float arrays, and whether ``Y`` is ``X`` (``Y`` None or the same object), in
    which case the returned ``Y`` is the returned ``X``.
    """
    same = Y is None or Y is X
    for A, name in ((X, "X"), (None if same else Y, "Y")):
        if np.iscomplexobj(A):
            raise ValueError(f"{name} is complex: Complex data not supported (a kernel here is real; pass the real "
                             f"and imaginary parts as separate features)")
    X = as_float_matrix(X, "X")
    if same:
        return X, X, True
    Y = as_float_matrix(Y, "Y")
    check_same_features(X, Y)
    return X, Y, False


def _gamma(gamma, X):
    """``gamma``, or :math:`1/d` when it is None; it must be a positive real number."""
    if gamma is None:
        return 1.0 / X.shape[1]
    return check_scalar(gamma, "gamma", Real, min_val=0, include_boundaries="neither")


def _affine_gram(X, Y, gamma, coef0):
    r""":math:`\gamma\, XY^\top + c_0` on validated data: the inner argument of the polynomial and sigmoid
    kernels."""
    X, Y, _ = _check_pair(X, Y)
    gamma = _gamma(gamma, X)
    coef0 = check_scalar(coef0, "coef0")
    K = X @ Y.T
    K *= gamma
    K += coef0
    return K


def squared_euclidean_distances(X, Y=None):
    r"""Squared Euclidean distances :math:`D_{ij} = \lVert x_i - y_j\rVert_2^2` of all pairs of rows.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.

    Returns
    -------
    D : ndarray of shape (n_samples_X, n_samples_Y)
        Non-negative; when ``Y`` is ``X`` (or None) the diagonal is exactly zero.

    Raises
    ------
    TypeError
        If ``X`` or ``Y`` is not numeric.
    ValueError
        If ``X`` or ``Y`` is complex (as scikit-learn), not 2-D, empty or not finite, or their feature counts differ.

    Notes
    -----
    One matrix product instead of a loop over pairs:

    .. math::
        \lVert x - y\rVert^2 = \lVert x\rVert^2 + \lVert y\rVert^2 - 2\,x^\top y,
        \qquad D = \max\big(\operatorname{diag}(XX^\top)\,\mathbf 1^\top + \mathbf 1\,\operatorname{diag}(YY^\top)^\top
        - 2XY^\top,\ 0\big).

    The subtraction cancels when :math:`x \approx y` far from the origin, so a distance can come out
    slightly negative: it is clipped at 0, and :math:`D_{ii}` is set to the exact 0 when ``Y`` is ``X``.
    This is scikit-learn's ``euclidean_distances(X, Y, squared=True)`` for float64 input, in the same order
    of operations. Chapter 15.
    """
    X, Y, same = _check_pair(X, Y)
    return _squared_distances(X, Y, same)


def _squared_distances(X, Y, same):
    XX = np.einsum("ij,ij->i", X, X)
    YY = XX if same else np.einsum("ij,ij->i", Y, Y)
    D = X @ Y.T
    D *= -2
    D += XX[:, None]
    D += YY[None, :]
    np.maximum(D, 0, out=D)
    if same:
        np.fill_diagonal(D, 0)
    return D


def linear_kernel(X, Y=None):
    r"""The linear kernel :math:`k(x, y) = x^\top y`: the Gram matrix :math:`K = XY^\top`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    TypeError, ValueError
        On non-numeric, non-2-D, empty or non-finite input, or different feature counts.

    Notes
    -----
    .. math:: K_{ij} = x_i^\top y_j, \qquad K = XY^\top.

    Chapter 15.
    """
    X, Y, _ = _check_pair(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1):
    r"""The polynomial kernel :math:`k(x, y) = (\gamma\, x^\top y + c_0)^p`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.
    degree : int, default 3
        The degree :math:`p \ge 0`, an integer. ``degree=0`` gives the constant kernel 1, the kernel of
        scikit-learn's ``SVC(kernel="poly", degree=0)`` (its ``polynomial_kernel`` function rejects 0).
    gamma : float, optional
        The scale :math:`\gamma > 0` of the inner product; None means :math:`1/d`.
    coef0 : float, default 1
        The constant :math:`c_0`. With :math:`c_0 \ge 0` the kernel is positive semidefinite; its
        feature map is :func:`polynomial_features_map`.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    TypeError
        If ``degree`` is not an integer, ``gamma``/``coef0`` not real, or the data not numeric.
    ValueError
        If ``degree < 0``, ``gamma <= 0`` or not finite, or on bad data (see :func:`linear_kernel`).

    Notes
    -----
    .. math:: K = \big(\gamma\, XY^\top + c_0\big)^{\circ p} \quad\text{(entrywise power)}.

    scikit-learn also accepts a real ``degree``; here it is an integer, the case with a finite feature map.
    Chapter 15.
    """
    degree = check_scalar(degree, "degree", Integral, min_val=0)
    K = _affine_gram(X, Y, gamma, coef0)
    K **= degree
    return K


def rbf_kernel(X, Y=None, gamma=None):
    r"""The Gaussian (RBF) kernel :math:`k(x, y) = \exp(-\gamma\,\lVert x - y\rVert_2^2)`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.
    gamma : float, optional
        The inverse width :math:`\gamma > 0`; None means :math:`1/d`. A Gaussian of standard deviation
        :math:`\sigma`, :math:`\exp(-\lVert x-y\rVert^2 / (2\sigma^2))`, is :math:`\gamma = 1/(2\sigma^2)`.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)
        Entries in :math:`[0, 1]`; the diagonal is exactly 1 when ``Y`` is ``X``.

    Raises
    ------
    TypeError, ValueError
        On bad data (see :func:`linear_kernel`) or ``gamma <= 0``.

    Notes
    -----
    .. math:: K_{ij} = \exp\!\big(-\gamma\, D_{ij}\big),

    with :math:`D` the squared distances of :func:`squared_euclidean_distances` (clipped at 0, exact zeros on
    the diagonal). Chapter 15.
    """
    X, Y, same = _check_pair(X, Y)
    gamma = _gamma(gamma, X)
    K = _squared_distances(X, Y, same)
    K *= -gamma
    np.exp(K, out=K)
    return K


def laplacian_kernel(X, Y=None, gamma=None):
    r"""The Laplacian kernel :math:`k(x, y) = \exp(-\gamma\,\lVert x - y\rVert_1)`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.
    gamma : float, optional
        :math:`\gamma > 0`; None means :math:`1/d`.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    TypeError, ValueError
        On bad data (see :func:`linear_kernel`) or ``gamma <= 0``.

    Notes
    -----
    .. math:: K_{ij} = \exp\!\Big(-\gamma \sum_{k=1}^d |x_{ik} - y_{jk}|\Big).

    The :math:`\ell_1` distances come from :func:`scipy.spatial.distance.cdist` (``"cityblock"``), as in
    scikit-learn. Chapter 15.
    """
    X, Y, _ = _check_pair(X, Y)
    gamma = _gamma(gamma, X)
    K = -gamma * cdist(X, Y, "cityblock")
    np.exp(K, out=K)
    return K


def sigmoid_kernel(X, Y=None, gamma=None, coef0=1):
    r"""The sigmoid (hyperbolic tangent) kernel :math:`k(x, y) = \tanh(\gamma\, x^\top y + c_0)`.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.
    gamma : float, optional
        :math:`\gamma > 0`; None means :math:`1/d`.
    coef0 : float, default 1
        The offset :math:`c_0`.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    TypeError, ValueError
        On bad data (see :func:`linear_kernel`), ``gamma <= 0`` or a non-finite ``coef0``.

    Notes
    -----
    .. math:: K = \tanh\big(\gamma\, XY^\top + c_0\big) \quad\text{(entrywise)}.

    Not positive semidefinite in general (it fails Mercer's condition, chapter 15), although SVMs use it.
    """
    K = _affine_gram(X, Y, gamma, coef0)
    np.tanh(K, out=K)
    return K


def kernel_diagonal(kernel, X, *, block_size=256):
    r"""The diagonal :math:`k(x_i, x_i)` of a kernel matrix, without the whole :math:`n \times n` matrix.

    Parameters
    ----------
    kernel : callable
        ``kernel(A, B)`` returns the kernel matrix between the rows of ``A`` and ``B``, shape (n_A, n_B) (e.g.
        ``lambda A, B: pairwise_kernels(A, B, metric="rbf", gamma=0.5)``).
    X : ndarray of shape (n_samples, n_features)
    block_size : int >= 1, default 256
        Rows per block.

    Returns
    -------
    K_diag : ndarray of shape (n_samples,)

    Notes
    -----
    The diagonals of the diagonal blocks :math:`k(X_b, X_b)`: :math:`n \cdot \text{block\_size}` kernel values
    instead of :math:`n^2`, one matrix product per block. Chapter 15.
    """
    return np.concatenate([np.diag(kernel(X[s:s + block_size], X[s:s + block_size]))
                           for s in range(0, len(X), block_size)])


#: Kernel name -> function, the names scikit-learn's ``pairwise_kernels`` accepts for these kernels.
KERNELS = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "polynomial": polynomial_kernel,
    "rbf": rbf_kernel,
    "laplacian": laplacian_kernel,
    "sigmoid": sigmoid_kernel,
}

#: Kernel name -> the keyword parameters of its function.
KERNEL_PARAMS = {name: tuple(inspect.signature(f).parameters)[2:] for name, f in KERNELS.items()}


def _check_precomputed(X, Y):
    K = as_float_matrix(X, "X (a precomputed kernel matrix)")
    if Y is None or Y is X:
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"a precomputed kernel matrix of X with itself must be square (n_samples, n_samples), "
                             f"got shape {K.shape}")
        return K
    n_indexed = as_float_matrix(Y, "Y").shape[0]
    if K.shape[1] != n_indexed:
        raise ValueError(f"a precomputed kernel matrix must have shape (n_samples_X, n_samples_Y) = "
                         f"({K.shape[0]}, {n_indexed}), got {K.shape}")
    return K


def _callable_kernel(X, Y, same, kernel, params):
    n_X, n_Y = X.shape[0], Y.shape[0]
    K = np.zeros((n_X, n_Y))
    if same:   # the upper triangle, mirrored, then the diagonal (scikit-learn's order)
        for i in range(n_X):
            for j in range(i + 1, n_X):
                K[i, j] = kernel(X[i], X[j], **params)
        K = K + K.T
        for i in range(n_X):
            K[i, i] = kernel(X[i], X[i], **params)
    else:
        for i in range(n_X):
            for j in range(n_Y):
                K[i, j] = kernel(X[i], Y[j], **params)
    return K


def pairwise_kernels(X, Y=None, metric="linear", *, filter_params=False, **params):
    r"""The kernel matrix :math:`K_{ij} = k(x_i, y_j)` of a kernel given by name, as a function, or precomputed.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features), or (n_samples_X, n_samples_Y) if precomputed
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.
    metric : str or callable, default "linear"
        One of ``"linear"``, ``"poly"``/``"polynomial"``, ``"rbf"``, ``"laplacian"``, ``"sigmoid"`` (the
        functions of this module), ``"precomputed"`` (``X`` is the kernel matrix; it is validated and
        returned), or a function ``k(x, y, **params) -> float`` of two rows, called on every pair (a Python
        loop over pairs: meant for small examples, such as a kernel that is not one).
    filter_params : bool, default False
        Drop the entries of ``params`` that the named kernel does not take (so one set of ``gamma``,
        ``degree``, ``coef0`` can be passed for any kernel, as an SVM does); otherwise they raise.
    **params
        The kernel's parameters, e.g. ``gamma=0.5``.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    TypeError
        If ``metric`` is neither a string nor callable, or a named kernel gets a parameter it does not take.
    ValueError
        If ``metric`` is an unknown name, on bad data (see :func:`linear_kernel`), or if a precomputed matrix
        has the wrong shape (square when ``Y`` is None, else ``n_samples_Y`` columns).

    Notes
    -----
    .. math:: K = \big[k(x_i, y_j)\big]_{i \le n_X,\ j \le n_Y}.

    A callable gets the same order of calls as in scikit-learn: when ``Y`` is ``X``, only :math:`i < j`
    and the diagonal are evaluated, and :math:`K_{ji} = K_{ij}`. Chapter 15.
    """
    if isinstance(metric, str):
        if metric == "precomputed":
            if params and not filter_params:
                raise TypeError(f"a precomputed kernel takes no parameters, got {sorted(params)}")
            return _check_precomputed(X, Y)
        if metric not in KERNELS:
            raise ValueError(f"metric must be one of {tuple(KERNELS) + ('precomputed',)} or a callable, "
                             f"got {metric!r}")
        accepted = KERNEL_PARAMS[metric]
        if filter_params:
            params = {key: value for key, value in params.items() if key in accepted}
        unknown = sorted(set(params) - set(accepted))
        if unknown:
            raise TypeError(f"the {metric!r} kernel takes the parameters {accepted}, got {unknown} "
                            f"(pass filter_params=True to drop them)")
        return KERNELS[metric](X, Y, **params)
    if callable(metric):
        X, Y, same = _check_pair(X, Y)
        return _callable_kernel(X, Y, same, metric, params)
    raise TypeError(f"metric must be a kernel name or a callable, got {type(metric).__name__} {metric!r}")
