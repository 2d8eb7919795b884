r"""Growing a CART tree level by level, with the split search vectorised over all nodes of a level.

Every feature keeps its samples sorted once (``argsort`` of the column). At each depth the samples of the nodes
still to be split are stored per feature as contiguous segments, one per node, sorted by that feature within the
segment. The (feature, node) pairs to search (all features, or a random subset per node with ``max_features``)
are laid out as one flat array of contiguous segments; one pass of cumulative sums then gives, for every node,
feature and candidate position at once, the class weights (or the weighted target sums) of the left and right
children; the impurities of all candidate children follow elementwise, the best candidate of each (feature, node)
by a segmented maximum (``np.maximum.reduceat``). After the splits, each column is regrouped stably by child (left
child first), which keeps it sorted inside every child: no sort after the first. Python loops run over depths and
classes only.

The rules are scikit-learn's (``BestSplitter`` with ``DepthFirstTreeBuilder``): the same candidate positions
(between sorted values that differ by more than ``1e-7`` in float32), thresholds (the float64 midpoint of the two
float32 values), proxy of the impurity decrease, stopping rules and tolerance ``EPSILON``. Ties: within a feature
the smallest threshold wins (scikit-learn's strict ``>`` along increasing positions); between features with the
same best value the smallest feature index wins (scikit-learn visits the features in a random order and keeps
the first, so the two differ only when two features give exactly the same decrease).
"""

import numpy as np

from ._criteria import class_impurity

#: scikit-learn's tolerance: a node of impurity <= EPSILON is pure; a split must decrease by min - EPSILON.
EPSILON = np.finfo(np.float64).eps
#: Two sorted values closer than this (in float32, as scikit-learn) are not separated by a threshold.
FEATURE_THRESHOLD = np.float32(1e-7)


class _Levels:
    """The nodes created so far, in breadth-first order, as lists of per-level arrays."""

    def __init__(self):
        self.parts = {k: [] for k in ("parent", "is_left", "depth", "n", "w", "impurity", "value")}
        self.split = {k: [] for k in ("node", "feature", "threshold", "improvement")}
        self.count = 0

    def add_level(self, **arrays):
        first = self.count
        for key, arr in arrays.items():
            self.parts[key].append(arr)
        self.count += len(arrays["n"])
        return first

    def add_splits(self, **arrays):
        for key, arr in arrays.items():
            self.split[key].append(arr)


def _node_stats(rows_node, samples, m, target, w, n_classes):
    """Weight, class weights or target sums, value and impurity of ``m`` nodes from their samples."""
    W = np.bincount(rows_node, weights=w[samples], minlength=m)
    if n_classes:
        counts = np.bincount(rows_node * n_classes + target[samples], weights=w[samples],
                             minlength=m * n_classes).reshape(m, n_classes)
        return W, counts, counts / W[:, None]
    mean = np.bincount(rows_node, weights=w[samples] * target[samples], minlength=m) / W
    dev = target[samples] - mean[rows_node]
    variance = np.bincount(rows_node, weights=w[samples] * dev * dev, minlength=m) / W
    return W, variance, mean[:, None]


def build(Xf, target, w, *, n_classes, criterion, max_depth, min_samples_split, min_samples_leaf,
          min_weight_leaf, min_impurity_decrease, max_features, rng):
    r"""Grow a tree; return its arrays in scikit-learn's depth-first (pre-order, left first) node order.

    Parameters
    ----------
    Xf : ndarray of float32, shape (n_samples, n_features)
    target : ndarray of shape (n_samples,)
        Class codes ``0..n_classes-1`` (classification) or float64 targets (regression, ``n_classes=0``).
    w : ndarray of shape (n_samples,)
        Non-negative sample weights.
    n_classes : int
        0 for regression (squared error).
    criterion : str
    max_depth : int or None
    min_samples_split, min_samples_leaf : int
    min_weight_leaf, min_impurity_decrease : float
    max_features : int
        Features drawn at random (a fresh subset at each node) among the ``n_features``.
    rng : numpy.random.Generator or None
        Used only when ``max_features < n_features``.

    Returns
    -------
    dict of ndarrays
        ``children_left``, ``children_right``, ``feature``, ``threshold``, ``impurity``, ``n_node_samples``,
        ``weighted_n_node_samples``, ``value`` (n_nodes, n_outputs=1, n_classes or 1), ``improvement``.
    """
    n, d = Xf.shape
    max_depth = np.inf if max_depth is None else max_depth
    W_total = w.sum()
    cols = np.arange(d)
    S = np.argsort(Xf, axis=0, kind="stable").astype(np.int32)     # (n_active, d) sample ids, sorted per node
    XfT = np.ascontiguousarray(Xf.T).ravel()                        # feature-major values: XfT[f * n + i]
    counts = np.array([n])                                          # samples of each node of the level
    parent_ids = np.array([-1])
    is_left = np.array([False])
    levels = _Levels()
    left_flag = np.zeros(n, dtype=bool)
    depth = 0
    while True:
        m = len(counts)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        rows_node = np.repeat(np.arange(m), counts)
        W, stat, value = _node_stats(rows_node, S[:, 0], m, target, w, n_classes)
        if n_classes:
            impurity = class_impurity(list(stat.T), W, criterion)
        else:
            impurity = stat
        first_id = levels.add_level(parent=parent_ids, is_left=is_left, depth=np.full(m, depth), n=counts, w=W,
                                    impurity=impurity, value=value)
        ids = first_id + np.arange(m)
        splittable = ~((depth >= max_depth) | (counts < min_samples_split) | (counts < 2 * min_samples_leaf)
                       | (W < 2 * min_weight_leaf) | (impurity <= EPSILON))
        if not splittable.any():
            break
        # keep the rows of the nodes to split
        keep = splittable[rows_node]
        S = S[keep]
        sp = np.flatnonzero(splittable)
        counts_s, W_s, imp_s, ids_s = counts[sp], W[sp], impurity[sp], ids[sp]
        ms = len(sp)
        starts_s = np.concatenate(([0], np.cumsum(counts_s)[:-1]))
        rows_s = np.repeat(np.arange(ms), counts_s)
        n_act = len(rows_s)
        r = np.arange(n_act)

        # the candidates: element e is (feature f_e, row r_e) for every feature the row's node searches, in
        # feature-major order, so that the rows of one (feature, node) pair form a contiguous segment
        if max_features < d:
            first, last = Xf[S[starts_s], cols], Xf[S[starts_s + counts_s - 1], cols]
            nonconstant = last > first + FEATURE_THRESHOLD
            order = np.argsort(rng.random((ms, d)), axis=1)        # a random feature order per node
            nonconst_in_order = np.take_along_axis(nonconstant, order, axis=1)
            first_nonconst = np.where(nonconst_in_order.any(axis=1), nonconst_in_order.argmax(axis=1), d)
            n_drawn = np.maximum(max_features, first_nonconst + 1)  # go on until one non-constant is drawn
            allowed = np.zeros((ms, d), dtype=bool)
            np.put_along_axis(allowed, order, np.arange(d)[None, :] < n_drawn[:, None], axis=1)
            pair_f, pair_node = np.nonzero(allowed.T)                # (feature, node) pairs, feature-major
        else:
            pair_f, pair_node = np.repeat(cols, ms), np.tile(np.arange(ms), d)
        lengths = counts_s[pair_node]
        seg_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        E = int(seg_starts[-1] + lengths[-1])
        f_e = np.repeat(pair_f, lengths)
        node_e = np.repeat(pair_node, lengths)
        r_e = np.arange(E) - np.repeat(seg_starts - starts_s[pair_node], lengths)   # the row of each element
        sid_e = S.ravel()[r_e * d + f_e]
        V_e = XfT[f_e * n + sid_e]                                   # float32 values, sorted per segment
        w_e = w[sid_e]
        base_pos = seg_starts - 1

        def left_sums(values):
            c = np.cumsum(values)
            base = np.where(base_pos >= 0, c[np.maximum(base_pos, 0)], 0.0)
            return c - np.repeat(base, lengths)

        # candidate split after element e (left = the segment's first row .. r_e)
        n_left = r_e - starts_s[node_e] + 1
        n_right = counts_s[node_e] - n_left
        gap = np.zeros(E, dtype=bool)
        gap[:-1] = V_e[1:] > V_e[:-1] + FEATURE_THRESHOLD
        valid = gap & (n_left >= min_samples_leaf) & (n_right >= min_samples_leaf)
        Lw = left_sums(w_e)
        Rw = W_s[node_e] - Lw
        valid &= (Lw > 0) & (Rw > 0) & (Lw >= min_weight_leaf) & (Rw >= min_weight_leaf)
        with np.errstate(divide="ignore", invalid="ignore"):
            if n_classes:
                ys = target[sid_e]
                Lk = [left_sums(np.where(ys == k, w_e, 0.0)) for k in range(n_classes)]
                Rk = [stat[sp, k][node_e] - Lk[k] for k in range(n_classes)]
                proxy = -(Rw * class_impurity(Rk, Rw, criterion)) - Lw * class_impurity(Lk, Lw, criterion)
            else:
                Ly = left_sums(w_e * target[sid_e])
                Ry = (value[sp, 0] * W_s)[node_e] - Ly
                proxy = Ly * Ly / Lw + Ry * Ry / Rw
        proxy = np.where(valid, proxy, -np.inf)
        best_by_feature = np.full((ms, d), -np.inf)
        best_by_feature[pair_node, pair_f] = np.maximum.reduceat(proxy, seg_starts)
        best_f = best_by_feature.argmax(axis=1)                      # ties: the smallest feature index
        best = best_by_feature[np.arange(ms), best_f]
        has_split = best > -np.inf
        hits = np.flatnonzero((f_e == best_f[node_e]) & (proxy == best[node_e]) & has_split[node_e])
        split_nodes, first_hit = np.unique(node_e[hits], return_index=True)   # ties: the smallest threshold
        e_star = np.zeros(ms, dtype=np.int64)
        e_star[split_nodes] = hits[first_hit]
        rstar = np.where(has_split, r_e[e_star], starts_s)           # placeholder where no split
        f_s = best_f
        a = V_e[e_star].astype(np.float64)
        b = V_e[np.minimum(e_star + 1, E - 1)].astype(np.float64)
        threshold = a / 2.0 + b / 2.0
        nL = rstar - starts_s + 1
        # children impurities for the improvement
        if n_classes:
            cL = [Lk[k][e_star] for k in range(n_classes)]
            wL = Lw[e_star]
            wR = W_s - wL
            cR = [stat[sp, k] - cL[k] for k in range(n_classes)]
            iL = class_impurity(cL, wL, criterion)
            iR = class_impurity(cR, wR, criterion)
        else:
            wL = Lw[e_star]
            wR = W_s - wL
            # variances of the children from their samples (two-pass, as the node impurities)
            in_left = r <= rstar[rows_s]
            child = 2 * rows_s + (~in_left)
            sid = S[r, f_s[rows_s]]
            Wc = np.bincount(child, weights=w[sid], minlength=2 * ms)
            with np.errstate(divide="ignore", invalid="ignore"):
                mean_c = np.bincount(child, weights=w[sid] * target[sid], minlength=2 * ms) / Wc
                dev = target[sid] - mean_c[child]
                var_c = np.bincount(child, weights=w[sid] * dev * dev, minlength=2 * ms) / Wc
            iL, iR = var_c[0::2], var_c[1::2]
        with np.errstate(divide="ignore", invalid="ignore"):
            improvement = (W_s / W_total) * (imp_s - wR / W_s * iR - wL / W_s * iL)
        do_split = has_split & ~(improvement + EPSILON < min_impurity_decrease)
        if not do_split.any():
            break
        q = np.flatnonzero(do_split)
        levels.add_splits(node=ids_s[q], feature=f_s[q], threshold=threshold[q], improvement=improvement[q])
        # which samples go left: rows up to rstar in the column of the chosen feature
        row_split = do_split[rows_s]
        sid = S[r, f_s[rows_s]]
        left_flag[sid] = r <= rstar[rows_s]
        # regroup every column stably by child, dropping nodes that did not split
        S = S[row_split]
        old_node = rows_s[row_split]
        new_rank = np.cumsum(do_split) - 1                           # index among split nodes
        pnode = new_rank[old_node]
        counts_p = counts_s[q]
        start_p = np.concatenate(([0], np.cumsum(counts_p)[:-1]))
        nL_p = nL[q]
        is_left_col = left_flag[S]
        L = np.cumsum(is_left_col, axis=0, dtype=np.int32)
        base_rows_p = start_p - 1
        Lbase = np.where(base_rows_p[:, None] >= 0, L[np.maximum(base_rows_p, 0)], 0)
        lefts_incl = L - np.repeat(Lbase, counts_p, axis=0)
        start_rows = np.repeat(start_p, counts_p)[:, None]
        t = np.arange(len(pnode))[:, None] - start_rows
        newpos = np.where(is_left_col, start_rows + lefts_incl - 1, start_rows + nL_p[pnode][:, None] + t - lefts_incl)
        S_new = np.empty_like(S)
        S_new.ravel()[(newpos * d + cols).ravel()] = S.ravel()
        S = S_new
        counts = np.column_stack((nL_p, counts_p - nL_p)).ravel()
        parent_ids = np.repeat(ids_s[q], 2)
        is_left = np.tile([True, False], len(q))
        depth += 1
    return _preorder(levels)


def _preorder(levels):
    """Renumber the breadth-first nodes in depth-first pre-order (left child first), as scikit-learn."""
    cat = {k: np.concatenate(v) for k, v in levels.parts.items()}
    n_nodes = levels.count
    left = np.full(n_nodes, -1)
    right = np.full(n_nodes, -1)
    feature = np.full(n_nodes, -2)
    threshold = np.full(n_nodes, -2.0)
    improvement = np.zeros(n_nodes)
    parent = cat["parent"]
    child = np.arange(1, n_nodes)
    left[parent[child][cat["is_left"][child]]] = child[cat["is_left"][child]]
    right[parent[child][~cat["is_left"][child]]] = child[~cat["is_left"][child]]
    if levels.split["node"]:
        split = {k: np.concatenate(v) for k, v in levels.split.items()}
        feature[split["node"]] = split["feature"]
        threshold[split["node"]] = split["threshold"]
        improvement[split["node"]] = split["improvement"]
    # subtree sizes bottom-up (children have larger breadth-first ids than parents)
    depth = cat["depth"]
    size = np.ones(n_nodes, dtype=np.int64)
    for level in range(depth.max(), 0, -1):
        nodes = np.flatnonzero(depth == level)
        np.add.at(size, parent[nodes], size[nodes])
    pre = np.zeros(n_nodes, dtype=np.int64)
    for level in range(1, depth.max() + 1):
        nodes = np.flatnonzero(depth == level)
        p = parent[nodes]
        lefts = cat["is_left"][nodes]
        pre[nodes] = pre[p] + 1 + np.where(lefts, 0, size[left[p]])
    order = np.empty(n_nodes, dtype=np.int64)
    order[pre] = np.arange(n_nodes)
    remap = lambda c: np.where(c[order] >= 0, pre[np.maximum(c[order], 0)], -1)  # noqa: E731
    return {
        "children_left": remap(left).astype(np.intp),
        "children_right": remap(right).astype(np.intp),
        "feature": feature[order].astype(np.intp),
        "threshold": threshold[order],
        "impurity": cat["impurity"][order],
        "n_node_samples": cat["n"][order].astype(np.intp),
        "weighted_n_node_samples": cat["w"][order],
        "value": cat["value"][order][:, None, :],
        "improvement": improvement[order],
        "depth": depth[order].astype(np.intp),
    }
