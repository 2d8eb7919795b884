r"""Kernel support vector machines solved by SMO: ``SVC`` and ``SVR`` (chapter 14, *Support vector machines*).

The interface, the objective and the fitted attributes are scikit-learn's :class:`sklearn.svm.SVC` and
:class:`sklearn.svm.SVR` (``dual_coef_``, ``support_``, ``support_vectors_``, ``intercept_``, ``n_support_``,
``n_iter_``); the solver is :func:`mlnotes.svm.smo`, an addition to the notes.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels import check_kernel_matrix, kernel_diagonal
from ..kernels._base import check_kernel_params, kernel_matrix
from ..utils.validation import check_classes, check_option, check_scalar
from ._smo import KernelRowCache, intercept, smo

KERNEL_NAMES = ("linear", "poly", "rbf", "sigmoid", "precomputed")
#: Relative tolerance of the symmetry and PSD check of a precomputed kernel matrix (float32 rounding passes).
PSD_TOL = 1e-7


class _KernelSVM(BaseEstimator):
    """Shared kernel handling and validation of ``SVC`` and ``SVR``."""

    def __init__(self, C, kernel, degree, gamma, coef0, tol, max_iter, cache_size):
        # called by SVC's and SVR's __init__ with their own arguments (stored unchanged, scikit-learn's contract)
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.cache_size = cache_size

    def _check_params(self, X):
        # the kernel hyperparameters by the kernel estimators' one validation, with scikit-learn SVC's conventions
        # (named kernels only, degree >= 0, gamma "scale" or "auto" resolved from X)
        self._kernel_args = check_kernel_params(self.kernel, self.gamma, self.degree, self.coef0, names=KERNEL_NAMES,
                                                allow_callable=False, min_degree=0, gamma_options=("scale", "auto"),
                                                X=X)
        self._gamma = self._kernel_args["gamma"]
        self._C = check_scalar(self.C, "C", Real, min_val=0, include_boundaries="neither")
        self._tol = check_scalar(self.tol, "tol", Real, min_val=0, include_boundaries="neither")
        self._max_iter = check_scalar(self.max_iter, "max_iter", Integral, min_val=-1)
        if self._max_iter == 0:
            raise ValueError("max_iter must be -1 (no limit) or a positive integer, got 0")
        self._cache_size = check_scalar(self.cache_size, "cache_size", Real, min_val=0,
                                        include_boundaries="neither")

    def _validate_fit_X(self, X):
        """For a precomputed kernel: square, symmetric and PSD (Mercer), chapter 15's check.

        The relative tolerance ``PSD_TOL`` = 1e-7 accepts a PSD matrix rounded to single precision (whose
        smallest eigenvalue can be about -1e-8 times the largest), and rejects a matrix that is not a kernel."""
        if self.kernel == "precomputed":
            check_kernel_matrix(X, "X (a precomputed kernel matrix)", require_psd=True, tol=PSD_TOL)

    def _kernel(self, A, B):
        """The kernel matrix between the rows of ``A`` and ``B``, shape (n_A, n_B)."""
        return kernel_matrix(self.kernel, A, B, self._kernel_args)

    def _kernel_diag(self, X):
        """:math:`K_{ii}` (by :func:`mlnotes.kernels.kernel_diagonal`: no formula repeated here)."""
        if self.kernel == "precomputed":
            return np.diag(X).astype(float)
        return kernel_diagonal(self._kernel, X)

    def _row_source(self, X):
        """The kernel rows of the training points, as a function ``i -> K[i]``, and the diagonal :math:`K_{ii}`.

        When the whole :math:`n \times n` matrix fits in ``cache_size`` megabytes it is computed once, in blocks
        of rows (one matrix product per block instead of a call per row); otherwise rows are computed on demand
        and kept in a :class:`KernelRowCache` of ``cache_size`` megabytes, so memory stays
        :math:`O(\text{cache size} + n d)` whatever :math:`n`.
        """
        if self.kernel == "precomputed":
            return (lambda i: X[i]), self._kernel_diag(X)
        n = X.shape[0]
        if 8 * n * n <= self._cache_size * 2**20:
            K = np.empty((n, n))
            step = max(1, 2**22 // max(n, 1))        # blocks of about 32 MB of temporaries
            for s in range(0, n, step):
                K[s:s + step] = self._kernel(X[s:s + step], X)
            return (lambda i: K[i]), np.diag(K).copy()
        cache = KernelRowCache(lambda rows: self._kernel(X[rows], X), n, self._cache_size)
        return cache, self._kernel_diag(X)

    def _test_kernel(self, X, support):
        """The kernel between test points and the support vectors, shape (n_test, n_SV)."""
        if self.kernel == "precomputed":
            return X[:, support]
        if len(support) == 0:       # e.g. SVR with a tube that holds every point: f is the constant b
            return np.zeros((X.shape[0], 0))
        step = max(1, int(self._cache_size * 2**20 // (8 * len(support))))
        return np.vstack([self._kernel(X[s:s + step], self.support_vectors_) for s in range(0, X.shape[0], step)])

    def _validate_predict_X(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        if self.kernel == "precomputed" and X.shape[1] != self.shape_fit_[0]:
            raise ValueError(f"X must be a precomputed kernel matrix of shape (n_samples, n_train) = "
                             f"(n_samples, {self.shape_fit_[0]}), got {X.shape}")
        return X

    def _warn(self, converged):
        if not all(converged):
            warnings.warn(f"SMO stopped at max_iter = {self._max_iter} before the gap m - M reached tol = "
                          f"{self._tol}; consider a larger max_iter", ConvergenceWarning, stacklevel=3)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags


def _binary_dual(estimator, X, y_pm):
    """Solve one binary dual; returns (alpha, b, n_iter, converged) with ``y_pm`` in {-1, +1}."""
    kernel_row, K_diag = estimator._row_source(X)
    n = y_pm.shape[0]
    alpha, G, n_iter, converged = smo(kernel_row, K_diag, y_pm, -np.ones(n), np.full(n, estimator._C),
                                      tol=estimator._tol, max_iter=estimator._max_iter)
    return alpha, intercept(alpha, G, y_pm, np.full(n, estimator._C)), n_iter, converged


class SVC(ClassifierMixin, _KernelSVM):
    r"""Soft-margin kernel support vector classifier, solved by SMO (scikit-learn's ``SVC``).

    Parameters
    ----------
    C : float > 0, default 1.0
        Weight of the slacks: :math:`\min \tfrac12\lVert w\rVert^2 + C\sum_i \xi_i`.
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"}, default "rbf"
        With ``"precomputed"``, ``X`` in ``fit`` is the (n_samples, n_samples) kernel matrix (checked symmetric
        and positive semidefinite) and in ``predict`` the (n_test, n_train) kernel against the training points.
    degree : int >= 0, default 3
        Degree of the polynomial kernel :math:`(\gamma\,x^\top x' + c_0)^{d}`.
    gamma : {"scale", "auto"} or float > 0, default "scale"
        ``"scale"`` is :math:`1/(d\,\operatorname{Var}X)`, ``"auto"`` is :math:`1/d`.
    coef0 : float, default 0.0
        :math:`c_0` of the polynomial and sigmoid kernels.
    tol : float > 0, default 1e-3
        SMO stops when the maximal violating pair's gap is at most ``tol``.
    max_iter : int, default -1
        SMO iterations per binary problem; -1 for no limit.
    cache_size : float > 0, default 200
        Megabytes of kernel rows cached during training: the whole kernel matrix, computed once, when it fits,
        else a least-recently-used cache of rows; and the size of each block of the kernel when predicting.
    decision_function_shape : {"ovr", "ovo"}, default "ovr"
        With more than two classes: one-vs-one scores (n_samples, n_classes (n_classes - 1) / 2) or votes
        turned into one-vs-rest scores (n_samples, n_classes), as scikit-learn.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (:math:`\alpha_i > 0`), grouped by class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Empty for a precomputed kernel.
    n_support_ : ndarray of shape (n_classes,)
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        :math:`y_i\alpha_i` of the support vectors (scikit-learn's layout for one-vs-one with several classes).
    intercept_ : ndarray of shape (n_classes (n_classes - 1) / 2,)
        :math:`b` of each binary problem.
    n_iter_ : ndarray of shape (n_classes (n_classes - 1) / 2,)
        SMO iterations of each binary problem.
    shape_fit_ : tuple
    n_features_in_ : int

    Notes
    -----
    The dual solved for each pair of classes (labels :math:`y_i = \pm 1`):

    .. math:: \min_{\alpha}\ \tfrac12\sum_{i,j}\alpha_i\alpha_j\, y_i y_j\, K_{ij} - \sum_i\alpha_i
        \quad\text{s.t.}\quad \sum_i y_i\alpha_i = 0,\quad 0 \le \alpha_i \le C,

    and :math:`f(x) = \sum_i \alpha_i y_i\, k(x_i, x) + b` with :math:`b` averaged over the free support
    vectors. With two classes, :math:`f(x) > 0` predicts ``classes_[1]``. Several classes: one classifier per
    pair, the class with most votes. SMO is an addition to the notes. Chapter 14.
    """

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, max_iter=-1,
                 cache_size=200, decision_function_shape="ovr"):
        super().__init__(C, kernel, degree, gamma, coef0, tol, max_iter, cache_size)
        self.decision_function_shape = decision_function_shape

    def fit(self, X, y):
        """Fit on ``X`` of shape (n_samples, n_features) (or the kernel matrix) and labels ``y`` (n_samples,)."""
        X, y, codes = check_classes(self, X, y, dtype=np.float64)
        self._check_params(X)
        check_option(self.decision_function_shape, "decision_function_shape", ("ovr", "ovo"))
        self._validate_fit_X(X)
        k = len(self.classes_)
        n = X.shape[0]
        coef = []        # per pair: (indices, y_i alpha_i) with +1 for the first class of the pair
        intercepts, n_iter, converged = [], [], []
        for a in range(k):
            for c in range(a + 1, k):
                idx = np.flatnonzero((codes == a) | (codes == c))
                X_pair = X[np.ix_(idx, idx)] if self.kernel == "precomputed" else X[idx]
                y_pm = np.where(codes[idx] == a, 1.0, -1.0)
                alpha, b, it, ok = _binary_dual(self, X_pair, y_pm)
                coef.append((idx, y_pm * alpha))
                intercepts.append(b)
                n_iter.append(it)
                converged.append(ok)
        self._warn(converged)
        # support vectors: alpha > 0 in some pair; grouped by class, ascending index inside a class
        is_sv = np.zeros(n, dtype=bool)
        for idx, ya in coef:
            is_sv[idx[ya != 0]] = True
        order = np.lexsort((np.arange(n), codes))
        support = order[is_sv[order]]
        position = np.full(n, -1)
        position[support] = np.arange(len(support))
        dual_coef = np.zeros((k - 1, len(support)))
        pair = 0
        for a in range(k):
            for c in range(a + 1, k):
                idx, ya = coef[pair]
                nz = ya != 0
                rows = np.where(codes[idx[nz]] == a, c - 1, a)
                dual_coef[rows, position[idx[nz]]] = ya[nz]
                pair += 1
        self.support_ = support.astype(np.int32)
        self.n_support_ = np.bincount(codes[support], minlength=k).astype(np.int32)
        self.support_vectors_ = np.empty((0, 0)) if self.kernel == "precomputed" else X[support]
        self.dual_coef_ = dual_coef
        self.intercept_ = np.array(intercepts)
        if k == 2:   # scikit-learn's sign: f > 0 predicts classes_[1]
            self.dual_coef_ = -self.dual_coef_
            self.intercept_ = -self.intercept_
        self.n_iter_ = np.array(n_iter, dtype=np.int32)
        self.shape_fit_ = X.shape
        return self

    def _ovo_decision(self, X):
        """The one-vs-one scores, shape (n_samples, n_pairs); positive for the first class of the pair."""
        K = self._test_kernel(X, self.support_)
        k = len(self.classes_)
        if k == 2:
            return -(K @ self.dual_coef_[0] + self.intercept_[0])[:, None]
        start = np.concatenate([[0], np.cumsum(self.n_support_)])
        scores = np.empty((X.shape[0], k * (k - 1) // 2))
        pair = 0
        for a in range(k):
            for c in range(a + 1, k):
                sa, sc = slice(start[a], start[a + 1]), slice(start[c], start[c + 1])
                scores[:, pair] = (K[:, sa] @ self.dual_coef_[c - 1, sa] + K[:, sc] @ self.dual_coef_[a, sc]
                                   + self.intercept_[pair])
                pair += 1
        return scores

    def decision_function(self, X):
        r"""The decision function :math:`f(x) = \sum_i \alpha_i y_i k(x_i, x) + b`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_train) if precomputed

        Returns
        -------
        ndarray of shape (n_samples,) with two classes (positive: ``classes_[1]``); else (n_samples, n_classes)
        (``"ovr"``) or (n_samples, n_pairs) (``"ovo"``).
        """
        X = self._validate_predict_X(X)
        scores = self._ovo_decision(X)
        k = len(self.classes_)
        if k == 2:
            return -scores[:, 0]
        if self.decision_function_shape == "ovo":
            return scores
        return _ovr_scores(scores, k)

    def predict(self, X):
        """The class with most one-vs-one votes (two classes: the sign of the decision function), (n_samples,)."""
        X = self._validate_predict_X(X)
        scores = self._ovo_decision(X)
        k = len(self.classes_)
        votes = np.zeros((X.shape[0], k), dtype=int)
        pair = 0
        for a in range(k):
            for c in range(a + 1, k):
                first = scores[:, pair] > 0
                votes[:, a] += first
                votes[:, c] += ~first
                pair += 1
        return self.classes_[votes.argmax(axis=1)]


def _ovr_scores(scores, k):
    """Votes plus the summed one-vs-one scores squashed into (-1/3, 1/3): scikit-learn's one-vs-rest shape."""
    votes = np.zeros((scores.shape[0], k))
    confidence = np.zeros((scores.shape[0], k))
    pair = 0
    for a in range(k):
        for c in range(a + 1, k):
            confidence[:, a] += scores[:, pair]
            confidence[:, c] -= scores[:, pair]
            votes[:, a] += scores[:, pair] >= 0
            votes[:, c] += scores[:, pair] < 0
            pair += 1
    return votes + confidence / (3 * (np.abs(confidence) + 1))


class SVR(RegressorMixin, _KernelSVM):
    r"""Epsilon-insensitive support vector regression, solved by SMO (scikit-learn's ``SVR``).

    An addition to the notes (their "support vector regression" is kernel ridge, chapter 16).

    Parameters
    ----------
    C : float > 0, default 1.0
    epsilon : float >= 0, default 0.1
        Half-width of the tube in which errors cost nothing.
    kernel, degree, gamma, coef0, tol, max_iter, cache_size
        As in :class:`SVC`.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
    support_vectors_ : ndarray of shape (n_SV, n_features)
    dual_coef_ : ndarray of shape (1, n_SV)
        :math:`\alpha_i - \alpha_i^*` of the support vectors.
    intercept_ : ndarray of shape (1,)
    n_support_ : ndarray of shape (1,)
    n_iter_ : ndarray of shape (1,)
    n_features_in_ : int

    Notes
    -----
    The dual on the :math:`2n` variables :math:`(\alpha, \alpha^*)`, targets :math:`z`:

    .. math:: \min\ \tfrac12(\alpha - \alpha^*)^\top K(\alpha - \alpha^*) + \epsilon\,\mathbf 1^\top(\alpha + \alpha^*)
        - z^\top(\alpha - \alpha^*)
        \quad\text{s.t.}\quad \mathbf 1^\top(\alpha - \alpha^*) = 0,\ 0 \le \alpha, \alpha^* \le C,

    the general form of :func:`mlnotes.svm.smo` with signs :math:`(+\mathbf 1, -\mathbf 1)` and
    :math:`p = (\epsilon - z, \epsilon + z)`; :math:`f(x) = \sum_i(\alpha_i - \alpha_i^*)k(x_i, x) + b`. Chapter 14.
    """

    def __init__(self, C=1.0, epsilon=0.1, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 max_iter=-1, cache_size=200):
        super().__init__(C, kernel, degree, gamma, coef0, tol, max_iter, cache_size)
        self.epsilon = epsilon

    def fit(self, X, y):
        """Fit on ``X`` of shape (n_samples, n_features) (or the kernel matrix) and targets ``y`` (n_samples,)."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self._check_params(X)
        epsilon = check_scalar(self.epsilon, "epsilon", Real, min_val=0)
        self._validate_fit_X(X)
        n = X.shape[0]
        kernel_row, K_diag = self._row_source(X)
        signs = np.concatenate([np.ones(n), -np.ones(n)])
        p = np.concatenate([epsilon - y, epsilon + y])
        C = np.full(2 * n, self._C)
        alpha2, G, n_iter, converged = smo(kernel_row, K_diag, signs, p, C, tol=self._tol,
                                           max_iter=self._max_iter, index=np.tile(np.arange(n), 2))
        self._warn([converged])
        coef = alpha2[:n] - alpha2[n:]
        support = np.flatnonzero(coef != 0)
        self.support_ = support.astype(np.int32)
        self.support_vectors_ = np.empty((0, 0)) if self.kernel == "precomputed" else X[support]
        self.dual_coef_ = coef[support][None, :]
        self.intercept_ = np.array([intercept(alpha2, G, signs, C)])
        self.n_support_ = np.array([len(support)], dtype=np.int32)
        self.n_iter_ = np.array([n_iter], dtype=np.int32)
        self.shape_fit_ = X.shape
        return self

    def predict(self, X):
        r"""The regression function :math:`f(x) = \sum_i (\alpha_i - \alpha_i^*)\,k(x_i, x) + b`, shape (n_samples,)."""
        X = self._validate_predict_X(X)
        return self._test_kernel(X, self.support_) @ self.dual_coef_[0] + self.intercept_[0]
