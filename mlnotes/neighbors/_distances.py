r"""Distances between samples (chapter 18, *Nearest neighbours and evaluation*).

The metrics of the chapter: the Minkowski distances :math:`L_p` (``"euclidean"`` :math:`p = 2`, ``"manhattan"``
:math:`p = 1`, ``"chebyshev"`` :math:`p = \infty`, ``"minkowski"`` any :math:`p > 0`), the Mahalanobis distance
:math:`\sqrt{(x - y)^\top V^{-1} (x - y)}` and the cosine distance :math:`1 - x^\top y/(\lVert x\rVert\lVert y\rVert)`.
:func:`pairwise_distances` gives the matrix of all pairs; :class:`Metric` is the validated metric that the
nearest-neighbour search of :mod:`mlnotes.neighbors` uses (a fast proxy for ranking, the direct formula for the
distances it returns).
"""

from numbers import Real

import numpy as np
from scipy.spatial.distance import cdist

from ..utils.validation import as_float_matrix, check_option, check_same_features, check_scalar

#: The metric names accepted, and the aliases scikit-learn accepts for them.
METRICS = ("euclidean", "manhattan", "chebyshev", "minkowski", "cosine", "mahalanobis")
ALIASES = {"l2": "euclidean", "l1": "manhattan", "cityblock": "manhattan", "infinity": "chebyshev"}

#: Elements of the (block, n_Y, d) difference array of the direct formulas (2**21 doubles: 16 MB).
_BLOCK_ELEMENTS = 2**21
#: The metrics whose distances scipy's compiled ``cdist`` computes (its names), faster than the difference
#: array; the general Minkowski distance is not among them: numpy's vectorised power beats cdist's pow per term.
_CDIST_NAMES = {"manhattan": "cityblock", "chebyshev": "chebyshev"}
_EPS = np.finfo(np.float64).eps


def _check_inverse_covariance(VI, V, n_features):
    """``VI`` (or the inverse of ``V``) as a symmetric positive definite (d, d) float matrix, with its Cholesky
    factor; a clear ValueError otherwise."""
    if (VI is None) == (V is None):
        raise ValueError("the mahalanobis metric needs exactly one of VI (the inverse covariance matrix) or V (the "
                         "covariance matrix), e.g. metric_params={'VI': np.linalg.inv(np.cov(X.T))}")
    name = "VI" if VI is not None else "V"
    M = as_float_matrix(VI if VI is not None else V, name)
    if M.shape != (n_features, n_features):
        raise ValueError(f"{name} must be a square matrix of shape ({n_features}, {n_features}) (one row and column per "
                         f"feature), got shape {M.shape}")
    if not np.allclose(M, M.T, rtol=1e-10, atol=1e-12 * np.abs(M).max()):
        raise ValueError(f"{name} must be symmetric, got a matrix with max |{name} - {name}^T| = "
                         f"{np.abs(M - M.T).max():.3g}")
    M = (M + M.T) / 2
    eigenvalues = np.linalg.eigvalsh(M)
    smallest, largest = eigenvalues[0], eigenvalues[-1]
    if smallest <= n_features * _EPS * max(largest, 0.0):      # below rounding: singular to working precision
        raise ValueError(f"{name} must be positive definite (a Mahalanobis distance needs an invertible covariance), "
                         f"but its smallest eigenvalue is {smallest:.3g} (largest {largest:.3g}): singular or "
                         f"indefinite to working precision")
    VI = M if name == "VI" else np.linalg.inv(M)
    VI = (VI + VI.T) / 2
    return VI, np.linalg.cholesky(VI)


class Metric:
    r"""A validated distance: its name, its parameters, and the computations the neighbour search needs.

    Parameters
    ----------
    metric : str
        One of :data:`METRICS` or an alias of :data:`ALIASES`. ``"minkowski"`` with :math:`p = 1, 2, \infty` becomes
        ``"manhattan"``, ``"euclidean"``, ``"chebyshev"`` (scikit-learn's ``effective_metric_``).
    n_features : int
        The dimension :math:`d` (the Mahalanobis matrix must be :math:`d \times d`).
    p : float > 0, optional
        The exponent of ``"minkowski"`` (default 2).
    VI, V : array of shape (n_features, n_features), optional
        ``"mahalanobis"``: the inverse covariance, or the covariance (inverted here); symmetric positive definite.

    Attributes
    ----------
    name : str
        The effective metric.
    params : dict
        Its parameters (``{"p": p}``, ``{"VI": VI}`` or ``{}``).

    Notes
    -----
    ``rank(X, Y)`` gives the values the search ranks by: a monotone function of the distance (the :math:`p`-th power
    for the Minkowski family). For ``"euclidean"``, ``"mahalanobis"`` and ``"cosine"`` a fast *proxy* is available
    (``gram = True``): :math:`\lVert z_y\rVert^2 - 2 z_x^\top z_y` by one matrix product on transformed rows
    :math:`z` (the Cholesky factor of :math:`V^{-1}`; the rows scaled to unit norm), with a bound on its rounding
    error; the search then recomputes the candidates by the direct formula (:meth:`rank_pairs`).
    """

    def __init__(self, metric, n_features, *, p=None, VI=None, V=None):
        if not isinstance(metric, str):
            raise TypeError(f"metric must be a string, one of {METRICS}, got {type(metric).__name__} {metric!r}")
        name = check_option(ALIASES.get(metric, metric), "metric", METRICS)
        self.n_features = n_features
        self.params = {}
        if name == "minkowski":
            p = 2.0 if p is None else check_scalar(p, "p", Real, min_val=0, include_boundaries="neither",
                                                   allow_inf=True)
            name = {1.0: "manhattan", 2.0: "euclidean", np.inf: "chebyshev"}.get(p, "minkowski")
            if name == "minkowski":
                self.params = {"p": p}
        elif p is not None and name != "minkowski":
            check_scalar(p, "p", Real, min_val=0, include_boundaries="neither", allow_inf=True)
        if name == "mahalanobis":
            self.VI, self._L = _check_inverse_covariance(VI, V, n_features)
            self.params = {"VI": self.VI}
        elif VI is not None or V is not None:
            raise ValueError(f"VI and V are parameters of the mahalanobis metric, not of {name!r}")
        self.name = name
        self.gram = name in ("euclidean", "mahalanobis", "cosine")

    # --- the direct formulas -------------------------------------------------------------------------------
    def _rank_diff(self, diff):
        """Rank values from differences ``x - y`` of shape (..., d), reduced over the last axis."""
        if self.name == "euclidean":
            return np.einsum("...k,...k->...", diff, diff)
        if self.name == "manhattan":
            return np.abs(diff).sum(axis=-1)
        if self.name == "chebyshev":
            return np.abs(diff).max(axis=-1)
        if self.name == "minkowski":
            return (np.abs(diff) ** self.params["p"]).sum(axis=-1)
        # mahalanobis: the quadratic form, clipped at 0 against rounding
        return np.maximum(np.einsum("...k,kl,...l->...", diff, self.VI, diff), 0.0)

    def _unit(self, A):
        """Rows scaled to unit Euclidean norm; zero rows stay zero (cosine distance 1 to everything, as
        scikit-learn's ``normalize``)."""
        norms = np.sqrt(np.einsum("ij,ij->i", A, A))
        norms[norms == 0] = 1.0
        return A / norms[:, None]

    def rank_pairs(self, X, Y_rows):
        """Rank values of the pairs ``(X[i], Y_rows[i, c])`` by the direct formula.

        Parameters
        ----------
        X : ndarray of shape (n, d)
        Y_rows : ndarray of shape (n, c, d)

        Returns
        -------
        ndarray of shape (n, c)
        """
        if self.name == "cosine":
            dots = np.einsum("ik,ick->ic", self._unit(X), Y_rows)      # Y_rows are already unit rows
            return np.clip(1.0 - dots, 0.0, 2.0)
        return self._rank_diff(X[:, None, :] - Y_rows)

    def prepare(self, Y):
        """The training rows in the form :meth:`rank_pairs` and :meth:`proxy` take (unit rows for cosine)."""
        return self._unit(Y) if self.name == "cosine" else Y

    def rank(self, X, Y_prepared):
        """Rank values of every pair, by the direct formula, shape (n_X, n_Y): :func:`scipy.spatial.distance.cdist`
        for the Manhattan and Chebyshev distances, else in blocks of rows (a (block, n_Y, d) difference array)."""
        if self.name in _CDIST_NAMES:
            return cdist(X, Y_prepared, _CDIST_NAMES[self.name])
        n_X, n_Y = X.shape[0], Y_prepared.shape[0]
        out = np.empty((n_X, n_Y))
        rows = max(1, _BLOCK_ELEMENTS // max(1, n_Y * X.shape[1]))
        for start in range(0, n_X, rows):
            block = slice(start, start + rows)
            out[block] = self.rank_pairs(X[block], np.broadcast_to(Y_prepared, (X[block].shape[0],) + Y_prepared.shape))
        return out

    def to_distance(self, R):
        """Distances from rank values (in place when possible)."""
        if self.name in ("euclidean", "mahalanobis"):
            return np.sqrt(R, out=R)
        if self.name == "minkowski":
            return np.power(R, 1.0 / self.params["p"], out=R)
        return R

    # --- the fast proxy of the Gram metrics ------------------------------------------------------------------
    def transform(self, A):
        r"""The rows :math:`z` whose Euclidean geometry is the metric's: :math:`z = L^\top x` (Mahalanobis,
        :math:`V^{-1} = LL^\top`), :math:`x/\lVert x\rVert` (cosine), :math:`x` (Euclidean)."""
        if self.name == "mahalanobis":
            return A @ self._L
        if self.name == "cosine":
            return self._unit(A)
        return A

    def proxy_bound(self, x_sq_norms, y_max_sq_norm):
        r"""A bound on the rounding error of the proxy against the direct formula, per query row:
        :math:`8(d + 4)\,\epsilon\, s\,(\lVert x\rVert^2 + \max_j\lVert y_j\rVert^2)` with the norms of the prepared
        rows (unit rows for cosine) and :math:`s = \lVert L\rVert_F^2` for Mahalanobis (else 1): the rounding of
        the products :math:`x^\top y` and of the transform :math:`L^\top x`, with a factor 2 to spare."""
        scale = float(np.sum(self._L**2)) if self.name == "mahalanobis" else 1.0
        return 8.0 * (self.n_features + 4) * _EPS * scale * (x_sq_norms + y_max_sq_norm)


def pairwise_distances(X, Y=None, metric="euclidean", *, p=None, VI=None, V=None):
    r"""The distances :math:`D_{ij} = \operatorname{dist}(x_i, y_j)` of all pairs of rows.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``Y = X``.
    metric : str, default "euclidean"
        ``"euclidean"`` (alias ``"l2"``), ``"manhattan"`` (``"l1"``, ``"cityblock"``), ``"chebyshev"``
        (``"infinity"``), ``"minkowski"`` (with ``p``), ``"cosine"``, ``"mahalanobis"`` (with ``VI`` or ``V``).
    p : float > 0, optional
        Exponent of ``"minkowski"``, :math:`\big(\sum_k \lvert x_k - y_k\rvert^p\big)^{1/p}`; default 2.
        (For :math:`p < 1` this is not a metric: the triangle inequality fails.)
    VI, V : array-like of shape (n_features, n_features), optional
        ``"mahalanobis"``: the inverse covariance matrix :math:`V^{-1}`, or the covariance :math:`V`;
        symmetric positive definite.

    Returns
    -------
    D : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    TypeError
        If ``X``, ``Y`` or a matrix is not numeric, or ``metric`` is not a string.
    ValueError
        Unknown metric; ``p <= 0``; a ``VI``/``V`` that is not square (d, d), symmetric and positive definite, or
        both/neither given; NaN or infinity; empty or non-2-D input; different numbers of features.

    Notes
    -----
    Every distance is computed by its direct formula (no :math:`\lVert x\rVert^2 - 2x^\top y + \lVert y\rVert^2`
    cancellation), so the values equal :func:`scipy.spatial.distance.cdist`'s to rounding (the Manhattan and
    Chebyshev distances are cdist's); the cosine distance of a zero vector is 1 to every point (scikit-learn's
    convention; scipy's is undefined). Chapter 18.
    """
    X = as_float_matrix(X, "X")
    Y = X if Y is None else as_float_matrix(Y, "Y")
    check_same_features(X, Y)
    m = Metric(metric, X.shape[1], p=p, VI=VI, V=V)
    return m.to_distance(m.rank(X, m.prepare(Y)))
