r"""Forward stagewise additive modelling (chapter 21, *Boosting*), with any base learner and any loss.

FSAM builds :math:`f_M = \sum_{m=1}^M v_m h_m` greedily: starting from :math:`f_0 = 0`, round :math:`m` chooses the
new piece :math:`(v_m, h_m)` minimising :math:`\sum_i w_i\,\ell(y_i, f_{m-1}(x_i) + v\,h(x_i))` with the earlier
pieces held fixed, then sets :math:`f_m = f_{m-1} + v_m h_m`. The search over functions :math:`h` is the base
learner's job (``fit_base``, which sees the current scores and so can reweight or take residuals); the step
:math:`v` is then found by a one-dimensional minimisation of the loss along :math:`h`.
"""

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from ..losses import exponential, logistic, margin
from ..optim import minimize_scalar_bounded
from ..utils.validation import as_float_matrix, as_float_vector, check_sample_weight, check_scalar

__all__ = ["FSAMResult", "fsam", "exponential_loss", "squared_loss", "logistic_loss"]


def exponential_loss(y, f):
    r""":math:`e^{-yf}`, labels :math:`y \in \{-1, +1\}` (any other label is refused): chapter 5's margin loss
    :func:`mlnotes.losses.exponential` of the margins :math:`yf`."""
    return exponential(margin(y, f))


def squared_loss(y, f):
    r""":math:`(y - f)^2`."""
    return (y - f)**2


def logistic_loss(y, f):
    r""":math:`\log(1 + e^{-yf})`, labels :math:`y \in \{-1, +1\}` (any other label is refused): chapter 5's
    margin loss :func:`mlnotes.losses.logistic` of the margins :math:`yf`."""
    return logistic(margin(y, f))


@dataclass
class FSAMResult:
    """The fitted additive model of :func:`fsam`.

    Attributes
    ----------
    pieces : list of callables
        :math:`h_m`, each mapping X (n, d) to values (n,).
    steps : ndarray of shape (n_rounds,)
        :math:`v_m`.
    scores : ndarray of shape (n_rounds + 1, n_samples)
        :math:`f_m(x_i)` on the training data, :math:`m = 0, \\dots, M`.
    losses : ndarray of shape (n_rounds + 1,)
        The weighted training loss :math:`\\sum_i w_i \\ell(y_i, f_m(x_i)) / \\sum_i w_i` after each round.
    """

    pieces: list
    steps: np.ndarray
    scores: np.ndarray
    losses: np.ndarray

    def decision_function(self, X, n_rounds=None):
        r""":math:`f_m(x) = \sum_{j \le m} v_j h_j(x)` for ``m = n_rounds`` (default all), shape (n_samples,)."""
        X = as_float_matrix(X)
        m = len(self.pieces) if n_rounds is None else n_rounds
        f = np.zeros(X.shape[0])
        for v, h in zip(self.steps[:m], self.pieces[:m]):
            f += v * np.asarray(h(X), dtype=float)
        return f


def fsam(X, y, fit_base, loss, n_rounds, *, sample_weight=None, step=None, step_bounds=(-50.0, 50.0)):
    r"""Forward stagewise additive modelling: :math:`f_m = f_{m-1} + v_m h_m`, :math:`f_0 = 0`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Targets in the loss's coding (:math:`\pm 1` for the exponential and logistic losses).
    fit_base : callable ``fit_base(X, y, f, sample_weight) -> h``
        Returns the new piece :math:`h`, a callable mapping an (n, d) array to (n,) values, chosen from the base
        class given the current scores ``f`` (shape (n_samples,)): e.g. a tree fitted to the residuals
        :math:`y - f` (squared loss) or a stump fitted with the weights :math:`w_i e^{-y_i f_i}` (exponential loss).
    loss : callable ``loss(y, f) -> (n,)``
        The pointwise loss :math:`\ell(y_i, f_i)`, vectorised.
    n_rounds : int >= 1
    sample_weight : array-like of shape (n_samples,), optional
        :math:`w_i` (default 1).
    step : float or None, default None
        None: :math:`v_m = \arg\min_v \sum_i w_i \ell(y_i, f_{m-1}(x_i) + v h_m(x_i))` by Brent's method on
        ``step_bounds`` (to about 1e-7: near a minimum the loss changes by the square of the error in
        :math:`v`, so function values resolve no more); a number: that fixed step for every round (e.g. :math:`1` for L2
        boosting, whose least-squares piece already carries its scale).
    step_bounds : (float, float)
        The interval of the line search.

    Returns
    -------
    FSAMResult

    Raises
    ------
    ValueError
        ``n_rounds < 1``, NaN or infinity, mismatched shapes, negative or all-zero weights, a loss that returns a
        wrong shape or non-finite values.
    TypeError
        ``fit_base`` or ``loss`` not callable.
    """
    X = as_float_matrix(X)
    y = as_float_vector(y, "y", X.shape[0])
    n_rounds = check_scalar(n_rounds, "n_rounds", Integral, min_val=1)
    w = check_sample_weight(sample_weight, X.shape[0])
    if not callable(fit_base) or not callable(loss):
        raise TypeError("fit_base and loss must be callables: fit_base(X, y, f, sample_weight) -> h and "
                        "loss(y, f) -> array of shape (n_samples,)")
    if step is not None:
        step = check_scalar(step, "step", Real)
    low, high = (check_scalar(b, "step_bounds", Real) for b in step_bounds)
    if not low < high:
        raise ValueError(f"step_bounds must be an interval (low < high), got {step_bounds}")

    def risk(f):
        values = np.asarray(loss(y, f), dtype=float)
        if values.shape != y.shape or not np.isfinite(values).all():
            raise ValueError(f"loss(y, f) must return finite values of shape {y.shape}, got shape {values.shape}")
        return np.average(values, weights=w)

    f = np.zeros(len(y))
    pieces, steps, scores, losses = [], [], [f.copy()], [risk(f)]
    for _ in range(n_rounds):
        h = fit_base(X, y, f.copy(), w)
        h_values = np.asarray(h(X), dtype=float)
        if h_values.shape != y.shape:
            raise ValueError(f"the piece returned by fit_base must map X to shape {y.shape}, got {h_values.shape}")
        if step is None:
            v, _ = minimize_scalar_bounded(lambda v: risk(f + v * h_values), (low, high), xatol=1e-10)
        else:
            v = step
        f = f + v * h_values
        pieces.append(h)
        steps.append(v)
        scores.append(f.copy())
        losses.append(risk(f))
    return FSAMResult(pieces, np.array(steps), np.array(scores), np.array(losses))
