r"""A primal-dual interior-point method for convex quadratic programs (Mehrotra's predictor-corrector).

The problem, in the form of :func:`mlnotes.optim.qp_dual_function` (chapter 7, *Convexity and duality*):

.. math:: \min_x\ \tfrac12 x^\top P x + q^\top x \quad\text{s.t.}\quad Gx \le h,

with slacks :math:`s = h - Gx \ge 0` and multipliers :math:`\lambda \ge 0`. Each iteration takes a Newton step
on the perturbed KKT conditions

.. math:: Px + q + G^\top\lambda = 0, \qquad Gx + s - h = 0, \qquad \lambda \circ s = \sigma\mu\,\mathbf 1,

with :math:`\mu = s^\top\lambda / m`. Eliminating :math:`\Delta s` and :math:`\Delta\lambda` leaves one system in
:math:`\Delta x` with the matrix :math:`P + G^\top \operatorname{diag}(\lambda/s)\, G`, factorised once per
iteration and solved twice: for the affine-scaling (predictor) direction, whose progress sets the centring
:math:`\sigma = (\mu_{\text{aff}}/\mu)^3`, and for the corrector. A model with structure in :math:`P` and
:math:`G` (the multiclass SVM: one block of constraints per sample) passes them as linear operators and its
own solver of that system; the iteration itself is the same for every quadratic program.
"""

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from scipy.sparse.linalg import aslinearoperator

from ..utils.validation import as_float_vector
from ._result import History
from ._validation import check_iterations


def shifted_cholesky(H):
    """Cholesky factor of the symmetric matrix ``H`` (its lower triangle is read), as ``cho_factor`` returns it.

    ``H`` is positive definite in exact arithmetic, but rounding in a matrix with entries ~ 1e16 can make the
    computed one indefinite: the diagonal is then shifted by a multiple of its largest entry (1e-15, growing
    tenfold, 8 tries), which gives an inexact Newton direction that the step length and the stopping rule
    still guard.

    Raises
    ------
    numpy.linalg.LinAlgError
        If ``H`` is not finite or no shift made it factorisable.
    """
    if not np.isfinite(H).all():
        raise LinAlgError("the Newton matrix is not finite")
    shift = 0.0
    scale = np.abs(np.diag(H)).max()
    for _ in range(8):
        try:
            return cho_factor(H + shift * np.eye(len(H)) if shift else H, lower=True)
        except LinAlgError:
            shift = max(10.0 * shift, 1e-15 * scale)
    raise LinAlgError("the Newton matrix could not be factorised (rounding)")


def _dense_newton_solver(P, G):
    """The default solver of :math:`(P + G^\\top \\operatorname{diag}(D) G)\\,\\Delta x = r`, by Cholesky."""
    def factor(D):
        chol = shifted_cholesky(P + G.T @ (D[:, None] * G))
        return lambda r: cho_solve(chol, r)
    return factor


def _step_to_boundary(s, ds, lam, dlam):
    """The longest step in [0, 1] that keeps ``s + alpha ds`` and ``lam + alpha dlam`` non-negative."""
    ratios = np.concatenate([-s[ds < 0] / ds[ds < 0], -lam[dlam < 0] / dlam[dlam < 0]])
    return min(1.0, ratios.min()) if ratios.size else 1.0


def qp_interior_point(P, q, G, h, *, x0=None, s0=None, lam0=None, newton_solver=None, certificate=None, tol=1e-8,
                      max_iter=100, warn=True):
    r"""Minimise :math:`\tfrac12 x^\top P x + q^\top x` subject to :math:`Gx \le h` by Mehrotra's
    predictor-corrector interior-point method.

    Parameters
    ----------
    P : array of shape (p, p) or scipy LinearOperator
        Symmetric positive semidefinite.
    q : array of shape (p,)
    G : array of shape (m, p) or scipy LinearOperator
        As an operator: ``G.matvec(x)`` is :math:`Gx` and ``G.rmatvec(lam)`` is :math:`G^\top\lambda`.
    h : array of shape (m,)
    x0 : array of shape (p,), optional
        Start point (default 0); it need not be feasible.
    s0, lam0 : arrays of shape (m,), optional
        Positive start slacks and multipliers (default: :math:`\max(h - Gx_0, 1)` and ones).
    newton_solver : callable, optional
        ``newton_solver(D)`` for the positive vector ``D`` (m,) returns a function ``solve(r)`` that returns
        :math:`\Delta x` with :math:`(P + G^\top \operatorname{diag}(D) G)\,\Delta x = r`, or raises
        ``numpy.linalg.LinAlgError``. Default (``P`` and ``G`` arrays): the dense matrix by
        :func:`shifted_cholesky`.
    certificate : callable, optional
        ``certificate(x, lam) -> float``: a bound on the relative error of ``x`` (e.g. a duality gap against
        a dual feasible point made from ``lam``, divided by the objective); the method stops when it is at
        most ``tol``. Default: :math:`\max(\|r_p\| / (1 + \|h\|),\ \|r_d\| / (1 + \|q\|),\ s^\top\lambda / (1 + |f(x)|))`
        with the primal and dual residuals :math:`r_p = Gx + s - h`, :math:`r_d = Px + q + G^\top\lambda`.
    tol : float > 0, default 1e-8
    max_iter : int, default 100
        The most Newton steps.
    warn : bool, default True
        Warn (``ConvergenceWarning``) when the stopping rule is not met.

    Returns
    -------
    OptimizeResult
        ``x``, ``fun`` (the objective at ``x``), ``dual`` (the multipliers :math:`\lambda`), ``n_iter``,
        ``converged`` (the stopping rule was met) and ``message`` (why it stopped); ``grad_norms`` holds the
        stopping measure at every iterate and ``step_sizes`` the step lengths.

    Notes
    -----
    Each step solves, with :math:`D = \lambda/s` and a right-hand side :math:`r_c` of the complementarity
    equation (:math:`-\lambda\circ s` for the predictor, :math:`\sigma\mu - \lambda\circ s - \Delta s_{\text{aff}}
    \circ \Delta\lambda_{\text{aff}}` for the corrector),

    .. math::
        (P + G^\top D G)\,\Delta x = -r_d - G^\top(D r_p + r_c/s), \quad
        \Delta\lambda = D(G\Delta x + r_p) + r_c/s, \quad \Delta s = (r_c - s\circ\Delta\lambda)/\lambda,

    then moves 0.99 of the longest step that keeps :math:`s, \lambda > 0`. Chapter 7 derives the KKT
    conditions; the method is an addition to the notes (Nocedal and Wright, *Numerical Optimization*, §16.6).
    """
    P, G = (A if hasattr(A, "matvec") else np.asarray(A, dtype=float) for A in (P, G))
    q = as_float_vector(q, "q")
    h = as_float_vector(h, "h")
    if P.shape != (q.size, q.size) or G.shape != (h.size, q.size):
        raise ValueError(f"P must have shape (p, p) and G (m, p) with p = {q.size} (q) and m = {h.size} (h), got "
                         f"{P.shape} and {G.shape}")
    max_iter, tol = check_iterations(max_iter, tol)
    if newton_solver is None:
        if hasattr(P, "matvec") or hasattr(G, "matvec"):
            raise ValueError("P or G given as an operator needs a newton_solver")
        newton_solver = _dense_newton_solver(P, G)
    P_op, G_op = aslinearoperator(P), aslinearoperator(G)
    x = np.zeros(q.size) if x0 is None else as_float_vector(x0, "x0").copy()
    s = np.maximum(h - G_op.matvec(x), 1.0) if s0 is None else as_float_vector(s0, "s0").copy()
    lam = np.ones(h.size) if lam0 is None else as_float_vector(lam0, "lam0").copy()
    if x.shape != q.shape or s.shape != h.shape or lam.shape != h.shape or (s <= 0).any() or (lam <= 0).any():
        raise ValueError(f"x0 must have shape ({q.size},) and s0, lam0 shape ({h.size},) with positive entries")
    m = h.size

    def objective(x):
        return float(0.5 * x @ P_op.matvec(x) + q @ x)

    def residuals(x, s, lam):
        return G_op.matvec(x) + s - h, P_op.matvec(x) + q + G_op.rmatvec(lam)

    def measure(x, s, lam):
        if certificate is not None:
            return float(certificate(x, lam))
        r_p, r_d = residuals(x, s, lam)
        return max(np.linalg.norm(r_p) / (1 + np.linalg.norm(h)), np.linalg.norm(r_d) / (1 + np.linalg.norm(q)),
                   s @ lam / (1 + abs(objective(x))))

    error = measure(x, s, lam)
    history = History(x, objective(x), error)
    failure = None
    while error > tol and len(history.step_sizes) < max_iter:
        r_p, r_d = residuals(x, s, lam)
        D = lam / s
        try:
            with np.errstate(over="ignore", invalid="ignore"):
                if not np.isfinite(D).all():
                    raise LinAlgError("the scaling lambda / s is not finite")
                solve = newton_solver(D)
        except LinAlgError as exc:
            failure = f"the Newton system could not be solved ({exc})"
            break
        mu = s @ lam / m

        def direction(r_c):
            dx = solve(-r_d - G_op.rmatvec(D * r_p + r_c / s))
            dlam = D * (G_op.matvec(dx) + r_p) + r_c / s
            return dx, (r_c - s * dlam) / lam, dlam

        _, ds, dlam = direction(-lam * s)                                     # predictor (affine scaling)
        alpha = _step_to_boundary(s, ds, lam, dlam)
        sigma = (((s + alpha * ds) @ (lam + alpha * dlam)) / m / mu) ** 3
        dx, ds, dlam = direction(sigma * mu - lam * s - ds * dlam)           # corrector
        alpha = 0.99 * _step_to_boundary(s, ds, lam, dlam)
        if not alpha > 1e-12:
            failure = f"the step length fell to {alpha:.2g}"
            break
        x, s, lam = x + alpha * dx, s + alpha * ds, lam + alpha * dlam
        error = measure(x, s, lam)
        history.append(x, objective(x), error, alpha)
    if error <= tol:
        converged, message = True, f"the stopping measure {error:.3g} <= tol = {tol:g}"
    else:
        converged, message = False, (f"interior point: {failure or f'max_iter = {max_iter} Newton steps were made'}; "
                                     f"the stopping measure {error:.3g} is above tol = {tol:g}")
    result = history.result(converged, message, warn=warn)
    result.dual = lam.copy()
    return result
