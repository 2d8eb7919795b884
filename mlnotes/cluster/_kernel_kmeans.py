r"""Kernel k-means (chapter 16, *Kernel methods*; note 000): Lloyd's algorithm in the feature space of a kernel."""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, ClusterMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning

from ..kernels import KernelMixin
from ..utils.validation import check_scalar


def kernel_kmeans_distances(K, W, K_diag=None):
    r"""Squared feature-space distances of the points to the centres :math:`\mu_c = \sum_j W_{jc}\,\varphi(x_j)`.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
        The Gram matrix.
    W : ndarray of shape (n_samples, n_clusters)
        Each column the weights of one centre (a column of :math:`1/n_c` on the members of cluster :math:`c`).
    K_diag : ndarray of shape (n_samples,), optional
        :math:`k(x_i, x_i)`; default the diagonal of ``K``.

    Returns
    -------
    D : ndarray of shape (n_samples, n_clusters)
        :math:`\lVert\varphi(x_i) - \mu_c\rVert^2 = K_{ii} - 2(KW)_{ic} + (W^\top K W)_{cc}`, clipped at 0.
    """
    return _distances(np.diag(K) if K_diag is None else K_diag, K @ W, W)


def _distances(K_diag, KW, W):
    D = KW * -2
    D += K_diag[:, None]
    D += np.einsum("ic,ic->c", W, KW)[None, :]
    np.maximum(D, 0, out=D)
    return D


def _mean_weights(labels, W_old):
    """The weights of the cluster means: 1/n_c on the members; an empty cluster keeps its old centre."""
    n, k = W_old.shape
    W = np.zeros((n, k))
    W[np.arange(n), labels] = 1.0
    counts = W.sum(axis=0)
    empty = counts == 0
    W[:, ~empty] /= counts[~empty]
    W[:, empty] = W_old[:, empty]
    return W


class KernelKMeans(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ClusterMixin, KernelMixin, BaseEstimator):
    r"""k-means clustering in the feature space of a kernel (Lloyd's iterations on the Gram matrix).

    Parameters
    ----------
    n_clusters : int >= 1, default 8
    init : {"k-means++", "random"} or array-like of int of shape (n_clusters,), default "k-means++"
        The first centres, as training points :math:`\varphi(x_j)`: chosen by k-means++ (each next point drawn
        with probability proportional to its squared feature-space distance to the nearest chosen one), drawn
        uniformly without replacement, or given as the indices :math:`j` of distinct training samples (then
        ``n_init`` must be 1). With a linear kernel, indices ``idx`` are scikit-learn's ``init=X[idx]``.
    n_init : int >= 1, default 1
        Runs from different random starts; the one of lowest inertia is kept.
    max_iter : int >= 1, default 300
    tol : float >= 0, default 1e-4
        Stop when the summed squared shift of the centres, :math:`\sum_c\lVert\mu_c^{new} - \mu_c\rVert^2`, is at
        most ``tol`` times the total variance :math:`\tfrac1n\sum_i\lVert\varphi(x_i) - \bar\varphi\rVert^2`
        (scikit-learn divides the total variance by the number of features, which a kernel's feature space may
        not have: ``KMeans(tol=t)`` on ``d`` features is ``KernelKMeans(tol=t / d)`` with a linear kernel).
        Lloyd's iterations also stop when no label changes.
    random_state : int, numpy Generator or None, default None
        Seeds the random starts (``np.random.default_rng``).
    kernel, gamma, degree, coef0, kernel_params
        As in :class:`mlnotes.kernels.KernelRidge` (default kernel ``"linear"``: ordinary k-means).

    Attributes
    ----------
    labels_ : ndarray of int of shape (n_samples,)
    cluster_weights_ : ndarray of shape (n_samples, n_clusters)
        :math:`W`, the centres :math:`\mu_c = \sum_j W_{jc}\,\varphi(x_j)` (with a linear kernel, the centres are
        ``cluster_weights_.T @ X``).
    cluster_sq_norms_ : ndarray of shape (n_clusters,)
        :math:`\lVert\mu_c\rVert^2 = (W^\top K W)_{cc}`, with the kernel evaluated on the inputs minus the training
        mean for the linear, rbf and laplacian kernels (see :class:`mlnotes.kernels.KernelMixin`; for the linear
        kernel this is :math:`\lVert\mu_c - \bar x\rVert^2`): the distances, labels and inertia do not depend on
        it, but their rounding errors do.
    inertia_ : float
        :math:`\sum_i \lVert\varphi(x_i) - \mu_{\text{label}_i}\rVert^2`.
    n_iter_ : int
        Lloyd iterations of the run kept.
    X_fit_ : ndarray of shape (n_samples, n_features), or None for a precomputed kernel
    n_features_in_ : int

    Raises
    ------
    ValueError
        NaN or infinity, ``n_clusters`` above the number of samples, a bad ``init``, a non-positive ``gamma``, or
        a Gram matrix that is not positive semidefinite (precomputed, callable, sigmoid or polynomial with
        :math:`c_0 < 0`: Lloyd's iterations then need not decrease the inertia, which can be negative).

    Notes
    -----
    Each iteration assigns every point to its nearest centre and moves each centre to the mean of its points,

    .. math::
        \text{label}_i = \arg\min_c K_{ii} - \tfrac{2}{n_c}\sum_{j \in c} K_{ij}
        + \tfrac{1}{n_c^2}\sum_{j, l \in c} K_{jl}, \qquad \mu_c = \tfrac1{n_c}\sum_{j \in c}\varphi(x_j),

    as in scikit-learn's ``KMeans(algorithm="lloyd")``: after the last iteration, if it did not stop because the
    labels were unchanged, the labels are recomputed against the final centres. Ties go to the lower cluster index.
    **Empty cluster**: a cluster that loses all its points keeps its previous centre (scikit-learn instead moves it
    to a far point); if fewer distinct clusters than ``n_clusters`` remain, ``fit`` warns (``ConvergenceWarning``,
    as scikit-learn). Note 000's initialisation draws :math:`\alpha^k \in \{0, 1\}^n` at random; it must be one-hot
    per point (erratum KM-6). Not here (scikit-learn's ``KMeans`` has them): ``fit(sample_weight)``, the
    ``"elkan"`` algorithm and ``cluster_centers_`` (the centres live in feature space: ``cluster_weights_``; with a
    linear kernel they are ``cluster_weights_.T @ X``). Chapter 16.
    """

    _centre_inputs = True       # only feature-space distances are used: see KernelMixin

    def __init__(self, n_clusters=8, *, init="k-means++", n_init=1, max_iter=300, tol=1e-4, random_state=None,
                 kernel="linear", gamma=None, degree=3, coef0=1, kernel_params=None):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        super().__init__(kernel, gamma, degree, coef0, kernel_params)

    @property
    def _n_features_out(self):
        """The number of clusters (names ``kernelkmeans0``, ... of ``get_feature_names_out``)."""
        return self.cluster_weights_.shape[1]

    def _initial_indices(self, K, K_diag, rng):
        n, k = K.shape[0], self._n_clusters
        if isinstance(self.init, str):
            if self.init == "random":
                return rng.choice(n, size=k, replace=False)
            chosen = [int(rng.integers(n))]
            d2 = np.maximum(K_diag - 2 * K[:, chosen[0]] + K_diag[chosen[0]], 0)
            for _ in range(1, k):
                d2[chosen] = 0
                total = d2.sum()
                if total > 0:
                    j = int(rng.choice(n, p=d2 / total))
                else:                      # every point coincides with a chosen one: any other point
                    j = int(rng.choice(np.setdiff1d(np.arange(n), chosen)))
                chosen.append(j)
                d2 = np.minimum(d2, np.maximum(K_diag - 2 * K[:, j] + K_diag[j], 0))
            return np.array(chosen)
        return self._init_indices

    def _check_init(self, n):
        if isinstance(self.init, str):
            if self.init not in ("k-means++", "random"):
                raise ValueError(f"init must be 'k-means++', 'random' or an array of {self._n_clusters} sample "
                                 f"indices, got {self.init!r}")
            return None
        indices = np.asarray(self.init)
        if indices.shape != (self._n_clusters,) or not np.issubdtype(indices.dtype, np.integer):
            raise ValueError(f"init as an array must hold n_clusters = {self._n_clusters} integer indices of training "
                             f"samples (the first centres), got {indices.dtype} array of shape {indices.shape}")
        if indices.min() < 0 or indices.max() >= n or len(np.unique(indices)) != len(indices):
            raise ValueError(f"init must hold distinct sample indices in [0, {n}), got {indices.tolist()}")
        if self.n_init != 1:
            raise ValueError(f"n_init must be 1 when init is an array of indices (one start), got {self.n_init}")
        return indices

    def _lloyd(self, K, K_diag, indices, tol):
        """One run from the centres ``phi(x_j)``, ``j`` in ``indices``; returns (labels, W, KW, inertia, n_iter)."""
        n, k = K.shape[0], len(indices)
        W = np.zeros((n, k))
        W[indices, np.arange(k)] = 1.0
        KW = K[:, indices].copy()
        labels_old = np.full(n, -1)
        strict = False
        for iteration in range(self._max_iter):
            labels = _distances(K_diag, KW, W).argmin(axis=1)
            W_new = _mean_weights(labels, W)
            KW_new = K @ W_new
            shift = np.einsum("ic,ic->", W_new - W, KW_new - KW)
            W, KW = W_new, KW_new
            if np.array_equal(labels, labels_old):
                strict = True
                break
            if shift <= tol:
                break
            labels_old = labels
        D = _distances(K_diag, KW, W)
        if not strict:
            labels = D.argmin(axis=1)
        inertia = float(D[np.arange(n), labels].sum())
        return labels, W, KW, inertia, iteration + 1

    def fit(self, X, y=None):
        """Cluster ``X`` (n_samples, n_features) or a precomputed Gram matrix; ``y`` is ignored. Returns ``self``."""
        self._n_clusters = check_scalar(self.n_clusters, "n_clusters", Integral, min_val=1)
        n_init = check_scalar(self.n_init, "n_init", Integral, min_val=1)
        self._max_iter = check_scalar(self.max_iter, "max_iter", Integral, min_val=1)
        tol = check_scalar(self.tol, "tol", Real, min_val=0)
        K, _ = self._fit_kernel(X, require_psd=True)
        n = K.shape[0]
        if n < self._n_clusters:
            raise ValueError(f"n_samples={n} should be >= n_clusters={self._n_clusters}")
        self._init_indices = self._check_init(n)
        rng = np.random.default_rng(self.random_state)
        K_diag = np.diag(K).copy()
        total_variance = K_diag.mean() - K.mean()
        best = None
        for _ in range(n_init):
            run = self._lloyd(K, K_diag, self._initial_indices(K, K_diag, rng), tol * max(total_variance, 0.0))
            if best is None or run[3] < best[3]:
                best = run
        self.labels_, W, KW, self.inertia_, self.n_iter_ = best
        self.cluster_weights_ = W
        self.cluster_sq_norms_ = np.einsum("ic,ic->c", W, KW)
        distinct = len(np.unique(self.labels_))
        if distinct < self._n_clusters:
            warnings.warn(f"Number of distinct clusters ({distinct}) found smaller than n_clusters "
                          f"({self._n_clusters}): points that coincide in feature space (duplicates in X, or a kernel "
                          f"that cannot tell them apart) leave clusters empty", ConvergenceWarning, stacklevel=2)
        return self

    def predict(self, X):
        r"""The nearest centre of each new point (ties: the lower index), shape (n_test,).

        ``X`` is (n_test, n_features), or the (n_test, n_samples) kernel against the training points if
        precomputed (:math:`k(x, x)` is not needed: it is the same for every centre).
        """
        return self._centre_scores(self._predict_kernel(X)).argmin(axis=1)

    def _centre_scores(self, K):
        r""":math:`\lVert\mu_c\rVert^2 - 2k(x)^\top W_{:c}`, shape (n_test, n_clusters): the squared distances to the
        centres without :math:`k(x, x)`, from the kernel ``K`` (n_test, n_samples) against the training points."""
        scores = K @ self.cluster_weights_
        scores *= -2
        scores += self.cluster_sq_norms_
        return scores

    def transform(self, X):
        r"""The feature-space distances :math:`\lVert\varphi(x) - \mu_c\rVert` of new points to the centres, shape
        (n_test, n_clusters) (scikit-learn's ``KMeans.transform``). Needs :math:`k(x, x)`, so not for a precomputed
        kernel."""
        K, X = self._predict_kernel(X, return_X=True)
        if self.kernel == "precomputed":
            raise ValueError("distances need k(x, x) of the new points, which a precomputed kernel against the "
                             "training points does not give: use predict")
        D = self._centre_scores(K)
        D += self._kernel_diagonal(X)[:, None]
        return np.sqrt(np.maximum(D, 0, out=D), out=D)

    def fit_transform(self, X, y=None):
        """Fit, then the distances of the training points to the centres, shape (n_samples, n_clusters)."""
        return self.fit(X).transform(X)

    def score(self, X, y=None):
        r"""Minus the inertia of ``X`` against the fitted centres, :math:`-\sum_i \min_c\lVert\varphi(x_i) -
        \mu_c\rVert^2` (scikit-learn's ``KMeans.score``; larger is better)."""
        return -float(np.sum(self.transform(X).min(axis=1) ** 2))
