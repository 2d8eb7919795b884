"""Validation of Gaussian parameters: a mean vector, a covariance matrix and index sets.

Every function of :mod:`mlnotes.stats` checks its input here, so that a wrong shape, a NaN, a
covariance that is not symmetric positive definite or an index out of range raises a clear
``ValueError`` naming the argument, instead of a NaN further down; a missing (None) or
non-numeric argument raises a ``TypeError``.
"""

from numbers import Integral

import numpy as np
from scipy import linalg

from ..utils.validation import as_float_matrix, as_float_vector, to_float_array

#: Relative tolerance of the symmetry check: ``|S - S^T| <= SYMMETRY_RTOL * max|S|`` entrywise.
SYMMETRY_RTOL = 1e-10


def covariance_cholesky(cov, name="cov", d=None):
    r"""Validate a covariance matrix and return it with its lower Cholesky factor.

    Parameters
    ----------
    cov : array of shape (d, d)
        Symmetric positive definite.
    name : str
        The argument's name, for error messages.
    d : int, optional
        The dimension ``cov`` must have.

    Returns
    -------
    cov : ndarray of shape (d, d)
    L : ndarray of shape (d, d)
        Lower triangular with positive diagonal, :math:`\Sigma = L L^\top`.

    Raises
    ------
    TypeError
        If ``cov`` is None or not numeric.
    ValueError
        If ``cov`` is not a square 2-D array (of size ``d``), contains NaN or infinity, is not
        symmetric (to a relative 1e-10) or is not positive definite.
    """
    if cov is not None and np.ndim(cov) != 2:
        raise ValueError(f"{name} must be a 2-D covariance matrix of shape (d, d), got {np.ndim(cov)}-D input")
    S = as_float_matrix(cov, name)
    if S.shape[0] != S.shape[1]:
        raise ValueError(f"{name} must be square, got shape {S.shape}")
    if d is not None and S.shape[0] != d:
        raise ValueError(f"{name} must have shape ({d}, {d}), got {S.shape}")
    scale = np.abs(S).max()
    if np.abs(S - S.T).max() > SYMMETRY_RTOL * scale:
        raise ValueError(f"{name} must be symmetric; max |{name} - {name}^T| = {np.abs(S - S.T).max():.3g}")
    try:
        L = linalg.cholesky(S, lower=True)
    except linalg.LinAlgError:
        raise ValueError(f"{name} is not positive definite (its Cholesky factorisation fails)") from None
    return S, L


def mean_vector(mean, d, name="mean", expected="the covariance is {d} x {d}"):
    """Validate a vector of shape (d,) (a number is accepted when d = 1); ``expected`` says in
    the error message where ``d`` comes from."""
    if mean is not None and np.ndim(mean) == 0 and d == 1:
        mean = [mean]
    mu = as_float_vector(mean, name)
    if mu.shape[0] != d:
        raise ValueError(f"{name} has {mu.shape[0]} entries but {expected.format(d=d)}")
    return mu


def gaussian_parameters(mean, cov):
    """Validate the parameters of N(mean, cov); returns the mean (d,), the covariance (d, d)
    and its lower Cholesky factor."""
    S, L = covariance_cholesky(cov)
    return mean_vector(mean, S.shape[0]), S, L


def float_array(value, name, expected):
    """``value`` as a float array of any shape; None or a non-numeric value raises a TypeError
    naming ``name`` (``expected`` describes the expected value in the message)."""
    return to_float_array(value, name, expected)


def points(X, d):
    """Validate points of a d-dimensional distribution: returns them as an (n, d) float array and
    whether a single point was given (a 1-D array of length d, or a number when d = 1, the same
    rule as for a mean). One-dimensional data of n points must have shape (n, 1)."""
    X_arr = float_array(X, "X", f"an array of shape (n, {d}) or ({d},)")
    if X_arr.ndim == 0 and d == 1:
        X_arr = X_arr.reshape(1)
    single = X_arr.ndim == 1
    if single:
        if X_arr.shape[0] != d:
            raise ValueError(f"X has {X_arr.shape[0]} entries but the Gaussian has dimension {d}; "
                             "pass n points as an array of shape (n, d)")
        X_arr = X_arr[None, :]
    if X_arr.ndim != 2:
        raise ValueError(f"X must have shape (n, {d}) or ({d},), got {X_arr.shape}")
    if X_arr.shape[1] != d:
        raise ValueError(f"X has {X_arr.shape[1]} columns but the Gaussian has dimension {d}")
    if not np.all(np.isfinite(X_arr)):
        raise ValueError("X contains NaN or infinity")
    return X_arr, single


def index_set(idx, d, name):
    """Validate indices into range(d): integers, in range, not repeated, not empty; returns an
    int array (a single integer is accepted)."""
    if idx is None:
        raise TypeError(f"{name} must be an integer or a sequence of integers, got None")
    values = np.atleast_1d(np.asarray(idx, dtype=object))
    if values.ndim != 1:
        raise ValueError(f"{name} must be an integer or a 1-D sequence of integers, got shape {values.shape}")
    if values.size == 0:
        raise ValueError(f"{name} is empty: at least one index is needed")
    if not all(isinstance(i, Integral) and not isinstance(i, (bool, np.bool_)) for i in values):
        raise TypeError(f"{name} must contain integers, got {list(values)}")
    out = values.astype(int)
    bad = out[(out < 0) | (out >= d)]
    if bad.size:
        raise ValueError(f"{name} has indices {bad.tolist()} out of range for dimension {d} (valid: 0..{d - 1})")
    if np.unique(out).size != out.size:
        raise ValueError(f"{name} has repeated indices: {out.tolist()}")
    return out


def symmetrize(S):
    """``(S + S^T) / 2``: removes the rounding asymmetry of a computed covariance."""
    return (S + S.T) / 2
