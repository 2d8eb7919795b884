r"""AdaBoost (chapter 21, *Boosting*): SAMME, the multi-class discrete AdaBoost of Zhu, Zou, Rosset and Hastie
(2009), which is Freund and Schapire's AdaBoost.M1 (1997) for two classes.

Round :math:`m` fits the base classifier :math:`h_m` to the data weighted by :math:`w_i` (summing to 1), measures
its weighted error :math:`\mathrm{err}_m = \sum_i w_i [h_m(x_i) \ne y_i]`, gives it the weight
:math:`\alpha_m = \nu\big(\ln\frac{1 - \mathrm{err}_m}{\mathrm{err}_m} + \ln(K - 1)\big)`, multiplies the weights
of the misclassified samples by :math:`e^{\alpha_m}` and renormalises. The ensemble predicts the class with the
largest :math:`\sum_m \alpha_m [h_m(x) = k]`. For two classes and :math:`\nu = 1` this is forward stagewise
additive modelling with the exponential loss (chapter 21): :math:`\alpha_m` is twice the FSAM step
:math:`\tfrac12 \ln\frac{1 - \mathrm{err}_m}{\mathrm{err}_m}` and the reweighting is the same after normalisation.
The rules (stopping, the clipping of weights at machine epsilon, the decision function) are scikit-learn's.
"""

import inspect
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.special import softmax
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

from ..tree import DecisionTreeClassifier
from ..utils.validation import check_classes, check_sample_weight, check_scalar

__all__ = ["AdaBoostClassifier"]

SEED_BOUND = np.iinfo(np.int32).max


class AdaBoostClassifier(ClassifierMixin, BaseEstimator):
    r"""Discrete AdaBoost, SAMME for :math:`K \ge 2` classes (scikit-learn's ``AdaBoostClassifier``).

    Parameters
    ----------
    estimator : classifier or None, default None
        The base learner; it must accept ``sample_weight`` in ``fit``. None: a stump,
        ``mlnotes.tree.DecisionTreeClassifier(max_depth=1)``.
    n_estimators : int >= 1, default 50
        The largest number of rounds (fewer if a base classifier fits the weighted data perfectly, or is no better
        than chance after the first round).
    learning_rate : float > 0, default 1.0
        The shrinkage :math:`\nu` of every :math:`\alpha_m`.
    random_state : int, Generator or None
        Seeds the ``random_state`` of each base learner that has one.

    Attributes
    ----------
    estimators_ : list of classifiers
    estimator_weights_ : ndarray of shape (n_estimators,)
        :math:`\alpha_m` (0 for rounds not run; 1 for a round that fitted perfectly and stopped).
    estimator_errors_ : ndarray of shape (n_estimators,)
        :math:`\mathrm{err}_m` (1 for rounds not run).
    sample_weights_ : ndarray of shape (n_rounds_run, n_samples)
        The normalised weights each round's learner was fitted with (an addition: scikit-learn keeps none).
    classes_, n_classes_, n_features_in_, feature_importances_

    Raises
    ------
    ValueError
        ``n_estimators < 1``, ``learning_rate <= 0``, one class, NaN or infinity, negative or all-zero
        ``sample_weight``, a base learner without ``sample_weight``, a first learner no better than chance.
    """

    def __init__(self, estimator=None, *, n_estimators=50, learning_rate=1.0, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.random_state = random_state

    def _make_estimator(self, rng):
        est = DecisionTreeClassifier(max_depth=1) if self.estimator is None else clone(self.estimator)
        if "random_state" in est.get_params():
            est.set_params(random_state=int(rng.integers(SEED_BOUND)))
        return est

    def fit(self, X, y, sample_weight=None):
        """Run up to ``n_estimators`` rounds on ``X`` (n_samples, n_features) and labels ``y`` (n_samples,)."""
        check_scalar(self.n_estimators, "n_estimators", Integral, min_val=1)
        nu = check_scalar(self.learning_rate, "learning_rate", Real, min_val=0, include_boundaries="neither")
        if self.estimator is not None:
            try:
                accepts = "sample_weight" in inspect.signature(self.estimator.fit).parameters
            except (TypeError, ValueError, AttributeError):
                accepts = False
            if not accepts:
                raise ValueError(f"{type(self.estimator).__name__} does not accept sample_weight in fit: AdaBoost "
                                 f"reweights the samples, so its base learner must take weights")
        X, y, codes = check_classes(self, X, y, dtype=[np.float64, np.float32])
        w = check_sample_weight(sample_weight, X.shape[0]).copy()
        w /= w.sum()
        K = len(self.classes_)
        self.n_classes_ = K
        rng = np.random.default_rng(self.random_state)
        self.estimators_ = []
        self.estimator_weights_ = np.zeros(self.n_estimators)
        self.estimator_errors_ = np.ones(self.n_estimators)
        weights_history = []
        eps = np.finfo(float).eps
        zero = w == 0
        for m in range(self.n_estimators):
            w = np.clip(w, eps, None)
            w[zero] = 0.0
            est = self._make_estimator(rng).fit(X, y, sample_weight=w)
            self.estimators_.append(est)
            weights_history.append(w.copy())
            incorrect = est.predict(X) != y
            err = np.average(incorrect, weights=w)
            if err <= 0:                                               # a perfect fit: it alone decides
                self.estimator_weights_[m], self.estimator_errors_[m] = 1.0, 0.0
                break
            if err >= 1.0 - 1.0 / K:                                   # no better than chance: discard it, stop
                self.estimators_.pop()
                weights_history.pop()
                if not self.estimators_:
                    raise ValueError(f"the first base classifier of AdaBoostClassifier has weighted error {err:.3g} "
                                     f">= 1 - 1/K = {1 - 1 / K:.3g}, no better than chance: boosting cannot start")
                break
            alpha = nu * (np.log((1 - err) / err) + np.log(K - 1))
            self.estimator_weights_[m], self.estimator_errors_[m] = alpha, err
            if m == self.n_estimators - 1:
                break
            with np.errstate(over="ignore"):
                w = np.exp(np.log(np.where(w > 0, w, 1.0)) + alpha * (incorrect & (w > 0))) * (w > 0)
            total = w.sum()
            if not np.isfinite(total):
                warnings.warn(f"the sample weights overflowed at round {m}: boosting stopped; lower the "
                              f"learning_rate", RuntimeWarning, stacklevel=2)
                break
            w /= total
        self.sample_weights_ = np.array(weights_history)
        return self

    def _votes(self, est, alpha, X):
        # alpha for the predicted class, -alpha/(K-1) for the others (SAMME's symmetric coding)
        K = self.n_classes_
        hits = est.predict(X)[:, None] == self.classes_[None, :]
        return np.where(hits, alpha, -alpha / (K - 1))

    def _check_X(self, X):
        check_is_fitted(self, "estimators_")
        return validate_data(self, X, reset=False, dtype=[np.float64, np.float32])

    def staged_decision_function(self, X):
        r"""Yield the decision function of the first :math:`m` learners, :math:`m = 1, 2, \dots`."""
        X = self._check_X(X)
        total, norm = 0.0, 0.0
        for est, alpha in zip(self.estimators_, self.estimator_weights_):
            total = total + self._votes(est, alpha, X)
            norm += alpha
            yield self._fold(total / norm)

    def _fold(self, scores):
        if self.n_classes_ == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def decision_function(self, X):
        r""":math:`\sum_m \alpha_m c_m(x) / \sum_m \alpha_m` with :math:`c_{mk} = 1` for the predicted class and
        :math:`-1/(K-1)` otherwise; for two classes its second column minus the first, shape (n_samples,)."""
        *_, last = self.staged_decision_function(X)
        return last

    def predict(self, X):
        """The class of largest weighted vote (two classes: ``classes_[1]`` where the decision function is > 0)."""
        return self._predict_from(self.decision_function(X))

    def _predict_from(self, scores):
        if self.n_classes_ == 2:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[scores.argmax(axis=1)]

    def staged_predict(self, X):
        """Yield :meth:`predict` of the first :math:`m` learners."""
        for scores in self.staged_decision_function(X):
            yield self._predict_from(scores)

    def _proba(self, scores):
        K = self.n_classes_
        if K == 2:
            scores = np.column_stack([-scores, scores]) / 2
        return softmax(scores / (K - 1), axis=1)

    def predict_proba(self, X):
        """scikit-learn's probabilities: the softmax of the decision function divided by :math:`K - 1`."""
        return self._proba(self.decision_function(X))

    def staged_predict_proba(self, X):
        """Yield :meth:`predict_proba` of the first :math:`m` learners."""
        for scores in self.staged_decision_function(X):
            yield self._proba(scores)

    @property
    def feature_importances_(self):
        r"""The :math:`\alpha`-weighted mean of the learners' importances, shape (n_features,)."""
        check_is_fitted(self, "estimators_")
        weights = self.estimator_weights_[:len(self.estimators_)]
        importances = np.array([est.feature_importances_ for est in self.estimators_])
        return weights @ importances / weights.sum()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
