r"""First-order optimisers with one interface: ``x_new = optimizer.step(x, g)`` (chapter 6).

``x`` is one parameter array (any shape) or a list of them (the weight matrices and bias vectors of a
network): ``step([W, b], [gW, gb])`` returns the list of updated arrays, with a separate state for each.
Each keeps its own state (velocity, accumulated squares, moment estimates) between calls, and names it as
the chapter does. :func:`run` drives any of them on a deterministic gradient; :func:`mlnotes.optim.sgd`
drives them on minibatch gradients. Nesterov's method evaluates the gradient at a look-ahead point, which
every optimiser exposes through :meth:`Optimizer.lookahead` (the point itself for the others).
"""

import numpy as np

from ..utils.validation import check_scalar
from ._result import History
from ._validation import as_start_point, check_iterations, checked_gradient, checked_value


class Optimizer:
    """Base class: ``step(x, g)`` returns the next iterate; ``reset()`` forgets the state.

    Parameters
    ----------
    learning_rate : float > 0
        The step size :math:`\\eta`.

    Notes
    -----
    A subclass names its state arrays in ``_state`` (each starts at 0) and implements ``_update(x, g)`` for
    one array; :meth:`step` applies it to each array of a list with that array's own state (then each
    state attribute is a list, one entry per array).
    """

    _state = ()

    def __init__(self, learning_rate):
        self.learning_rate = check_scalar(learning_rate, "learning_rate", min_val=0, include_boundaries="neither")
        self.reset()

    def reset(self):
        """Forget the state; the next :meth:`step` is the first."""
        self.t = 0
        for name in self._state:
            setattr(self, name, 0.0)

    def lookahead(self, x):
        """The point at which the next gradient is to be evaluated (``x`` except for Nesterov)."""
        return x

    def step(self, x, g):
        """One update.

        Parameters
        ----------
        x : array of any shape, or list of arrays
            The parameters.
        g : array or list of arrays
            The gradient, of the shape (or the list of shapes) of ``x``.

        Returns
        -------
        array, or list of arrays
            The new parameters (the inputs are not modified).
        """
        if isinstance(x, (list, tuple)):
            return self._step_list(x, g)
        x, g = _as_pair(x, g, "x", "g")
        self.t += 1
        return self._update(x, g)

    def _step_list(self, xs, gs):
        if not isinstance(gs, (list, tuple)) or len(gs) != len(xs):
            raise ValueError(f"x is a list of {len(xs)} parameter arrays, so g must be a list of as many gradients, "
                             f"got {type(gs).__name__}{f' of length {len(gs)}' if isinstance(gs, (list, tuple)) else ''}")
        pairs = [_as_pair(x, g, f"x[{i}]", f"g[{i}]") for i, (x, g) in enumerate(zip(xs, gs))]
        states = {name: _per_array(getattr(self, name), len(xs), name) for name in self._state}
        self.t += 1
        new = []
        for i, (x, g) in enumerate(pairs):
            for name in self._state:
                setattr(self, name, states[name][i])
            new.append(self._update(x, g))
            for name in self._state:
                states[name][i] = getattr(self, name)
        for name in self._state:
            setattr(self, name, states[name])
        return new

    def _update(self, x, g):
        raise NotImplementedError

    def __repr__(self):
        params = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._params)
        return f"{type(self).__name__}({params})"

    _params = ("learning_rate",)


def _as_pair(x, g, x_name, g_name):
    """``x`` and ``g`` as float arrays of the same shape."""
    x, g = np.asarray(x, dtype=float), np.asarray(g, dtype=float)
    if x.shape != g.shape:
        raise ValueError(f"{g_name} must have the shape of {x_name}, {x.shape}, got {g.shape}")
    return x, g


def _per_array(state, n, name):
    """The state ``name`` as a list of one entry per parameter array (0.0 before the first step)."""
    if not isinstance(state, list):
        return [state] * n
    if len(state) != n:
        raise ValueError(f"the optimizer's state {name!r} is for {len(state)} parameter arrays, got {n}: call reset() "
                         "before optimising other parameters")
    return list(state)


class GradientStep(Optimizer):
    r"""Plain gradient step :math:`x \leftarrow x - \eta g`."""

    def _update(self, x, g):
        return x - self.learning_rate * g


class Momentum(Optimizer):
    r"""Heavy-ball momentum: :math:`v \leftarrow \mu v - \eta g`, :math:`x \leftarrow x + v`.

    With a constant gradient the velocity tends to :math:`-\eta g / (1 - \mu)`: momentum multiplies the
    effective step by :math:`1/(1-\mu)` along consistent directions and damps oscillating ones.
    """

    _params = ("learning_rate", "momentum")
    _state = ("v",)

    def __init__(self, learning_rate, momentum=0.9):
        # momentum 1 would never forget a gradient
        self.momentum = check_scalar(momentum, "momentum", min_val=0, max_val=1, include_boundaries="left")
        super().__init__(learning_rate)

    def _update(self, x, g):
        self.v = self.momentum * self.v - self.learning_rate * g
        return x + self.v


class Nesterov(Momentum):
    r"""Nesterov's accelerated gradient: the momentum update with the gradient taken at the look-ahead
    point :math:`x + \mu v`: :math:`v \leftarrow \mu v - \eta \nabla f(x + \mu v)`, :math:`x \leftarrow x + v`."""

    def lookahead(self, x):
        if isinstance(x, (list, tuple)):
            return [np.asarray(x_i, dtype=float) + self.momentum * v_i
                    for x_i, v_i in zip(x, _per_array(self.v, len(x), "v"))]
        return x + self.momentum * self.v


class AdaGrad(Optimizer):
    r"""AdaGrad: :math:`G \leftarrow G + g \odot g`, :math:`x \leftarrow x - \eta\, g / (\sqrt G + \epsilon)`.

    Every coordinate gets its own step :math:`\eta/\sqrt{G_j}`; since :math:`G` only grows, the effective
    step shrinks like :math:`1/\sqrt t` when gradients keep their size.
    """

    _params = ("learning_rate", "eps")
    _state = ("G",)

    def __init__(self, learning_rate, eps=1e-8):
        self.eps = check_scalar(eps, "eps", low=0, include_low=False)
        super().__init__(learning_rate)

    def _update(self, x, g):
        self.G = self.G + g * g
        return x - self.learning_rate * g / (np.sqrt(self.G) + self.eps)


class RMSProp(Optimizer):
    r"""RMSProp: :math:`s \leftarrow \rho s + (1 - \rho) g \odot g`, :math:`x \leftarrow x - \eta\, g / (\sqrt s + \epsilon)`.

    A moving average replaces AdaGrad's sum, so the effective step no longer decays to zero.
    """

    _params = ("learning_rate", "rho", "eps")
    _state = ("s",)

    def __init__(self, learning_rate, rho=0.9, eps=1e-8):
        self.rho = check_scalar(rho, "rho", low=0, high=1, include_low=False)
        self.eps = check_scalar(eps, "eps", low=0, include_low=False)
        super().__init__(learning_rate)

    def _update(self, x, g):
        self.s = self.rho * self.s + (1 - self.rho) * g * g
        return x - self.learning_rate * g / (np.sqrt(self.s) + self.eps)


class Adam(Optimizer):
    r"""Adam: moving averages of the gradient and its square, with bias correction.

    .. math::
        m \leftarrow \beta_1 m + (1 - \beta_1) g, \quad v \leftarrow \beta_2 v + (1 - \beta_2) g \odot g, \quad
        \hat m = \frac{m}{1 - \beta_1^t}, \quad \hat v = \frac{v}{1 - \beta_2^t}, \quad
        x \leftarrow x - \eta\, \frac{\hat m}{\sqrt{\hat v} + \epsilon}.

    The bias correction undoes the zero initialisation of :math:`m` and :math:`v`. Unrolled,
    :math:`m_t = (1-\beta_1)\sum_{\tau=1}^t \beta_1^{t-\tau} g_\tau` has weights summing to :math:`1 - \beta_1^t`, so
    :math:`\hat m_t` is a weighted average of the gradients (weights summing to one), and likewise
    :math:`\hat v_t` of their squares; with a constant gradient :math:`\hat m_t = g` and :math:`\hat v_t = g^2`
    at every step (derived in chapter 6, *Gradient methods*). Without the correction the first step would
    be :math:`(1-\beta_1)/\sqrt{1-\beta_2} \approx 3.16` times too long with the default betas.
    """

    _params = ("learning_rate", "beta1", "beta2", "eps")
    _state = ("m", "v")

    def __init__(self, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8):
        # beta < 1: the bias correction divides by 1 - beta^t
        self.beta1 = check_scalar(beta1, "beta1", min_val=0, max_val=1, include_boundaries="left")
        self.beta2 = check_scalar(beta2, "beta2", min_val=0, max_val=1, include_boundaries="left")
        self.eps = check_scalar(eps, "eps", low=0, include_low=False)
        super().__init__(learning_rate)

    def _update(self, x, g):
        self.m = self.beta1 * self.m + (1 - self.beta1) * g
        self.v = self.beta2 * self.v + (1 - self.beta2) * g * g
        m_hat = self.m / (1 - self.beta1**self.t)
        v_hat = self.v / (1 - self.beta2**self.t)
        return x - self.learning_rate * m_hat / (np.sqrt(v_hat) + self.eps)


def run(optimizer, grad, x0, *, f=None, n_iter=100, tol=0.0):
    """Run ``optimizer`` from ``x0`` on a deterministic gradient for ``n_iter`` steps.

    Parameters
    ----------
    optimizer : Optimizer
        Reset before the run.
    grad : callable, array of shape (d,) -> array of shape (d,)
    x0 : array of shape (d,)
    f : callable, optional
        The objective, recorded in the history.
    n_iter : int, default 100
    tol : float >= 0, default 0
        Stop early once the gradient norm at the iterate is at most ``tol``.

    Returns
    -------
    OptimizeResult
        ``converged`` says whether ``tol`` was reached (no warning: a fixed budget is the usual way to
        compare optimisers).
    """
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"optimizer must be an mlnotes.optim.Optimizer, got {type(optimizer).__name__}")
    x = as_start_point(x0)
    n_iter, tol = check_iterations(n_iter, tol)
    value = (lambda z: checked_value(f, z)) if f is not None else (lambda z: np.nan)
    optimizer.reset()
    g = checked_gradient(grad, x)
    history = History(x, value(x), np.linalg.norm(g))
    for _ in range(n_iter):
        if np.linalg.norm(g) <= tol:
            return history.result(True, f"gradient norm <= tol = {tol:g}")
        point = optimizer.lookahead(x)
        x = optimizer.step(x, g if point is x else checked_gradient(grad, point, allow_overflow=True))
        if not np.isfinite(x).all():
            return history.result(False, f"diverged: {optimizer!r} produced a non-finite iterate", warn=False)
        g = checked_gradient(grad, x, allow_overflow=True)
        history.append(x, value(x), np.linalg.norm(g), optimizer.learning_rate)
    converged = history.grad_norms[-1] <= tol
    return history.result(converged, f"ran {n_iter} steps", warn=False)
