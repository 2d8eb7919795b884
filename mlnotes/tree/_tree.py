r"""The fitted tree: scikit-learn's ``Tree`` arrays, and the traversals (``apply``, ``decision_path``); the
trees of an ensemble stacked end to end (:class:`StackedTrees`), to send every sample down every tree at once."""

import numpy as np

#: (tree, sample) pairs descended together: 2**16 keeps a block's arrays in cache.
_BLOCK_PAIRS = 2**16
#: Samples of one block (the block holds ``_BLOCK_PAIRS // _BLOCK_ROWS`` trees when there are that many).
_BLOCK_ROWS = 4096
#: Leaf indices that :func:`tree_blocks` lets one block of trees hold (2**22 ints: 32 MB).
_BLOCK_LEAVES = 2**22


class Tree:
    r"""The arrays of a fitted binary tree, named as scikit-learn's ``sklearn.tree._tree.Tree``.

    Nodes are numbered depth-first (pre-order, left child first); node 0 is the root.

    Attributes
    ----------
    node_count : int
    n_leaves : int
    max_depth : int
        The depth of the deepest leaf (the root alone has depth 0).
    n_features : int
    n_outputs : int
        Always 1.
    n_classes : ndarray of int of shape (1,)
        The number of classes (1 for a regressor).
    children_left, children_right : ndarray of int of shape (node_count,)
        The children of each node, -1 at leaves.
    feature : ndarray of int of shape (node_count,)
        The feature tested at each internal node (-2 at leaves).
    threshold : ndarray of float of shape (node_count,)
        Samples with ``x[feature] <= threshold`` go left (-2.0 at leaves).
    value : ndarray of shape (node_count, 1, n_classes)
        Class fractions (classifier, as scikit-learn >= 1.4) or the mean target (regressor), at every node. It is
        writable: boosting replaces the leaf values.
    impurity : ndarray of shape (node_count,)
    n_node_samples : ndarray of int of shape (node_count,)
    weighted_n_node_samples : ndarray of shape (node_count,)
    """

    def __init__(self, arrays, n_features, n_classes):
        self.children_left = arrays["children_left"]
        self.children_right = arrays["children_right"]
        self.feature = arrays["feature"]
        self.threshold = arrays["threshold"]
        self.impurity = arrays["impurity"]
        self.n_node_samples = arrays["n_node_samples"]
        self.weighted_n_node_samples = arrays["weighted_n_node_samples"]
        self.value = np.ascontiguousarray(arrays["value"])
        self.node_depth = arrays["depth"]
        self.improvement = arrays["improvement"]
        self.n_features = n_features
        self.n_outputs = 1
        self.n_classes = np.array([max(n_classes, 1)], dtype=np.intp)

    @property
    def node_count(self):
        return len(self.children_left)

    @property
    def capacity(self):
        return self.node_count

    @property
    def n_leaves(self):
        return int((self.children_left == -1).sum())

    @property
    def max_depth(self):
        return int(self.node_depth.max())

    def apply(self, Xf):
        """The leaf of each row of ``Xf`` (float32 or float64, shape (n_samples, n_features)), shape (n_samples,):
        :meth:`StackedTrees.descend` of this tree alone."""
        return np.ascontiguousarray(StackedTrees([self]).descend(Xf)[:, 0])

    def _descend(self, Xf, node):
        """Move the rows of ``Xf`` from the nodes ``node`` (updated in place) down to their leaves, one depth at a
        time; after each depth, yield the rows that moved (their new nodes are ``node[rows]``). The path of every
        row, for :meth:`decision_path`; :meth:`apply`, which needs the leaves only, descends faster."""
        active = np.flatnonzero(self.children_left[node] != -1)
        while active.size:
            nodes = node[active]
            go_left = Xf[active, self.feature[nodes]].astype(np.float64) <= self.threshold[nodes]
            node[active] = np.where(go_left, self.children_left[nodes], self.children_right[nodes])
            yield active
            active = active[self.children_left[node[active]] != -1]

    def decision_path(self, Xf):
        """Indicator matrix (scipy.sparse CSR, shape (n_samples, node_count)) of the nodes each row visits."""
        from scipy import sparse

        n = Xf.shape[0]
        node = np.zeros(n, dtype=np.intp)
        rows, cols = [np.arange(n)], [node.copy()]
        for moved in self._descend(Xf, node):
            rows.append(moved)
            cols.append(node[moved])
        rows, cols = np.concatenate(rows), np.concatenate(cols)
        order = np.lexsort((cols, rows))
        return sparse.csr_matrix((np.ones(len(rows), dtype=np.intp), (rows[order], cols[order])),
                                 shape=(n, self.node_count))

    def compute_feature_importances(self, normalize=True):
        r"""Mean decrease of impurity of each feature: :math:`\sum_t (W_t i_t - W_{t_L} i_{t_L} - W_{t_R} i_{t_R})`
        over the nodes :math:`t` split on it, divided by the root's weight (and then by the sum, if
        ``normalize`` and the sum is positive), as scikit-learn."""
        internal = np.flatnonzero(self.children_left != -1)
        L, R = self.children_left[internal], self.children_right[internal]
        Wi = self.weighted_n_node_samples * self.impurity
        decrease = Wi[internal] - Wi[L] - Wi[R]
        # float even for a tree without splits (np.bincount of nothing is an integer array)
        importances = np.bincount(self.feature[internal], weights=decrease,
                                  minlength=self.n_features).astype(np.float64)
        importances /= self.weighted_n_node_samples[0]
        if normalize:
            total = importances.sum()
            if total > 0:
                importances /= total
        return importances


class StackedTrees:
    r"""The node arrays of several trees laid end to end, so that every sample descends every tree at once.

    Node :math:`t` of tree :math:`b` is node ``offsets[b] + t`` of the stack. A leaf is its own child on both
    sides, so a (tree, sample) pair that has reached its leaf stays there while the others descend: one
    vectorised step per depth moves all the pairs of a block, and the pairs that have finished are dropped once a
    quarter of the block has.

    Parameters
    ----------
    trees : list of Tree
    features : list of ndarray of int, optional
        ``features[b][j]`` is the column of the samples given to :meth:`descend` that tree ``b`` calls feature
        ``j`` (a bagging member fitted on some of the features); default the identity.

    Attributes
    ----------
    offsets : ndarray of int of shape (n_trees,)
        The index in the stack of each tree's root.
    node_count : int
        The number of nodes of all the trees.
    """

    def __init__(self, trees, features=None):
        node_counts = np.array([tree.node_count for tree in trees], dtype=np.intp)
        self.offsets = np.concatenate([[0], np.cumsum(node_counts)[:-1]]).astype(np.intp)
        self.node_count = int(node_counts.sum())
        node = np.arange(self.node_count)
        self._is_leaf = np.concatenate([tree.children_left == -1 for tree in trees])
        left = np.concatenate([tree.children_left for tree in trees]) + np.repeat(self.offsets, node_counts)
        right = np.concatenate([tree.children_right for tree in trees]) + np.repeat(self.offsets, node_counts)
        # the child of node t is _child[2t] on the right, _child[2t + 1] on the left; a leaf's are itself
        self._child = np.column_stack([np.where(self._is_leaf, node, right),
                                       np.where(self._is_leaf, node, left)]).ravel()
        if features is None:
            features = [None] * len(trees)
        feature = [tree.feature if columns is None else np.asarray(columns)[np.maximum(tree.feature, 0)]
                   for tree, columns in zip(trees, features)]
        self._feature = np.where(self._is_leaf, 0, np.concatenate(feature)).astype(np.intp)   # leaves: any column
        self._threshold = np.concatenate([tree.threshold for tree in trees])

    def descend(self, Xf):
        """The leaf of every sample in every tree.

        Parameters
        ----------
        Xf : ndarray of float32 or float64 of shape (n_samples, n_columns)
            The values the trees split on (:func:`mlnotes.tree._classes.split_values`), no NaN.

        Returns
        -------
        ndarray of int of shape (n_samples, n_trees)
            Nodes of the stack (subtract ``offsets`` for each tree's own numbering). A sample goes left where
            ``Xf[i, feature] <= threshold`` (compared in float64), as in :meth:`Tree.apply`.
        """
        n_samples, n_trees = Xf.shape[0], len(self.offsets)
        x = Xf.astype(np.float64).ravel()                    # sample i, column j at x[i * n_columns + j]
        leaves = np.empty((n_samples, n_trees), dtype=np.intp)
        n_rows = max(1, min(n_samples, _BLOCK_ROWS))
        n_block_trees = max(1, _BLOCK_PAIRS // n_rows)
        for first_row in range(0, n_samples, n_rows):
            rows = slice(first_row, min(n_samples, first_row + n_rows))
            row_starts = np.arange(rows.start, rows.stop) * Xf.shape[1]
            for first_tree in range(0, n_trees, n_block_trees):
                trees = slice(first_tree, min(n_trees, first_tree + n_block_trees))
                roots = self.offsets[trees]
                # the pairs tree-major: (tree b, row i) at b * n_rows + i
                block = self._descend_pairs(x, np.repeat(roots, len(row_starts)), np.tile(row_starts, len(roots)))
                leaves[rows, trees] = block.reshape(len(roots), -1).T
        return leaves

    def _descend_pairs(self, x, node, x_start):
        """The leaves reached from the nodes ``node`` (ndarray of int of shape (n_pairs,)) by the samples whose
        values start at ``x[x_start]``, shape (n_pairs,)."""
        leaf = np.empty_like(node)
        pending = np.arange(node.size)                       # the pairs still in ``node``
        while True:
            go_left = x[x_start + self._feature[node]] <= self._threshold[node]
            node = self._child[2 * node + go_left]
            at_leaf = self._is_leaf[node]
            n_done = np.count_nonzero(at_leaf)
            if n_done == node.size:
                break
            if 4 * n_done >= node.size:
                done, kept = np.flatnonzero(at_leaf), np.flatnonzero(~at_leaf)
                leaf[pending[done]] = node[done]
                pending, node, x_start = pending[kept], node[kept], x_start[kept]
        leaf[pending] = node
        return leaf


def tree_blocks(n_trees, n_leaves):
    """Consecutive blocks of ``range(n_trees)`` (a list of slices, in order) small enough that the leaves of
    ``n_leaves`` samples per tree in one block take at most :data:`_BLOCK_LEAVES` integers (or one tree)."""
    size = max(1, _BLOCK_LEAVES // max(1, n_leaves))
    return [slice(first, min(n_trees, first + size)) for first in range(0, n_trees, size)]
