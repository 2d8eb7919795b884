r"""Splits of a categorical feature into two groups of categories (chapter 19).

With :math:`q` categories there are :math:`2^{q-1} - 1` ways to put them into two non-empty groups. For two
classes and a concave impurity, Breiman's ordering (Breiman et al. 1984, chapter 4) finds the best of them
among only :math:`q - 1`: order the categories by their fraction of class 1 and cut the ordered list once.
"""

import numpy as np

from ..utils.validation import check_option, check_sample_weight
from ._criteria import class_impurity

_CRITERIA = ("gini", "entropy", "misclassification")


def _weighted_child_impurity(left_counts, total_counts, criterion):
    """(W_L i_L + W_R i_R) / W for class-count rows ``left_counts`` (m, K) of a node with ``total_counts`` (K,)."""
    right_counts = total_counts - left_counts
    wL, wR = left_counts.sum(axis=1), right_counts.sum(axis=1)
    iL = class_impurity(list(left_counts.T), wL, criterion)
    iR = class_impurity(list(right_counts.T), wR, criterion)
    return (wL * iL + wR * iR) / total_counts.sum()


def categorical_split(categories, y, sample_weight=None, *, criterion="gini", method="ordering"):
    r"""The best split of a categorical feature into two groups, by Breiman's ordering or by trying all.

    Parameters
    ----------
    categories : array-like of shape (n_samples,)
        The category of each sample (any sortable labels); :math:`q \ge 2` distinct ones.
    y : array-like of shape (n_samples,)
        Two classes.
    sample_weight : array-like of shape (n_samples,), optional
    criterion : {"gini", "entropy", "misclassification"}, default "gini"
    method : {"ordering", "exhaustive"}, default "ordering"
        ``"ordering"``: sort the categories by their (weighted) fraction of the second class and try the
        :math:`q - 1` cuts of that list; ``"exhaustive"``: try all :math:`2^{q-1} - 1` two-group partitions
        (vectorised: one matrix product of the subset indicators with the class counts).

    Returns
    -------
    dict
        ``left``: the categories of one group (sorted; for ``"ordering"`` those before the cut),
        ``impurity``: the weighted child impurity :math:`(W_L i_L + W_R i_R)/W` of the best split,
        ``n_candidates``: the number of splits tried.

    Raises
    ------
    ValueError
        Fewer than 2 categories, not exactly 2 classes, more than 20 categories for ``"exhaustive"``.
    """
    check_option(criterion, "criterion", _CRITERIA)
    check_option(method, "method", ("ordering", "exhaustive"))
    categories, y = np.asarray(categories), np.asarray(y)
    if categories.ndim != 1 or y.shape != categories.shape:
        raise ValueError(f"categories and y must be 1-D of the same length, got shapes {categories.shape} and "
                         f"{y.shape}")
    w = check_sample_weight(sample_weight, len(y))
    levels, cat_code = np.unique(categories, return_inverse=True)
    classes, y_code = np.unique(y, return_inverse=True)
    q = len(levels)
    if q < 2:
        raise ValueError(f"a split needs at least 2 categories, got {q}")
    if len(classes) != 2:
        raise ValueError(f"categorical_split handles exactly 2 classes, got {len(classes)}")
    counts = np.zeros((q, 2))
    np.add.at(counts, (cat_code.reshape(-1), y_code.reshape(-1)), w)
    total = counts.sum(axis=0)
    if method == "ordering":
        share = counts[:, 1] / counts.sum(axis=1)
        order = np.lexsort((np.arange(q), share))             # by fraction of class 1, ties by category order
        left_counts = np.cumsum(counts[order], axis=0)[:-1]   # the q - 1 cuts
        cost = _weighted_child_impurity(left_counts, total, criterion)
        best = int(np.argmin(cost))
        left = np.sort(levels[order[:best + 1]])
        return {"left": left, "impurity": float(cost[best]), "n_candidates": q - 1}
    if q > 20:
        raise ValueError(f"the exhaustive search over 2^(q-1) - 1 = {2 ** (q - 1) - 1} splits is limited to q <= 20")
    # the last category always in the right group: each two-group partition counted once
    masks = (np.arange(1, 2 ** (q - 1))[:, None] >> np.arange(q - 1)[None, :]) & 1
    subsets = np.hstack([masks, np.zeros((len(masks), 1), dtype=masks.dtype)]).astype(bool)
    cost = _weighted_child_impurity(subsets @ counts, total, criterion)
    best = int(np.argmin(cost))
    return {"left": np.sort(levels[subsets[best]]), "impurity": float(cost[best]), "n_candidates": len(subsets)}
