r"""Decision theory: the loss of an action, empirical risk, and Bayes actions.

An action :math:`a` is judged against an outcome :math:`y` by a loss :math:`\ell(a, y)`. The risk of a
decision function is its expected loss, :math:`R(f) = \mathbb E\,\ell(f(X), Y)`; the empirical risk is the
average loss on a sample. For a single input, the best action minimises the expected loss under the
conditional distribution of :math:`Y`; this *Bayes action* is the mean for the square loss, a median for
the absolute loss and a mode for the 0-1 loss. Derived in chapter 4, *Statistical learning theory*.
"""

import numpy as np

from .. import losses
from ..optim import minimize_scalar_bounded
from ..utils.validation import as_finite_array, as_float_vector

__all__ = ["LOSSES", "empirical_risk", "expected_loss", "bayes_action"]


#: The pointwise losses :math:`\ell(a, y)` known by name: ``"square"`` :math:`(a - y)^2`,
#: ``"absolute"`` :math:`|a - y|` and ``"zero_one"`` :math:`\mathbb 1[a \ne y]` (for class labels).
#: Each takes broadcastable arrays of actions and outcomes.
#: They are entries of the library's one loss registry, :data:`mlnotes.losses.LOSSES`.
LOSSES = {name: losses.LOSSES[name] for name in ("square", "absolute", "zero_one")}


def _resolve(loss):
    """The loss as a function ``(a, y) -> array``, from a name in :data:`LOSSES` or a callable."""
    if isinstance(loss, str):
        if loss not in LOSSES:
            raise ValueError(f"unknown loss {loss!r}; expected one of {sorted(LOSSES)} or a callable loss(a, y)")
        return LOSSES[loss]
    if not callable(loss):
        raise TypeError(f"loss must be a name in {sorted(LOSSES)} or a callable loss(a, y), "
                        f"got {type(loss).__name__}")
    return loss


def _evaluate(loss, a, y):
    """``loss(a, y)`` with a check that it returns finite values of the broadcast shape."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(y))
    value = np.asarray(loss(a, y), dtype=float)
    if value.shape != shape:
        raise ValueError(f"loss(a, y) must return an array of the broadcast shape {shape}, got {value.shape}")
    if not np.isfinite(value).all():
        raise ValueError("loss(a, y) returned NaN or infinity")
    return value


def empirical_risk(loss, y, y_pred):
    r"""The empirical risk :math:`\hat R_n(f) = \frac1n \sum_{i=1}^n \ell(f(x_i), y_i)`, the average loss.

    Parameters
    ----------
    loss : {"square", "absolute", "zero_one"} or callable
        A name in :data:`LOSSES`, or a vectorised function ``loss(a, y)`` of actions and outcomes.
    y : array of shape (n_samples,)
        Observed outcomes :math:`y_i`.
    y_pred : array of shape (n_samples,)
        Actions taken, :math:`f(x_i)`.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``y`` and ``y_pred`` differ in length, are empty or contain NaN or infinity, or if the loss
        returns a wrong shape or a non-finite value.

    Notes
    -----
    For a fixed :math:`f`, the losses :math:`\ell(f(x_i), y_i)` are i.i.d., so by the strong law of large
    numbers :math:`\hat R_n(f) \to R(f)` almost surely (chapter 4, *Statistical learning theory*). This
    does not hold for an :math:`f` chosen by looking at the same sample.
    """
    fn = _resolve(loss)
    y = as_float_vector(y, "y")
    y_pred = as_float_vector(y_pred, "y_pred")
    if y_pred.shape != y.shape:
        raise ValueError(f"y_pred has {y_pred.shape[0]} entries but y has {y.shape[0]}")
    return float(np.mean(_evaluate(fn, y_pred, y)))


def _check_distribution(values, probs):
    values = as_float_vector(values, "values")
    dtype = np.asarray(probs).dtype
    eps = np.finfo(dtype if np.issubdtype(dtype, np.floating) else float).eps
    probs = as_float_vector(probs, "probs")
    if probs.shape != values.shape:
        raise ValueError(f"probs has {probs.shape[0]} entries but values has {values.shape[0]}")
    if (probs < 0).any():
        raise ValueError("probs must be non-negative")
    # they sum to 1 up to the rounding of their own precision (float32 probabilities only to ~1e-7)
    if abs(probs.sum() - 1.0) > max(1e-9, 4 * probs.size * eps):
        raise ValueError(f"probs must sum to 1, they sum to {probs.sum():.12g}")
    return values, probs


def expected_loss(actions, values, probs, loss):
    r"""The expected loss :math:`\mathbb E\,\ell(a, Y) = \sum_j p_j\,\ell(a, y_j)` of each action.

    Parameters
    ----------
    actions : float or array of shape (n_actions,)
        Candidate actions :math:`a`.
    values : array of shape (n_values,)
        The values :math:`y_j` that the outcome :math:`Y` takes.
    probs : array of shape (n_values,)
        Their probabilities :math:`p_j` (non-negative, summing to 1).
    loss : {"square", "absolute", "zero_one"} or callable
        As in :func:`empirical_risk`.

    Returns
    -------
    float or array of shape (n_actions,)
        A float for a scalar action.
    """
    fn = _resolve(loss)
    values, probs = _check_distribution(values, probs)
    a = as_finite_array(actions, "actions")
    if a.ndim > 1:
        raise ValueError(f"actions must be a number or a 1-D array, got shape {a.shape}")
    risk = _evaluate(fn, a.reshape(-1, 1), values[None, :]) @ probs
    return float(risk[0]) if a.ndim == 0 else risk


def bayes_action(values, probs, loss):
    r"""The Bayes action :math:`a^* = \arg\min_a \mathbb E\,\ell(a, Y)` for a discrete outcome :math:`Y`.

    The expected loss is minimised numerically, for any loss: first over the support of :math:`Y`
    (where the absolute and 0-1 losses attain their minimum), then by a bounded scalar minimisation over
    the interval between the smallest and the largest value (where the square loss attains it). No closed
    form is used; the chapter checks the closed forms against this function.

    Parameters
    ----------
    values : array of shape (n_values,)
        Values :math:`y_j` of the outcome; repeated values have their probabilities added.
    probs : array of shape (n_values,)
        Their probabilities (non-negative, summing to 1).
    loss : {"square", "absolute", "zero_one"} or callable
        As in :func:`empirical_risk`. A callable loss must attain its minimum in
        :math:`[\min_j y_j, \max_j y_j]`, as every loss that grows with :math:`|a - y|` does.

    Returns
    -------
    float
        The Bayes action. If the minimiser is not unique: when the minimisers form an interval (the
        absolute loss with exactly half the mass on either side), its midpoint, which is numpy's
        convention for the median of an even-sized sample; when they are isolated points (tied modes
        under the 0-1 loss), the smallest of them, which is ``values[np.argmax(probs)]`` for sorted values.

    Raises
    ------
    ValueError
        For values or probabilities that are not finite 1-D arrays of the same length, negative
        probabilities, or probabilities that do not sum to 1.

    Notes
    -----
    Derived in chapter 4, *Statistical learning theory*: the Bayes action is the mean
    :math:`\mathbb E Y` for :math:`(a - y)^2`, any median (a point with :math:`P(Y < a) \le \tfrac12 \le
    P(Y \le a)`) for :math:`|a - y|`, and any mode :math:`\arg\max_j p_j` for :math:`\mathbb 1[a \ne y]`.
    Minima at support points are found exactly; a smooth minimum between them (the mean) to about
    :math:`10^{-8}` relative accuracy, the resolution of a minimiser from function values (a mean within
    :math:`10^{-9}` of a support point is returned as that point). Expected losses
    that agree to a relative :math:`10^{-11}` count as tied.
    """
    fn = _resolve(loss)
    values, probs = _check_distribution(values, probs)
    support, inverse = np.unique(values, return_inverse=True)
    mass = np.bincount(inverse, weights=probs)
    support, mass = support[mass > 0], mass[mass > 0]

    def risk(a):
        return _evaluate(fn, np.reshape(a, (-1, 1)), support[None, :]) @ mass

    on_support = risk(support)
    best = on_support.min()
    tol = 1e-11 * max(1.0, abs(best))
    tied = support[on_support <= best + tol]
    action = tied[0]
    if tied.size > 1 and (risk((tied[:-1] + tied[1:]) / 2) <= best + tol).all():
        action = (tied[0] + tied[-1]) / 2          # an interval of minimisers: its midpoint
    if support.size > 1:
        span = support[-1] - support[0]
        inner_x, inner_fun = minimize_scalar_bounded(lambda a: risk(a)[0], (support[0], support[-1]),
                                                     xatol=1e-12 * max(1.0, span))
        # a minimiser between support points (the mean) counts unless it falls on the tied ones
        near = 1e-9 * max(1.0, span)
        if inner_fun <= best and not tied[0] - near <= inner_x <= tied[-1] + near:
            action = inner_x
    return float(action)
