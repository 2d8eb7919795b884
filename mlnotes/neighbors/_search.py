r"""The brute-force search for the :math:`k` nearest training points of each query (chapter 18).

The rule for ties, everywhere: training points at equal distance from the query are ordered by their index in the
training set (a stable sort of the pairs (distance, index)), so among points tied at the :math:`k`-th distance the
ones with the lower index are the neighbours.
"""

import numpy as np

#: Entries of one block of the (queries x training points) proxy or rank matrix (2**20 doubles, 8 MB: small
#: blocks stay in cache).
_BLOCK_ENTRIES = 2**20
#: Candidates beyond k recomputed by the direct formula before the result is certified.
_EXTRA = 8


def _stable_smallest(R, k):
    """Columns of the k smallest entries of each row of ``R`` (n_rows, n_columns), sorted by (value, column):
    shape (n_rows, k).

    The entries at most the k-th smallest value of their row are found by ``np.partition``; a row with exactly k
    of them sorts those k (``np.nonzero`` lists them by column, so a stable sort by value orders ties by column);
    a row with more (ties at the k-th value) sorts the whole row, stably."""
    n_rows, n_columns = R.shape
    if k >= n_columns:
        return np.argsort(R, axis=1, kind="stable")[:, :k]
    kth = np.partition(R, k - 1, axis=1)[:, k - 1:k]
    within = R <= kth
    simple = np.count_nonzero(within, axis=1) == k
    ind = np.empty((n_rows, k), dtype=np.intp)
    columns = np.nonzero(within[simple])[1].reshape(-1, k)
    order = np.argsort(np.take_along_axis(R[simple], columns, axis=1), axis=1, kind="stable")
    ind[simple] = np.take_along_axis(columns, order, axis=1)
    tied = ~simple
    ind[tied] = np.argsort(R[tied], axis=1, kind="stable")[:, :k]
    return ind


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
    :math:`\tfrac12\lVert z_x\rVert^2`; :math:`-z_x^\top z_j` for cosine), keeps the :math:`k + 8` smallest (the
    training points in :math:`\sqrt{(k + 8)n}` interleaved groups: only the :math:`k + 8` groups with the smallest minimum
    are searched, by ``np.argpartition``), recomputes those by the direct formula and sorts them by (value, index). The answer is
    certified when every other training point's proxy, less a bound on the proxy's rounding error, exceeds the
    :math:`k`-th direct value; rows that cannot be certified (many points tied at the :math:`k`-th distance) are
    ranked by the direct formula over all training points. So the result is the direct formula's, ties by index,
    with the cost of a matrix product. The other metrics rank every training point by the direct formula
    (:meth:`Metric.rank`), a block of queries at a time, and keep the k smallest (:func:`_stable_smallest`).
    """
    n_queries, n_train = X.shape[0], Y_prepared.shape[0]
    R_out = np.empty((n_queries, k))
    ind_out = np.empty((n_queries, k), dtype=np.intp)
    n_candidates = min(n_train, k + _EXTRA)
    if not metric.gram or n_candidates == n_train:
        rows = max(1, _BLOCK_ENTRIES // n_train)          # Metric.rank bounds its own temporaries
        for start in range(0, n_queries, rows):
            block = slice(start, start + rows)
            R_out[block], ind_out[block] = _exact_rows(metric, X[block], Y_prepared, k)
        return R_out, ind_out
    cosine = metric.name == "cosine"
    # the proxy is offset_j - z_x^T z_j: offset_j = ||z_j||^2 / 2 (Euclidean, Mahalanobis), 0 (cosine)
    offset = np.zeros(n_train) if cosine else z_sq_norms / 2
    # n_groups groups of L training points, group g = {g, g + n_groups, g + 2 n_groups, ...} (padded with points
    # whose proxy is +inf): the block's proxy matrix is read once more, for the minimum of each group (an
    # elementwise minimum of L contiguous rows of length n_groups: fast); only the n_candidates groups with the
    # smallest minima are searched further (every other point's proxy is at least the largest of those minima)
    L = -(-n_train // max(1, int(np.sqrt(n_candidates * n_train))))
    n_groups = -(-n_train // L)
    grouped = n_groups > 2 * n_candidates
    if grouped:
        Z = np.vstack([Z, np.zeros((n_groups * L - n_train, Z.shape[1]))])
        offset = np.concatenate([offset, np.full(n_groups * L - n_train, np.inf)])
    y_max = float(np.einsum("ij,ij->i", Y_prepared, Y_prepared).max())
    rows = max(1, _BLOCK_ENTRIES // Z.shape[0])
    for start in range(0, n_queries, rows):
        block = slice(start, start + rows)
        Xb = X[block]
        Zb = metric.transform(Xb)
        zx = np.einsum("ij,ij->i", Zb, Zb)
        P = Zb @ Z.T
        np.subtract(offset, P, out=P)      # squared distance 2P + ||z_x||^2; cosine distance 1 + P (one pass)
        if grouped:
            group_min = P.reshape(P.shape[0], L, n_groups).min(axis=1)
            groups = np.argpartition(group_min, n_candidates - 1, axis=1)[:, :n_candidates]
            floor = np.take_along_axis(group_min, groups, axis=1).max(axis=1)     # the other groups' minima >=
            columns = (groups[:, None, :] + n_groups * np.arange(L)[:, None]).reshape(P.shape[0], -1)
            values = np.take_along_axis(P, columns, axis=1)
            pick = np.argpartition(values, n_candidates - 1, axis=1)[:, :n_candidates]
            cand = np.take_along_axis(columns, pick, axis=1)
            kth_proxy = np.minimum(floor, np.take_along_axis(values, pick, axis=1).max(axis=1))
        else:
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
