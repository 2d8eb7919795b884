r"""Random forests (chapter 20, *Bootstrap, bagging and random forests*): bagged decision trees that draw a
random subset of the features at every split (Breiman 2001).

Bagging averages trees fitted on bootstrap samples; trees grown on the same data stay correlated, and the
variance of an average of :math:`B` predictors with pairwise correlation :math:`\rho` and variance
:math:`\sigma^2` is :math:`\rho\sigma^2 + (1 - \rho)\sigma^2/B`, which no number of trees brings below
:math:`\rho\sigma^2`. Letting each split choose among ``max_features`` random features decorrelates the trees
and lowers that floor. The sampling, fitting, averaging and out-of-bag machinery is bagging's
(:mod:`mlnotes.ensemble._bagging`); the trees are :mod:`mlnotes.tree`'s.
"""

from numbers import Real

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ..tree._classes import validate_split_data
from ..tree._tree import StackedTrees
from ..utils.validation import check_bool, check_option
from ._bagging import BaseBagging, _check_count_or_fraction, _ClassifierOutputs, _RegressorOutputs

__all__ = ["RandomForestClassifier", "RandomForestRegressor"]

CLASS_WEIGHTS = ("balanced", "balanced_subsample")


class _BaseForest(BaseBagging):
    """The parameters and the trees shared by the two forests."""

    _tree_parameters = ("criterion", "max_depth", "min_samples_split", "min_samples_leaf", "min_weight_fraction_leaf",
                        "max_features", "min_impurity_decrease", "ccp_alpha")

    def _make_member(self):
        return self._tree_class()(**{name: getattr(self, name) for name in self._tree_parameters})

    def _sampling(self, n_samples, n_features):
        bootstrap = check_bool(self.bootstrap, "bootstrap")
        if self.max_samples is None:
            n_drawn = n_samples
        elif not bootstrap:
            raise ValueError("max_samples applies to bootstrap samples only: with bootstrap=False every tree sees "
                             "all the samples; leave max_samples=None")
        else:
            n_drawn = _check_count_or_fraction(self.max_samples, "max_samples", n_samples, "samples")
        return n_drawn, n_features, bootstrap, False

    def apply(self, X):
        """The leaf each tree sends each sample to, shape (n_samples, n_estimators)."""
        _, Xf = validate_split_data(self, X, "estimators_")
        stack = StackedTrees([tree.tree_ for tree in self.estimators_])
        return stack.descend(Xf) - stack.offsets

    @property
    def feature_importances_(self):
        r"""The mean over the trees of their normalised impurity-decrease importances, normalised to sum to 1
        (trees that are a single leaf have none and are left out; all zeros if every tree is one), shape
        (n_features,)."""
        check_is_fitted(self)
        importances = [tree.feature_importances_ for tree in self.estimators_ if tree.tree_.node_count > 1]
        if not importances:
            return np.zeros(self.n_features_in_)
        mean = np.mean(importances, axis=0)
        return mean / mean.sum()


_FOREST_DOC = r"""
    Parameters
    ----------
    n_estimators : int >= 1, default 100
        The number :math:`B` of trees.
    criterion : str, default "{criterion}"
        The impurity of :class:`mlnotes.tree.{tree}` ({criteria}).
    max_depth : int, optional
        None grows each tree until its leaves are pure or smaller than ``min_samples_split`` (low bias, high
        variance: the trees the average needs).
    min_samples_split, min_samples_leaf, min_weight_fraction_leaf, min_impurity_decrease, ccp_alpha
        As for the tree (each tree's weights are its bootstrap counts times the sample and class weights).
    max_features : {{"sqrt", "log2"}}, int, float or None, default {max_features}
        The number :math:`m` of features drawn at random at each split: ``"sqrt"`` is :math:`\lfloor\sqrt p\rfloor`,
        a float a fraction of :math:`p`, None all of them (then the forest is bagged trees). scikit-learn's
        default.
    bootstrap : bool, default True
        Fit each tree on a bootstrap sample (False: on all the samples; only the split features are random).
    oob_score : bool, default False
        Compute the out-of-bag estimate ({oob}); needs ``bootstrap``.
    n_jobs : int, optional
        Trees fitted, and their out-of-bag predictions made, in parallel (joblib threads); None is 1, -1 all
        cores. ``predict`` sends the samples down all the trees at once, in one thread. The result does not
        depend on it.
    random_state : None, int or numpy Generator
        Seeds :func:`numpy.random.default_rng`, which draws two seeds per tree (its bootstrap sample; its
        ``random_state``, which draws the split features).
    max_samples : int or float, optional
        The size of each bootstrap sample (an int in :math:`[1, n]` or a fraction in (0, 1]; None: :math:`n`).
    {class_weight}
    Attributes
    ----------
    estimators_ : list of fitted trees
    estimators_samples_ : list of ndarray of int
        The rows each tree drew (with repeats).
    feature_importances_ : ndarray of shape (n_features,)
    n_features_in_ : int
    {attributes}
    Raises
    ------
    ValueError
        ``n_estimators < 1``, ``max_samples`` outside its range or given with ``bootstrap=False``, ``oob_score``
        without ``bootstrap``, NaN/inf, {errors}negative or all-zero sample weights, invalid tree parameters (from
        the tree).

    Notes
    -----
    Each tree is fitted on the distinct rows of its bootstrap sample with the draw counts as sample weights (times
    ``sample_weight``), which the tree treats as repeated rows. Samples that no tree left out get no out-of-bag
    prediction (NaN, with a warning) and are left out of ``oob_score_``. Breiman (2001).
"""


class RandomForestClassifier(_ClassifierOutputs, ClassifierMixin, _BaseForest):
    __doc__ = ("A random forest for classification: the average of the class probabilities of B trees, each fitted "
               "on a bootstrap sample and choosing each split among max_features random features.\n"
               + _FOREST_DOC.format(
                   criterion="gini", tree="DecisionTreeClassifier", max_features='"sqrt"',
                   criteria='"gini", "entropy", "log_loss", "misclassification"', oob="accuracy",
                   errors="one class, an unknown class_weight, ",
                   class_weight='class_weight : {"balanced", "balanced_subsample"}, dict or None, default None\n'
                                '        Weights of the classes, multiplying the sample weights: "balanced" gives '
                                'class k the weight\n        n / (K n_k), "balanced_subsample" the same computed '
                                'on each bootstrap sample, a dict\n        {label: weight} its own (missing '
                                'labels weigh 1).\n',
                   attributes="classes_ : ndarray of shape (n_classes,)\n    n_classes_ : int\n    oob_score_ : float\n"
                              "    oob_decision_function_ : ndarray of shape (n_samples, n_classes)\n"))

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt", min_impurity_decrease=0.0, bootstrap=True, oob_score=False,
                 n_jobs=None, random_state=None, class_weight=None, ccp_alpha=0.0, max_samples=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples

    _tree_name = "DecisionTreeClassifier"

    def _class_weight_of_codes(self, n_classes):
        """The dict ``class_weight`` as a weight per class code (1 for labels it does not name)."""
        weights = np.ones(n_classes)
        for label, weight in self.class_weight.items():
            matches = np.flatnonzero(self.classes_ == label)
            if matches.size == 0:
                raise ValueError(f"class_weight names the label {label!r}, which is not a class of y "
                                 f"{list(self.classes_)}")
            if not (isinstance(weight, Real) and np.isfinite(weight) and weight >= 0):
                raise ValueError(f"class_weight[{label!r}] must be a finite number >= 0, got {weight!r}")
            weights[matches[0]] = weight
        return weights

    def _member_weights(self, codes, sample_weight, rows):
        if self.class_weight != "balanced_subsample":
            return sample_weight
        drawn = np.bincount(codes[rows], minlength=self.n_classes_).astype(float)
        present = drawn > 0
        per_class = np.zeros(self.n_classes_)
        per_class[present] = len(rows) / (present.sum() * drawn[present])
        weights = per_class[codes]
        return weights if sample_weight is None else weights * sample_weight

    def fit(self, X, y, sample_weight=None):
        """Grow the trees. ``X`` (n_samples, n_features), ``y`` (n_samples,) labels, ``sample_weight``
        (n_samples,) or None. Returns ``self``."""
        if not (self.class_weight is None or isinstance(self.class_weight, dict)):
            check_option(self.class_weight, "class_weight", CLASS_WEIGHTS)
        return self._fit_classifier(X, y, sample_weight, self._static_class_weight)

    def _static_class_weight(self, codes, sample_weight):
        """The sample weights times the weights of "balanced" or a dict (computed once, on all of y)."""
        if self.class_weight is None or self.class_weight == "balanced_subsample":
            return sample_weight
        if self.class_weight == "balanced":
            counts = np.bincount(codes, minlength=self.n_classes_)
            per_class = len(codes) / (self.n_classes_ * counts)
        else:
            per_class = self._class_weight_of_codes(self.n_classes_)
        weights = per_class[codes]
        if sample_weight is not None:
            weights = weights * sample_weight
        if not (weights > 0).any():
            raise ValueError("class_weight times sample_weight is zero for every sample")
        return weights


class RandomForestRegressor(_RegressorOutputs, RegressorMixin, _BaseForest):
    __doc__ = ("A random forest for regression: the average of B regression trees, each fitted on a bootstrap "
               "sample and choosing each split among max_features random features.\n"
               + _FOREST_DOC.format(
                   criterion="squared_error", tree="DecisionTreeRegressor", max_features="1.0",
                   criteria='"squared_error", and what the tree offers', oob=":math:`R^2`", errors="",
                   class_weight="",
                   attributes="oob_score_ : float\n    oob_prediction_ : ndarray of shape (n_samples,)\n"))

    def __init__(self, n_estimators=100, *, criterion="squared_error", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, min_impurity_decrease=0.0, bootstrap=True, oob_score=False,
                 n_jobs=None, random_state=None, ccp_alpha=0.0, max_samples=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples

    _tree_name = "DecisionTreeRegressor"

    def fit(self, X, y, sample_weight=None):
        """Grow the trees. ``X`` (n_samples, n_features), ``y`` (n_samples,) numbers, ``sample_weight``
        (n_samples,) or None. Returns ``self``."""
        return self._fit_regressor(X, y, sample_weight)
