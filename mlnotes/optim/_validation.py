"""Checks shared by the optimisers: the start point and what the user's functions return."""

import numbers

import numpy as np

from ..utils.validation import check_scalar


def as_start_point(x0):
    """``x0`` as a finite 1-D float array (a copy)."""
    x = np.array(x0, dtype=float, ndmin=1)
    if x.ndim != 1:
        raise ValueError(f"x0 must be a 1-D array of shape (d,), got shape {x.shape}")
    if x.size == 0:
        raise ValueError("x0 is empty: the problem needs at least one variable")
    if not np.isfinite(x).all():
        raise ValueError("x0 contains NaN or infinity")
    return x


def checked_gradient(grad, x, *, allow_overflow=False):
    """Call ``grad(x)`` and check that it returns a finite array of the shape of ``x``.

    At a finite ``x`` a NaN entry raises ``ValueError`` (``grad`` is wrong there, or ``x`` is outside the
    domain of ``f``), and so does an infinite one unless ``allow_overflow``: the iterative methods pass
    ``allow_overflow=True`` after a step, so that a gradient which overflows on diverging iterates is
    returned and reported as divergence. At a non-finite ``x`` the gradient is returned as it is.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        g = np.asarray(grad(x), dtype=float)
    if g.shape != x.shape:
        raise ValueError(f"grad(x) must have the shape of x, {x.shape}, got {g.shape}")
    if not np.isfinite(g).all() and np.isfinite(x).all():   # one pass over g when it is finite (every step)
        if np.isnan(g).any():
            raise ValueError("grad(x) returned NaN at a finite x: is x outside the domain of f, or is grad wrong "
                             "there (or does it overflow internally)?")
        if not allow_overflow and np.isinf(g).any():
            raise ValueError("grad(x) returned infinity at a finite x: the gradient overflows at the start point")
    return g


def checked_value(f, x):
    """Call ``f(x)`` and check that it returns a real scalar (inf and NaN are returned, for divergence checks)."""
    value = f(x)
    if isinstance(value, (float, np.floating)):     # the common case (a Python or numpy float), checked cheaply
        return float(value)
    if np.ndim(value) != 0 or not isinstance(np.asarray(value).item(), numbers.Real):
        raise ValueError(f"f(x) must return a real scalar, got {value!r}")
    return float(value)


def check_iterations(max_iter, tol):
    return check_scalar(max_iter, "max_iter", numbers.Integral, min_val=1), check_scalar(tol, "tol", min_val=0)
