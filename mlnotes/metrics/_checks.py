"""Validation shared by the metrics: class labels, scores, weights, ``pos_label`` and ``zero_division``.

The messages name the argument and the problem; the semantics (which labels exist, which label is positive,
what happens on a division by zero) are scikit-learn's, so the metrics return what scikit-learn returns.
"""

import warnings
from numbers import Real

import numpy as np

from ..utils.validation import _check_nonempty_finite, to_float_array

ZERO_DIVISION_OPTIONS = ("warn", 0.0, 1.0, "np.nan")


def _undefined_metric_warning():
    """scikit-learn's ``UndefinedMetricWarning`` class, imported when a warning is due (importing scikit-learn
    costs seconds; the metrics themselves do not need it)."""
    from sklearn.exceptions import UndefinedMetricWarning

    return UndefinedMetricWarning


def warn_undefined(message, stacklevel=3):
    """Warn with scikit-learn's ``UndefinedMetricWarning`` (the same class, so filters of either library apply)."""
    warnings.warn(message, _undefined_metric_warning(), stacklevel=stacklevel)


def as_label_vector(y, name):
    """``y`` as a 1-D array of class labels (a column vector is flattened).

    Raises
    ------
    TypeError
        If ``y`` is None.
    ValueError
        If ``y`` is empty, not 1-D, holds NaN/inf, continuous (non-integer float) values, or mixes strings and
        numbers.
    """
    if y is None:
        raise TypeError(f"{name} must be an array of class labels, got None")
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_samples,) (binary or multiclass labels; multilabel and "
                         f"multioutput targets are not supported), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: at least one sample is needed")
    if arr.dtype.kind == "f":
        _check_nonempty_finite(arr, name)
        if not np.array_equal(arr, np.round(arr)):
            raise ValueError(f"{name} holds continuous values (e.g. {arr[arr != np.round(arr)][0]!r}): a "
                             f"classification metric needs class labels")
    elif arr.dtype.kind == "O":
        kinds = {isinstance(v, str) for v in arr.tolist()}
        if len(kinds) > 1:
            raise ValueError(f"{name} mixes strings and numbers as labels")
        if kinds == {True}:
            arr = arr.astype(str)
    elif arr.dtype.kind not in "iubUS":
        raise ValueError(f"{name} has dtype {arr.dtype}: class labels must be integers, booleans or strings")
    return arr


def check_label_pair(y_true, y_pred, name_pred="y_pred"):
    """Validate a pair of label vectors of equal length and return them with their sorted union of labels.

    Returns
    -------
    y_true, y_pred : ndarray of shape (n_samples,)
    labels : ndarray of shape (n_labels,)
        The sorted distinct labels of ``y_true`` and ``y_pred`` together.
    """
    y_true = as_label_vector(y_true, "y_true")
    y_pred = as_label_vector(y_pred, name_pred)
    if y_true.shape[0] != y_pred.shape[0]:
        raise ValueError(f"y_true has {y_true.shape[0]} samples but {name_pred} has {y_pred.shape[0]}")
    if (y_true.dtype.kind in "US") != (y_pred.dtype.kind in "US"):
        raise ValueError(f"y_true and {name_pred} mix string and numeric labels: "
                         f"{y_true.dtype} and {y_pred.dtype}")
    return y_true, y_pred, np.union1d(y_true, y_pred)


def label_indices(y, labels):
    """The position of each entry of ``y`` in ``labels`` (any order; the last one for a repeated label, as
    scikit-learn's confusion matrix), -1 where it is not among them.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    labels : ndarray of shape (n_labels,)

    Returns
    -------
    ndarray of int of shape (n_samples,)
    """
    sorter = np.argsort(labels, kind="stable")
    sorted_labels = labels[sorter]
    pos = np.searchsorted(sorted_labels, y, side="right") - 1     # the last of equal labels (a stable sort)
    pos_clipped = np.maximum(pos, 0)
    found = (pos >= 0) & (sorted_labels[pos_clipped] == y)
    return np.where(found, sorter[pos_clipped], -1)


def check_scores(y_score, n_samples, name="y_score"):
    """``y_score`` as a finite float vector of shape (n_samples,) (a column vector is flattened).

    Raises
    ------
    ValueError
        If the shape is wrong (e.g. a ``predict_proba`` matrix of two columns: pass its positive column),
        the length differs from ``n_samples``, or a score is NaN or infinite.
    """
    arr = to_float_array(y_score, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_samples,) with one score per sample (binary); got shape "
                         f"{arr.shape} (for predict_proba output pass the positive class's column, proba[:, 1])")
    if arr.shape[0] != n_samples:
        raise ValueError(f"y_true has {n_samples} samples but {name} has {arr.shape[0]}")
    return _check_nonempty_finite(arr, name)


def check_pos_label(y_true, pos_label):
    """The positive label of binary curves: ``pos_label``, or 1 when it is None and ``y_true`` is in {0, 1} or
    {-1, 1} (scikit-learn's rule).

    Raises
    ------
    ValueError
        If ``pos_label`` is None and the labels are not {0, 1}, {-1, 1} or a subset of them.
    """
    if pos_label is not None:
        return pos_label
    classes = np.unique(y_true)
    numeric = classes.dtype.kind not in "OUS"
    if not (numeric and len(classes) <= 2 and (set(classes.tolist()) <= {0, 1} or set(classes.tolist()) <= {-1, 1})):
        raise ValueError(f"y_true takes the values {classes.tolist()[:5]} and pos_label is not specified: either make "
                         f"y_true take values in {{0, 1}} or {{-1, 1}} or pass pos_label explicitly")
    return 1


def check_zero_division(zero_division):
    """Validate ``zero_division`` ('warn', 0, 1 or np.nan) and return the value it stands for (warn: 0)."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return 0.0
    elif isinstance(zero_division, Real) and not isinstance(zero_division, (bool, np.bool_)):
        if np.isnan(zero_division):
            return np.nan
        if zero_division in (0, 1):
            return float(zero_division)
    raise ValueError(f"zero_division must be one of {ZERO_DIVISION_OPTIONS}, got {zero_division!r}")


def check_same_length(name_a, a, name_b, b):
    """Raise a ValueError naming both arguments when the first dimensions of ``a`` and ``b`` differ."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"{name_a} has {a.shape[0]} samples but {name_b} has {b.shape[0]}")
