r"""k-nearest-neighbour classification and regression (chapter 18, *Nearest neighbours and evaluation*)."""

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin, RegressorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_option, check_scalar
from ._distances import Metric
from ._search import kneighbors_search

_WEIGHTS = ("uniform", "distance")


def neighbour_weights(distances, weights):
    r"""The weight of each neighbour's vote: 1 (``"uniform"``) or :math:`1/d` (``"distance"``).

    Parameters
    ----------
    distances : ndarray of shape (n_queries, k)
    weights : {"uniform", "distance"}

    Returns
    -------
    ndarray of shape (n_queries, k)
        For ``"distance"``: :math:`1/d_{ij}`, except in a row with a zero distance, where the neighbours at
        distance 0 (exact copies of the query) get weight 1 and the others 0 (the limit of :math:`1/d` as those
        distances shrink; scikit-learn's rule).
    """
    if weights == "uniform":
        return np.ones_like(distances)
    zero = distances == 0
    with np.errstate(divide="ignore"):
        w = 1.0 / distances
    exact = zero.any(axis=1)
    w[exact] = zero[exact]
    return w


class _KNeighborsBase(BaseEstimator):
    """Parameters, fit and the neighbour search shared by the classifier and the regressor."""

    def __init__(self, n_neighbors=5, *, weights="uniform", metric="minkowski", p=2, metric_params=None):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.metric = metric
        self.p = p
        self.metric_params = metric_params

    def _fit_X(self, X, y, **validate_kwargs):
        check_scalar(self.n_neighbors, "n_neighbors", Integral, min_val=1)
        check_option(self.weights, "weights", _WEIGHTS)
        if self.metric_params is not None and not isinstance(self.metric_params, dict):
            raise TypeError(f"metric_params must be a dict or None, got {type(self.metric_params).__name__}")
        X, y = validate_data(self, X, y, dtype=np.float64, **validate_kwargs)
        params = dict(self.metric_params or {})
        unknown = set(params) - {"p", "VI", "V"}
        if unknown:
            raise ValueError(f"metric_params accepts 'p' (minkowski), 'VI' or 'V' (mahalanobis), got {sorted(unknown)}")
        p = params.pop("p", self.p)
        if self.metric not in ("minkowski",) and p is not None:
            check_scalar(p, "p", Real, min_val=0, include_boundaries="neither", allow_inf=True)
            p = None
        self._metric = Metric(self.metric, X.shape[1], p=p, **params)
        self.effective_metric_ = self._metric.name
        self.effective_metric_params_ = dict(self._metric.params)
        self._train = self._metric.prepare(X)
        if self._metric.gram:
            self._z = self._metric.transform(X)
            self._z_sq = np.einsum("ij,ij->i", self._z, self._z)
        else:
            self._z = self._z_sq = None
        self.n_samples_fit_ = X.shape[0]
        return X, y

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        r"""The ``n_neighbors`` nearest training points of each query.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), optional
            The queries. None: the training points themselves, each without itself (as scikit-learn: the sample's
            own index is removed; if duplicates push it out of the list, the first entry is removed).
        n_neighbors : int >= 1, optional
            :math:`k`; default the estimator's ``n_neighbors``. At most the number of training points (fewer than
            it when ``X`` is None).
        return_distance : bool, default True

        Returns
        -------
        distances : ndarray of shape (n_queries, n_neighbors)
            Non-decreasing along each row (only if ``return_distance``).
        indices : ndarray of int of shape (n_queries, n_neighbors)
            Indices into the training set.

        Raises
        ------
        ValueError
            If ``n_neighbors`` is below 1 or larger than the training set ("k larger than the training set"), or
            ``X`` has NaN/infinity or the wrong number of features.

        Notes
        -----
        Tie rule: training points at equal distance are ordered by their training index, so of the points tied at
        the :math:`k`-th distance those with the lower indices are returned. scikit-learn's brute-force search
        (its ``ArgKmin`` heap) keeps the same *distances* but may pick other points among those tied at the
        :math:`k`-th distance (its documentation warns that the result then depends on the order of the training
        data); without such a boundary tie the two return the same neighbours.
        """
        check_is_fitted(self, "n_samples_fit_")
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        k = check_scalar(k, "n_neighbors", Integral, min_val=1)
        query_is_train = X is None
        if query_is_train:
            X = self._fit_X_raw()
            k += 1
        else:
            X = validate_data(self, X, reset=False, dtype=np.float64)
        if k > self.n_samples_fit_:
            shown = k - 1 if query_is_train else k
            raise ValueError(f"n_neighbors = {shown} is larger than the training set allows (k larger than the "
                             f"training set): n_samples_fit = {self.n_samples_fit_}; need n_neighbors "
                             f"{'<' if query_is_train else '<='} n_samples_fit")
        R, ind = kneighbors_search(self._metric, X, self._train, self._z, self._z_sq, k)
        if query_is_train:
            keep = ind != np.arange(X.shape[0])[:, None]
            keep[keep.all(axis=1), 0] = False
            R = R[keep].reshape(X.shape[0], k - 1)
            ind = ind[keep].reshape(X.shape[0], k - 1)
        if return_distance:
            return self._metric.to_distance(R), ind
        return ind

    def _fit_X_raw(self):
        # the training rows as given (cosine stores unit rows for the search; kneighbors(None) needs the originals)
        return self._X_fit

    def _neighbours(self, X):
        """Indices and vote weights of the neighbours of each query."""
        if self.weights == "uniform":
            ind = self.kneighbors(X, return_distance=False)
            return ind, np.ones(ind.shape)
        dist, ind = self.kneighbors(X)
        return ind, neighbour_weights(dist, self.weights)


class KNeighborsClassifier(ClassifierMixin, _KNeighborsBase):
    r"""k-nearest-neighbour classification by brute-force search: the interface and results of scikit-learn's
    ``KNeighborsClassifier(algorithm="brute")``.

    Parameters
    ----------
    n_neighbors : int >= 1, default 5
        :math:`k`.
    weights : {"uniform", "distance"}, default "uniform"
        Each neighbour's vote: 1, or :math:`1/d(x, x_j)`; in the second case, if the query coincides with some
        neighbours (distance 0), those get all the weight, equally.
    metric : str, default "minkowski"
        ``"minkowski"`` (with ``p``), ``"euclidean"``, ``"manhattan"``, ``"chebyshev"``, ``"cosine"``,
        ``"mahalanobis"`` (with ``metric_params={"VI": ...}`` or ``{"V": ...}``); see
        :func:`mlnotes.neighbors.pairwise_distances`.
    p : float > 0, default 2
        The exponent of ``"minkowski"`` (1 Manhattan, 2 Euclidean, ``np.inf`` Chebyshev).
    metric_params : dict, optional
        ``{"VI": inverse covariance}`` or ``{"V": covariance}`` for ``"mahalanobis"``; ``{"p": p}`` overrides ``p``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_samples_fit_ : int
    n_features_in_ : int
    effective_metric_ : str
        ``metric`` after the Minkowski cases are resolved (``p = 2`` is ``"euclidean"``).
    effective_metric_params_ : dict

    Raises
    ------
    ValueError
        ``n_neighbors < 1``, unknown ``weights`` or ``metric``, ``p <= 0``, a Mahalanobis matrix that is not
        symmetric positive definite of shape (d, d), NaN or infinity, targets that are not class labels; in
        ``predict``: ``n_neighbors`` larger than the training set.

    Notes
    -----
    The prediction is the class with the largest total vote among the :math:`k` neighbours,

    .. math:: \hat y(x) = \arg\max_c \sum_{j \in N_k(x)} w_j\,[y_j = c],

    and ``predict_proba`` the votes divided by their sum. Two tie rules make it a function: neighbours at equal
    distance are ordered by training index (:meth:`kneighbors`), and a tie of votes goes to the class listed first
    in ``classes_`` (the smallest label; ``argmax`` returns the first maximum), as in scikit-learn. A training set
    with one class is accepted (every prediction is that class), as in scikit-learn. Chapter 18.
    """

    def fit(self, X, y):
        """Store the training set ``X`` (n_samples, n_features) and labels ``y`` (n_samples,). Returns ``self``."""
        X, y = self._fit_X(X, y)
        check_classification_targets(y)
        self.classes_, self._y = np.unique(y, return_inverse=True)
        self._y = self._y.reshape(-1)
        self._X_fit = X
        return self

    def predict_proba(self, X):
        """Vote shares of each class, shape (n_queries, n_classes), columns in the order of ``classes_``."""
        check_is_fitted(self, "n_samples_fit_")
        ind, w = self._neighbours(X)
        n_queries, n_classes = ind.shape[0], len(self.classes_)
        # bincount adds the votes of each row in neighbour order, the order of scikit-learn's accumulation
        flat = (np.arange(n_queries)[:, None] * n_classes + self._y[ind]).ravel()
        votes = np.bincount(flat, weights=w.ravel(), minlength=n_queries * n_classes).reshape(n_queries, n_classes)
        votes /= votes.sum(axis=1, keepdims=True)
        return votes

    def predict(self, X):
        """The class with the largest vote (ties: the first in ``classes_``), shape (n_queries,)."""
        check_is_fitted(self, "n_samples_fit_")
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


class KNeighborsRegressor(MultiOutputMixin, RegressorMixin, _KNeighborsBase):
    r"""k-nearest-neighbour regression by brute-force search: the interface and results of scikit-learn's
    ``KNeighborsRegressor(algorithm="brute")``.

    Parameters
    ----------
    n_neighbors, weights, metric, p, metric_params
        As :class:`KNeighborsClassifier`.

    Attributes
    ----------
    n_samples_fit_, n_features_in_, effective_metric_, effective_metric_params_
        As :class:`KNeighborsClassifier`.

    Notes
    -----
    The prediction is the weighted mean of the neighbours' targets,

    .. math:: \hat y(x) = \frac{\sum_{j \in N_k(x)} w_j\, y_j}{\sum_{j \in N_k(x)} w_j},

    :math:`w_j = 1` or :math:`1/d(x, x_j)` (exact copies of the query take all the weight). Neighbours at equal
    distance are ordered by training index (:meth:`kneighbors`). ``y`` may have several columns (one prediction
    each). Chapter 18.
    """

    def fit(self, X, y):
        """Store ``X`` (n_samples, n_features) and targets ``y`` (n_samples,) or (n_samples, n_targets)."""
        X, y = self._fit_X(X, y, multi_output=True, y_numeric=True)
        self._y = np.asarray(y, dtype=np.float64)
        self._X_fit = X
        return self

    def predict(self, X):
        """Weighted mean of the neighbours' targets, shape (n_queries,) or (n_queries, n_targets)."""
        ind, w = self._neighbours(X)
        Y = self._y.reshape(len(self._y), -1)
        if self.weights == "uniform":
            pred = np.mean(Y[ind], axis=1)
        else:
            pred = np.stack([np.sum(Y[ind, j] * w, axis=1) for j in range(Y.shape[1])], axis=1) / np.sum(w, axis=1)[:, None]
        return pred.ravel() if self._y.ndim == 1 else pred
