r"""The linear-programming solver of the library: :math:`\min_x c^\top x` subject to :math:`A_{ub} x \le b_{ub}`
and bounds on each variable, by the HiGHS solvers (``scipy.optimize.linprog``).

Chapter 5 (*Loss functions*) writes least absolute deviations as a linear program
(:func:`mlnotes.linear.fit_linear` with ``loss="absolute"``), which is solved here.
"""

import numpy as np
from scipy import optimize

from ..utils.validation import as_float_matrix, as_float_vector


def linear_program(cost, A_ub, b_ub, bounds):
    r"""Solve the linear program :math:`\min_x c^\top x` subject to :math:`A_{ub}x \le b_{ub}` and
    :math:`l_j \le x_j \le u_j`.

    Parameters
    ----------
    cost : array of shape (n_variables,)
        The cost vector :math:`c`.
    A_ub : array of shape (n_constraints, n_variables)
    b_ub : array of shape (n_constraints,)
    bounds : sequence of n_variables pairs (low, high)
        The bounds of each variable; None for no bound on that side (``(None, None)``: a free variable,
        ``(0, None)``: non-negative).

    Returns
    -------
    x : ndarray of shape (n_variables,)
        A minimiser (a vertex of the feasible polyhedron, as HiGHS returns it).

    Raises
    ------
    ValueError
        If the arrays are not finite or their shapes do not fit together, ``bounds`` does not have one pair
        per variable, or the program is infeasible or unbounded (the message gives the solver's reason).

    Notes
    -----
    The method is scipy's ``linprog(method="highs")`` (dual simplex or interior point, chosen by HiGHS).
    """
    cost = as_float_vector(cost, "cost")
    A_ub = as_float_matrix(A_ub, "A_ub")
    b_ub = as_float_vector(b_ub, "b_ub", A_ub.shape[0])
    if A_ub.shape[1] != cost.shape[0]:
        raise ValueError(f"A_ub must have one column per variable ({cost.shape[0]}), got shape {A_ub.shape}")
    bounds = list(bounds)
    if len(bounds) != cost.shape[0] or any(np.ndim(pair) != 1 or len(pair) != 2 for pair in bounds):
        raise ValueError(f"bounds must hold one pair (low, high) per variable ({cost.shape[0]}), got {len(bounds)} "
                         "entries")
    result = optimize.linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if result.status != 0:
        raise ValueError(f"the linear program has no solution found by HiGHS (status {result.status}): "
                         f"{result.message}")
    return result.x
