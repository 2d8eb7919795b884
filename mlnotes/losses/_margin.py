r"""Margin-based classification losses :math:`\ell(y, f(x)) = \phi(m)` of the margin :math:`m = y f(x)`.

Labels are :math:`y \in \{-1, +1\}` and :math:`f(x)` is a real score; the prediction is
:math:`\operatorname{sign} f(x)`, so :math:`m > 0` means a correct prediction. Each loss comes with its
derivative :math:`\phi'(m)` (a subgradient at a kink); by the chain rule
:math:`\partial \ell / \partial f = y\,\phi'(m)`. Derived and plotted in chapter 5, *Loss functions*.
"""

import numpy as np
from scipy.special import expit

from ..utils.validation import as_finite_array


def margin(y, f):
    r"""The margins :math:`m_i = y_i f(x_i)`.

    Parameters
    ----------
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    f : array of shape (n_samples,)
        Real scores.

    Returns
    -------
    m : array of shape (n_samples,)
    """
    y = as_finite_array(y, "y")
    f = as_finite_array(f, "f")
    if y.shape != f.shape:
        raise ValueError(f"y and f must have the same shape, got {y.shape} and {f.shape}")
    if not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError(f"labels y must be -1 or +1 for a margin loss, got values {np.unique(y)[:5]}")
    return y * f


def zero_one(m):
    r"""0-1 loss :math:`\mathbb 1[m \le 0]`: a tie (score 0) counts as an error.

    Parameters
    ----------
    m : float or array of any shape
        Margins.

    Returns
    -------
    loss : array of the shape of ``m``, entries 0.0 or 1.0
    """
    m = as_finite_array(m, "m")
    return (m <= 0).astype(float)


def zero_one_grad(m):
    r"""Derivative of the 0-1 loss where it exists: 0 everywhere except at the jump :math:`m = 0`.

    Returned as zeros (also at :math:`m = 0`, where no derivative exists): this is why the 0-1 loss
    cannot be minimised by gradient methods.
    """
    m = as_finite_array(m, "m")
    return np.zeros_like(m)


def hinge(m):
    r"""Hinge loss :math:`\max(0, 1 - m)`; same shape as ``m``."""
    m = as_finite_array(m, "m")
    return np.maximum(0.0, 1.0 - m)


def hinge_grad(m):
    r"""A subgradient of the hinge loss: :math:`-1` for :math:`m < 1`, else 0.

    Notes
    -----
    At the kink :math:`m = 1` the subdifferential is :math:`[-1, 0]`; 0 is chosen (a point with margin
    exactly 1 does not pull on the fit).
    """
    m = as_finite_array(m, "m")
    return np.where(m < 1, -1.0, 0.0)


def squared_hinge(m):
    r"""Squared hinge loss :math:`\max(0, 1 - m)^2`; same shape as ``m``."""
    m = as_finite_array(m, "m")
    return np.maximum(0.0, 1.0 - m) ** 2


def squared_hinge_grad(m):
    r"""Derivative :math:`-2\max(0, 1 - m)` of the squared hinge loss (it is differentiable)."""
    m = as_finite_array(m, "m")
    return -2.0 * np.maximum(0.0, 1.0 - m)


def logistic(m):
    r"""Logistic loss :math:`\log(1 + e^{-m})`, computed without overflow as ``logaddexp(0, -m)``.

    Notes
    -----
    Natural logarithm, so :math:`\phi(0) = \log 2 < 1`: it is an upper bound of the 0-1 loss only in
    base 2, :math:`\log_2(1 + e^{-m}) \ge \mathbb 1[m \le 0]`.
    """
    m = as_finite_array(m, "m")
    return np.logaddexp(0.0, -m)


def logistic_grad(m):
    r"""Derivative :math:`-1/(1 + e^{m}) = -\sigma(-m)` of the logistic loss (stable for any m)."""
    m = as_finite_array(m, "m")
    return -expit(-m)


def exponential(m):
    r"""Exponential loss :math:`e^{-m}` (the loss of AdaBoost).

    Returns ``inf`` for margins below about -709, where :math:`e^{-m}` exceeds the largest float.
    """
    m = as_finite_array(m, "m")
    with np.errstate(over="ignore"):
        return np.exp(-m)


def exponential_grad(m):
    r"""Derivative :math:`-e^{-m}` of the exponential loss (``-inf`` below about -709)."""
    return -exponential(m)


def square_margin(m):
    r"""Square loss written as a margin loss: :math:`(1 - m)^2`, equal to :math:`(y - f)^2` for :math:`y = \pm 1`."""
    m = as_finite_array(m, "m")
    return (1.0 - m) ** 2


def square_margin_grad(m):
    r"""Derivative :math:`-2(1 - m)` of the margin form of the square loss."""
    m = as_finite_array(m, "m")
    return -2.0 * (1.0 - m)
