r"""Tools of the subgradient method (chapter 8, *Subgradient methods*): :func:`subgradient_gap`, which tests
the subgradient inequality at given points, and :func:`polyak_step`, the step size that minimises the
one-step distance bound. The non-smooth objectives of the models (lasso, linear SVM) live with the models,
in :mod:`mlnotes.linear`.
"""

import numpy as np

from ..utils.validation import as_float_matrix, as_float_vector, check_scalar


def subgradient_gap(f, x, g, Z):
    r"""The subgradient inequality's slack :math:`f(z) - f(x) - g^\top(z - x)` at each point ``z`` of ``Z``.

    ``g`` is a subgradient of ``f`` at ``x`` iff the slack is :math:`\ge 0` at every :math:`z`; on a
    finite set of points a negative entry disproves it and non-negative entries are evidence.

    Parameters
    ----------
    f : callable, array of shape (d,) -> float
    x : array of shape (d,)
    g : array of shape (d,)
        The candidate subgradient.
    Z : array of shape (m, d)
        Test points.

    Returns
    -------
    slack : array of shape (m,)
    """
    x = as_float_vector(x, "x")
    g = as_float_vector(g, "g", None)
    if g.shape != x.shape:
        raise ValueError(f"g must have the shape of x, {x.shape}, got {g.shape}")
    Z = as_float_matrix(Z, "Z")
    if Z.shape[1] != x.shape[0]:
        raise ValueError(f"the points Z must have {x.shape[0]} columns (the dimension of x), got {Z.shape[1]}")
    fz = np.array([f(z) for z in Z], dtype=float)
    return fz - float(f(x)) - (Z - x) @ g


def polyak_step(fx, f_star, g):
    r"""Polyak's step size :math:`\eta = (f(x) - f^\star) / \|g\|_2^2`.

    Parameters
    ----------
    fx : float
        The objective at the current point.
    f_star : float
        The minimum value of the objective (must be known).
    g : array of shape (d,)
        A non-zero subgradient at the current point.

    Returns
    -------
    float
        The step that minimises the right-hand side of the one-step bound
        :math:`\|x - \eta g - x^\star\|^2 \le \|x - x^\star\|^2 - 2\eta(f(x) - f^\star) + \eta^2\|g\|^2`
        (derived in chapter 8, *Subgradient methods*): the midpoint of the interval of steps that move
        closer to every minimiser.

    Raises
    ------
    ValueError
        If ``fx < f_star`` (then ``f_star`` is not the minimum) or ``g`` is zero.
    """
    fx = check_scalar(fx, "fx")
    f_star = check_scalar(f_star, "f_star")
    g = as_float_vector(g, "g")
    if fx < f_star:
        raise ValueError(f"f(x) = {fx:g} is below f_star = {f_star:g}: f_star is not the minimum value")
    gg = float(g @ g)
    if gg == 0:
        raise ValueError("the subgradient is zero: the point is a minimiser and no step is needed")
    return (fx - f_star) / gg
