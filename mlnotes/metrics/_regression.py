r"""Regression scores (chapter 18 uses them for the baselines): mean squared and absolute error and
:math:`R^2`, with scikit-learn's signatures (``sample_weight``, ``multioutput``, ``force_finite``)."""

import numpy as np

from ..utils.validation import check_bool, check_sample_weight, to_float_array, _check_nonempty_finite
from ._checks import check_same_length, warn_undefined

MULTIOUTPUT = ("raw_values", "uniform_average")


def _check_targets(y_true, y_pred):
    """Finite float targets of equal shape (n_samples, n_outputs) (a vector is one output)."""
    arrays = []
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        arr = to_float_array(y, name)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2:
            raise ValueError(f"{name} must have shape (n_samples,) or (n_samples, n_outputs), got {arr.shape}")
        arrays.append(_check_nonempty_finite(arr, name))
    y_true, y_pred = arrays
    check_same_length("y_true", y_true, "y_pred", y_pred)
    if y_true.shape[1] != y_pred.shape[1]:
        raise ValueError(f"y_true has {y_true.shape[1]} outputs but y_pred has {y_pred.shape[1]}")
    return y_true, y_pred


def _output_weights(multioutput, n_outputs, extra=()):
    """None for a uniform average, an array of output weights, or the string kept for the caller."""
    if isinstance(multioutput, str):
        if multioutput not in MULTIOUTPUT + tuple(extra):
            raise ValueError(f"multioutput must be one of {MULTIOUTPUT + tuple(extra)} or an array of shape "
                             f"(n_outputs,), got {multioutput!r}")
        return multioutput
    weights = to_float_array(multioutput, "multioutput")
    if weights.shape != (n_outputs,):
        raise ValueError(f"multioutput has shape {weights.shape} but there are {n_outputs} outputs")
    return weights


def _mean_error(errors, sample_weight, multioutput):
    """Weighted mean over the samples of each output, then averaged over the outputs as ``multioutput`` says."""
    w = check_sample_weight(sample_weight, errors.shape[0])
    per_output = w @ errors / w.sum()
    how = _output_weights(multioutput, errors.shape[1])
    if isinstance(how, str):
        return per_output if how == "raw_values" else float(per_output.mean())
    return float(np.average(per_output, weights=how))


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    r"""Mean squared error :math:`\sum_i w_i (y_i - \hat y_i)^2 / \sum_i w_i`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), optional
    multioutput : {'raw_values', 'uniform_average'} or array-like of shape (n_outputs,)
        One error per output, their mean, or their weighted mean.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
    """
    y_true, y_pred = _check_targets(y_true, y_pred)
    return _mean_error((y_true - y_pred) ** 2, sample_weight, multioutput)


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    r"""Mean absolute error :math:`\sum_i w_i |y_i - \hat y_i| / \sum_i w_i`. Parameters as
    :func:`mean_squared_error`.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
    """
    y_true, y_pred = _check_targets(y_true, y_pred)
    return _mean_error(np.abs(y_true - y_pred), sample_weight, multioutput)


def r2_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average", force_finite=True):
    r"""Coefficient of determination :math:`R^2 = 1 - \sum_i w_i (y_i - \hat y_i)^2 / \sum_i w_i (y_i - \bar y)^2`
    (:math:`\bar y` the weighted mean).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), optional
    multioutput : {'raw_values', 'uniform_average', 'variance_weighted'} or array-like of shape (n_outputs,)
        'variance_weighted' weights each output by its denominator (uniform if all are zero).
    force_finite : bool, default True
        A constant ``y_true`` (zero denominator) gives 1 for a perfect prediction and 0 otherwise instead of
        NaN / -inf, as in scikit-learn.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        NaN with an ``UndefinedMetricWarning`` for fewer than two samples.
    """
    y_true, y_pred = _check_targets(y_true, y_pred)
    check_bool(force_finite, "force_finite")
    how = _output_weights(multioutput, y_true.shape[1], extra=("variance_weighted",))
    if y_true.shape[0] < 2:
        warn_undefined("R^2 score is not well-defined with less than two samples.")
        return float("nan")
    w = check_sample_weight(sample_weight, y_true.shape[0])
    numerator = w @ (y_true - y_pred) ** 2
    denominator = w @ (y_true - (w @ y_true) / w.sum()) ** 2
    if force_finite:
        scores = np.ones(y_true.shape[1])
        valid = (denominator != 0) & (numerator != 0)
        scores[valid] = 1 - numerator[valid] / denominator[valid]
        scores[(numerator != 0) & (denominator == 0)] = 0.0
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = 1 - numerator / denominator
    if isinstance(how, str):
        if how == "raw_values":
            return scores
        if how == "variance_weighted" and (denominator != 0).any():
            return float(np.average(scores, weights=denominator))
        return float(scores.mean())
    return float(np.average(scores, weights=how))

