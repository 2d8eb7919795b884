r"""Cross-validation of an estimator (chapter 18, *Nearest neighbours and evaluation*).

For each fold a fresh copy of the estimator (scikit-learn's ``clone``: the same hyperparameters, nothing fitted)
is fitted on the training part and scored on the test part; the :math:`k` scores estimate the score of the
procedure on new data.
"""

import time
import warnings
from numbers import Integral, Real

import numpy as np

from ..metrics import get_scorer
from ._split import KFold, StratifiedKFold, num_samples, take_rows


def check_cv(cv=5, y=None, *, classifier=False):
    """The splitter ``cv`` stands for: an int k gives :class:`StratifiedKFold` (k) for a classifier with class
    labels ``y`` and :class:`KFold` (k) otherwise, unshuffled (scikit-learn's rule); None means 5; an object with
    ``split`` is used as is; an iterable of (train, test) pairs is used as the list of folds.

    Raises
    ------
    TypeError
        Anything else.
    """
    if cv is None:
        cv = 5
    if isinstance(cv, Integral) and not isinstance(cv, (bool, np.bool_)):
        if classifier and y is not None:
            labels = np.asarray(y)
            is_labels = labels.ndim == 1 and (labels.dtype.kind in "iubUSO" or (
                labels.dtype.kind == "f" and np.isfinite(labels).all() and np.array_equal(labels, np.round(labels))))
            if is_labels:
                return StratifiedKFold(cv)
        return KFold(cv)
    if hasattr(cv, "split") and hasattr(cv, "get_n_splits"):
        return cv
    if hasattr(cv, "__iter__") and not isinstance(cv, str):
        return _FixedSplits(list(cv))
    raise TypeError(f"cv must be None, an int, a splitter with split/get_n_splits or an iterable of (train, test) "
                    f"pairs, got {cv!r}")


class _FixedSplits:
    """A list of (train, test) index pairs as a splitter."""

    def __init__(self, splits):
        self.splits = splits

    def split(self, X=None, y=None, groups=None):
        for train, test in self.splits:
            yield np.asarray(train), np.asarray(test)

    def get_n_splits(self, X=None, y=None, groups=None):
        return len(self.splits)


def _check_scoring(estimator, scoring):
    """A scorer ``f(estimator, X, y)``: the estimator's own ``score`` for None, else :func:`get_scorer`."""
    if scoring is None:
        if not hasattr(estimator, "score"):
            raise TypeError(f"scoring is None but the estimator {estimator!r} has no score method: pass scoring")
        return lambda est, X, y: est.score(X, y)
    return get_scorer(scoring)


def _fold_params(params, n_samples, indices):
    """Fit parameters of one fold: arrays of one entry per sample (e.g. ``sample_weight``) indexed by the fold."""
    return {k: take_rows(v, indices) if hasattr(v, "__len__") and not isinstance(v, str)
            and num_samples(v) == n_samples else v for k, v in (params or {}).items()}


def cross_validate(estimator, X, y=None, *, groups=None, scoring=None, cv=None, n_jobs=None, params=None,
                   return_train_score=False, return_estimator=False, error_score=np.nan):
    r"""Fit a clone of ``estimator`` on each training part and score it on the matching test part.

    Parameters
    ----------
    estimator : scikit-learn compatible estimator
        Cloned for each fold (scikit-learn's ``clone``), so it is never fitted itself.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
    groups : ignored
        For scikit-learn's signature.
    scoring : None, str or callable
        None: ``estimator.score``; a name of :func:`mlnotes.metrics.get_scorer` ('accuracy', 'roc_auc',
        'neg_mean_squared_error', ...); or ``scoring(estimator, X, y) -> float``.
    cv : None, int, splitter or iterable of (train, test)
        See :func:`check_cv` (default 5 folds: stratified for a classifier).
    n_jobs : int or None
        Accepted for scikit-learn's signature and ignored: the folds are fitted one after the other.
    params : dict, optional
        Passed to ``fit``; entries of one value per sample (e.g. ``sample_weight``) are indexed by the fold.
    return_train_score, return_estimator : bool, default False
    error_score : 'raise' or float, default np.nan
        What a failed fit scores ('raise': re-raise the error); failures warn (scikit-learn's
        ``FitFailedWarning``), and all folds failing raises a ValueError.

    Returns
    -------
    dict
        'test_score', 'fit_time', 'score_time' : ndarray of shape (n_splits,), and 'train_score' and 'estimator'
        when asked for.
    """
    from sklearn.base import clone, is_classifier
    from sklearn.exceptions import FitFailedWarning

    if not (error_score == "raise" if isinstance(error_score, str) else isinstance(error_score, Real)):
        raise ValueError(f"error_score must be 'raise' or a number, got {error_score!r}")
    n_samples = num_samples(X)
    if n_samples == 0:
        raise ValueError("X is empty: at least one sample is needed")
    if y is not None and num_samples(y) != n_samples:
        raise ValueError(f"X has {n_samples} samples but y has {num_samples(y)}")
    scorer = _check_scoring(estimator, scoring)
    splitter = check_cv(cv, y, classifier=is_classifier(estimator))
    results = {"test_score": [], "fit_time": [], "score_time": [], "train_score": [], "estimator": []}
    failures = []
    for train, test in splitter.split(X, y, groups):
        model = clone(estimator)
        X_train, X_test = take_rows(X, train), take_rows(X, test)
        y_train, y_test = (None, None) if y is None else (take_rows(y, train), take_rows(y, test))
        start = time.perf_counter()
        try:
            model.fit(X_train, y_train, **_fold_params(params, n_samples, train))
        except Exception as exc:
            if error_score == "raise":
                raise
            failures.append(f"{type(exc).__name__}: {exc}")
            results["fit_time"].append(time.perf_counter() - start)
            results["score_time"].append(0.0)
            results["test_score"].append(float(error_score))
            results["train_score"].append(float(error_score))
            results["estimator"].append(model)
            continue
        results["fit_time"].append(time.perf_counter() - start)
        start = time.perf_counter()
        results["test_score"].append(scorer(model, X_test, y_test))
        results["score_time"].append(time.perf_counter() - start)
        if return_train_score:
            results["train_score"].append(scorer(model, X_train, y_train))
        results["estimator"].append(model)
    n_folds = len(results["test_score"])
    if failures:
        if len(failures) == n_folds:
            raise ValueError(f"All the {n_folds} fits failed; the first error: {failures[0]}")
        warnings.warn(f"{len(failures)} of the {n_folds} fits failed and score error_score={error_score}; the first "
                      f"error: {failures[0]}", FitFailedWarning, stacklevel=2)
    out = {k: np.asarray(results[k], dtype=float) for k in ("fit_time", "score_time", "test_score")}
    if return_train_score:
        out["train_score"] = np.asarray(results["train_score"], dtype=float)
    if return_estimator:
        out["estimator"] = results["estimator"]
    return out


def cross_val_score(estimator, X, y=None, *, groups=None, scoring=None, cv=None, n_jobs=None, params=None,
                    error_score=np.nan):
    r"""The test score of each fold of a cross-validation (:func:`cross_validate`'s 'test_score').

    Parameters
    ----------
    estimator, X, y, groups, scoring, cv, n_jobs, params, error_score
        As in :func:`cross_validate`.

    Returns
    -------
    ndarray of shape (n_splits,)
        For the same unshuffled ``cv`` and a deterministic estimator, scikit-learn's ``cross_val_score`` values.
    """
    return cross_validate(estimator, X, y, groups=groups, scoring=scoring, cv=cv, n_jobs=n_jobs, params=params,
                          error_score=error_score)["test_score"]
