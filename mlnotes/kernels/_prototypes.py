r"""Classifiers by distances in feature space (chapter 16, *Kernel methods*; note 000, kNN and learning with
prototypes): the k nearest neighbours and the nearest class mean, with the distance a kernel induces.

.. math:: d(x, z)^2 = \lVert\varphi(x) - \varphi(z)\rVert^2 = k(x, x) - 2k(x, z) + k(z, z).

Neither method needs :math:`k(x, x)` of the point being classified: it is the same for every neighbour and every
class mean, so it does not change which is nearest.
"""

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ..utils.validation import check_classes, check_scalar
from ._base import KernelMixin


def _fit_classes(estimator, X, y, gram=True):
    """Validate, set ``classes_``; return the Gram matrix of the training points (or only its diagonal) and the
    class codes."""
    estimator._kernel_args = estimator._check_kernel_params()
    _, _, codes = check_classes(estimator, X, y, dtype=np.float64)
    K, _ = estimator._fit_kernel(X, y, gram=gram, require_psd=True)
    return K, codes


class KernelKNeighborsClassifier(ClassifierMixin, KernelMixin, BaseEstimator):
    r"""The k-nearest-neighbour classifier with the kernel-induced distance.

    Parameters
    ----------
    n_neighbors : int >= 1, default 5
        :math:`k`, at most the number of training samples.
    kernel : str or callable, default "linear"
        As in :class:`KernelRidge`; with ``"linear"``, :math:`d` is the Euclidean distance and the classifier is
        :class:`sklearn.neighbors.KNeighborsClassifier` (uniform weights).
    gamma, degree, coef0, kernel_params
        As in :class:`KernelRidge`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    y_codes_ : ndarray of int of shape (n_samples,)
        The class index of each training sample (``classes_[y_codes_]`` are the labels).
    K_diag_ : ndarray of shape (n_samples,)
        :math:`k(x_i, x_i)` of the training points.
    X_fit_ : ndarray of shape (n_samples, n_features), or None for a precomputed kernel
    n_features_in_ : int

    Raises
    ------
    ValueError
        NaN or infinity, fewer than 2 classes, ``n_neighbors`` above the number of samples, a non-positive
        ``gamma``, or a precomputed Gram matrix that is not symmetric positive semidefinite (then
        :math:`d(x, z)^2` can be negative: not a distance). A callable or sigmoid kernel is not checked here
        (``fit`` computes only :math:`k(x_i, x_i)`).

    Notes
    -----
    The neighbours of :math:`x` are the :math:`k` training points of smallest
    :math:`d(x, x_i)^2 = k(x, x) - 2k(x, x_i) + k(x_i, x_i)` (negative rounding clipped to 0), and the prediction
    is the most frequent class among them. **Tie rule**: among training points at the same distance, the one with
    the lower index comes first (a stable sort); among classes with the same number of votes, the one first in
    ``classes_`` wins (scikit-learn's rule for the vote). Not here (scikit-learn's ``KNeighborsClassifier`` has
    them): ``weights="distance"`` or a callable (the vote is uniform), ``kneighbors(X=None)`` (the neighbours of
    the training points, each excluding itself), ``radius`` methods and the tree ``algorithm``s (distances are
    computed in full). Chapter 16.
    """

    _centre_inputs = True       # only feature-space distances are used: see KernelMixin

    def __init__(self, n_neighbors=5, *, kernel="linear", gamma=None, degree=3, coef0=1, kernel_params=None):
        self.n_neighbors = n_neighbors
        super().__init__(kernel, gamma, degree, coef0, kernel_params)

    def fit(self, X, y):
        """Fit on ``X`` (n_samples, n_features) or a precomputed Gram matrix, and labels ``y`` (n_samples,)."""
        K_diag, codes = _fit_classes(self, X, y, gram=False)
        n_neighbors = check_scalar(self.n_neighbors, "n_neighbors", Integral, min_val=1)
        if n_neighbors > len(codes):
            raise ValueError(f"n_neighbors = {n_neighbors} must be at most n_samples = {len(codes)}")
        self.y_codes_ = codes
        self.K_diag_ = K_diag
        return self

    def _squared_distances(self, X, with_test_diagonal):
        """:math:`d(x, x_i)^2` (or, without the test diagonal, :math:`d^2 - k(x, x)`), shape (n_test, n_samples)."""
        K, X = self._predict_kernel(X, return_X=True)
        D = K * -2
        if with_test_diagonal:
            if self.kernel == "precomputed":
                raise ValueError("distances need k(x, x) of the new points, which a precomputed kernel against the "
                                 "training points does not give: use return_distance=False")
            D += self._kernel_diagonal(X)[:, None]
        D += self.K_diag_[None, :]
        if with_test_diagonal:
            np.maximum(D, 0, out=D)
        return D

    def kneighbors(self, X, n_neighbors=None, return_distance=True):
        r"""The nearest training points of each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_test, n_features), or (n_test, n_samples) if precomputed
        n_neighbors : int, optional
            Default ``self.n_neighbors``.
        return_distance : bool, default True
            Also return the distances :math:`d(x, x_i)` (not available for a precomputed kernel).

        Returns
        -------
        distances : ndarray of shape (n_test, n_neighbors)
            Only if ``return_distance``; increasing along each row.
        indices : ndarray of int of shape (n_test, n_neighbors)
        """
        D = self._squared_distances(X, with_test_diagonal=return_distance)
        n_neighbors = self.n_neighbors if n_neighbors is None else n_neighbors
        n_neighbors = check_scalar(n_neighbors, "n_neighbors", Integral, min_val=1, max_val=len(self.y_codes_))
        indices = np.argsort(D, axis=1, kind="stable")[:, :n_neighbors]
        if not return_distance:
            return indices
        return np.sqrt(np.take_along_axis(D, indices, axis=1)), indices

    def predict_proba(self, X):
        """The fraction of the neighbours in each class, shape (n_test, n_classes)."""
        indices = self.kneighbors(X, return_distance=False)
        k = len(self.classes_)
        n_test = indices.shape[0]
        votes = np.zeros((n_test, k))
        np.add.at(votes, (np.repeat(np.arange(n_test), indices.shape[1]), self.y_codes_[indices].ravel()), 1)
        return votes / indices.shape[1]

    def predict(self, X):
        """The most frequent class among the neighbours (ties: the first in ``classes_``), shape (n_test,)."""
        winners = self.predict_proba(X).argmax(axis=1)
        return self.classes_[winners]


class KernelNearestCentroid(ClassifierMixin, KernelMixin, BaseEstimator):
    r"""Learning with prototypes in feature space: the class whose mean :math:`\mu_c` of :math:`\varphi(x_i)` is
    nearest.

    Parameters
    ----------
    kernel : str or callable, default "linear"
        As in :class:`KernelRidge`; with ``"linear"`` this is :class:`sklearn.neighbors.NearestCentroid`.
    gamma, degree, coef0, kernel_params
        As in :class:`KernelRidge`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    centroid_weights_ : ndarray of shape (n_samples, n_classes)
        :math:`P_{ic} = 1/n_c` if sample :math:`i` is in class :math:`c`, else 0: :math:`\mu_c = \sum_i P_{ic}
        \varphi(x_i)`.
    centroid_sq_norms_ : ndarray of shape (n_classes,)
        :math:`\lVert\mu_c\rVert^2 = \tfrac1{n_c^2}\sum_{i, j \in c} k(x_i, x_j)`, with the kernel evaluated on the
        inputs minus the training mean for the linear, rbf and laplacian kernels (see :class:`KernelMixin`; for the
        linear kernel this is :math:`\lVert\mu_c - \bar x\rVert^2`).
    X_fit_ : ndarray of shape (n_samples, n_features), or None for a precomputed kernel
    n_features_in_ : int

    Raises
    ------
    ValueError
        NaN or infinity, fewer than 2 classes, a non-positive ``gamma``, or a Gram matrix that is not positive
        semidefinite (precomputed, callable, sigmoid or polynomial with :math:`c_0 < 0`: then the distances to
        the means are not distances; chapter 15's check, the message gives the smallest eigenvalue).

    Notes
    -----
    .. math::
        \lVert\varphi(x) - \mu_c\rVert^2 = k(x, x) - \frac{2}{n_c}\sum_{i \in c} k(x, x_i)
        + \frac{1}{n_c^2}\sum_{i, j \in c} k(x_i, x_j),

    (note 000, line 805, writes the middle term's sum with a second factor 2 and the last with :math:`1/n^2`: the
    factors are :math:`-2/n_c` and :math:`1/n_c^2`). The first term is the same for every class, so ``predict`` takes the class minimising
    :math:`\lVert\mu_c\rVert^2 - 2(K_\star P)_c`; a tie goes to the first class in ``classes_``. Not here
    (scikit-learn's ``NearestCentroid`` has them): ``shrink_threshold``, ``metric="manhattan"`` (medians), and
    ``decision_function``/``predict_proba``. Chapter 16.
    """

    _centre_inputs = True       # only feature-space distances are used: see KernelMixin

    def __init__(self, *, kernel="linear", gamma=None, degree=3, coef0=1, kernel_params=None):
        super().__init__(kernel, gamma, degree, coef0, kernel_params)

    def fit(self, X, y):
        """Fit on ``X`` (n_samples, n_features) or a precomputed Gram matrix, and labels ``y`` (n_samples,)."""
        K, codes = _fit_classes(self, X, y)
        P = np.zeros((len(codes), len(self.classes_)))
        P[np.arange(len(codes)), codes] = 1.0
        P /= P.sum(axis=0)
        self.centroid_weights_ = P
        self.centroid_sq_norms_ = np.einsum("ic,ic->c", P, K @ P)
        return self

    def predict(self, X):
        """The class of the nearest mean in feature space, shape (n_test,)."""
        scores = self._predict_kernel(X) @ self.centroid_weights_
        scores *= -2
        scores += self.centroid_sq_norms_
        nearest = scores.argmin(axis=1)
        return self.classes_[nearest]
