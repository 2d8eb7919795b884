r"""Lagrangian duality for convex quadratic programs (chapter 7, *Convexity and Lagrangian duality*).

The primal problem is

.. math:: \min_x\ f_0(x) = \tfrac12 x^\top P x + q^\top x \quad\text{subject to}\quad Gx \le h,

with :math:`P` symmetric positive definite, :math:`x \in \mathbb R^d` and :math:`m` inequality
constraints :math:`f_i(x) = (Gx - h)_i \le 0`. Its Lagrangian
:math:`L(x, \lambda) = f_0(x) + \lambda^\top (Gx - h)` is a strictly convex quadratic in :math:`x`, so the
dual function has a closed form:

.. math::

   x(\lambda) = -P^{-1}(q + G^\top\lambda), \qquad
   g(\lambda) = \inf_x L(x, \lambda) = -\tfrac12 (q + G^\top\lambda)^\top P^{-1} (q + G^\top\lambda) - h^\top\lambda,

a concave quadratic with gradient :math:`\nabla g(\lambda) = G\,x(\lambda) - h`. The functions below evaluate
these formulas, maximise :math:`g` over :math:`\lambda \ge 0` by projected gradient ascent, and measure how
far a pair :math:`(x, \lambda)` is from satisfying the KKT conditions.
"""

from dataclasses import dataclass

import numpy as np
from scipy import linalg

from ..utils.validation import as_finite_array, as_float_matrix, as_float_vector, check_scalar
from ._result import History
from ._validation import check_iterations

__all__ = ["qp_lagrangian_minimizer", "qp_dual_function", "qp_dual_gradient", "qp_dual_ascent",
           "KKTResiduals", "qp_kkt_residuals"]


def _check_qp(P, q, G, h):
    """Validate the data of a QP; return the arrays and the Cholesky factor of ``P``."""
    P = as_float_matrix(P, "P")
    d = P.shape[0]
    if P.shape != (d, d):
        raise ValueError(f"P must be square, got shape {P.shape}")
    if not np.allclose(P, P.T, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(P).max())):
        raise ValueError("P must be symmetric")
    try:
        factor = linalg.cho_factor(P)
    except linalg.LinAlgError:
        raise ValueError("P must be positive definite (its Cholesky factorisation failed): with a singular "
                         "or indefinite P the Lagrangian may have no minimiser and g has no closed form") from None
    q = as_float_vector(q, "q")
    if q.shape != (d,):
        raise ValueError(f"q must have shape ({d},) to match P, got {q.shape}")
    G = as_float_matrix(G, "G")
    if G.shape[1] != d:
        raise ValueError(f"G must have {d} columns to match P, got shape {G.shape}")
    h = as_float_vector(h, "h")
    if h.shape != (G.shape[0],):
        raise ValueError(f"h must have shape ({G.shape[0]},), one entry per row of G, got {h.shape}")
    return P, q, G, h, factor


def _check_multipliers(lam, m):
    lam = as_finite_array(lam, "lam")
    if lam.ndim not in (1, 2) or lam.shape[-1] != m:
        raise ValueError(f"lam must have shape ({m},) or (k, {m}), one multiplier per constraint, got {lam.shape}")
    return lam


def _minimizer(q, G, factor, lam):
    rhs = q + lam @ G                                  # rows: q + G^T lambda
    return -linalg.cho_solve(factor, rhs.T).T


def qp_lagrangian_minimizer(P, q, G, h, lam):
    r"""The minimiser of the Lagrangian :math:`x(\lambda) = -P^{-1}(q + G^\top\lambda)`.

    Parameters
    ----------
    P : array of shape (d, d)
        Symmetric positive definite matrix of the quadratic objective.
    q : array of shape (d,)
        Linear term of the objective.
    G : array of shape (m, d)
        Constraint matrix of :math:`Gx \le h`.
    h : array of shape (m,)
        Right-hand side of the constraints.
    lam : array of shape (m,) or (k, m)
        Multipliers, one row per point at which to evaluate.

    Returns
    -------
    x : array of shape (d,) or (k, d)

    Notes
    -----
    :math:`L(x, \lambda) = \tfrac12 x^\top P x + q^\top x + \lambda^\top(Gx - h)` is strictly convex in
    :math:`x`; setting :math:`\nabla_x L = Px + q + G^\top\lambda` to zero gives :math:`x(\lambda)`
    (derived in chapter 7, *Convexity and Lagrangian duality*). At the dual optimum
    :math:`\lambda^*`, :math:`x(\lambda^*)` is the primal optimum.
    """
    P, q, G, h, factor = _check_qp(P, q, G, h)
    lam = _check_multipliers(lam, G.shape[0])
    return _minimizer(q, G, factor, lam)


def _dual_value(q, G, h, factor, lam):
    x = _minimizer(q, G, factor, lam)
    rhs = q + lam @ G
    return 0.5 * np.sum(rhs * x, axis=-1) - lam @ h, x     # -1/2 r^T P^{-1} r = 1/2 r^T x


def qp_dual_function(P, q, G, h, lam):
    r"""The Lagrange dual function :math:`g(\lambda) = \inf_x L(x, \lambda)` of the QP.

    Parameters
    ----------
    P, q, G, h : arrays
        The QP, shapes as in :func:`qp_lagrangian_minimizer`.
    lam : array of shape (m,) or (k, m)
        Multipliers. The formula holds for every real :math:`\lambda`; the dual problem uses
        :math:`\lambda \ge 0`, where :math:`g(\lambda)` is a lower bound on the primal optimum.

    Returns
    -------
    g : float or array of shape (k,)

    Notes
    -----
    .. math:: g(\lambda) = -\tfrac12 (q + G^\top\lambda)^\top P^{-1} (q + G^\top\lambda) - h^\top\lambda,

    obtained by substituting :math:`x(\lambda)` into the Lagrangian (derived in chapter 7, *Convexity
    and Lagrangian duality*). It is concave: its Hessian is :math:`-G P^{-1} G^\top \preceq 0`.
    """
    P, q, G, h, factor = _check_qp(P, q, G, h)
    lam = _check_multipliers(lam, G.shape[0])
    value, _ = _dual_value(q, G, h, factor, lam)
    return float(value) if lam.ndim == 1 else value


def qp_dual_gradient(P, q, G, h, lam):
    r"""The gradient of the dual function, :math:`\nabla g(\lambda) = G\,x(\lambda) - h`.

    Parameters
    ----------
    P, q, G, h : arrays
        The QP, shapes as in :func:`qp_lagrangian_minimizer`.
    lam : array of shape (m,) or (k, m)

    Returns
    -------
    grad : array of shape (m,) or (k, m)
        The constraint values :math:`f_i(x(\lambda))` at the minimiser of the Lagrangian (Danskin's
        theorem: differentiate :math:`L(x, \lambda)` in :math:`\lambda` at :math:`x = x(\lambda)`).
    """
    P, q, G, h, factor = _check_qp(P, q, G, h)
    lam = _check_multipliers(lam, G.shape[0])
    return _minimizer(q, G, factor, lam) @ G.T - h


def qp_dual_ascent(P, q, G, h, lam0=None, *, step_size=None, tol=1e-10, max_iter=10000, warn=True):
    r"""Maximise the dual function over :math:`\lambda \ge 0` by projected gradient ascent.

    Each step moves uphill and clips at zero (this is also known as Uzawa's method):

    .. math:: \lambda_{k+1} = \max\big(0,\ \lambda_k + \eta\,(G\,x(\lambda_k) - h)\big).

    Parameters
    ----------
    P, q, G, h : arrays
        The QP, shapes as in :func:`qp_lagrangian_minimizer`.
    lam0 : array of shape (m,), optional
        Non-negative start (default zeros).
    step_size : float > 0, optional
        :math:`\eta`. Default :math:`1/L` with :math:`L = \lambda_{\max}(G P^{-1} G^\top)`, the Lipschitz
        constant of :math:`\nabla g`, for which the ascent converges.
    tol : float >= 0, default 1e-10
        Stop when the projected gradient :math:`(\lambda_{k+1} - \lambda_k)/\eta` has norm at most ``tol``.
    max_iter : int, default 10000
    warn : bool, default True
        Warn (``ConvergenceWarning``) when ``max_iter`` is reached, which happens in particular when the
        primal problem is infeasible (then :math:`g` is unbounded above on :math:`\lambda \ge 0`).

    Returns
    -------
    OptimizeResult
        ``x`` is the dual solution :math:`\lambda^*` of shape (m,), ``fun`` is :math:`d^* = g(\lambda^*)`,
        ``path`` the multipliers, ``values`` the dual values, ``grad_norms`` the norms of the projected
        gradient. The primal solution is ``qp_lagrangian_minimizer(P, q, G, h, result.x)``.

    Notes
    -----
    By weak duality every value is a lower bound on the primal optimum :math:`p^*`; for a QP with a
    feasible point, strong duality makes the limit equal to :math:`p^*` (chapter 7, *Convexity and
    Lagrangian duality*).
    """
    P, q, G, h, factor = _check_qp(P, q, G, h)
    m = G.shape[0]
    max_iter, tol = check_iterations(max_iter, tol)
    lam = np.zeros(m) if lam0 is None else _check_multipliers(np.array(lam0, dtype=float), m).copy()
    if lam.ndim != 1:
        raise ValueError(f"lam0 must have shape ({m},), got {lam.shape}")
    if (lam < 0).any():
        raise ValueError("lam0 must be non-negative: the dual problem is restricted to lambda >= 0")
    if step_size is None:
        curvature = G @ linalg.cho_solve(factor, G.T)
        lipschitz = float(np.linalg.eigvalsh(curvature).max())
        step_size = 1.0 / lipschitz if lipschitz > 0 else 1.0
    step_size = check_scalar(step_size, "step_size", low=0, include_low=False)

    value, x = _dual_value(q, G, h, factor, lam)
    history = History(lam, value)
    for _ in range(max_iter):
        lam_new = np.maximum(0.0, lam + step_size * (G @ x - h))
        projected = np.linalg.norm(lam_new - lam) / step_size
        history.grad_norms[-1] = projected
        if projected <= tol:
            return history.result(True, f"projected gradient norm <= tol = {tol:g}")
        lam = lam_new
        value, x = _dual_value(q, G, h, factor, lam)
        history.append(lam, value, np.nan, step_size)
    projected = np.linalg.norm(np.maximum(0.0, lam + step_size * (G @ x - h)) - lam) / step_size
    history.grad_norms[-1] = projected
    if projected <= tol:
        return history.result(True, f"projected gradient norm <= tol = {tol:g}")
    return history.result(False, f"max_iter = {max_iter} reached with projected gradient norm {projected:.3g}",
                          warn=warn)


@dataclass(frozen=True)
class KKTResiduals:
    r"""How far :math:`(x, \lambda)` is from satisfying each KKT condition (all zero at a KKT pair).

    Attributes
    ----------
    stationarity : float
        :math:`\|Px + q + G^\top\lambda\|_2`, the norm of :math:`\nabla_x L(x, \lambda)`.
    primal_feasibility : float
        :math:`\max_i \max(0, (Gx - h)_i)`, the largest constraint violation.
    dual_feasibility : float
        :math:`\max_i \max(0, -\lambda_i)`, the most negative multiplier.
    complementary_slackness : float
        :math:`\max_i |\lambda_i (Gx - h)_i|`.
    """

    stationarity: float
    primal_feasibility: float
    dual_feasibility: float
    complementary_slackness: float

    def max(self):
        """The largest of the four residuals."""
        return max(self.stationarity, self.primal_feasibility, self.dual_feasibility, self.complementary_slackness)


def qp_kkt_residuals(P, q, G, h, x, lam):
    r"""The residuals of the four KKT conditions of the QP at :math:`(x, \lambda)`.

    Parameters
    ----------
    P, q, G, h : arrays
        The QP, shapes as in :func:`qp_lagrangian_minimizer`.
    x : array of shape (d,)
        A candidate primal point.
    lam : array of shape (m,)
        Candidate multipliers.

    Returns
    -------
    KKTResiduals

    Notes
    -----
    The KKT conditions are stationarity :math:`\nabla f_0(x) + \sum_i \lambda_i \nabla f_i(x) = 0`, primal
    feasibility :math:`f_i(x) \le 0`, dual feasibility :math:`\lambda_i \ge 0` and complementary slackness
    :math:`\lambda_i f_i(x) = 0`. For a convex problem they are sufficient for optimality, and under
    Slater's condition also necessary (chapter 7, *Convexity and Lagrangian duality*).
    """
    P, q, G, h, _ = _check_qp(P, q, G, h)
    x = as_float_vector(x, "x")
    if x.shape != (P.shape[0],):
        raise ValueError(f"x must have shape ({P.shape[0]},), got {x.shape}")
    lam = _check_multipliers(lam, G.shape[0])
    if lam.ndim != 1:
        raise ValueError(f"lam must have shape ({G.shape[0]},), got {lam.shape}")
    slack = G @ x - h
    return KKTResiduals(stationarity=float(np.linalg.norm(P @ x + q + G.T @ lam)),
                        primal_feasibility=float(np.maximum(slack, 0.0).max()),
                        dual_feasibility=float(np.maximum(-lam, 0.0).max()),
                        complementary_slackness=float(np.abs(lam * slack).max()))
