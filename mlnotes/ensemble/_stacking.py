r"""Stacking (chapter 20, *Bootstrap, bagging and random forests*): a meta-classifier trained on the base
classifiers' cross-validated predictions (Wolpert 1992).

Each base classifier is fitted :math:`K` times, on :math:`K - 1` folds, and predicts the held-out fold; these
out-of-fold predictions are the features of the final classifier, which so learns how to combine predictions on
points the base classifiers did not see. The base classifiers are then refitted on all the data for prediction.
The interface and results are those of scikit-learn's ``StackingClassifier``.
"""

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, clone, is_classifier
from sklearn.utils._available_if import available_if
from sklearn.utils.validation import check_is_fitted, validate_data

from ._bagging import _accepts_sample_weight
from ..utils.validation import check_bool, check_classes, check_option, check_sample_weight, check_scalar

__all__ = ["StackingClassifier", "cross_val_predictions"]

STACK_METHODS = ("auto", "predict_proba", "decision_function", "predict")


def _folds(cv, X, codes):
    """The (train, test) index pairs of ``cv``: an int (stratified folds), a splitter with ``split``, or an
    iterable of pairs; checked to put every sample in exactly one test fold."""
    if cv is None or isinstance(cv, Integral) and not isinstance(cv, bool):
        n_splits = 5 if cv is None else check_scalar(cv, "cv", Integral, min_val=2)
        from ..model_selection import StratifiedKFold                # the same layer; imported on use

        folds = list(StratifiedKFold(n_splits=n_splits).split(X, codes))
    elif hasattr(cv, "split") and not isinstance(cv, str):
        folds = list(cv.split(X, codes))
    else:
        try:
            if isinstance(cv, str):
                raise TypeError
            folds = [(np.asarray(train), np.asarray(test)) for train, test in cv]
        except (TypeError, ValueError):
            raise TypeError(f"cv must be None, an int >= 2, a splitter with a split method, or an iterable of "
                            f"(train, test) index arrays, got {cv!r}") from None
    n = X.shape[0]
    tested = np.zeros(n, dtype=np.int64)
    for train, test in folds:
        if len(train) == 0:
            raise ValueError("cv produced a fold with an empty training set")
        np.add.at(tested, np.asarray(test), 1)
    if not np.all(tested == 1):
        raise ValueError(f"cv must put every sample in exactly one test fold (a partition, as K-fold does): "
                         f"{np.sum(tested == 0)} samples are never held out and {np.sum(tested > 1)} more than once")
    return folds


def _response(estimator, method, X, n_classes):
    """``estimator.method(X)`` as a 2-D array whose columns follow the class codes ``0..n_classes-1``; a class the
    fold's training set lacked gets probability 0 (or the lowest float as its decision value), as scikit-learn."""
    out = np.asarray(getattr(estimator, method)(X), dtype=float)
    if method == "predict":
        return out.reshape(-1, 1)
    present = np.asarray(estimator.classes_)
    if len(present) == n_classes or (out.ndim == 1 and n_classes == 2):
        return out.reshape(len(X), -1)
    if out.ndim == 1:                                              # a binary fold of a multiclass problem
        raise ValueError(f"a training fold holds only {len(present)} of the {n_classes} classes and the estimator's "
                         f"{method} returns one column: use stratified folds or predict_proba")
    full = np.full((len(X), n_classes), 0.0 if method == "predict_proba" else np.finfo(float).min)
    full[:, present] = out
    return full


def cross_val_predictions(estimator, X, codes, folds, method, n_classes, sample_weight=None):
    r"""Out-of-fold predictions: for each fold, a clone of ``estimator`` fitted on the other folds predicts it.

    Parameters
    ----------
    estimator : classifier
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of int of shape (n_samples,)
        Class codes ``0..n_classes-1``.
    folds : list of (train, test) index arrays
        A partition of the samples into test folds.
    method : {"predict_proba", "decision_function", "predict"}
    n_classes : int
    sample_weight : ndarray of shape (n_samples,), optional
        Passed to each fit, restricted to the fold's training samples.

    Returns
    -------
    predictions : ndarray of shape (n_samples, n_outputs)
    """
    blocks = []
    for train, test in folds:
        weights = {} if sample_weight is None else {"sample_weight": sample_weight[train]}
        fitted = clone(estimator).fit(X[train], codes[train], **weights)
        blocks.append((test, _response(fitted, method, X[test], n_classes)))
    predictions = np.empty((X.shape[0], blocks[0][1].shape[1]))
    for test, block in blocks:
        predictions[test] = block
    return predictions


def _final_available(name):
    """Whether the final classifier (fitted, else the one given, else the default) has the method ``name``."""
    def check(self):
        if hasattr(self, "final_estimator_"):
            return hasattr(self.final_estimator_, name)
        return hasattr(self._default_final() if self.final_estimator is None else self.final_estimator, name)
    return check


class StackingClassifier(ClassifierMixin, TransformerMixin, BaseEstimator):
    r"""Stacked generalisation: a final classifier on the cross-validated predictions of base classifiers.

    Parameters
    ----------
    estimators : list of (str, classifier or "drop")
        The base classifiers, named; ``"drop"`` leaves one out.
    final_estimator : classifier, optional
        The meta-classifier; default :class:`mlnotes.linear.LogisticRegression` (scikit-learn's default is its
        own ``LogisticRegression``, with the same objective).
    cv : None, int >= 2, splitter or iterable of (train, test), default None
        The folds of the out-of-fold predictions: None is 5 stratified folds (without shuffling), an int that
        many, or any object with ``split(X, y)``, or the pairs themselves; the test folds must partition the data.
    stack_method : {"auto", "predict_proba", "decision_function", "predict"}, default "auto"
        What each base classifier contributes: ``"auto"`` takes the first it has of ``predict_proba``,
        ``decision_function``, ``predict``. With two classes only the probability of the second is kept (the
        two columns add up to one).
    passthrough : bool, default False
        Also give the final classifier the original features.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of fitted classifiers
        The base classifiers (without the dropped ones), refitted on all the data.
    named_estimators_ : dict
    stack_method_ : list of str
    final_estimator_ : fitted classifier
        Fitted on the out-of-fold predictions (and ``X`` with ``passthrough``), with the class codes
        ``0..n_classes-1`` as targets.
    n_features_in_ : int

    Raises
    ------
    ValueError
        Estimators that are not a non-empty list of named classifiers, duplicate names, all dropped, a base
        classifier without the stack method, NaN/inf, one class, negative or all-zero sample weights, folds that
        do not partition the data.

    Notes
    -----
    Wolpert (1992) introduced stacking; the base classifiers are fitted on the class codes, so their outputs'
    columns follow ``classes_``. With ``sample_weight`` every base fit (on folds and on all data) and the final
    fit receive the weights; every estimator must accept them.
    """

    def __init__(self, estimators, final_estimator=None, *, cv=None, stack_method="auto", passthrough=False):
        self.estimators = estimators
        self.final_estimator = final_estimator
        self.cv = cv
        self.stack_method = stack_method
        self.passthrough = passthrough

    @staticmethod
    def _default_final():
        from ..linear import LogisticRegression

        return LogisticRegression()

    def _validate_estimators(self):
        message = "estimators must be a non-empty list of (name, classifier) pairs"
        if not isinstance(self.estimators, (list, tuple)) or len(self.estimators) == 0:
            raise ValueError(f"{message}, got {self.estimators!r}")
        names = []
        for pair in self.estimators:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
                raise ValueError(f"{message}, got the entry {pair!r}")
            name, estimator = pair
            if estimator != "drop" and not is_classifier(estimator):
                raise ValueError(f"the estimator {name!r} must be a classifier (or 'drop'), got {estimator!r}")
            names.append(name)
        if len(set(names)) != len(names):
            raise ValueError(f"the names of the estimators must be unique, got {names}")
        if all(estimator == "drop" for _, estimator in self.estimators):
            raise ValueError("all estimators are 'drop': at least one base classifier is needed")
        return names

    @staticmethod
    def _method(name, estimator, stack_method):
        candidates = ("predict_proba", "decision_function", "predict") if stack_method == "auto" else (stack_method,)
        for method in candidates:
            if hasattr(estimator, method):
                return method
        raise ValueError(f"the estimator {name!r} has none of the methods {candidates}")

    def fit(self, X, y, sample_weight=None):
        """Fit the base classifiers on folds and on all the data, and the final classifier on their out-of-fold
        predictions. ``X`` (n_samples, n_features), ``y`` (n_samples,), ``sample_weight`` (n_samples,) or None.
        Returns ``self``."""
        names = self._validate_estimators()
        stack_method = check_option(self.stack_method, "stack_method", STACK_METHODS)
        passthrough = check_bool(self.passthrough, "passthrough")
        X, y, codes = check_classes(self, X, y, dtype=np.float64)
        weights = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        if weights is not None:
            final = self._default_final() if self.final_estimator is None else self.final_estimator
            for name, estimator in [*self.estimators, ("final_estimator", final)]:
                if estimator != "drop" and not _accepts_sample_weight(estimator):
                    raise ValueError(f"sample_weight was given but the estimator {name!r} "
                                     f"({type(estimator).__name__}) does not accept sample_weight in fit")
        fit_weights = {} if weights is None else {"sample_weight": weights}
        methods = [None if estimator == "drop" else self._method(name, estimator, stack_method)
                   for name, estimator in zip(names, (estimator for _, estimator in self.estimators))]
        folds = _folds(self.cv, X, codes)
        n_classes = len(self.classes_)
        self.estimators_, self.stack_method_, self.named_estimators_, predictions = [], [], {}, []
        for name, (_, estimator), method in zip(names, self.estimators, methods):
            if estimator == "drop":
                self.named_estimators_[name] = "drop"
                continue
            predictions.append(cross_val_predictions(estimator, X, codes, folds, method, n_classes, weights))
            fitted = clone(estimator).fit(X, codes, **fit_weights)
            self.estimators_.append(fitted)
            self.named_estimators_[name] = fitted
            self.stack_method_.append(method)
        X_meta = self._stack(X, predictions, passthrough)
        final = self._default_final() if self.final_estimator is None else self.final_estimator
        self.final_estimator_ = clone(final).fit(X_meta, codes, **fit_weights)
        return self

    def _stack(self, X, predictions, passthrough):
        columns = []
        for method, block in zip(self.stack_method_, predictions):
            # two classes: P(class 0) = 1 - P(class 1) adds nothing (and makes the columns collinear)
            columns.append(block[:, 1:] if method == "predict_proba" and len(self.classes_) == 2 else block)
        if passthrough:
            columns.append(X)
        return np.hstack(columns)

    def transform(self, X):
        """The final classifier's features: the base classifiers' outputs (fitted on all data) on ``X``, shape
        (n_samples, n_meta_features)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        predictions = [_response(est, method, X, len(self.classes_))
                       for est, method in zip(self.estimators_, self.stack_method_)]
        return self._stack(X, predictions, self.passthrough)

    def predict(self, X):
        """The final classifier's prediction, as labels of ``classes_``, shape (n_samples,)."""
        X_meta = self.transform(X)
        codes = np.asarray(self.final_estimator_.predict(X_meta), dtype=int)
        return self.classes_[codes]

    @available_if(_final_available("predict_proba"))
    def predict_proba(self, X):
        """The final classifier's class probabilities, shape (n_samples, n_classes)."""
        X_meta = self.transform(X)
        return self.final_estimator_.predict_proba(X_meta)

    @available_if(_final_available("decision_function"))
    def decision_function(self, X):
        """The final classifier's decision function on the stacked features."""
        X_meta = self.transform(X)
        return self.final_estimator_.decision_function(X_meta)
