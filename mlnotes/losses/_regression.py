r"""Distance-based regression losses :math:`\ell(y, \hat y) = \psi(r)` of the residual :math:`r = y - \hat y`.

Each loss comes with its derivative :math:`\psi'(r)` (a subgradient where :math:`\psi` has a kink). The
derivative with respect to the prediction is :math:`\partial \ell / \partial \hat y = -\psi'(r)`.
Derived and plotted in chapter 5, *Loss functions*.
"""

import numpy as np

from ..utils.validation import as_finite_array, check_scalar


def square(r):
    r"""Square loss :math:`\psi(r) = r^2`.

    Parameters
    ----------
    r : float or array of any shape
        Residuals :math:`y - \hat y`.

    Returns
    -------
    loss : array of the shape of ``r``
    """
    r = as_finite_array(r, "r")
    return r**2


def square_grad(r):
    r"""Derivative :math:`\psi'(r) = 2r` of the square loss; same shape as ``r``."""
    r = as_finite_array(r, "r")
    return 2.0 * r


def absolute(r):
    r"""Absolute loss :math:`\psi(r) = |r|`; same shape as ``r``."""
    r = as_finite_array(r, "r")
    return np.abs(r)


def absolute_grad(r):
    r"""A subgradient of the absolute loss: :math:`\operatorname{sign}(r)`, taking 0 at :math:`r = 0`.

    Notes
    -----
    The subdifferential at 0 is :math:`[-1, 1]`; 0 is the element of smallest norm, which makes
    :math:`r = 0` recognisable as a minimiser.
    """
    r = as_finite_array(r, "r")
    return np.sign(r)


def huber(r, delta=1.0):
    r"""Huber loss: :math:`\tfrac12 r^2` for :math:`|r| \le \delta`, else :math:`\delta(|r| - \tfrac12\delta)`.

    Parameters
    ----------
    r : float or array of any shape
        Residuals.
    delta : float > 0, default 1
        Where the quadratic piece turns linear.

    Returns
    -------
    loss : array of the shape of ``r``

    Notes
    -----
    Quadratic near 0 (like the square loss, scaled by 1/2) and linear in the tails (like the absolute
    loss, scaled by delta), so a large residual pulls on the fit with a bounded force. The two pieces
    meet with equal value :math:`\delta^2/2` and equal slope :math:`\delta` at :math:`|r| = \delta`.
    """
    r = as_finite_array(r, "r")
    delta = check_scalar(delta, "delta", low=0, include_low=False)
    a = np.abs(r)
    return np.where(a <= delta, 0.5 * r**2, delta * (a - 0.5 * delta))


def huber_grad(r, delta=1.0):
    r"""Derivative of the Huber loss: :math:`r` clipped to :math:`[-\delta, \delta]`; same shape as ``r``."""
    r = as_finite_array(r, "r")
    delta = check_scalar(delta, "delta", low=0, include_low=False)
    return np.clip(r, -delta, delta)
