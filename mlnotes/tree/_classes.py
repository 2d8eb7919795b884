r"""CART decision trees (chapter 19, *Decision trees*): scikit-learn's interface, trees and predictions."""

import math
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils._classifier import ProbaClassifierMixin
from ..utils.validation import check_option, check_sample_weight, check_scalar
from ._build import build
from ._criteria import CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA
from ._prune import cost_complexity_path, prune_tree
from ._tree import Tree


def split_values(X):
    """``X`` (a validated float array) as float32: the values the trees split on, as scikit-learn's trees do.

    Raises ``ValueError`` if a value overflows float32. Used by the trees and by gradient boosting."""
    Xf = X.astype(np.float32)
    if not np.isfinite(Xf).all():
        raise ValueError("X has values too large for float32 (the trees split on float32 values, as "
                         "scikit-learn's)")
    return Xf


def validate_split_data(estimator, X, fitted):
    """``X`` given to a fitted tree model after fit: ``(X, split_values(X))``, once ``fitted`` (the name of a
    fitted attribute) is set and ``X`` has the features seen in fit (float64 or float32)."""
    check_is_fitted(estimator, fitted)
    X = validate_data(estimator, X, reset=False, dtype=[np.float64, np.float32])
    return X, split_values(X)


def _check_count_or_fraction(value, name, min_int):
    """An int >= min_int (a number of samples) or a float in (0, 1] (a fraction of them), as scikit-learn."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int or a float, got {value!r}")
    if isinstance(value, Integral):
        return check_scalar(value, name, Integral, min_val=min_int)
    if isinstance(value, Real):
        upper = 1.0
        return check_scalar(value, name, Real, min_val=0.0, max_val=upper, include_boundaries="right")
    raise TypeError(f"{name} must be an int >= {min_int} or a float in (0, 1], got {type(value).__name__} {value!r}")


class BaseDecisionTree(BaseEstimator):
    """Shared fitting, validation and traversal of the two trees."""

    _criteria = ()

    def __init__(self, *, criterion, splitter="best", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 min_weight_fraction_leaf=0.0, max_features=None, random_state=None, min_impurity_decrease=0.0,
                 ccp_alpha=0.0):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha

    # ------------------------------------------------------------------ validation
    def _check_params(self, n_samples, n_features):
        name = type(self).__name__
        if self.criterion not in self._criteria:
            other = CLASSIFICATION_CRITERIA if self._criteria == REGRESSION_CRITERIA else REGRESSION_CRITERIA
            hint = (f" ({self.criterion!r} is a criterion of the other kind of tree)"
                    if isinstance(self.criterion, str) and self.criterion in other else "")
            raise ValueError(f"{name}: criterion must be one of {self._criteria}, got {self.criterion!r}{hint}")
        if self.criterion == "absolute_error":
            raise NotImplementedError("criterion='absolute_error' is not implemented; use 'squared_error'")
        check_option(self.splitter, "splitter", ("best",))
        if self.max_depth is not None:
            check_scalar(self.max_depth, "max_depth", Integral, min_val=1)
        mss = _check_count_or_fraction(self.min_samples_split, "min_samples_split", 2)
        msl = _check_count_or_fraction(self.min_samples_leaf, "min_samples_leaf", 1)
        if isinstance(self.min_samples_split, Real) and not isinstance(self.min_samples_split, Integral):
            mss = max(2, math.ceil(mss * n_samples))
        if isinstance(self.min_samples_leaf, Real) and not isinstance(self.min_samples_leaf, Integral):
            msl = max(1, math.ceil(msl * n_samples))
        mss = max(mss, 2 * msl)
        mwf = check_scalar(self.min_weight_fraction_leaf, "min_weight_fraction_leaf", Real, min_val=0.0,
                           max_val=0.5)
        check_scalar(self.min_impurity_decrease, "min_impurity_decrease", Real, min_val=0.0)
        check_scalar(self.ccp_alpha, "ccp_alpha", Real, min_val=0.0)
        mf = self.max_features
        if mf is None:
            n_feat = n_features
        elif isinstance(mf, str):
            check_option(mf, "max_features", ("sqrt", "log2"))
            n_feat = max(1, int(np.sqrt(n_features) if mf == "sqrt" else np.log2(n_features)))
        elif isinstance(mf, (bool, np.bool_)):
            raise TypeError(f"max_features must be None, an int, a float or 'sqrt'/'log2', got {mf!r}")
        elif isinstance(mf, Integral):
            n_feat = check_scalar(mf, "max_features", Integral, min_val=1, max_val=n_features)
        elif isinstance(mf, Real):
            frac = check_scalar(mf, "max_features", Real, min_val=0.0, max_val=1.0, include_boundaries="right")
            n_feat = max(1, int(frac * n_features))
        else:
            raise TypeError(f"max_features must be None, an int, a float or 'sqrt'/'log2', got {mf!r}")
        return mss, msl, mwf, n_feat

    def _rng(self):
        rs = self.random_state
        if rs is None or isinstance(rs, (Integral, np.random.Generator)):
            return np.random.default_rng(rs)
        if isinstance(rs, np.random.RandomState):
            return np.random.default_rng(rs.randint(np.iinfo(np.int32).max))
        raise TypeError(f"random_state must be None, an int, a RandomState or a Generator, got {rs!r}")

    # ------------------------------------------------------------------ fitting
    def _validate_training_data(self, X, y, **kwargs):
        """``validate_data`` of ``fit`` (float64 or float32 ``X``), after naming an unknown criterion first."""
        if self.criterion not in self._criteria:
            self._check_params(1, 1)
        return validate_data(self, X, y, dtype=[np.float64, np.float32], **kwargs)

    def _fit(self, X, target, sample_weight, n_classes):
        n, d = X.shape
        w = check_sample_weight(sample_weight, n)
        mss, msl, mwf, n_feat = self._check_params(n, d)
        Xf = split_values(X)
        positive = w > 0
        if not positive.all():                       # samples of weight 0 take no part (as in scikit-learn)
            Xf, target, w = Xf[positive], target[positive], w[positive]
        arrays = build(Xf, target, w, n_classes=n_classes, criterion=self.criterion, max_depth=self.max_depth,
                       min_samples_split=mss, min_samples_leaf=msl, min_weight_leaf=mwf * w.sum(),
                       min_impurity_decrease=float(self.min_impurity_decrease), max_features=n_feat,
                       rng=self._rng() if n_feat < d else None)
        tree = Tree(arrays, d, n_classes)
        if self.ccp_alpha > 0:
            tree = prune_tree(tree, float(self.ccp_alpha))
        self.tree_ = tree
        self.max_features_ = n_feat
        self.n_outputs_ = 1
        return self

    def _validate_X(self, X):
        return validate_split_data(self, X, "tree_")[1]

    def apply(self, X):
        """The index of the leaf each sample of ``X`` (n_samples, n_features) lands in, shape (n_samples,)."""
        Xf = self._validate_X(X)
        return self.tree_.apply(Xf)

    def decision_path(self, X):
        """Sparse indicator (n_samples, n_nodes): entry (i, t) is 1 if sample i passes through node t."""
        Xf = self._validate_X(X)
        return self.tree_.decision_path(Xf)

    def get_depth(self):
        """The depth of the tree: the largest number of edges from the root to a leaf."""
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self):
        """The number of leaves."""
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        """Normalised total impurity decrease per feature (sums to 1 unless the tree is a single leaf)."""
        check_is_fitted(self, "tree_")
        return self.tree_.compute_feature_importances()

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        r"""The effective :math:`\alpha` at which each weakest link is pruned and the total leaf impurity after it.

        Fits the tree with ``ccp_alpha=0`` on ``(X, y)`` and returns a ``dict`` with ``ccp_alphas`` (increasing, the
        first 0) and ``impurities`` (the sum over leaves of :math:`\frac{W_t}{W} i_t` of each pruned subtree),
        as scikit-learn's ``cost_complexity_pruning_path``.
        """
        from sklearn.base import clone

        est = clone(self).set_params(ccp_alpha=0.0)
        est.fit(X, y, sample_weight=sample_weight)
        alphas, impurities = cost_complexity_path(est.tree_)
        return {"ccp_alphas": alphas, "impurities": impurities}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


class DecisionTreeClassifier(ProbaClassifierMixin, ClassifierMixin, BaseDecisionTree):
    r"""A CART classification tree, grown greedily by the best impurity decrease (scikit-learn's, same trees).

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss", "misclassification"}, default "gini"
        The impurity :math:`i(p)` of a node with class proportions :math:`p`: Gini :math:`1 - \sum_k p_k^2`,
        entropy (= ``log_loss``) :math:`-\sum_k p_k \log_2 p_k`, misclassification :math:`1 - \max_k p_k` (an
        addition: scikit-learn lacks it).
    splitter : {"best"}, default "best"
        Only the exhaustive search over all thresholds.
    max_depth : int >= 1 or None, default None
        None: split until the leaves are pure or too small.
    min_samples_split : int >= 2 or float in (0, 1], default 2
        A node with fewer samples is a leaf (a float: that fraction of the samples, rounded up).
    min_samples_leaf : int >= 1 or float in (0, 1], default 1
        A split must leave at least this many samples on each side.
    min_weight_fraction_leaf : float in [0, 0.5], default 0.0
        A split must leave at least this fraction of the total weight on each side.
    max_features : int, float, "sqrt", "log2" or None, default None
        The number of features drawn at random (anew at each node) among which the best split is sought; if all
        drawn features are constant in the node, more are drawn until one is not (as scikit-learn).
    random_state : int, RandomState, Generator or None, default None
        Seeds the feature draws (used only when ``max_features`` is below the number of features).
    min_impurity_decrease : float >= 0, default 0.0
        A node is split only if :math:`\frac{W_t}{W}(i_t - \frac{W_L}{W_t}i_L - \frac{W_R}{W_t}i_R)` reaches it.
    ccp_alpha : float >= 0, default 0.0
        Cost-complexity pruning: the subtree of the pruning path for this :math:`\alpha`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    n_features_in_ : int
    n_outputs_ : int
    max_features_ : int
    tree_ : Tree
        scikit-learn's arrays (``children_left``, ``feature``, ``threshold``, ``value``, ``impurity``, ...).
    feature_importances_ : ndarray of shape (n_features,)

    Raises
    ------
    ValueError
        NaN or infinity in ``X``; an unknown or regression criterion; ``max_depth < 1``, ``min_samples_leaf < 1``
        and other invalid settings; negative or all-zero ``sample_weight``; targets that are not class labels.

    Notes
    -----
    ``X`` is converted to float32 before splitting, as in scikit-learn, so both see the same values and put the
    thresholds at the same midpoints. With one class in ``y`` the tree is a single leaf. Ties between candidate
    splits of equal decrease: the smallest threshold of a feature wins, and among features the smallest index
    (scikit-learn: the first in its random feature order). Chapter 19.
    """

    _criteria = CLASSIFICATION_CRITERIA

    def __init__(self, *, criterion="gini", splitter="best", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 min_weight_fraction_leaf=0.0, max_features=None, random_state=None, min_impurity_decrease=0.0,
                 ccp_alpha=0.0):
        super().__init__(criterion=criterion, splitter=splitter, max_depth=max_depth,
                         min_samples_split=min_samples_split, min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf, max_features=max_features,
                         random_state=random_state, min_impurity_decrease=min_impurity_decrease,
                         ccp_alpha=ccp_alpha)

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``X`` (n_samples, n_features) and labels ``y`` (n_samples,). Returns ``self``."""
        X, y = self._validate_training_data(X, y)
        check_classification_targets(y)
        if y.ndim != 1:
            y = np.ravel(y) if y.ndim == 2 and y.shape[1] == 1 else y
        if y.ndim != 1:
            raise ValueError(f"y must have shape (n_samples,): one label per sample, got shape {y.shape}")
        self.classes_, codes = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        return self._fit(X, codes.reshape(-1).astype(np.intp), sample_weight, self.n_classes_)

    def predict_proba(self, X):
        """Class probabilities: the (weighted) class fractions of each sample's leaf, shape (n_samples, n_classes)."""
        leaves = self.apply(X)
        return self.tree_.value[leaves, 0, :].copy()


class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    r"""A CART regression tree: leaves predict the (weighted) mean; splits minimise the weighted squared error.

    Parameters
    ----------
    criterion : {"squared_error"}, default "squared_error"
        The impurity of a node is the weighted variance of its targets (``"absolute_error"`` is not implemented).
    splitter, max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, max_features, \
random_state, min_impurity_decrease, ccp_alpha
        As in :class:`DecisionTreeClassifier`.

    Attributes
    ----------
    n_features_in_ : int
    n_outputs_ : int
    max_features_ : int
    tree_ : Tree
        ``tree_.value[t, 0, 0]`` is the mean target of node ``t``.
    feature_importances_ : ndarray of shape (n_features,)

    Notes
    -----
    The split of a node maximises :math:`S_L^2/W_L + S_R^2/W_R` (:math:`S` the weighted target sums), which is
    equivalent to minimising the weighted sum of squared residuals of the two children. Chapter 19.
    """

    _criteria = REGRESSION_CRITERIA

    def __init__(self, *, criterion="squared_error", splitter="best", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_features=None, random_state=None,
                 min_impurity_decrease=0.0, ccp_alpha=0.0):
        super().__init__(criterion=criterion, splitter=splitter, max_depth=max_depth,
                         min_samples_split=min_samples_split, min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf, max_features=max_features,
                         random_state=random_state, min_impurity_decrease=min_impurity_decrease,
                         ccp_alpha=ccp_alpha)

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``X`` (n_samples, n_features) and real targets ``y`` (n_samples,). Returns ``self``."""
        X, y = self._validate_training_data(X, y, y_numeric=True)
        y = np.asarray(y, dtype=np.float64)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim != 1:
            raise ValueError(f"y must have shape (n_samples,), got shape {y.shape}")
        return self._fit(X, y, sample_weight, 0)

    def predict(self, X):
        """The mean target of each sample's leaf, shape (n_samples,)."""
        leaves = self.apply(X)
        return self.tree_.value[leaves, 0, 0].copy()
