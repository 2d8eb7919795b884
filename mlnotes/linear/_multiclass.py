r"""Multiclass classification from binary classifiers: one-vs-rest and one-vs-one (chapter 12).

One-vs-rest trains :math:`K` classifiers, class :math:`k` against all others, and predicts the class with the
largest score; one-vs-one trains :math:`K(K-1)/2` classifiers, one per pair, and predicts by majority vote.
"""

from itertools import combinations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._available_if import available_if
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_classes


def _scores(estimator, X):
    """Score of the positive class: ``decision_function`` if the estimator has one, else P(positive)."""
    if hasattr(estimator, "decision_function"):
        return estimator.decision_function(X)
    return estimator.predict_proba(X)[:, 1]


class OneVsRestClassifier(ClassifierMixin, BaseEstimator):
    """One binary classifier per class (that class against the rest); predict the largest score.

    Parameters
    ----------
    estimator : classifier
        A binary classifier with ``decision_function`` or ``predict_proba``; cloned for every class.

    Attributes
    ----------
    classes_ : array of shape (n_classes,)
    estimators_ : list of n_classes fitted classifiers
        ``estimators_[k]`` separates ``classes_[k]`` (label 1) from the rest (label 0).
    n_features_in_ : int

    Notes
    -----
    The scores of separately trained classifiers are not calibrated against each other, and a point
    can be claimed by no class or by several: the chapter shows the regions where one-vs-rest fails.
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        """Fit one classifier per class. ``X``: (n_samples, n_features); ``y``: (n_samples,)."""
        X, y, _ = check_classes(self, X, y)
        self.estimators_ = [clone(self.estimator).fit(X, (y == k).astype(int)) for k in self.classes_]
        return self

    def decision_function(self, X):
        """Scores of every class, shape (n_samples, n_classes) ((n_samples,) for two classes, as scikit-learn)."""
        S = self._score_matrix(X)
        return S[:, 1] if len(self.classes_) == 2 else S

    def predict(self, X):
        """The class of the largest score, shape (n_samples,)."""
        S = self._score_matrix(X)
        return self.classes_[S.argmax(axis=1)]

    def _score_matrix(self, X):
        """The score of every class's classifier (:func:`_scores`), shape (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return np.column_stack([_scores(est, X) for est in self.estimators_])

    @available_if(lambda self: hasattr(self.estimator, "predict_proba"))
    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes): each classifier's probability of its class,
        normalised to sum to 1 over the classes (as scikit-learn's ``OneVsRestClassifier``); the
        classifiers are trained separately, so these are scores rather than calibrated probabilities."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        P = np.column_stack([est.predict_proba(X)[:, 1] for est in self.estimators_])
        total = P.sum(axis=1, keepdims=True)
        # no class claims the sample (every probability 0): no preference
        return np.divide(P, total, out=np.full_like(P, 1.0 / P.shape[1]), where=total > 0)


class OneVsOneClassifier(ClassifierMixin, BaseEstimator):
    """One binary classifier per pair of classes; predict by majority vote (ties: the summed confidences).

    Parameters
    ----------
    estimator : classifier
        A binary classifier; cloned for every pair.

    Attributes
    ----------
    classes_ : array of shape (n_classes,)
    pairs_ : list of (i, j) index pairs, i < j
    estimators_ : list of fitted classifiers, one per pair, trained on the samples of the two classes
        with ``classes_[j]`` as label 1.
    n_features_in_ : int
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        """Fit one classifier per pair of classes. ``X``: (n_samples, n_features); ``y``: (n_samples,)."""
        X, y, _ = check_classes(self, X, y)
        self.pairs_ = list(combinations(range(len(self.classes_)), 2))
        self.estimators_ = []
        for i, j in self.pairs_:
            mask = (y == self.classes_[i]) | (y == self.classes_[j])
            self.estimators_.append(clone(self.estimator).fit(X[mask], (y[mask] == self.classes_[j]).astype(int)))
        return self

    def votes(self, X):
        """Number of pairwise wins of every class, shape (n_samples, n_classes)."""
        check_is_fitted(self)
        return self._count_votes(validate_data(self, X, reset=False))

    def _count_votes(self, X):
        """:meth:`votes` of validated ``X``: each pair classifier's winner gets one vote."""
        V = np.zeros((X.shape[0], len(self.classes_)), dtype=int)
        rows = np.arange(X.shape[0])
        for (i, j), est in zip(self.pairs_, self.estimators_):
            winner = np.where(est.predict(X) == 1, j, i)
            np.add.at(V, (rows, winner), 1)
        return V

    def decision_function(self, X):
        r"""Votes plus a tie-breaking confidence, shape (n_samples, n_classes) ((n_samples,) for two classes).

        As scikit-learn's ``OneVsOneClassifier``: the votes of every class plus its summed pairwise
        confidences :math:`c` (the pair classifiers' scores, positive towards the second class of the pair)
        squashed into :math:`(-\tfrac13, \tfrac13)` by :math:`c / (3(|c| + 1))`, so they break ties between
        equal numbers of votes and never overturn a vote.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        n, K = X.shape[0], len(self.classes_)
        V, confidence = self._count_votes(X), np.zeros((n, K))
        for (i, j), est in zip(self.pairs_, self.estimators_):
            c = _scores(est, X)
            confidence[:, i] -= c
            confidence[:, j] += c
        D = V + confidence / (3 * (np.abs(confidence) + 1))
        return D[:, 1] - D[:, 0] if K == 2 else D

    def predict(self, X):
        """The class with the most votes (ties broken by the confidences of :meth:`decision_function`),
        shape (n_samples,)."""
        D = self.decision_function(X)
        return self.classes_[(D > 0).astype(int) if D.ndim == 1 else D.argmax(axis=1)]
