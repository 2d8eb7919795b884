r"""The fitted tree: scikit-learn's ``Tree`` arrays, and the traversals (``apply``, ``decision_path``)."""

import numpy as np


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
        """The leaf of each row of ``Xf`` (float32 or float64, shape (n_samples, n_features)): a loop over depths,
        vectorised over samples."""
        node = np.zeros(Xf.shape[0], dtype=np.intp)
        for _ in self._descend(Xf, node):
            pass
        return node

    def _descend(self, Xf, node):
        """Move the rows of ``Xf`` from the nodes ``node`` (updated in place) down to their leaves, one depth at a
        time; after each depth, yield the rows that moved (their new nodes are ``node[rows]``)."""
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
