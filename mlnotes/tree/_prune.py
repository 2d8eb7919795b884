r"""Minimal cost-complexity pruning (Breiman et al. 1984, ch. 3; chapter 19).

For a subtree :math:`T` with leaves :math:`\tilde T`, the cost is :math:`R_\alpha(T) = \sum_{t \in \tilde T} R(t) +
\alpha\,|\tilde T|` with :math:`R(t) = \frac{W_t}{W} i(t)`. Collapsing the branch :math:`T_t` below an internal node
:math:`t` into a leaf changes the cost by :math:`R(t) - R(T_t) - \alpha(|\tilde T_t| - 1)`, which is :math:`\le 0`
exactly when :math:`\alpha \ge g(t) = \frac{R(t) - R(T_t)}{|\tilde T_t| - 1}`. Weakest-link pruning collapses, again
and again, the node of smallest :math:`g(t)` (the first in node order among equals, as scikit-learn), which gives
the increasing sequence of effective alphas and the nested subtrees of the pruning path.
"""

import numpy as np


def _subtree_sizes(tree):
    """Number of nodes below and including each node (nodes are in pre-order: the subtree of t is t..t+size-1)."""
    n = tree.node_count
    size = np.ones(n, dtype=np.int64)
    depth = tree.node_depth
    parent = np.full(n, -1)
    internal = np.flatnonzero(tree.children_left != -1)
    parent[tree.children_left[internal]] = internal
    parent[tree.children_right[internal]] = internal
    for level in range(depth.max(), 0, -1):                 # a loop over depths
        nodes = np.flatnonzero(depth == level)
        np.add.at(size, parent[nodes], size[nodes])
    return size, parent


def _leaf_sums(r_node, is_leaf, parent, depth):
    """For every node, the sum of ``r_node`` over the leaves below it, added leaf by leaf in node order (the
    rounding of scikit-learn's, so that a ``ccp_alpha`` equal to a path value prunes as there).

    The (leaf, ancestor) pairs are listed by a loop over depths, put in leaf order, and added by one ``np.add.at``,
    which applies repeated indices in array order."""
    r_branch = np.where(is_leaf, r_node, 0.0)
    leaves = np.flatnonzero(is_leaf)
    ancestor = parent[leaves]
    pair_leaf, pair_ancestor = [], []
    while leaves.size:
        keep = ancestor != -1
        leaves, ancestor = leaves[keep], ancestor[keep]
        pair_leaf.append(leaves)
        pair_ancestor.append(ancestor)
        ancestor = parent[ancestor]
    pair_leaf, pair_ancestor = np.concatenate(pair_leaf), np.concatenate(pair_ancestor)
    order = np.argsort(pair_leaf, kind="stable")
    np.add.at(r_branch, pair_ancestor[order], r_node[pair_leaf[order]])
    return r_branch


def _weakest_link(tree, alpha_max=None):
    """Run weakest-link pruning; return (alphas, impurities, kept-node mask, leaf mask) at the end (or at the last
    step whose effective alpha is <= ``alpha_max``)."""
    n = tree.node_count
    size, parent = _subtree_sizes(tree)
    is_leaf = tree.children_left == -1
    r_node = tree.weighted_n_node_samples * tree.impurity / tree.weighted_n_node_samples[0]
    idx = np.arange(n)
    r_branch = _leaf_sums(r_node, is_leaf, parent, tree.node_depth)
    leaf_prefix = np.concatenate(([0], np.cumsum(is_leaf)))
    n_leaves = leaf_prefix[idx + size] - leaf_prefix[idx]
    candidate = ~is_leaf
    in_subtree = np.ones(n, dtype=bool)
    leaves = is_leaf.copy()
    alphas, impurities = [0.0], [r_branch[0]]
    while candidate[0]:                                      # one weakest link per step (sequential by nature)
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(candidate, (r_node - r_branch) / (n_leaves - 1), np.inf)
        t = int(np.argmin(g))
        effective = g[t]
        if alpha_max is not None and alpha_max < effective:
            break
        below = slice(t + 1, t + size[t])
        candidate[t:t + size[t]] = False
        in_subtree[below] = False
        leaves[below] = False
        leaves[t] = True
        pruned = n_leaves[t] - 1
        r_diff = r_node[t] - r_branch[t]
        n_leaves[t] = 0
        r_branch[t] = r_node[t]
        node = parent[t]
        while node != -1:                                    # the ancestors: a loop over depths
            n_leaves[node] -= pruned
            r_branch[node] += r_diff
            node = parent[node]
        alphas.append(effective)
        impurities.append(r_branch[0])
    return np.array(alphas), np.array(impurities), in_subtree, leaves


def cost_complexity_path(tree):
    r"""The pruning path of a fitted :class:`~mlnotes.tree._tree.Tree`: effective alphas (from 0, increasing) and the
    total leaf impurity :math:`\sum_{t\ \mathrm{leaf}} \frac{W_t}{W} i(t)` after each step (scikit-learn's
    ``ccp_pruning_path``)."""
    alphas, impurities, _, _ = _weakest_link(tree)
    return alphas, impurities


def subtree(tree, kept, leaves):
    """The subtree of ``tree`` made of the nodes ``kept`` (a mask closed under taking parents), the nodes in
    ``leaves`` becoming leaves; nodes renumbered in pre-order. Returns a new :class:`~mlnotes.tree._tree.Tree`."""
    from ._tree import Tree

    new_id = np.cumsum(kept) - 1
    keep = np.flatnonzero(kept)
    internal = ~leaves[keep]
    left = np.where(internal, new_id[tree.children_left[keep]], -1)
    right = np.where(internal, new_id[tree.children_right[keep]], -1)
    arrays = {
        "children_left": left.astype(np.intp),
        "children_right": right.astype(np.intp),
        "feature": np.where(internal, tree.feature[keep], -2).astype(np.intp),
        "threshold": np.where(internal, tree.threshold[keep], -2.0),
        "impurity": tree.impurity[keep],
        "n_node_samples": tree.n_node_samples[keep],
        "weighted_n_node_samples": tree.weighted_n_node_samples[keep],
        "value": tree.value[keep].copy(),
        "improvement": np.where(internal, tree.improvement[keep], 0.0),
        "depth": tree.node_depth[keep],
    }
    return Tree(arrays, tree.n_features, int(tree.n_classes[0]) if tree.value.shape[2] > 1 else 0)


def prune_tree(tree, ccp_alpha):
    """The subtree of the pruning path for ``ccp_alpha``: every weakest link of effective alpha <= ``ccp_alpha``
    collapsed; nodes renumbered in pre-order. Returns a new :class:`~mlnotes.tree._tree.Tree`."""
    _, _, kept, leaves = _weakest_link(tree, alpha_max=ccp_alpha)
    return subtree(tree, kept, leaves)


def reduced_error_prune(estimator, X_val, y_val):
    r"""Reduced-error pruning of a fitted :class:`~mlnotes.tree.DecisionTreeClassifier` on a validation set.

    Repeatedly collapse the internal node :math:`t` whose removal lowers the number of validation errors most
    (the first in node order among equals); stop when **every** collapse would raise it, i.e. when
    :math:`\min_t \mathrm{err}(T \setminus T_t) > \mathrm{err}(T)`. A collapse that leaves the error unchanged is made
    (the smaller tree is preferred).

    Parameters
    ----------
    estimator : fitted DecisionTreeClassifier
    X_val : array-like of shape (n_val, n_features)
    y_val : array-like of shape (n_val,)
        Labels among the estimator's ``classes_``.

    Returns
    -------
    pruned : DecisionTreeClassifier
        A copy whose ``tree_`` is the pruned tree.
    errors : ndarray of int
        The validation errors of the initial tree and after each collapse.
    """
    import copy

    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(estimator, "tree_")
    if not hasattr(estimator, "classes_"):
        raise TypeError("reduced_error_prune needs a fitted classifier (validation errors are misclassifications)")
    y_val = np.asarray(y_val)
    paths = estimator.decision_path(X_val)                   # checks X_val
    if y_val.shape != (paths.shape[0],):
        raise ValueError(f"y_val must have shape ({paths.shape[0]},), got {y_val.shape}")
    known = np.isin(y_val, estimator.classes_)
    if not known.all():
        raise ValueError(f"y_val has labels not seen in training: {np.unique(y_val[~known])[:5]}")
    tree = estimator.tree_
    codes = np.searchsorted(estimator.classes_, y_val)
    onehot = np.zeros((len(codes), len(estimator.classes_)))
    onehot[np.arange(len(codes)), codes] = 1.0
    counts = np.asarray(paths.T @ onehot)                    # (n_nodes, n_classes): validation classes reaching t
    reach = counts.sum(axis=1)
    prediction = tree.value[:, 0, :].argmax(axis=1)
    err_leaf = reach - counts[np.arange(tree.node_count), prediction]   # errors if t predicts (is a leaf)
    size, _ = _subtree_sizes(tree)
    idx = np.arange(tree.node_count)
    leaves = tree.children_left == -1
    kept = np.ones(tree.node_count, dtype=bool)
    errors = [int(err_leaf[leaves].sum())]
    while True:                                              # one collapse per step (sequential by nature)
        prefix = np.concatenate(([0.0], np.cumsum(np.where(leaves & kept, err_leaf, 0.0))))
        err_subtree = prefix[idx + size] - prefix[idx]       # current errors of the samples reaching t
        candidate = kept & ~leaves
        if not candidate.any():
            break
        change = np.where(candidate, err_leaf - err_subtree, np.inf)
        t = int(np.argmin(change))
        if change[t] > 0:                                    # every collapse raises the validation error
            break
        kept[t + 1:t + size[t]] = False
        leaves[t + 1:t + size[t]] = False
        leaves[t] = True
        errors.append(int(errors[-1] + change[t]))
    pruned = copy.deepcopy(estimator)
    pruned.tree_ = subtree(tree, kept, leaves)
    return pruned, np.array(errors)
