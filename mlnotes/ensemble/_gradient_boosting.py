r"""Gradient boosting (chapter 21, *Boosting*): functional gradient descent with regression trees (Friedman 2001).

After :math:`m - 1` rounds the model is :math:`f_{m-1}`. Round :math:`m` computes the negative gradient of the
training loss at the current scores, :math:`r_i = -\partial_f \ell(y_i, f_{m-1}(x_i))` (the *pseudo-residuals*),
fits a regression tree :math:`h_m` to them by least squares (the projection of the gradient step onto the trees),
replaces the value of each leaf :math:`R_j` by the best constant step for the loss in that leaf,

.. math:: \gamma_j = \arg\min_\gamma \sum_{x_i \in R_j} \ell(y_i, f_{m-1}(x_i) + \gamma),

(the mean of the residuals for the squared error, so no change; a weighted median for the absolute error;
Friedman's median-plus-clipped-mean step for Huber; one Newton step for the log-loss), and adds the tree shrunk
by the learning rate :math:`\nu`: :math:`f_m = f_{m-1} + \nu h_m`. With ``subsample < 1`` each round sees a random
fraction of the samples (stochastic gradient boosting, Friedman 2002). The rules, leaf steps, losses and scores are
scikit-learn's (``sklearn.ensemble.GradientBoosting*``), the trees :mod:`mlnotes.tree`'s.
"""

from numbers import Integral, Real

import numpy as np
from scipy.special import expit, logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

from ..stats._quantile import _grouped_quantile, weighted_quantile_by_group  # noqa: F401 (re-exported)
from ..tree import DecisionTreeRegressor
from ..tree._classes import split_values, validate_split_data
from ..tree._tree import StackedTrees, tree_blocks
from ..utils._classifier import ProbaClassifierMixin
from ..utils.validation import check_classes, check_option, check_sample_weight, check_scalar

__all__ = ["GradientBoostingClassifier", "GradientBoostingRegressor", "weighted_quantile_by_group"]

SEED_BOUND = np.iinfo(np.int32).max


# ---------------------------------------------------------------------------------------------------- the losses
class _SquaredError:
    """:math:`\\tfrac12 (y - f)^2`; train score: the mean squared error."""
    n_trees = 1

    def init_raw(self, y, w, unweighted=False):
        return np.full((len(y), 1), np.average(y, weights=w))

    def neg_gradient(self, y, raw):
        return (y - raw[:, 0])[:, None]

    def leaf_values(self, y, raw, residual, w, leaves, tree, k):
        return None                                                    # the tree's means are already optimal

    def score(self, y, raw, w):
        return np.average((y - raw[:, 0])**2, weights=w)


class _AbsoluteError(_SquaredError):
    """:math:`\\lvert y - f\\rvert`; the negative gradient is the sign (+1 at a tie, as scikit-learn)."""

    def init_raw(self, y, w, unweighted=False):
        # scikit-learn's DummyRegressor(strategy="quantile"): np.median without weights, else the weighted one
        median = np.median(y) if unweighted else _grouped_quantile(y, w, np.zeros(len(y), int), 1, 0.5)[0]
        return np.full((len(y), 1), median)

    def neg_gradient(self, y, raw):
        return np.where(y >= raw[:, 0], 1.0, -1.0)[:, None]

    def leaf_values(self, y, raw, residual, w, leaves, tree, k):
        return _grouped_quantile(y - raw[:, 0], w, leaves, tree.node_count, 0.5)

    def score(self, y, raw, w):
        return np.average(np.abs(y - raw[:, 0]), weights=w)


class _Huber(_AbsoluteError):
    r"""Huber's loss with :math:`\delta` the ``alpha``-quantile of the absolute residuals, recomputed each round."""

    def __init__(self, alpha):
        self.alpha = alpha
        self.delta = None

    def set_delta(self, y, raw, w):
        absolute = np.abs(y - raw[:, 0])
        self.delta = _grouped_quantile(absolute, w, np.zeros(len(y), int), 1, self.alpha)[0]

    def neg_gradient(self, y, raw):
        r = y - raw[:, 0]
        return np.where(np.abs(r) <= self.delta, r, self.delta * np.where(r > 0, 1.0, -1.0))[:, None]

    def leaf_values(self, y, raw, residual, w, leaves, tree, k):
        r = y - raw[:, 0]
        median = _grouped_quantile(r, w, leaves, tree.node_count, 0.5)
        diff = r - median[leaves]
        clipped = np.sign(diff) * np.minimum(self.delta, np.abs(diff))
        sums = np.bincount(leaves, weights=w * clipped, minlength=tree.node_count)
        totals = np.bincount(leaves, weights=w, minlength=tree.node_count)
        with np.errstate(invalid="ignore", divide="ignore"):
            return median + sums / totals

    def score(self, y, raw, w):
        a = np.abs(y - raw[:, 0])
        return np.average(np.where(a <= self.delta, a**2 / 2, self.delta * (a - self.delta / 2)), weights=w)


def _newton_ratio(numerator, denominator):
    """Leaf Newton steps; 0 where the curvature vanishes (scikit-learn's ``_safe_divide``)."""
    safe = np.abs(denominator) >= 1e-150
    return np.where(safe, numerator / np.where(safe, denominator, 1.0), 0.0)


class _Binomial:
    r"""The log-loss :math:`\log(1 + e^{f}) - y f`, :math:`y \in \{0, 1\}`; train score: twice its mean (deviance)."""
    n_trees = 1

    def init_raw(self, y, w, unweighted=False):
        eps = np.finfo(float).eps
        p = np.clip(np.average(y, weights=w), eps, 1 - eps)
        return np.full((len(y), 1), np.log(p / (1 - p)))

    def neg_gradient(self, y, raw):
        return (y - expit(raw[:, 0]))[:, None]

    def leaf_values(self, y, raw, residual, w, leaves, tree, k):
        p = y - residual                                               # the current probability
        numerator = np.bincount(leaves, weights=w * residual, minlength=tree.node_count)
        denominator = np.bincount(leaves, weights=w * p * (1 - p), minlength=tree.node_count)
        return _newton_ratio(numerator, denominator)

    def score(self, y, raw, w):
        f = raw[:, 0]
        return 2 * np.average(np.logaddexp(0, f) - y * f, weights=w)


class _Multinomial:
    r"""The multinomial log-loss with the symmetric logit; one tree per class and round."""

    def __init__(self, n_classes):
        self.n_trees = n_classes

    def init_raw(self, y, w, unweighted=False):
        eps = np.finfo(float).eps
        p = np.clip([np.average(y == k, weights=w) for k in range(self.n_trees)], eps, 1 - eps)
        log_p = np.log(p)
        return np.tile(log_p - log_p.mean(), (len(y), 1))

    def neg_gradient(self, y, raw):
        return (y[:, None] == np.arange(self.n_trees)) - softmax(raw, axis=1)

    def leaf_values(self, y, raw, residual, w, leaves, tree, k):
        p = (y == k) - residual
        K = self.n_trees
        numerator = np.bincount(leaves, weights=w * residual, minlength=tree.node_count) * (K - 1) / K
        denominator = np.bincount(leaves, weights=w * p * (1 - p), minlength=tree.node_count)
        return _newton_ratio(numerator, denominator)

    def score(self, y, raw, w):
        return np.average(logsumexp(raw, axis=1) - raw[np.arange(len(y)), y], weights=w)


# ------------------------------------------------------------------------------------------------- the estimators
class _BaseGradientBoosting(BaseEstimator):
    """Fitting, staging and importances shared by the regressor and the classifier."""

    def __init__(self, *, loss, learning_rate, n_estimators, subsample, min_samples_split, min_samples_leaf,
                 min_weight_fraction_leaf, max_depth, min_impurity_decrease, init, random_state, max_features,
                 ccp_alpha):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_depth = max_depth
        self.min_impurity_decrease = min_impurity_decrease
        self.init = init
        self.random_state = random_state
        self.max_features = max_features
        self.ccp_alpha = ccp_alpha

    def _check_params(self):
        check_scalar(self.n_estimators, "n_estimators", Integral, min_val=1)
        check_scalar(self.learning_rate, "learning_rate", Real, min_val=0, include_boundaries="neither")
        check_scalar(self.subsample, "subsample", Real, min_val=0, max_val=1, include_boundaries="right")
        if self.max_depth is not None:
            check_scalar(self.max_depth, "max_depth", Integral, min_val=1)
        check_option(self.loss, "loss", self._losses)

    def _make_tree(self, seed):
        return DecisionTreeRegressor(criterion="squared_error", max_depth=self.max_depth,
                                     min_samples_split=self.min_samples_split, min_samples_leaf=self.min_samples_leaf,
                                     min_weight_fraction_leaf=self.min_weight_fraction_leaf,
                                     min_impurity_decrease=self.min_impurity_decrease, max_features=self.max_features,
                                     random_state=seed, ccp_alpha=self.ccp_alpha)

    def _fit_boosting(self, X, y, w, loss, unweighted=False):
        n = len(y)
        rng = np.random.default_rng(self.random_state)
        self._loss_ = loss
        if self.init is None:
            raw = loss.init_raw(y, w, unweighted)
            self.init_ = None
            self._init_raw_ = raw[0].copy()
        elif isinstance(self.init, str) and self.init == "zero":
            raw = np.zeros((n, loss.n_trees))
            self.init_ = "zero"
            self._init_raw_ = raw[0].copy()
        else:
            self.init_ = clone(self.init).fit(X, self._init_target(y), sample_weight=w)
            raw = self._raw_from_init(X)
        self.estimators_ = np.empty((self.n_estimators, loss.n_trees), dtype=object)
        self.train_score_ = np.zeros(self.n_estimators)
        stochastic = self.subsample < 1.0
        if stochastic:
            n_inbag = max(1, int(self.subsample * n))
            self.oob_scores_ = np.zeros(self.n_estimators)
            self.oob_improvement_ = np.zeros(self.n_estimators)
        mask = np.ones(n, dtype=bool)
        for m in range(self.n_estimators):
            if isinstance(loss, _Huber):
                loss.set_delta(y, raw, w)
            if stochastic:
                mask = np.zeros(n, dtype=bool)
                mask[rng.choice(n, n_inbag, replace=False)] = True
                if m == 0:
                    initial_oob = loss.score(y[~mask], raw[~mask], w[~mask]) if (~mask).any() else np.nan
            residual = loss.neg_gradient(y, raw)
            w_fit = w * mask if stochastic else w
            for k in range(loss.n_trees):
                tree = self._make_tree(int(rng.integers(SEED_BOUND))).fit(X, residual[:, k], sample_weight=w_fit)
                leaves = tree.tree_.apply(self._Xf)
                values = loss.leaf_values(y[mask], raw[mask], residual[mask, k], w_fit[mask], leaves[mask],
                                          tree.tree_, k)
                if values is not None:
                    is_leaf = tree.tree_.children_left == -1
                    tree.tree_.value[is_leaf, 0, 0] = values[is_leaf]
                raw[:, k] += self.learning_rate * tree.tree_.value[leaves, 0, 0]
                self.estimators_[m, k] = tree
            if stochastic:
                self.train_score_[m] = loss.score(y[mask], raw[mask], w[mask])
                self.oob_scores_[m] = loss.score(y[~mask], raw[~mask], w[~mask]) if (~mask).any() else np.nan
                previous = initial_oob if m == 0 else self.oob_scores_[m - 1]
                self.oob_improvement_[m] = previous - self.oob_scores_[m]
                self.oob_score_ = self.oob_scores_[m]
            else:
                self.train_score_[m] = loss.score(y, raw, w)
        self.n_estimators_ = self.n_estimators
        del self._Xf
        return self

    def _validate_fit(self, X, y, sample_weight, **kwargs):
        self._check_params()
        if self.loss == "huber":
            check_scalar(self.alpha, "alpha", Real, min_val=0, max_val=1, include_boundaries="neither")
        w = check_sample_weight(sample_weight, X.shape[0])
        self._Xf = split_values(X)
        return w

    def _raw_from_init(self, X):
        if self.init_ is None or (isinstance(self.init_, str) and self.init_ == "zero"):
            return np.tile(self._init_raw_, (X.shape[0], 1))
        return self._init_predictions(X)

    def _check_X(self, X):
        return validate_split_data(self, X, "estimators_")

    def _raw_predict(self, X):
        """The scores :math:`f_M(x)`, shape (n_samples, n_trees_per_round)."""
        *_, raw = self._staged_raw(X, last_only=True)
        return raw

    def _staged_raw(self, X, last_only=False):
        """The scores after each stage (a copy each), or only the last (``last_only``), shape
        (n_samples, n_trees_per_round): every sample descends a block of stages' trees at once
        (:class:`mlnotes.tree._tree.StackedTrees`), then each tree's step is added in order."""
        X, Xf = self._check_X(X)
        raw = self._raw_from_init(X)
        n_stages, n_trees_per_round = self.estimators_.shape
        for block in tree_blocks(n_stages, X.shape[0] * n_trees_per_round):
            trees = [tree.tree_ for tree in self.estimators_[block].ravel()]       # stage-major
            steps = np.concatenate([self.learning_rate * tree.value[:, 0, 0] for tree in trees])
            leaves = StackedTrees(trees).descend(Xf)
            for m in range(block.stop - block.start):
                for k in range(n_trees_per_round):
                    raw[:, k] += steps[leaves[:, m * n_trees_per_round + k]]
                if not last_only:
                    yield raw.copy()
        if last_only:
            yield raw

    @property
    def feature_importances_(self):
        """The mean over all trees (that are not a single leaf) of their unnormalised impurity decreases, normalised
        to sum to 1, as scikit-learn; shape (n_features,)."""
        check_is_fitted(self, "estimators_")
        relevant = [tree.tree_.compute_feature_importances(normalize=False) for stage in self.estimators_
                    for tree in stage if tree.tree_.node_count > 1]
        if not relevant:
            return np.zeros(self.n_features_in_)
        mean = np.mean(relevant, axis=0)
        return mean / mean.sum()

    def apply(self, X):
        """The leaf of each sample in each tree, shape (n_samples, n_estimators, n_trees_per_round)."""
        X, Xf = self._check_X(X)
        stack = StackedTrees([tree.tree_ for tree in self.estimators_.ravel()])                   # stage-major
        return (stack.descend(Xf) - stack.offsets).reshape(X.shape[0], *self.estimators_.shape)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


_PARAMETERS_DOC = r"""
    learning_rate : float > 0, default 0.1
        The shrinkage :math:`\nu`: each tree is added as :math:`\nu h_m`.
    n_estimators : int >= 1, default 100
        The number :math:`M` of rounds.
    subsample : float in (0, 1], default 1.0
        The fraction of the samples drawn (without replacement) for each round's tree and leaf steps: below 1 this
        is stochastic gradient boosting, and ``oob_scores_``, ``oob_improvement_``, ``oob_score_`` are recorded.
    min_samples_split, min_samples_leaf, min_weight_fraction_leaf, min_impurity_decrease, max_features, ccp_alpha
        As for :class:`mlnotes.tree.DecisionTreeRegressor`.
    max_depth : int >= 1 or None, default 3
        The depth of each tree (1: stumps).
    init : None, "zero" or an estimator, default None
        The initial model :math:`f_0`: None the best constant for the loss (mean, median or the log-odds of the
        class frequencies), ``"zero"`` the constant 0, an estimator its predictions.
    random_state : int, Generator or None
        Seeds the subsamples and the trees' feature draws (a numpy Generator, not scikit-learn's stream).
"""


class GradientBoostingRegressor(RegressorMixin, _BaseGradientBoosting):
    __doc__ = r"""Gradient tree boosting for regression (Friedman 2001), scikit-learn's algorithm on mlnotes.tree.

    Parameters
    ----------
    loss : {"squared_error", "absolute_error", "huber"}, default "squared_error"
        The squared error (L2 boosting: the trees fit the residuals), the absolute error (trees fit the signs of
        the residuals, leaves the weighted median of the residuals), or Huber's loss with :math:`\delta` the
        ``alpha``-quantile of the absolute residuals of each round.""" + _PARAMETERS_DOC + r"""
    alpha : float in (0, 1), default 0.9
        The quantile of Huber's :math:`\delta`.

    Attributes
    ----------
    estimators_ : ndarray of DecisionTreeRegressor, shape (n_estimators, 1)
    train_score_ : ndarray of shape (n_estimators,)
        The (in-bag) training loss after each round: mean squared error, mean absolute error, or mean Huber loss.
    feature_importances_ : ndarray of shape (n_features,)
    n_estimators_, n_features_in_, init_

    Raises
    ------
    ValueError
        ``n_estimators < 1``, ``learning_rate <= 0``, ``subsample`` outside (0, 1], an unknown loss, ``alpha``
        outside (0, 1), NaN or infinity, negative or all-zero ``sample_weight``.

    Notes
    -----
    With ``init="zero"``, ``subsample=1`` and the squared error the fitted trees and predictions equal
    scikit-learn's on tie-free data (chapter 21 and tests/unit/ensemble/test_gradient_boosting.py).
    """

    _losses = ("squared_error", "absolute_error", "huber")

    def __init__(self, *, loss="squared_error", learning_rate=0.1, n_estimators=100, subsample=1.0,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_depth=3,
                 min_impurity_decrease=0.0, init=None, random_state=None, max_features=None, alpha=0.9,
                 ccp_alpha=0.0):
        super().__init__(loss=loss, learning_rate=learning_rate, n_estimators=n_estimators, subsample=subsample,
                         min_samples_split=min_samples_split, min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf, max_depth=max_depth,
                         min_impurity_decrease=min_impurity_decrease, init=init, random_state=random_state,
                         max_features=max_features, ccp_alpha=ccp_alpha)
        self.alpha = alpha

    def _init_target(self, y):
        return y

    def _init_predictions(self, X):
        return np.asarray(self.init_.predict(X), dtype=float).reshape(-1, 1)

    def fit(self, X, y, sample_weight=None):
        """Boost ``n_estimators`` trees on ``X`` (n_samples, n_features) and real ``y`` (n_samples,)."""
        self._check_params()
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32], y_numeric=True)
        y = np.asarray(y, dtype=float)
        w = self._validate_fit(X, y, sample_weight)
        loss = {"squared_error": _SquaredError, "absolute_error": _AbsoluteError}.get(self.loss)
        loss = _Huber(self.alpha) if self.loss == "huber" else loss()
        return self._fit_boosting(X, y, w, loss, sample_weight is None)

    def predict(self, X):
        """:math:`f_M(x)`, shape (n_samples,)."""
        return self._raw_predict(X)[:, 0]

    def staged_predict(self, X):
        """Yield :math:`f_m(x)` for :math:`m = 1, \\dots, M`."""
        for raw in self._staged_raw(X):
            yield raw[:, 0]


class GradientBoostingClassifier(ProbaClassifierMixin, ClassifierMixin, _BaseGradientBoosting):
    __doc__ = r"""Gradient tree boosting with the log-loss (binomial / multinomial deviance), scikit-learn's algorithm.

    Two classes: one tree per round on the pseudo-residuals :math:`y_i - p_i` (:math:`y_i \in \{0, 1\}`), each
    leaf set to one Newton step :math:`\sum w_i r_i / \sum w_i p_i(1 - p_i)` (Friedman, Hastie and Tibshirani 2000);
    :math:`K > 2` classes: one tree per class and round on :math:`[y_i = k] - p_{ik}`, leaves
    :math:`\frac{K-1}{K}\sum w_i r_{ik} / \sum w_i p_{ik}(1 - p_{ik})`.

    Parameters
    ----------
    loss : {"log_loss"}, default "log_loss"
        The multinomial deviance (``"exponential"`` of scikit-learn is not implemented).""" + _PARAMETERS_DOC + r"""

    Attributes
    ----------
    classes_, n_classes_, estimators_ (n_estimators, 1 or n_classes), train_score_ (deviance: twice the mean
    log-loss for two classes, the mean log-loss for more), feature_importances_

    Raises
    ------
    ValueError
        One class, the settings of :class:`GradientBoostingRegressor`.
    """

    _losses = ("log_loss",)

    def __init__(self, *, loss="log_loss", learning_rate=0.1, n_estimators=100, subsample=1.0, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_depth=3, min_impurity_decrease=0.0, init=None,
                 random_state=None, max_features=None, ccp_alpha=0.0):
        super().__init__(loss=loss, learning_rate=learning_rate, n_estimators=n_estimators, subsample=subsample,
                         min_samples_split=min_samples_split, min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf, max_depth=max_depth,
                         min_impurity_decrease=min_impurity_decrease, init=init, random_state=random_state,
                         max_features=max_features, ccp_alpha=ccp_alpha)

    def _init_target(self, y):
        return self.classes_[y]

    def _init_predictions(self, X):
        eps = np.finfo(float).eps
        p = np.clip(self.init_.predict_proba(X), eps, 1 - eps)
        if self.n_classes_ == 2:
            return np.log(p[:, 1] / (1 - p[:, 1])).reshape(-1, 1)
        log_p = np.log(p)
        return log_p - log_p.mean(axis=1, keepdims=True)

    def fit(self, X, y, sample_weight=None):
        """Boost on ``X`` (n_samples, n_features) and class labels ``y`` (n_samples,)."""
        self._check_params()
        X, y, codes = check_classes(self, X, y, dtype=[np.float64, np.float32])
        self.n_classes_ = len(self.classes_)
        w = self._validate_fit(X, y, sample_weight)
        if len(np.unique(codes[w > 0])) < 2:
            raise ValueError("GradientBoostingClassifier needs samples of at least 2 classes with positive weight")
        if self.n_classes_ == 2:
            return self._fit_boosting(X, codes.astype(float), w, _Binomial())
        return self._fit_boosting(X, codes, w, _Multinomial(self.n_classes_))

    def decision_function(self, X):
        """The scores: shape (n_samples,) for two classes (the log-odds of ``classes_[1]``), else (n, n_classes)."""
        raw = self._raw_predict(X)
        return raw[:, 0] if self.n_classes_ == 2 else raw

    def staged_decision_function(self, X):
        """Yield :meth:`decision_function` after each round."""
        for raw in self._staged_raw(X):
            yield raw[:, 0] if self.n_classes_ == 2 else raw

    def _proba(self, raw):
        if self.n_classes_ == 2:
            p1 = expit(raw[:, 0])
            return np.column_stack([1 - p1, p1])
        return softmax(raw, axis=1)

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes)."""
        return self._proba(self._raw_predict(X))

    def staged_predict_proba(self, X):
        """Yield :meth:`predict_proba` after each round."""
        for raw in self._staged_raw(X):
            yield self._proba(raw)

    def staged_predict(self, X):
        """Yield :meth:`predict` after each round."""
        for proba in self.staged_predict_proba(X):
            yield self.classes_[proba.argmax(axis=1)]
