r"""Step-size schedules :math:`t \mapsto \eta_t` for :math:`t = 1, 2, \dots` (chapter 6, *Gradient methods*).

The Robbins-Monro conditions :math:`\sum_t \eta_t = \infty` and :math:`\sum_t \eta_t^2 < \infty` hold for
:func:`inverse_time` and fail for :func:`inverse_sqrt` (the second sum diverges), :func:`constant` (the
second sum diverges) and :func:`geometric` (the first sum converges: the iterates can stall).
"""

import numpy as np

from ..utils.validation import check_scalar


def constant(eta0):
    r""":math:`\eta_t = \eta_0`."""
    eta0 = check_scalar(eta0, "eta0", low=0, include_low=False)
    return lambda t: eta0


def inverse_time(eta0, t0=1.0):
    r""":math:`\eta_t = \eta_0\, t_0 / (t_0 + t - 1)`, which is :math:`\eta_0 / t` for :math:`t_0 = 1`: meets the
    Robbins-Monro conditions.

    ``t0`` keeps the step near :math:`\eta_0` for about the first ``t0`` steps before the :math:`1/t` decay
    sets in (for large :math:`t`, :math:`\eta_t \approx \eta_0 t_0 / t`): with :math:`\eta_0 \le 1/L` fixed
    by stability, a larger ``t0`` is how the constant in front of :math:`1/t` is made large enough.
    """
    eta0 = check_scalar(eta0, "eta0", low=0, include_low=False)
    t0 = check_scalar(t0, "t0", low=0, include_low=False)
    return lambda t: eta0 * t0 / (t0 + t - 1)


def inverse_sqrt(eta0, t0=1.0):
    r""":math:`\eta_t = \eta_0 \sqrt{t_0 / (t_0 + t - 1)}`, which is :math:`\eta_0 / \sqrt t` for :math:`t_0 = 1`:
    :math:`\sum_t \eta_t^2 = \infty`, so it fails Robbins-Monro."""
    eta0 = check_scalar(eta0, "eta0", low=0, include_low=False)
    t0 = check_scalar(t0, "t0", low=0, include_low=False)
    return lambda t: eta0 * np.sqrt(t0 / (t0 + t - 1))


def geometric(eta0, rate=0.5):
    r""":math:`\eta_t = \eta_0\, r^t` with :math:`0 < r < 1`: :math:`\eta_t \to 0` but :math:`\sum_t \eta_t < \infty`.

    After :math:`r^t` underflows (for :math:`r = 1/2`, from :math:`t = 1075`) the step is the smallest positive
    float instead of 0, so that it remains a valid (positive) step size.
    """
    eta0 = check_scalar(eta0, "eta0", low=0, include_low=False)
    # rate 1 would not decay: that is constant()
    rate = check_scalar(rate, "rate", min_val=0, max_val=1, include_boundaries="neither")
    return lambda t: max(eta0 * rate**t, np.finfo(float).tiny)


def as_schedule(step_size):
    """A schedule from a float (constant) or a callable ``t -> eta_t`` (returned as is)."""
    if callable(step_size):
        return step_size
    return constant(step_size)


def checked_step(schedule, t):
    """``schedule(t)``, checked to be a finite positive number."""
    eta = schedule(t)
    if not np.isscalar(eta) or not np.isfinite(eta) or eta <= 0:
        raise ValueError(f"the step-size schedule must return a positive finite number, got {eta!r} at t = {t}")
    return float(eta)
