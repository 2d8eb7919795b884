r"""Explicit feature maps of kernels (chapter 15, *Feature maps and kernels*).

The polynomial kernel :math:`(\gamma\, x^\top y + c_0)^p` is an inner product of finitely many monomials of
``x``, once each monomial carries the square root of its multinomial weight, the weight the notes drop.
"""

import math
from itertools import combinations_with_replacement
from numbers import Integral, Real

import numpy as np

from ..utils.validation import as_float_matrix, check_bool, check_same_features, check_scalar


def polynomial_features_map(X, degree=3, gamma=None, coef0=1, *, return_powers=False):
    r"""The feature map of the polynomial kernel, :math:`\varphi(x)^\top\varphi(y) = (\gamma\, x^\top y + c_0)^p`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    degree : int, default 3
        The kernel's degree :math:`p \ge 1`.
    gamma : float, optional
        The kernel's :math:`\gamma > 0`; None means :math:`1/d`, as in :func:`polynomial_kernel`.
    coef0 : float, default 1
        The kernel's :math:`c_0 \ge 0` (a negative :math:`c_0` gives a kernel that is not positive
        semidefinite, so it has no real feature map).
    return_powers : bool, default False
        Also return the exponents of the monomial of each feature.

    Returns
    -------
    Phi : ndarray of shape (n_samples, n_output_features)
        :math:`\Phi_{i,k} = \varphi_k(x_i)`. The number of features is :math:`\binom{d + p}{p}` (every
        monomial of degree at most :math:`p`) when :math:`c_0 > 0`, and :math:`\binom{d + p - 1}{p}` (degree
        exactly :math:`p`) when :math:`c_0 = 0`. Ordered by degree, then as
        ``itertools.combinations_with_replacement`` (the order of scikit-learn's ``PolynomialFeatures``).
    powers : ndarray of int of shape (n_output_features, n_features)
        Only if ``return_powers``: ``powers[k, j]`` is the exponent of :math:`x_j` in feature ``k``.

    Raises
    ------
    TypeError
        If ``degree`` is not an integer or ``X`` not numeric.
    ValueError
        If ``degree < 1``, ``gamma <= 0``, ``coef0 < 0``, or ``X`` is not 2-D, empty or not finite.

    Notes
    -----
    By the multinomial theorem, with :math:`k_0 + k_1 + \dots + k_d = p`,

    .. math::
        (\gamma\, x^\top y + c_0)^p = \sum_{k_0 + |k| = p} \frac{p!}{k_0!\,k_1!\cdots k_d!}\,
        c_0^{k_0} \gamma^{|k|} \prod_{j=1}^d (x_j y_j)^{k_j}
        = \sum_k \varphi_k(x)\,\varphi_k(y),
        \qquad
        \varphi_k(x) = \sqrt{\frac{p!\; c_0^{\,p - |k|}\, \gamma^{|k|}}{(p - |k|)!\,k_1!\cdots k_d!}}\;
        \prod_{j=1}^d x_j^{k_j},

    one feature per exponent vector :math:`k \in \mathbb N^d` with :math:`|k| = k_1 + \dots + k_d \le p`.
    Without the square roots of the multinomial weights (e.g. :math:`\sqrt 2\, x_1 x_2` for
    :math:`(x^\top y)^2`) the inner product is a different function. Chapter 15.
    """
    X = as_float_matrix(X, "X")
    degree = check_scalar(degree, "degree", Integral, min_val=1)
    gamma = 1.0 / X.shape[1] if gamma is None else check_scalar(gamma, "gamma", Real, min_val=0,
                                                                   include_boundaries="neither")
    coef0 = check_scalar(coef0, "coef0", Real, min_val=0)
    return_powers = check_bool(return_powers, "return_powers")
    n_samples, d = X.shape
    degrees = range(degree + 1) if coef0 > 0 else [degree]   # with c0 = 0 only |k| = p has a non-zero weight
    combos = [c for m in degrees for c in combinations_with_replacement(range(d), m)]
    Phi = np.empty((n_samples, len(combos)))
    powers = np.zeros((len(combos), d), dtype=int)
    column = {(): np.ones(n_samples)}   # monomial (as sorted indices) -> its values, built one factor at a time

    def monomial(combo):
        if combo not in column:
            column[combo] = monomial(combo[:-1]) * X[:, combo[-1]]
        return column[combo]

    for k, combo in enumerate(combos):
        np.add.at(powers[k], list(combo), 1)
        k0 = degree - len(combo)
        weight = math.factorial(degree) // (math.factorial(k0) * math.prod(math.factorial(int(e)) for e in powers[k]))
        Phi[:, k] = math.sqrt(weight * coef0**k0 * gamma ** len(combo)) * monomial(combo)
    return (Phi, powers) if return_powers else Phi


def mips_transform(X, Y):
    r"""The exact reduction of maximum inner product search to cosine similarity (Bachrach et al., 2014).

    Pads data points and queries of norm at most 1 to unit vectors in :math:`\mathbb R^{d + 2}` whose cosine
    similarity *equals* the inner product of the originals.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
        The data points, each of Euclidean norm at most 1 (divide all of them by the largest norm first:
        that scales every inner product by the same positive number and keeps the order of a search).
    Y : array-like of shape (n_samples_Y, n_features)
        The queries, each of norm at most 1.

    Returns
    -------
    P : ndarray of shape (n_samples_X, n_features + 2)
        :math:`P(x) = \big(\sqrt{1 - \lVert x\rVert^2},\ x,\ 0\big)`.
    Q : ndarray of shape (n_samples_Y, n_features + 2)
        :math:`Q(y) = \big(0,\ y,\ \sqrt{1 - \lVert y\rVert^2}\big)`.

    Raises
    ------
    TypeError
        If ``X`` or ``Y`` is not numeric.
    ValueError
        If ``X`` or ``Y`` is not 2-D, empty or not finite, the feature counts differ, or a row has norm
        greater than 1 (beyond rounding, :math:`10^{-12}`).

    Notes
    -----
    Every row of ``P`` and ``Q`` has norm exactly 1 (up to rounding), and the padding entries never meet, so

    .. math:: \cos\big(P(x), Q(y)\big) = \frac{P(x)^\top Q(y)}{\lVert P(x)\rVert\,\lVert Q(y)\rVert}
        = P(x)^\top Q(y) = x^\top y.

    The largest inner product with a query is therefore the largest cosine: an index built for cosine
    similarity (e.g. by random hyperplanes) answers inner-product queries exactly. Norms within
    :math:`10^{-12}` above 1 are treated as 1. Chapter 15.
    """
    X = as_float_matrix(X, "X")
    Y = as_float_matrix(Y, "Y")
    check_same_features(X, Y)

    def pad(A, name, first):
        squared_norms = np.einsum("ij,ij->i", A, A)
        worst = int(np.argmax(squared_norms))
        if squared_norms[worst] > 1 + 1e-12:
            raise ValueError(f"every row of {name} must have norm at most 1, row {worst} has norm "
                             f"{np.sqrt(squared_norms[worst]):.6g}; divide the data by its largest norm first")
        padding = np.sqrt(np.clip(1 - squared_norms, 0, None))[:, None]
        zeros = np.zeros_like(padding)
        return np.hstack([padding, A, zeros] if first else [zeros, A, padding])

    return pad(X, "X", True), pad(Y, "Y", False)
