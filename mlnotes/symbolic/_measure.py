"""Numbers that came out of running code, compared with a bound: *measured*, never *proved*.

- :func:`measured`  one number against a bound, e.g. ``measured(run.n_iter, "<=", 15)``;
- :func:`bounded`   many numbers that never exceed (or fall below) a bound, e.g. the number of
  perceptron updates against Novikoff's bound on five data sets.
"""

from __future__ import annotations

import operator
import time

import numpy as np
import sympy as sp

from ._prove import MEASURED, Verdict, _number_latex

__all__ = ["measured", "bounded"]

_COMPARE = {"==": operator.eq, "<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}
_COMPARE_LATEX = {"==": "=", "<=": "\\le", "<": "<", ">=": "\\ge", ">": ">"}


def _as_number(value, name):
    """``value`` as a real Python number (int stays int), or a clear error."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} is a truth value; pass the number it tests (e.g. measured(kappa, '>', 0))")
    if isinstance(value, sp.Basic):
        if value.free_symbols:
            raise TypeError(f"{name} has symbols {sorted(map(str, value.free_symbols))}: measured compares numbers "
                            "from running code; use equal or holds for symbolic statements")
        if value.is_Integer:
            return int(value)
        value = float(value)
    arr = np.asarray(value)
    if arr.ndim != 0 or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}"
                        + (f" of shape {arr.shape}; use bounded for many values" if arr.ndim else ""))
    return int(arr) if arr.dtype.kind in "iu" else float(arr)


def measured(value, op, bound, *, latex=None) -> Verdict:
    r"""Decide that a number produced by running code satisfies ``value op bound``.

    Parameters
    ----------
    value : int or float (Python, numpy or a sympy number)
        The measured number, e.g. an iteration count or a residual.
    op : {"==", "<=", "<", ">=", ">"}
        The relation. ``"=="`` is exact equality (for counts); compare floats with a tolerance
        using :func:`~mlnotes.symbolic.agree` with ``kind="measured"``.
    bound : int or float
        The bound.
    latex : str, optional
        What is measured, for display (a description; the numbers are shown as checked).

    Returns
    -------
    Verdict
        ``kind="measured"``; fails on NaN.

    Raises
    ------
    ValueError
        If ``op`` is not one of the relations.
    TypeError
        If ``value`` or ``bound`` is not a real number (a truth value, an array, an expression
        with symbols).

    Examples
    --------
    >>> measured(7, "<=", 15).holds
    True
    >>> measured(0.25, ">", 0.5).holds
    False
    """
    start = time.perf_counter()
    if op not in _COMPARE:
        raise ValueError(f"op must be one of {sorted(_COMPARE)}, got {op!r}")
    v, b = _as_number(value, "value"), _as_number(bound, "bound")
    ok = bool(v == v and _COMPARE[op](v, b))
    checked = f"{_number_latex(v) if isinstance(v, float) else v} {_COMPARE_LATEX[op]} {_number_latex(b) if isinstance(b, float) else b}"
    detail = f"measured value {v:.6g} {op} {b:.6g}" if ok else f"measured value {v:.6g} violates {op} {b:.6g}"
    cex = None if ok else {"\\text{measured}": f"{v:.6g}", "\\text{bound}": f"{b:.6g}"}
    return Verdict(latex or checked, ok, "measured", detail, cex, time.perf_counter() - start, kind=MEASURED,
                   checked=checked, display=latex, display_check="description" if latex else "rendered")


def bounded(values, upper=None, lower=None, *, latex=None) -> Verdict:
    r"""Decide that numbers produced by running code never exceed ``upper`` (and never fall below
    ``lower``).

    Parameters
    ----------
    values : array-like of real numbers, any shape (at least one value)
        The measured values, e.g. the updates of the perceptron on several data sets.
    upper, lower : float or array-like broadcastable to ``values``, optional
        The bounds (at least one); ``values <= upper`` and ``values >= lower`` entrywise.
    latex : str, optional
        What is measured, for display.

    Returns
    -------
    Verdict
        ``kind="measured"``; the detail gives the smallest slack; a failure names the first
        violating entry. NaN values fail.

    Raises
    ------
    ValueError
        If no bound is given, ``values`` is empty, or shapes do not broadcast.
    TypeError
        If ``values`` is boolean or not numeric.

    Examples
    --------
    >>> bounded([3, 5, 2], upper=[4.0, 5.5, 9.0]).holds
    True
    >>> bounded([0.1, -0.2], lower=0).holds
    False
    """
    start = time.perf_counter()
    if upper is None and lower is None:
        raise ValueError("bounded needs upper=, lower= or both")
    arr = np.asarray(values)
    if arr.dtype == bool or arr.dtype.kind not in "iuf":
        raise TypeError(f"values must be real numbers, got dtype {arr.dtype}")
    if arr.size == 0:
        raise ValueError("values is empty: at least one value is needed")
    x = arr.astype(float)
    sides = []
    try:
        if upper is not None:
            sides.append(("upper", np.broadcast_to(np.asarray(upper, dtype=float), x.shape), "\\le"))
        if lower is not None:
            sides.append(("lower", np.broadcast_to(np.asarray(lower, dtype=float), x.shape), "\\ge"))
    except ValueError:
        raise ValueError(f"the bounds do not broadcast to the shape of values {x.shape}") from None
    ok, parts, cex, checked_parts = True, [], None, []
    for name, bound, rel in sides:
        slack = bound - x if name == "upper" else x - bound
        violated = np.isnan(slack) | (slack < 0)
        worst = float(np.nanmin(slack)) if not np.isnan(slack).all() else float("nan")
        extreme = float(np.nanmax(x) if name == "upper" else np.nanmin(x)) if not np.isnan(x).all() else float("nan")
        if np.all(bound == bound.flat[0]):     # one bound for every value
            checked_parts.append(f"\\{'max' if name == 'upper' else 'min'}_i v_i = {_number_latex(extreme)} {rel} "
                                 f"{_number_latex(bound.flat[0])}")
        else:
            checked_parts.append(f"v_i {rel} b_i \\text{{ for all }} i \\text{{ (smallest slack }} {_number_latex(worst)})")
        parts.append(f"smallest slack to the {name} bound {worst:.3g}")
        if violated.any():
            ok = False
            i = int(np.flatnonzero(violated.ravel())[0])
            index = tuple(int(k) for k in np.unravel_index(i, x.shape))
            cex = cex or {"\\text{index}": str(index), "\\text{value}": f"{x.flat[i]:.6g}",
                          f"\\text{{{name} bound}}": f"{bound.flat[i]:.6g}"}
    n = x.size
    checked = ",\\quad ".join(checked_parts) + f" \\quad ({n} \\text{{ value{'s' if n > 1 else ''}}})"
    detail = (f"all {n} values within the bound" if ok else "a value violates the bound") + f" ({'; '.join(parts)})"
    return Verdict(latex or checked, ok, "measured", detail, cex, time.perf_counter() - start, kind=MEASURED,
                   checked=checked, display=latex, display_check="description" if latex else "rendered")
