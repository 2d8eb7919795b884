r"""Hoeffding's inequality for the mean of bounded independent variables.

Derived in chapter 3, *Probability and Gaussians*: for independent (not necessarily identically
distributed) :math:`X_i \in [a, b]`, :math:`\bar X_n = \frac1n\sum_i X_i` and
:math:`\theta = \mathbb E \bar X_n` (the common mean when the :math:`X_i` share one),

.. math::

    P(\lvert \bar X_n - \theta \rvert \ge t) \le 2\exp\!\Big(-\frac{2 n t^2}{(b - a)^2}\Big).
"""

import numpy as np

from ..utils.validation import check_scalar
from ._checks import float_array


def _interval_width(a, b):
    a = check_scalar(a, "a")
    b = check_scalar(b, "b")
    if not b > a:
        raise ValueError(f"the interval [a, b] must have b > a, got a={a}, b={b}")
    return b - a


def hoeffding_bound(n, t, *, a=0.0, b=1.0):
    r"""Hoeffding's two-sided bound :math:`2\exp(-2nt^2/(b-a)^2)` on :math:`P(|\bar X_n - \theta| \ge t)`
    for the mean of ``n`` independent variables with values in :math:`[a, b]`.

    Parameters
    ----------
    n : int or array of int
        Number of samples, at least 1.
    t : float or array of float
        Deviations, at least 0 (broadcast against ``n``).
    a, b : float
        The variables take values in :math:`[a, b]` (default :math:`[0, 1]`, e.g. Bernoulli).

    Returns
    -------
    bound : float or ndarray
        The bound itself (it exceeds 1 for small :math:`nt^2`, where it says nothing).

    Raises
    ------
    TypeError
        If ``n`` is not an integer, or ``t``, ``a`` or ``b`` is None or not numeric.
    ValueError
        If ``n < 1``, ``t < 0``, ``t`` is not finite, or ``b <= a``.

    Notes
    -----
    Derived in chapter 3, *Probability and Gaussians*.
    """
    width = _interval_width(a, b)
    n_arr = np.asarray(n)
    if n_arr.dtype == bool or not np.issubdtype(n_arr.dtype, np.integer):
        raise TypeError(f"n must be an integer (or an array of integers), got {n_arr.dtype}")
    if np.any(n_arr < 1):
        raise ValueError(f"n must be >= 1, got {n_arr.min()}")
    t_arr = float_array(t, "t", "a number or an array of numbers")
    if not np.all(np.isfinite(t_arr)):
        raise ValueError("t contains NaN or infinity")
    if np.any(t_arr < 0):
        raise ValueError(f"t must be >= 0, got {t_arr.min()}")
    bound = 2.0 * np.exp(-2.0 * n_arr * t_arr**2 / width**2)
    return float(bound) if bound.ndim == 0 else bound


def hoeffding_sample_size(epsilon, delta, *, a=0.0, b=1.0):
    r"""Smallest :math:`n` with :math:`2\exp(-2n\epsilon^2/(b-a)^2) \le \delta`: enough independent
    samples with values in :math:`[a, b]` for Hoeffding's inequality to guarantee accuracy
    :math:`\epsilon` with probability :math:`1 - \delta`.

    Parameters
    ----------
    epsilon : float
        Accuracy, > 0.
    delta : float
        Failure probability, in (0, 1).
    a, b : float
        Range of the variables (default :math:`[0, 1]`).

    Returns
    -------
    n : int
        :math:`\lceil (b-a)^2 \ln(2/\delta) / (2\epsilon^2) \rceil`: with this many samples,
        :math:`|\bar X_n - \theta| < \epsilon` with probability at least :math:`1 - \delta`.

    Notes
    -----
    Derived in chapter 3, *Probability and Gaussians* (summary notes 002, Hoeffding's inequality).
    """
    width = _interval_width(a, b)
    epsilon = check_scalar(epsilon, "epsilon", low=0.0, include_low=False)
    delta = check_scalar(delta, "delta", min_val=0.0, max_val=1.0, include_boundaries="neither")
    return int(np.ceil(width**2 * np.log(2.0 / delta) / (2.0 * epsilon**2)))
