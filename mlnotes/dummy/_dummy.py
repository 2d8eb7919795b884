r"""Baselines: predictors that ignore the features (chapter 18, *Nearest neighbours and evaluation*).

A model is worth something only if it beats these: the majority class (or the class frequencies) for
classification, the mean or the median of the targets for regression.
"""

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from ..stats._quantile import weighted_quantile
from ..utils._classifier import ProbaClassifierMixin
from ..utils.validation import check_option, check_sample_weight, check_scalar

_CLASSIFIER_STRATEGIES = ("most_frequent", "prior", "stratified", "uniform", "constant")
_REGRESSOR_STRATEGIES = ("mean", "median", "quantile", "constant")


class DummyClassifier(ProbaClassifierMixin, ClassifierMixin, BaseEstimator):
    r"""A classifier that ignores the features: scikit-learn's ``DummyClassifier``, the same results.

    Parameters
    ----------
    strategy : {"prior", "most_frequent", "stratified", "uniform", "constant"}, default "prior"
        ``"most_frequent"``: always the class of largest (weighted) frequency; ``predict_proba`` puts 1 on it.
        ``"prior"``: the same prediction; ``predict_proba`` returns the class frequencies.
        ``"stratified"``: a random class drawn from the frequencies, independently for each sample.
        ``"uniform"``: a random class, all equally likely. ``"constant"``: always ``constant``.
    random_state : int, RandomState or None, default None
        The seed of ``"stratified"`` and ``"uniform"``. These draw with numpy's ``RandomState`` exactly as
        scikit-learn does (so the same seed gives the same predictions); each call of ``predict`` starts again
        from the seed.
    constant : label, optional
        The label of ``"constant"``; it must occur in the training labels.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    class_prior_ : ndarray of shape (n_classes,)
        The (weighted) class frequencies :math:`\hat\pi_c = \sum_{i: y_i = c} s_i / \sum_i s_i`.
    n_outputs_ : int
        Always 1 (one column of labels).
    n_features_in_ : int

    Raises
    ------
    ValueError
        Unknown strategy; ``"constant"`` without a constant or with one that is not a training label;
        negative or all-zero ``sample_weight``; targets that are not class labels; ``X`` and ``y`` of different
        lengths.

    Notes
    -----
    Ties of frequency go to the first class in ``classes_`` (``argmax``). The majority class is the best constant
    prediction under the 0-1 loss: its error is :math:`1 - \max_c\hat\pi_c`, the floor any useful classifier must
    beat. Only one column of labels (scikit-learn also accepts several). Chapter 18.
    """

    def __init__(self, *, strategy="prior", random_state=None, constant=None):
        self.strategy = strategy
        self.random_state = random_state
        self.constant = constant

    def fit(self, X, y, sample_weight=None):
        """Record the classes and their (weighted) frequencies; ``X`` (n_samples, n_features) is used only for its
        shape. Returns ``self``."""
        check_option(self.strategy, "strategy", _CLASSIFIER_STRATEGIES)
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        weights = check_sample_weight(sample_weight, len(y))
        self.classes_, codes = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        prior = np.bincount(codes.reshape(-1), weights=weights, minlength=self.n_classes_)
        self.class_prior_ = prior / prior.sum()
        self.n_outputs_ = 1
        if self.strategy == "constant":
            if self.constant is None:
                raise ValueError("strategy='constant' needs a constant: the label to predict")
            if not np.any(self.classes_ == self.constant):
                raise ValueError(f"the constant {self.constant!r} is not one of the training labels "
                                 f"{self.classes_.tolist()}")
        return self

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes), columns in the order of ``classes_``."""
        check_is_fitted(self, "classes_")
        n = validate_data(self, X, reset=False).shape[0]
        rs = check_random_state(self.random_state)
        if self.strategy == "most_frequent":
            out = np.zeros((n, self.n_classes_))
            out[:, self.class_prior_.argmax()] = 1.0
        elif self.strategy == "prior":
            out = np.ones((n, 1)) * self.class_prior_
        elif self.strategy == "stratified":
            out = rs.multinomial(1, self.class_prior_, size=n).astype(np.float64)
        elif self.strategy == "uniform":
            out = np.full((n, self.n_classes_), 1.0 / self.n_classes_)
        else:
            out = np.zeros((n, self.n_classes_))
            out[:, self.classes_ == self.constant] = 1.0
        return out

    def predict(self, X):
        """Predicted labels, shape (n_samples,)."""
        check_is_fitted(self, "classes_")
        if self.strategy == "uniform":
            n = validate_data(self, X, reset=False).shape[0]
            return self.classes_[check_random_state(self.random_state).randint(self.n_classes_, size=n)]
        if self.strategy == "constant":
            n = validate_data(self, X, reset=False).shape[0]
            return np.full(n, self.classes_[self.classes_ == self.constant][0])
        return super().predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True        # a baseline: the checks' accuracy floor does not apply
        return tags


class DummyRegressor(MultiOutputMixin, RegressorMixin, BaseEstimator):
    r"""A regressor that ignores the features: scikit-learn's ``DummyRegressor``, the same results.

    Parameters
    ----------
    strategy : {"mean", "median", "quantile", "constant"}, default "mean"
        Always predict the (weighted) mean, median or ``quantile`` of the training targets, or ``constant``.
    constant : float or array of shape (n_outputs,), optional
        The value of ``"constant"``.
    quantile : float in [0, 1], optional
        The quantile of ``"quantile"`` (0.5 is the median).

    Attributes
    ----------
    constant_ : ndarray of shape (1, n_outputs)
    n_outputs_ : int
    n_features_in_ : int

    Raises
    ------
    ValueError
        Unknown strategy; ``"quantile"`` without a quantile in [0, 1]; ``"constant"`` without a constant or with
        the wrong number of outputs; NaN or infinity in ``y``; negative or all-zero ``sample_weight``.

    Notes
    -----
    The mean minimises the squared error of a constant prediction, the median the absolute error, and the
    :math:`q`-quantile the pinball loss; so these are the floors a regressor must beat under each loss. Without
    weights the median and quantiles are numpy's (linear interpolation); with weights the inverted CDF of
    :func:`weighted_quantile` (as scikit-learn: with unit weights this can differ from the unweighted median).
    Chapter 18.
    """

    def __init__(self, *, strategy="mean", constant=None, quantile=None):
        self.strategy = strategy
        self.constant = constant
        self.quantile = quantile

    def fit(self, X, y, sample_weight=None):
        """Compute the constant from ``y`` (n_samples,) or (n_samples, n_outputs); ``X`` is used only for its shape.
        Returns ``self``."""
        check_option(self.strategy, "strategy", _REGRESSOR_STRATEGIES)
        X, y = validate_data(self, X, y, multi_output=True, y_numeric=True, dtype=np.float64)
        Y = np.asarray(y, dtype=np.float64)
        Y = Y.reshape(-1, 1) if Y.ndim == 1 else Y
        self.n_outputs_ = Y.shape[1]
        weights = None if sample_weight is None else check_sample_weight(sample_weight, Y.shape[0])
        if self.strategy == "mean":
            constant = np.average(Y, axis=0, weights=weights)
        elif self.strategy in ("median", "quantile"):
            if self.strategy == "median":
                q = 0.5
            elif self.quantile is None:
                raise ValueError("strategy='quantile' needs quantile, a number in [0, 1]")
            else:
                q = check_scalar(self.quantile, "quantile", Real, min_val=0, max_val=1)
            constant = (np.percentile(Y, q * 100.0, axis=0) if weights is None
                        else weighted_quantile(Y, weights, q))
        else:
            if self.constant is None:
                raise ValueError("strategy='constant' needs constant, the value to predict")
            constant = check_array(np.atleast_1d(self.constant), ensure_2d=False, dtype=np.float64,
                                   input_name="constant").ravel()
            if constant.shape[0] != self.n_outputs_:
                raise ValueError(f"constant must have one value per output ({self.n_outputs_}), got {constant.shape[0]}")
        self.constant_ = np.reshape(constant, (1, -1))
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True         # a baseline: the checks' R^2 floor does not apply
        return tags

    def predict(self, X):
        """The constant for every row of ``X``: shape (n_samples,) or (n_samples, n_outputs)."""
        check_is_fitted(self, "constant_")
        n = validate_data(self, X, reset=False).shape[0]
        out = np.tile(self.constant_, (n, 1))
        return out.ravel() if self.n_outputs_ == 1 else out
