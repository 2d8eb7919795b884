r"""Minibatch stochastic gradient descent (chapter 6, *Gradient methods*).

SGD replaces the full gradient :math:`\frac1n\sum_i \nabla \ell_i(w)` by the average over a random
minibatch :math:`B`, an unbiased estimate of it.
"""

import numbers

import numpy as np

from ..utils.validation import check_scalar

from ._optimizers import Optimizer
from ._result import History
from ._schedules import as_schedule, checked_step
from ._validation import as_start_point, checked_gradient, checked_value


def _positive_int(value, name):
    return check_scalar(value, name, numbers.Integral, min_val=1)


def minibatches(n_samples, batch_size, rng):
    """One epoch of minibatch indices: a random permutation of ``range(n_samples)`` cut into batches.

    Returns
    -------
    list of arrays of int
        Each of length ``batch_size`` (the last one may be shorter); together they cover every sample once.
    """
    order = rng.permutation(n_samples)
    return [order[i:i + batch_size] for i in range(0, n_samples, batch_size)]


def sgd(grad_batch, x0, n_samples, *, batch_size=32, step_size=0.01, optimizer=None, n_epochs=10, f=None,
        random_state=None):
    r"""Minibatch stochastic gradient descent with per-epoch shuffling.

    At step :math:`t` it draws the next minibatch :math:`B_t` and updates
    :math:`x_{t} = x_{t-1} - \eta_t\, g_{B_t}(x_{t-1})`, where :math:`g_B` is the average gradient over
    :math:`B` (or passes :math:`g_{B_t}` to ``optimizer.step``).

    Parameters
    ----------
    grad_batch : callable, (array of shape (d,), array of int) -> array of shape (d,)
        ``grad_batch(x, idx)`` is the average gradient of the losses of samples ``idx`` at ``x``.
    x0 : array of shape (d,)
    n_samples : int
    batch_size : int, default 32
        1 gives plain SGD; ``n_samples`` gives full-batch gradient descent.
    step_size : float or callable ``t -> eta_t``, default 0.01
        A constant or a schedule from :mod:`mlnotes.optim` (``inverse_time`` meets Robbins-Monro).
        Ignored when ``optimizer`` is given.
    optimizer : Optimizer, optional
        Use its update rule (momentum, Adam, ...) with the minibatch gradients.
    n_epochs : int, default 10
    f : callable, optional
        Full objective, recorded after every step (costly on large data: leave None there).
    random_state : int or None
        Seed of the shuffling.

    Returns
    -------
    OptimizeResult
        ``n_iter`` steps (``n_epochs * ceil(n_samples / batch_size)``); ``converged`` is False (SGD has
        no stopping rule of its own here), ``grad_norms`` are those of the minibatch gradients.
    """
    x = as_start_point(x0)
    n_samples = _positive_int(n_samples, "n_samples")
    batch_size = _positive_int(batch_size, "batch_size")
    n_epochs = _positive_int(n_epochs, "n_epochs")
    if batch_size > n_samples:
        raise ValueError(f"batch_size = {batch_size} exceeds n_samples = {n_samples}")
    if optimizer is not None and not isinstance(optimizer, Optimizer):
        raise TypeError(f"optimizer must be an mlnotes.optim.Optimizer, got {type(optimizer).__name__}")
    schedule = as_schedule(step_size)
    value = (lambda z: checked_value(f, z)) if f is not None else (lambda z: np.nan)
    rng = np.random.default_rng(random_state)
    if optimizer is not None:
        optimizer.reset()

    history = History(x, value(x))
    t = 0
    for _ in range(n_epochs):
        for idx in minibatches(n_samples, batch_size, rng):
            t += 1
            if optimizer is None:
                eta = checked_step(schedule, t)
                g = checked_gradient(lambda z: grad_batch(z, idx), x, allow_overflow=t > 1)
                x = x - eta * g
            else:
                eta = optimizer.learning_rate
                g = checked_gradient(lambda z: grad_batch(z, idx), optimizer.lookahead(x), allow_overflow=t > 1)
                x = optimizer.step(x, g)
            if not np.isfinite(x).all():
                return history.result(False, f"diverged at step {t} with step size {eta:g}", warn=False)
            history.append(x, value(x), np.linalg.norm(g), eta)
    return history.result(False, f"ran {n_epochs} epochs ({t} steps)", warn=False)
