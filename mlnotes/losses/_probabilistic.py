r"""Likelihood-based classification losses: binary and multiclass cross-entropy from scores (logits).

Working from scores rather than probabilities keeps the losses finite and exact for any score:
:math:`\log \sigma(z)` and :math:`\log \operatorname{softmax}(z)` are evaluated without forming the
probabilities first. Derived in chapter 5, *Loss functions*, and used by logistic and softmax regression
(chapter 12).
"""

import numpy as np
from scipy.special import expit, log_softmax, softmax

from ..utils.validation import as_finite_array, as_float_matrix


def _binary_targets(y, z):
    y = as_finite_array(y, "y")
    z = as_finite_array(z, "z")
    if y.shape != z.shape:
        raise ValueError(f"y and z must have the same shape, got {y.shape} and {z.shape}")
    if ((y < 0) | (y > 1)).any():
        raise ValueError("targets y must lie in [0, 1] (labels 0/1 or probabilities) for cross-entropy")
    return y, z


def binary_cross_entropy(y, z):
    r"""Binary cross-entropy of targets ``y`` against the scores ``z`` of :math:`p = \sigma(z)`.

    Parameters
    ----------
    y : float or array of any shape
        Targets in [0, 1] (0/1 labels, or probabilities).
    z : float or array of the same shape
        Scores (logits); the predicted probability of class 1 is :math:`\sigma(z)`.

    Returns
    -------
    loss : array of the shape of ``y``

    Notes
    -----
    .. math:: -y\log\sigma(z) - (1 - y)\log(1 - \sigma(z)) = \log(1 + e^{z}) - y z,

    evaluated as ``logaddexp(0, z) - y * z``, finite for every finite score.
    """
    return _binary_cross_entropy(*_binary_targets(y, z))


def _binary_cross_entropy(y, z):
    """:func:`binary_cross_entropy` without the checks (for callers that validated ``y`` and ``z``)."""
    return np.logaddexp(0.0, z) - y * z


def binary_cross_entropy_grad(y, z):
    r"""Derivative with respect to the score: :math:`\sigma(z) - y`; same shape as ``y``."""
    return _binary_cross_entropy_grad(*_binary_targets(y, z))


def _binary_cross_entropy_grad(y, z):
    """:func:`binary_cross_entropy_grad` without the checks."""
    return expit(z) - y


def _multiclass_targets(Y, Z):
    Y = as_float_matrix(Y, "Y")
    Z = as_float_matrix(Z, "Z")
    if Y.shape != Z.shape:
        raise ValueError(f"Y and Z must have the same shape (n_samples, n_classes), got {Y.shape} and {Z.shape}")
    if (Y < 0).any() or not np.allclose(Y.sum(axis=1), 1.0):
        raise ValueError("each row of Y must be a probability vector (one-hot labels or class probabilities)")
    return Y, Z


def softmax_cross_entropy(Y, Z):
    r"""Multiclass cross-entropy of targets ``Y`` against the scores ``Z`` of :math:`P = \operatorname{softmax}(Z)`.

    Parameters
    ----------
    Y : array of shape (n_samples, n_classes)
        One-hot labels or class probabilities (rows sum to 1).
    Z : array of shape (n_samples, n_classes)
        Scores (logits), one per class.

    Returns
    -------
    loss : array of shape (n_samples,)

    Notes
    -----
    .. math:: -\sum_k Y_{ik} \log \operatorname{softmax}(Z_i)_k
              = \log\sum_k e^{Z_{ik}} - \sum_k Y_{ik} Z_{ik},

    evaluated with ``log_softmax`` (log-sum-exp), finite for every finite score.
    """
    Y, Z = _multiclass_targets(Y, Z)
    with np.errstate(over="ignore", under="ignore"):   # Z - max(Z) is -inf for scores 1e308 apart: p = 0
        log_P = log_softmax(Z, axis=1)
    # only the classes with Y > 0 contribute (0 * log 0 = 0, where 0 * -inf would be NaN)
    return -np.multiply(Y, log_P, out=np.zeros_like(log_P), where=Y > 0).sum(axis=1)


def softmax_cross_entropy_grad(Y, Z):
    r"""Gradient with respect to the scores: :math:`\operatorname{softmax}(Z) - Y`, shape (n_samples, n_classes)."""
    Y, Z = _multiclass_targets(Y, Z)
    with np.errstate(over="ignore", under="ignore"):
        return softmax(Z, axis=1) - Y
