"""Numerical derivatives by central differences, and a gradient checker (no sympy needed).

Derivation meets implementation for derivatives: a gradient derived by hand (or by sympy) is
compared with central differences of the function itself at a few points. A wrong sign, a
missing transpose or a dropped factor 2 gives a relative error of order one, far above the
error of the differences (about ``1e-10`` for well-scaled functions), so the check separates
right from wrong gradients by many orders of magnitude.

Layout (the book's convention, chapter 2, *Matrix calculus*): the gradient of a scalar function
has the shape of its variable; the Jacobian of ``f: R^n -> R^m`` is ``m x n`` (numerator layout),
so for a scalar ``f`` the gradient is the transpose of its ``1 x n`` Jacobian.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .validation import as_finite_array, check_scalar

__all__ = ["numerical_gradient", "numerical_jacobian", "check_gradient", "GradientCheck",
           "GradientCheckError", "optimal_step", "UNIT_ROUNDOFF"]

#: Unit roundoff of float64, ``2**-53``: the largest relative error of one rounding.
UNIT_ROUNDOFF = np.finfo(float).eps / 2


class GradientCheckError(AssertionError):
    """An analytic gradient disagrees with central differences (raised on request)."""


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------

def _as_point(x, name="x"):
    """``x`` as a finite, non-empty real float array of any shape (a copy)."""
    if np.iscomplexobj(x):
        raise TypeError(f"{name} must be real, got complex values")
    return np.array(as_finite_array(x, name), dtype=float)


def _check_callable(f, name):
    if not callable(f):
        raise TypeError(f"{name} must be callable, got {type(f).__name__}")


def _check_eps(eps):
    return check_scalar(eps, "eps", low=0.0, include_low=False)


def _value(v, *, where, scalar):
    """The output of ``f`` as a finite float array; ``scalar`` requires exactly one entry."""
    arr = np.asarray(v)
    if np.iscomplexobj(arr):
        raise TypeError(f"f must return real values, got a complex value at {where}")
    try:
        arr = np.asarray(arr, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"f must return numbers, got {type(v).__name__} at {where}") from None
    if scalar and arr.size != 1:
        raise ValueError(f"f must return a scalar, got an array of shape {arr.shape} at {where}; "
                         "use numerical_jacobian for vector-valued functions")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"f returned a non-finite value ({arr.ravel()[~np.isfinite(arr.ravel())][0]}) at {where}")
    return arr.reshape(()) if scalar else arr


# ---------------------------------------------------------------------------------------------
# central differences
# ---------------------------------------------------------------------------------------------

def _central_differences(f, x, eps, *, scalar):
    """Derivatives of ``f`` with respect to every entry of ``x``: shape ``f(x).shape + x.shape``."""
    _check_callable(f, "f")
    x = _as_point(x)
    eps = _check_eps(eps)
    columns, out_shape = [], None
    for i in range(x.size):
        index = np.unravel_index(i, x.shape)
        x_plus, x_minus = x.copy(), x.copy()
        x_plus[index] += eps
        x_minus[index] -= eps
        step = x_plus[index] - x_minus[index]      # the step actually taken, after rounding
        if step == 0.0:
            raise ValueError(f"eps={eps:g} is too small for x{list(index)} = {x[index]:g}: "
                             "x + eps rounds to x; use a larger eps")
        where = f"x + eps e_{list(index)}"
        f_plus = _value(f(x_plus), where=where, scalar=scalar)
        f_minus = _value(f(x_minus), where=where.replace("+", "-"), scalar=scalar)
        if out_shape is None:
            out_shape = f_plus.shape
        if f_plus.shape != out_shape or f_minus.shape != out_shape:
            raise ValueError(f"f returned arrays of different shapes: {out_shape} and "
                             f"{f_plus.shape if f_plus.shape != out_shape else f_minus.shape}")
        columns.append((f_plus - f_minus) / step)
    return np.stack(columns, axis=-1).reshape(out_shape + x.shape)


def numerical_gradient(f, x, *, eps=1e-6):
    r"""The gradient of a scalar function by central differences.

    Parameters
    ----------
    f : callable
        ``f(x) -> float`` for an array ``x`` of the shape of ``x`` (a scalar, or an array with a
        single entry such as a 1 x 1 matrix). ``f`` receives a fresh copy on every call.
    x : array_like of any shape
        The point; finite real numbers.
    eps : float, default 1e-6
        The step ``h > 0`` added to and subtracted from one entry at a time (absolute, not
        relative to ``x``).

    Returns
    -------
    ndarray of the shape of ``x``
        ``g[k] ~ df/dx[k]``, the gradient in the book's layout (the shape of the variable).

    Raises
    ------
    TypeError
        If ``f`` is not callable, or ``x`` or the values of ``f`` are not real numbers.
    ValueError
        If ``x`` is empty or not finite, ``eps <= 0``, ``f`` returns more than one number or a
        NaN/infinity, or ``x + eps`` rounds to ``x``.

    Notes
    -----
    Entry ``k`` is the central difference

    .. math:: g_k = \frac{f(x + h e_k) - f(x - h e_k)}{2h},

    whose truncation error is :math:`\tfrac{h^2}{6} \partial_k^3 f` and whose rounding error is
    about :math:`u |f| / h` (unit roundoff :math:`u = 2^{-53}`): the total is smallest near
    :math:`h \approx (3u)^{1/3} \approx 7 \cdot 10^{-6}` for well-scaled functions (see
    :func:`optimal_step`). The step divided by is the one actually taken after rounding,
    :math:`(x_k + h) - (x_k - h)`. Cost: ``2 * x.size`` calls of ``f`` (each entry needs its own
    pair). Derived in chapter 2, *Matrix calculus*.
    """
    return _central_differences(f, x, eps, scalar=True)


def numerical_jacobian(f, x, *, eps=1e-6):
    r"""The Jacobian of a function by central differences, in numerator layout.

    Parameters
    ----------
    f : callable
        ``f(x) -> array`` of a fixed shape ``(m,)`` (or any fixed shape).
    x : array_like of shape (n,) (or any shape)
    eps : float, default 1e-6
        The step ``h > 0`` (see :func:`numerical_gradient`).

    Returns
    -------
    ndarray of shape (m, n)
        ``J[i, j] ~ df_i/dx_j``. In general the shape is ``f(x).shape + x.shape`` with
        ``J[i..., j...] = df[i...]/dx[j...]``: for ``a = W x`` with ``W`` of shape (H, D), the
        derivative with respect to ``W`` is the (H, H, D) tensor of chapter 2.

    Raises
    ------
    TypeError, ValueError
        As :func:`numerical_gradient`; also if ``f`` returns arrays of different shapes.

    Notes
    -----
    Column ``j`` is :math:`(f(x + h e_j) - f(x - h e_j)) / (2h)`; ``2 * x.size`` calls of ``f``.
    For a scalar ``f`` returning shape ``()`` the result has the shape of ``x``, i.e. the
    gradient; return shape ``(1,)`` to get the ``1 x n`` Jacobian, whose transpose is the
    gradient. Derived in chapter 2, *Matrix calculus*.
    """
    return _central_differences(f, x, eps, scalar=False)


def optimal_step(method="central", *, f_scale=1.0, derivative_scale=1.0, roundoff=UNIT_ROUNDOFF):
    r"""The step that minimises the error bound of a finite difference.

    Parameters
    ----------
    method : {"central", "forward"}
    f_scale : float
        :math:`|f(x)|`, the size of the function values (rounding errors are relative to it).
    derivative_scale : float
        :math:`|f'''(x)|` for central and :math:`|f''(x)|` for forward differences.
    roundoff : float
        Relative error of one evaluation of ``f`` (the unit roundoff :math:`u = 2^{-53}`).

    Returns
    -------
    float
        :math:`h^* = (3 u |f| / |f'''|)^{1/3}` (central) or :math:`2 \sqrt{u |f| / |f''|}`
        (forward).

    Notes
    -----
    The bounds minimised are :math:`E_c(h) = \tfrac{h^2}{6}|f'''| + \tfrac{u |f|}{h}` and
    :math:`E_f(h) = \tfrac{h}{2}|f''| + \tfrac{2u|f|}{h}` (truncation plus rounding of the two
    function values). Derived in chapter 2, *Matrix calculus*.
    """
    f_scale = check_scalar(f_scale, "f_scale", low=0.0, include_low=False)
    derivative_scale = check_scalar(derivative_scale, "derivative_scale", low=0.0, include_low=False)
    roundoff = check_scalar(roundoff, "roundoff", low=0.0, include_low=False)
    if method == "central":
        return float((3 * roundoff * f_scale / derivative_scale) ** (1 / 3))
    if method == "forward":
        return float(2 * np.sqrt(roundoff * f_scale / derivative_scale))
    raise ValueError(f"method must be 'central' or 'forward', got {method!r}")


# ---------------------------------------------------------------------------------------------
# the gradient checker
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class GradientCheck:
    r"""The result of :func:`check_gradient`.

    Attributes
    ----------
    passed : bool
        ``relative_error <= rtol`` (or ``max_abs_error <= atol``).
    relative_error : float
        :math:`\lVert g_{num} - g\rVert / \max(\lVert g_{num}\rVert + \lVert g\rVert, \text{tiny})`
        (Frobenius norms over all entries).
    max_abs_error : float
        Largest entrywise :math:`|g_{num} - g|`.
    worst_index : tuple of int
        Where that largest difference is.
    rtol, atol, eps : float
        The tolerances and the step used.
    numerical, analytic : ndarray of the shape of ``x``
        The central-difference and the analytic gradient.
    """

    passed: bool
    relative_error: float
    max_abs_error: float
    worst_index: tuple
    rtol: float
    atol: float
    eps: float
    numerical: np.ndarray = field(compare=False)
    analytic: np.ndarray = field(compare=False)

    def __repr__(self):
        return (f"GradientCheck(passed={self.passed}, relative_error={self.relative_error:.2e}, "
                f"max_abs_error={self.max_abs_error:.2e}, rtol={self.rtol:g})")

    def report(self) -> str:
        """A few readable lines: verdict, errors, and the worst entry."""
        verdict = "PASSED" if self.passed else "FAILED"
        relation = "<=" if self.relative_error <= self.rtol else ">"
        i = self.worst_index
        lines = [f"gradient check {verdict}: relative error {self.relative_error:.2e} {relation} rtol {self.rtol:g}",
                 f"  largest difference {self.max_abs_error:.2e} at index {i}: "
                 f"numerical {self.numerical[i]:.6g}, analytic {self.analytic[i]:.6g}",
                 f"  central differences with eps = {self.eps:g} ({2 * self.numerical.size} calls of f)"]
        if self.atol > 0:
            lines.insert(1, f"  (or largest difference <= atol {self.atol:g})")
        return "\n".join(lines)


def check_gradient(f, grad, x, *, eps=1e-6, rtol=1e-6, atol=0.0, raise_on_failure=False) -> GradientCheck:
    r"""Compare an analytic gradient with central differences of the function.

    Parameters
    ----------
    f : callable
        ``f(x) -> float``, the function.
    grad : callable
        ``grad(x) -> array`` of the shape of ``x``, the gradient to check.
    x : array_like of any shape
        The point.
    eps : float, default 1e-6
        Step of the central differences (see :func:`numerical_gradient`).
    rtol : float, default 1e-6
        The check passes when the relative error is at most ``rtol``. Central differences of a
        well-scaled function are accurate to about ``1e-10``; a wrong gradient is off by order one.
    atol : float, default 0.0
        Also pass when every entry differs by at most ``atol``: use it at (near-)stationary points,
        where both gradients are tiny and the relative error is meaningless.
    raise_on_failure : bool, default False
        Raise :class:`GradientCheckError` (with the report) instead of returning a failed check.

    Returns
    -------
    GradientCheck
        ``passed``, ``relative_error``, ``max_abs_error`` and a ``report()``.

    Raises
    ------
    TypeError
        If ``f`` or ``grad`` is not callable, or values are not real numbers.
    ValueError
        If ``x`` is not finite, ``eps <= 0``, ``rtol <= 0``, ``atol < 0``, ``f`` is not scalar or
        returns NaN, or ``grad`` returns an array of another shape than ``x`` or a non-finite one.
    GradientCheckError
        If the check fails and ``raise_on_failure`` is true.

    Notes
    -----
    The relative error is

    .. math:: \frac{\lVert g_{\text{num}} - g\rVert}{\max(\lVert g_{\text{num}}\rVert + \lVert g\rVert,\ \text{tiny})},

    between 0 and 1 (symmetric in the two gradients, and 1 for a flipped sign). Derived in
    chapter 2, *Matrix calculus*.
    """
    _check_callable(grad, "grad")
    rtol = check_scalar(rtol, "rtol", low=0.0, include_low=False)
    atol = check_scalar(atol, "atol", low=0.0)
    x = _as_point(x)
    g_num = numerical_gradient(f, x, eps=eps)
    g = _as_point(grad(x.copy()), "grad(x)")
    if g.shape != x.shape:
        raise ValueError(f"grad returned shape {g.shape}, but x has shape {x.shape}: a gradient "
                         "has the shape of its variable")
    diff = g_num - g
    scale = max(float(np.linalg.norm(g_num.ravel()) + np.linalg.norm(g.ravel())), np.finfo(float).tiny)
    relative_error = float(np.linalg.norm(diff.ravel()) / scale)
    worst = tuple(int(k) for k in np.unravel_index(int(np.argmax(np.abs(diff))), x.shape))
    max_abs_error = float(np.abs(diff).max())
    passed = bool(relative_error <= rtol or max_abs_error <= atol)
    result = GradientCheck(passed, relative_error, max_abs_error, worst, rtol, atol, float(eps), g_num, g)
    if raise_on_failure and not passed:
        raise GradientCheckError(result.report())
    return result
