"""The gradient checker as a decider of the derivation checker: :func:`agree_gradient`.

The numerical derivatives themselves (:func:`numerical_gradient`, :func:`numerical_jacobian`,
:func:`check_gradient`, :func:`optimal_step`) live in :mod:`mlnotes.utils` (no sympy needed, for
the neural-network chapters and the tests); they are re-exported here under their old names.
"""

from __future__ import annotations

import time

from ..utils._gradcheck import (UNIT_ROUNDOFF, GradientCheck, GradientCheckError, check_gradient, numerical_gradient,
                                numerical_jacobian, optimal_step)
from ._prove import Verdict

__all__ = ["numerical_gradient", "numerical_jacobian", "check_gradient", "GradientCheck",
           "GradientCheckError", "agree_gradient", "optimal_step", "UNIT_ROUNDOFF"]


def agree_gradient(f, grad, points, *, eps=1e-6, rtol=1e-6, atol=0.0, latex="") -> Verdict:
    r"""Decide that a derived gradient agrees with central differences at several points.

    The verdict for :func:`~mlnotes.symbolic.claim`: derivation (``grad``, typically a lambdified
    sympy expression) meets implementation (the function ``f`` itself, differentiated
    numerically by :func:`check_gradient`).

    Parameters
    ----------
    f, grad : callable
        As in :func:`check_gradient`.
    points : sequence of arrays
        The points (e.g. seeded random draws); an array of shape ``(k, ...)`` is ``k`` points.
    eps, rtol, atol : float
        As in :func:`check_gradient`.
    latex : str
        What is compared, for display.

    Returns
    -------
    Verdict
        ``method="implementation"``; holds when every check passes. A failure names the first
        failing point and its relative error.
    """
    start = time.perf_counter()
    checks = [check_gradient(f, grad, x, eps=eps, rtol=rtol, atol=atol) for x in points]
    if not checks:
        raise ValueError("points is empty: at least one point is needed")
    failed = [(k, c) for k, c in enumerate(checks) if not c.passed]
    if not failed:
        where = "1 point" if len(checks) == 1 else f"{len(checks)} points"
        detail = f"central differences agree with the formula at {where}: relative error <= {rtol:g}"
        if atol > 0:
            detail += f" or every entry within {atol:g}"
        return Verdict(latex, True, "implementation", detail, None, time.perf_counter() - start)
    k, c = failed[0]
    detail = (f"central differences disagree with the formula at point {k + 1} of {len(checks)}: "
              f"relative error {c.relative_error:.2g} > {rtol:g}")
    cex = {r"\text{point}": f"{k + 1}", r"\text{relative error}": f"{c.relative_error:.2g}",
           r"\text{largest difference at index}": str(c.worst_index)}
    return Verdict(latex, False, "implementation", detail, cex, time.perf_counter() - start)
