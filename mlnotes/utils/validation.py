"""Input validation with clear error messages.

Estimators validate through scikit-learn's ``validate_data`` (so they honour the scikit-learn
contract: ``n_features_in_``, feature names, its error messages); the small functions of the
library that take plain arrays use the helpers below, which raise ``ValueError``/``TypeError``
naming the argument and the problem instead of returning NaN.
"""

from numbers import Real

import numpy as np


def to_float_array(a, name, expected="an array"):
    """``a`` as a float array of any shape; None or a non-numeric value raises a TypeError naming
    ``name`` (``expected`` describes the expected value in the message)."""
    if a is None:
        raise TypeError(f"{name} must be {expected}, got None")
    try:
        return np.asarray(a, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric, could not convert it to float: {exc}") from None


def _check_nonempty_finite(arr, name):
    if arr.size == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}): at least one sample is needed")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    if np.isinf(arr).any():
        raise ValueError(f"{name} contains infinity")
    return arr


def _as_float_array(a, name, ndim):
    arr = to_float_array(a, name)
    if arr.ndim != ndim:
        shape = "(n_samples, n_features)" if ndim == 2 else "(n_samples,)"
        raise ValueError(f"{name} must be {ndim}-D with shape {shape}, got shape {arr.shape}")
    return _check_nonempty_finite(arr, name)


def as_float_matrix(X, name="X"):
    """Return ``X`` as a finite, non-empty float array of shape (n_samples, n_features).

    Raises
    ------
    TypeError
        If ``X`` is None or not numeric.
    ValueError
        If ``X`` is not 2-D, is empty, or contains NaN or infinity.
    """
    return _as_float_array(X, name, 2)


def as_float_vector(y, name="y", n_samples=None):
    """Return ``y`` as a finite, non-empty float array of shape (n_samples,).

    If ``n_samples`` is given, the length must match it.
    """
    arr = _as_float_array(y, name, 1)
    if n_samples is not None and arr.shape[0] != n_samples:
        raise ValueError(f"{name} has {arr.shape[0]} entries but X has {n_samples} samples")
    return arr


def check_sample_weight(sample_weight, n_samples):
    """Validate sample weights: shape (n_samples,), finite, non-negative, not all zero.

    ``None`` means unit weights and returns an array of ones.
    """
    if sample_weight is None:
        return np.ones(n_samples)
    if np.isscalar(sample_weight):
        sample_weight = np.full(n_samples, sample_weight, dtype=float)
    t = as_float_vector(sample_weight, "sample_weight", n_samples)
    if (t < 0).any():
        raise ValueError("sample_weight must be non-negative; got negative weights")
    if not (t > 0).any():
        raise ValueError("sample_weight must have at least one positive weight; all are zero")
    return t


def check_scalar(value, name, *, low=None, high=None, include_low=True):
    """Check that ``value`` is a real number in the given range and return it as float."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if low is not None and (value < low or (value == low and not include_low)):
        op = ">=" if include_low else ">"
        raise ValueError(f"{name} must be {op} {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value}")
    return value



def as_finite_array(a, name):
    """Return ``a`` (a number or an array of any shape) as a finite, non-empty float array.

    Raises
    ------
    TypeError
        If ``a`` is None or not numeric.
    ValueError
        If ``a`` is empty or contains NaN or infinity.
    """
    return _check_nonempty_finite(to_float_array(a, name, "a number or an array"), name)
