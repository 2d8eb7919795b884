r"""Minibatch stochastic gradient descent and subgradient descent (chapters 6 and 8).

SGD replaces the full gradient :math:`\frac1n\sum_i \nabla \ell_i(w)` by the average over a random
minibatch :math:`B`, an unbiased estimate of it; subgradient descent replaces the gradient of a
non-differentiable convex function by any subgradient and returns the best iterate seen, because a
subgradient step can increase the objective.
"""

import numbers

import numpy as np

from ..utils.validation import check_scalar
from ._optimizers import GradientStep, Optimizer
from ._result import History
from ._schedules import as_schedule, checked_step
from ._validation import as_start_point, check_iterations, checked_gradient, checked_value


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


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
                g = checked_gradient(lambda z: grad_batch(z, idx), x)
                x = x - eta * g
            else:
                eta = optimizer.learning_rate
                g = checked_gradient(lambda z: grad_batch(z, idx), optimizer.lookahead(x))
                x = optimizer.step(x, g)
            if not np.isfinite(x).all():
                return history.result(False, f"diverged at step {t} with step size {eta:g}", warn=False)
            history.append(x, value(x), np.linalg.norm(g), eta)
    return history.result(False, f"ran {n_epochs} epochs ({t} steps)", warn=False)


def subgradient_descent(f, subgrad, x0, *, step_size, max_iter=1000):
    r"""Subgradient descent :math:`x_{k+1} = x_k - \eta_k g_k`, :math:`g_k \in \partial f(x_k)`, returning the best iterate.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float
        Convex objective (needed: the method returns the best iterate).
    subgrad : callable, array of shape (d,) -> array of shape (d,)
        Returns one subgradient of ``f`` at the point.
    x0 : array of shape (d,)
    step_size : float or callable ``t -> eta_t``
        A constant (converges only to a neighbourhood of the minimum, of size proportional to the step)
        or a schedule such as ``inverse_time`` or ``inverse_sqrt`` (:math:`\sum \eta_t = \infty`,
        :math:`\eta_t \to 0`: the best value converges to the minimum).
    max_iter : int, default 1000

    Returns
    -------
    OptimizeResult
        ``x`` and ``fun`` are the best iterate and its value; ``path`` and ``values`` hold every iterate,
        so a plot shows that the objective is not monotone. ``converged`` is True only if a zero
        subgradient was found (then ``0 \in \partial f(x)`` proves ``x`` optimal); otherwise the method ran
        its ``max_iter`` steps, which is how subgradient descent is normally stopped, and no warning is given.
    """
    x = as_start_point(x0)
    max_iter, _ = check_iterations(max_iter, 0.0)
    schedule = as_schedule(step_size)
    fx = checked_value(f, x)
    g = checked_gradient(subgrad, x)
    history = History(x, fx, np.linalg.norm(g))
    best_x, best_f = x, fx
    for t in range(1, max_iter + 1):
        if not g.any():
            return history.result(True, "a zero subgradient: the point is a minimiser", x=best_x, fun=best_f)
        eta = checked_step(schedule, t)
        x = x - eta * g
        fx = checked_value(f, x)
        if not (np.isfinite(x).all() and np.isfinite(fx)):
            return history.result(False, f"diverged at step {t} with step size {eta:g}", x=best_x, fun=best_f,
                                  warn=False)
        g = checked_gradient(subgrad, x)
        history.append(x, fx, np.linalg.norm(g), eta)
        if fx < best_f:
            best_x, best_f = x, fx
    return history.result(False, f"ran max_iter = {max_iter} steps; returned the best iterate", x=best_x,
                          fun=best_f, warn=False)
