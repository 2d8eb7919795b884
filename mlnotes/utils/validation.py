"""Input validation with clear error messages.

Estimators validate through scikit-learn's ``validate_data`` (so they honour the scikit-learn
contract: ``n_features_in_``, feature names, its error messages); the small functions of the
library that take plain arrays use the helpers below, which raise ``ValueError``/``TypeError``
naming the argument and the problem instead of returning NaN.
"""

import sys
from numbers import Integral, Real

import numpy as np


def to_float_array(a, name, expected="an array"):
    """``a`` as a float array of any shape; None or a non-numeric value raises a TypeError naming
    ``name`` (``expected`` describes the expected value in the message)."""
    if a is None:
        raise TypeError(f"{name} must be {expected}, got None")
    sparse = sys.modules.get("scipy.sparse")          # not imported: then ``a`` cannot be a sparse matrix
    if sparse is not None and sparse.issparse(a):
        raise TypeError(f"{name} is a scipy.sparse {type(a).__name__}, but dense data is required: convert it with "
                        f"{name}.toarray()")
    try:
        return np.asarray(a, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric, could not convert it to float: {exc}") from None


def _check_nonempty_finite(arr, name):
    if arr.size == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}): at least one sample is needed")
    if not np.isfinite(arr).all():                    # one pass in the common case; then which problem
        if np.isnan(arr).any():
            raise ValueError(f"{name} contains NaN")
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


def check_same_features(X, Y):
    """Raise ``ValueError`` unless the matrices ``X`` and ``Y`` (two sample sets, already validated) have the same
    number of features (columns): the check of every function of two sample sets (kernels, distances)."""
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must have the same number of features, got X with {X.shape[1]} and Y with "
                         f"{Y.shape[1]}")


def as_float_vector(y, name="y", n_samples=None):
    """Return ``y`` as a finite, non-empty float array of shape (n_samples,).

    If ``n_samples`` is given, the length must match it.
    """
    arr = _as_float_array(y, name, 1)
    if n_samples is not None and arr.shape[0] != n_samples:
        raise ValueError(f"{name} has {arr.shape[0]} entries but X has {n_samples} samples")
    return arr


def check_linear_problem(X, y, w):
    r"""The data and weights of a linear model :math:`x^\top w`, checked against each other.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    w : array-like of shape (n_features,)

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    w : ndarray of shape (n_features,)
        Finite, non-empty float arrays.

    Raises
    ------
    TypeError
        If an argument is None or not numeric.
    ValueError
        If an argument is empty, not finite or of the wrong dimension, or the lengths do not match.
    """
    X = as_float_matrix(X, "X")
    y = as_float_vector(y, "y", X.shape[0])
    w = as_float_vector(w, "w")
    if w.shape[0] != X.shape[1]:
        raise ValueError(f"w has {w.shape[0]} entries but X has {X.shape[1]} features")
    return X, y, w


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


_BOUNDARIES = ("both", "left", "right", "neither")


def check_scalar(value, name, target_type=Real, *, min_val=None, max_val=None, include_boundaries="both",
                 allow_inf=False, low=None, high=None, include_low=None):
    r"""Check that ``value`` is a number of ``target_type`` in an interval, and return it.

    The one scalar check of the library (the counterpart of scikit-learn's ``check_scalar``): every
    hyperparameter and numeric option is validated here, so the messages are the same everywhere.

    Parameters
    ----------
    value : object
        The value to check. ``bool`` is rejected (``True`` is not the number 1 here).
    name : str
        The argument's name, used in the messages.
    target_type : {numbers.Real, numbers.Integral}, default Real
        ``Real`` accepts any real number (Python or numpy) and returns a ``float``; ``Integral`` accepts
        integers only (``3.0`` is rejected) and returns an ``int``.
    min_val, max_val : number, optional
        The bounds of the interval (None: unbounded on that side).
    include_boundaries : {"both", "left", "right", "neither"}, default "both"
        Which bounds belong to the interval: ``"left"`` is :math:`[\text{min}, \text{max})`, ``"right"``
        :math:`(\text{min}, \text{max}]`, ``"neither"`` the open interval.
    allow_inf : bool, default False
        Accept ``+inf``/``-inf`` (e.g. ``C=np.inf`` for no penalty); NaN is always rejected.
    low, high, include_low
        The older spelling of ``min_val``, ``max_val`` and whether ``min_val`` is included (``max_val`` is
        then included); kept for existing callers.

    Returns
    -------
    float or int

    Raises
    ------
    TypeError
        If ``value`` is not of ``target_type`` (or is a bool).
    ValueError
        If ``value`` is NaN, infinite (unless ``allow_inf``) or outside the interval; the message names
        ``name``, the interval and the value.

    Examples
    --------
    >>> check_scalar(5, "max_iter", Integral, min_val=1)
    5
    >>> check_scalar(0.5, "rho", min_val=0, max_val=1, include_boundaries="right")
    0.5
    """
    if low is not None or high is not None or include_low is not None:
        if min_val is not None or max_val is not None:
            raise TypeError("give the bounds as min_val/max_val or as low/high, not both")
        min_val, max_val = low, high
        include_boundaries = "both" if include_low in (None, True) else "right"
    if include_boundaries not in _BOUNDARIES:
        raise ValueError(f"include_boundaries must be one of {_BOUNDARIES}, got {include_boundaries!r}")
    integral = target_type is Integral
    if target_type not in (Real, Integral):
        raise TypeError(f"target_type must be numbers.Real or numbers.Integral, got {target_type!r}")
    kind = "an integer " if integral else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, target_type):
        bound = f" >= {min_val}" if integral and min_val is not None else ""
        raise TypeError(f"{name} must be {'an integer' if integral else 'a real number'}{bound}, got "
                        f"{type(value).__name__} {value!r}")
    value = int(value) if integral else float(value)
    if not integral and (np.isnan(value) or (np.isinf(value) and not allow_inf)):
        raise ValueError(f"{name} must be finite, got {value}")
    left_closed = include_boundaries in ("both", "left")
    right_closed = include_boundaries in ("both", "right")
    below = min_val is not None and (value < min_val or (value == min_val and not left_closed))
    above = max_val is not None and (value > max_val or (value == max_val and not right_closed))
    if below:
        raise ValueError(f"{name} must be {kind}{'>=' if left_closed else '>'} {min_val}, got {value!r}")
    if above:
        raise ValueError(f"{name} must be {kind}{'<=' if right_closed else '<'} {max_val}, got {value!r}")
    return value


def check_option(value, name, options):
    """Check that ``value`` is one of ``options`` (compared with ``==``, types must match) and return it.

    Parameters
    ----------
    value : object
    name : str
        The argument's name, used in the message.
    options : sequence
        The accepted values, e.g. ``("lbfgs", "newton")`` or ``(True, False)``.

    Raises
    ------
    ValueError
        Naming ``name``, the options and the value.
    """
    for option in options:
        if type(value) is type(option) and value == option or value is option:
            return value
    raise ValueError(f"{name} must be one of {tuple(options)}, got {value!r}")


def check_bool(value, name):
    """Check that ``value`` is ``True`` or ``False`` (a Python or numpy bool) and return it as ``bool``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


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


def check_square_sums(A, name="X"):
    """Raise a ``ValueError`` naming the problem when sums of squares of ``A`` can overflow float64.

    Least squares, covariances and the Newton systems of the quadratic programs sum ``n`` products of two
    entries of ``A``: with entries up to ``m`` they stay finite if ``n m^2`` is below the largest float. Returns
    ``A`` unchanged.
    """
    A = np.asarray(A)
    largest = float(np.abs(A).max()) if A.size else 0.0
    limit = np.sqrt(np.finfo(np.float64).max / max(A.shape[0], 1)) / 4
    if largest > limit:
        raise ValueError(f"{name} has values up to {largest:.3g}: with {A.shape[0]} samples their sums of squares "
                         f"overflow float64 (entries must stay below about {limit:.1g}); rescale the features")
    return A


def check_classes(estimator, X, y, *, binary=False, **validate_kwargs):
    """The opening of every classifier's ``fit``: validate ``X`` and ``y``, set ``estimator.classes_``, and
    return the class index of each sample.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Its ``classes_`` (the sorted distinct labels) and ``n_features_in_`` are set.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels (any hashable values).
    binary : bool, default False
        Accept exactly two classes (a classifier without a multiclass form).
    **validate_kwargs
        Passed to scikit-learn's ``validate_data`` (e.g. ``dtype=np.float64``).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    codes : ndarray of int of shape (n_samples,)
        ``classes_[codes] == y``.

    Raises
    ------
    ValueError
        If the targets are not class labels (e.g. continuous), there is only one class, or (``binary``)
        more than two; the message names the estimator.
    """
    # scikit-learn only when an estimator is fitted: the helpers above serve the widgets, which must import fast
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import validate_data

    X, y = validate_data(estimator, X, y, **validate_kwargs)
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    name = type(estimator).__name__
    if len(classes) < 2:
        raise ValueError(f"{name} needs samples of at least 2 classes, but the data contain only one class: "
                         f"{np.asarray(classes[0]).item()!r}")
    if binary and len(classes) > 2:
        raise ValueError(f"Only binary classification is supported by {name}: it separates exactly 2 classes, got "
                         f"{len(classes)}: {classes[:5]}; use OneVsRestClassifier({name}()) for more")
    estimator.classes_ = classes
    return X, y, codes.reshape(-1)
