r"""The brute-force search for the :math:`k` nearest training points of each query (chapter 18).

The rule for ties, everywhere: training points at equal distance from the query are ordered by their index in the
training set (a stable sort of the pairs (distance, index)), so among points tied at the :math:`k`-th distance the
ones with the lower index are the neighbours.
"""

import numpy as np

#: Entries of one block of the (queries x training points) proxy matrix (2**20 doubles, 8 MB: small blocks stay in cache).
_BLOCK_ENTRIES = 2**20
#: Candidates beyond k recomputed by the direct formula before the result is certified.
_EXTRA = 8


def _stable_smallest(R, k):
    """Columns of the k smallest entries of each row of ``R``, sorted by (value, column)."""
    return np.argsort(R, axis=1, kind="stable")[:, :k]


def _exact_rows(metric, X, Y_prepared, k):
    """The k nearest by the direct formula over all training points (rows of ``X``)."""
    R = metric.rank(X, Y_prepared)
    ind = _stable_smallest(R, k)
    return np.take_along_axis(R, ind, axis=1), ind


def kneighbors_search(metric, X, Y_prepared, Z, z_sq_norms, k):
    r"""The :math:`k` nearest rows of the training set to each row of ``X``, and their rank values.

    Parameters
    ----------
    metric : Metric
    X : ndarray of shape (n_queries, d)
        Validated queries.
    Y_prepared : ndarray of shape (n_train, d)
        The training rows as :meth:`Metric.prepare` gives them.
    Z : ndarray of shape (n_train, d) or None
        The training rows transformed for the fast proxy (:meth:`Metric.transform`), for the Gram metrics.
    z_sq_norms : ndarray of shape (n_train,) or None
        :math:`\lVert z_j\rVert^2`.
    k : int
        :math:`1 \le k \le n_{\text{train}}`.

    Returns
    -------
    R : ndarray of shape (n_queries, k)
        The rank values (:meth:`Metric.to_distance` turns them into distances), non-decreasing along each row.
    ind : ndarray of int of shape (n_queries, k)
        Training indices; equal rank values are ordered by index.

    Notes
    -----
    For the Euclidean, Mahalanobis and cosine metrics the search ranks a block of queries by one matrix product,
    the proxy :math:`\tfrac12\lVert z_j\rVert^2 - z_x^\top z_j` (half the squared distance minus the query's constant
    :math:`\tfrac12\lVert z_x\rVert^2`; :math:`-z_x^\top z_j` for cosine), keeps the :math:`k + 8` smallest with
    ``np.argpartition``, recomputes those by the direct formula and sorts them by (value, index). The answer is
    certified when every other training point's proxy, less a bound on the proxy's rounding error, exceeds the
    :math:`k`-th direct value; rows that cannot be certified (many points tied at the :math:`k`-th distance) are
    ranked by the direct formula over all training points. So the result is the direct formula's, ties by index,
    with the cost of a matrix product. The other metrics use the direct formula in blocks.
    """
    n_queries, n_train = X.shape[0], Y_prepared.shape[0]
    R_out = np.empty((n_queries, k))
    ind_out = np.empty((n_queries, k), dtype=np.intp)
    n_candidates = min(n_train, k + _EXTRA)
    if not metric.gram or n_candidates == n_train:
        rows = max(1, _BLOCK_ENTRIES // max(1, n_train * X.shape[1]))
        for start in range(0, n_queries, rows):
            block = slice(start, start + rows)
            R_out[block], ind_out[block] = _exact_rows(metric, X[block], Y_prepared, k)
        return R_out, ind_out
    cosine = metric.name == "cosine"
    half_sq = z_sq_norms / 2 if not cosine else None
    y_max = float(np.einsum("ij,ij->i", Y_prepared, Y_prepared).max())
    rows = max(1, _BLOCK_ENTRIES // n_train)
    for start in range(0, n_queries, rows):
        block = slice(start, start + rows)
        Xb = X[block]
        Zb = metric.transform(Xb)
        zx = np.einsum("ij,ij->i", Zb, Zb)
        P = Zb @ Z.T
        if cosine:
            np.negative(P, out=P)                      # 1 + P is the cosine distance
        else:
            np.subtract(half_sq, P, out=P)            # 2P + ||z_x||^2 is the squared distance (one pass)
        cand = np.argpartition(P, n_candidates - 1, axis=1)[:, :n_candidates]
        kth_proxy = np.take_along_axis(P, cand, axis=1).max(axis=1)   # every other column is >= this
        R = metric.rank_pairs(Xb, Y_prepared[cand])
        order = np.lexsort((cand, R), axis=1)[:, :k]
        R_k, ind_k = np.take_along_axis(R, order, axis=1), np.take_along_axis(cand, order, axis=1)
        lower = kth_proxy + 1.0 if cosine else 2.0 * kth_proxy + zx
        bound = metric.proxy_bound(1.0 if cosine else np.einsum("ij,ij->i", Xb, Xb), y_max)
        unsure = np.flatnonzero(lower - bound <= R_k[:, -1])
        if unsure.size:
            R_k[unsure], ind_k[unsure] = _exact_rows(metric, Xb[unsure], Y_prepared, k)
        R_out[block], ind_out[block] = R_k, ind_k
    return R_out, ind_out
