"""Input checks shared by the linear-algebra functions (on top of :mod:`mlnotes.utils.validation`)."""

import numpy as np

from ..utils.validation import as_float_matrix, check_scalar


def as_square_matrix(A, name="A"):
    """Return ``A`` as a finite float array of shape (n, n); a clear ``ValueError`` otherwise."""
    A = as_float_matrix(A, name)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be square, got shape {A.shape}")
    return A


def check_tolerance(value, name, default):
    """``default`` if ``value`` is None, else ``value`` checked to be a finite real number >= 0."""
    if value is None:
        return float(default)
    return check_scalar(value, name, low=0.0)


def default_rcond(A):
    """The relative cut-off of numpy's ``matrix_rank`` and scipy's ``null_space``:
    ``max(M, N) * eps`` (to be multiplied by the largest singular value)."""
    return max(A.shape) * np.finfo(float).eps
