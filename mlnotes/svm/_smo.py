r"""Sequential minimal optimisation for the SVM duals (chapter 14, *Support vector machines*).

SMO is an addition to the notes (they derive the dual, not an algorithm that solves it). One solver serves
the classifier and the regressor, written for the general dual of libsvm

.. math:: \min_{\alpha}\ \tfrac12\,\alpha^\top Q\,\alpha + p^\top\alpha
    \quad\text{s.t.}\quad y^\top\alpha = 0,\quad 0 \le \alpha_t \le C_t,
    \qquad Q_{ts} = y_t\,y_s\,K_{ts},\ y_t \in \{-1, +1\},

with :math:`p = -\mathbf 1` for the classifier. Each iteration picks a pair :math:`(i, j)` by libsvm's
second-order working-set selection (Fan, Chen and Lin, 2005), solves the two-variable sub-problem exactly
(:func:`smo_step`) and updates the gradient :math:`G = Q\alpha + p` with two kernel rows. Rows are computed on
demand and kept in a least-recently-used cache of ``cache_size`` megabytes, so the :math:`n \times n` kernel
matrix is never formed when it does not fit. The algorithm follows the paper and libsvm's documented rules; no
libsvm code is used.
"""

import math
from collections import OrderedDict
from numbers import Integral, Real

import numpy as np

from ..utils.validation import as_float_vector, check_scalar

#: libsvm's curvature floor: a non-positive curvature of the pair (a kernel that is not PSD, or two equal
#: points) is replaced by this, so the step stays finite.
TAU = 1e-12


def smo_step(alpha_i, alpha_j, y_i, y_j, G_i, G_j, K_ii, K_jj, K_ij, C_i, C_j):
    r"""Solve the SMO two-variable sub-problem exactly: the pair update with clipping to the box.

    Moves :math:`\alpha_i, \alpha_j` along the line that keeps :math:`y^\top\alpha` fixed, to the minimiser of
    the dual objective on that line inside the box :math:`[0, C_i] \times [0, C_j]`. An addition to the notes.

    Parameters
    ----------
    alpha_i, alpha_j : float
        The current values, in :math:`[0, C_i]` and :math:`[0, C_j]`.
    y_i, y_j : {-1, +1}
        The signs of the two variables.
    G_i, G_j : float
        The gradient :math:`G = Q\alpha + p` of the dual objective at the two coordinates.
    K_ii, K_jj, K_ij : float
        Kernel entries of the pair.
    C_i, C_j : float > 0
        The upper bounds of the two variables.

    Returns
    -------
    alpha_i_new, alpha_j_new : float
        With :math:`y_i\alpha_i^{new} + y_j\alpha_j^{new} = y_i\alpha_i + y_j\alpha_j` (to rounding); a
        variable that hits a bound, or comes within :math:`10^{-12}C` of it, is set to the bound exactly.

    Notes
    -----
    The direction :math:`d = t\,(y_i e_i - y_j e_j)` keeps :math:`y^\top\alpha` fixed. Along it the objective is

    .. math:: \phi(t) = \phi(0) + t\,(y_i G_i - y_j G_j) + \tfrac{t^2}{2}\,\eta,
        \qquad \eta = K_{ii} + K_{jj} - 2K_{ij} = \lVert\varphi(x_i) - \varphi(x_j)\rVert^2 \ge 0,

    minimised at :math:`t^\star = -(y_i G_i - y_j G_j)/\eta` (:math:`\eta` floored at ``TAU`` = 1e-12), then
    clipped to the interval :math:`[L, U]` of :math:`t` where :math:`0 \le \alpha_i + y_i t \le C_i` and
    :math:`0 \le \alpha_j - y_j t \le C_j`. Since :math:`\phi` is a convex parabola, the clipped :math:`t` is
    the constrained minimiser. Chapter 14.

    Raises
    ------
    ValueError
        If a sign is not -1 or +1, a bound is not positive, a value lies outside its box, or an argument is not a
        finite number. (:func:`smo` calls the unchecked core, whose arguments it keeps valid.)
    """
    values = (alpha_i, alpha_j, y_i, y_j, G_i, G_j, K_ii, K_jj, K_ij, C_i, C_j)
    if not all(isinstance(v, Real) and math.isfinite(v) for v in values):
        raise ValueError(f"the arguments of smo_step must be finite real numbers, got {values}")
    if y_i not in (-1, 1) or y_j not in (-1, 1):
        raise ValueError(f"y_i and y_j must be -1 or +1, got {y_i} and {y_j}")
    if not (C_i > 0 and C_j > 0):
        raise ValueError(f"C_i and C_j must be > 0, got {C_i} and {C_j}")
    for name, a, C in (("alpha_i", alpha_i, C_i), ("alpha_j", alpha_j, C_j)):
        if not 0 <= a <= C:
            raise ValueError(f"{name} must lie in [0, {name.replace('alpha', 'C')}] = [0, {C}], got {a}")
    return _smo_step(*(float(v) for v in values))


def _smo_step(alpha_i, alpha_j, y_i, y_j, G_i, G_j, K_ii, K_jj, K_ij, C_i, C_j):
    """:func:`smo_step` on valid arguments (Python floats): the solver's inner loop."""
    eta = K_ii + K_jj - 2.0 * K_ij
    if not eta > 0:   # also catches NaN
        eta = TAU
    t = -(y_i * G_i - y_j * G_j) / eta
    # alpha_i + y_i t in [0, C_i]
    lo_i, hi_i = (-alpha_i, C_i - alpha_i) if y_i > 0 else (alpha_i - C_i, alpha_i)
    # alpha_j - y_j t in [0, C_j]
    lo_j, hi_j = (alpha_j - C_j, alpha_j) if y_j > 0 else (-alpha_j, C_j - alpha_j)
    L, U = max(lo_i, lo_j), min(hi_i, hi_j)
    s = y_i * alpha_i + y_j * alpha_j          # kept fixed
    if t >= U:
        t = U
        bound_of_i = hi_i <= hi_j
    elif t <= L:
        t = L
        bound_of_i = lo_i >= lo_j
    else:
        return _snap(alpha_i + y_i * t, C_i), _snap(alpha_j - y_j * t, C_j)
    # at a bound: snap the variable that defines it, and recover the other one from y_i a_i + y_j a_j = s
    if bound_of_i:
        a_i = (C_i if (y_i > 0) == (t == U) else 0.0)
        a_j = _snap(y_j * (s - y_i * a_i), C_j)
    else:
        a_j = (0.0 if (y_j > 0) == (t == U) else C_j)
        a_i = _snap(y_i * (s - y_j * a_j), C_i)
    return a_i, a_j


def _snap(a, C):
    """Clip to [0, C] and put a value within rounding (1e-12 C) of a bound on the bound, so that a variable at
    a bound is never counted as free (which would change the intercept)."""
    if a <= 1e-12 * C:
        return 0.0
    if a >= C * (1 - 1e-12):
        return C
    return a


def svm_dual_objective(alpha, K, y, p=None):
    r"""The SVM dual objective :math:`D(\alpha) = \tfrac12\alpha^\top Q\alpha - \mathbf 1^\top\alpha` and its gradient.

    Parameters
    ----------
    alpha : array of shape (n_samples,)
    K : array of shape (n_samples, n_samples)
        The kernel matrix :math:`K_{ij} = k(x_i, x_j)`.
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    p : array of shape (n_samples,), optional
        The linear term; default :math:`-\mathbf 1` (the classifier's dual). The regressor's dual on
        :math:`2n` variables uses :math:`p = (\epsilon - z, \epsilon + z)`.

    Returns
    -------
    value : float
    grad : ndarray of shape (n_samples,)
        :math:`Q\alpha + p`.

    Notes
    -----
    .. math:: \min_\alpha\ \tfrac12 \sum_{i,j} \alpha_i\alpha_j\, y_i y_j\, K_{ij} - \sum_i \alpha_i
        \quad\text{s.t.}\quad \sum_i y_i\alpha_i = 0,\ 0 \le \alpha_i \le C,

    the negative of the Lagrangian dual derived in chapter 14 (minimised here, as libsvm and scikit-learn do).
    """
    alpha = as_float_vector(alpha, "alpha")
    y = as_float_vector(y, "y", alpha.shape[0])
    K = np.asarray(K, dtype=float)
    n = alpha.shape[0]
    if K.shape != (n, n):
        raise ValueError(f"K must have shape ({n}, {n}) to match alpha, got {K.shape}")
    if not np.all(np.abs(y) == 1):
        raise ValueError("y must hold labels in {-1, +1}")
    p = -np.ones(n) if p is None else as_float_vector(p, "p", n)
    Q_alpha = y * (K @ (y * alpha))
    return float(alpha @ Q_alpha / 2 + p @ alpha), Q_alpha + p


def kkt_violations(alpha, y, f, C, *, atol=1e-8):
    r"""How much each point violates the KKT conditions of the soft-margin SVM.

    Parameters
    ----------
    alpha : array of shape (n_samples,)
        Dual variables in :math:`[0, C]`.
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    f : array of shape (n_samples,)
        The decision function :math:`f(x_i) = \sum_j \alpha_j y_j K_{ij} + b` at the training points.
    C : float > 0
    atol : float, default 1e-8
        An :math:`\alpha_i` within ``atol`` of 0 or of :math:`C` counts as at that bound.

    Returns
    -------
    violation : ndarray of shape (n_samples,)
        Non-negative; zero exactly where point :math:`i`'s condition holds.

    Notes
    -----
    With the margin :math:`m_i = y_i f(x_i)`, complementary slackness gives the table of cases

    ============================  ==================  ===================================
    :math:`\alpha_i`              condition           violation
    ============================  ==================  ===================================
    :math:`0`                     :math:`m_i \ge 1`   :math:`\max(0, 1 - m_i)`
    :math:`0 < \alpha_i < C`      :math:`m_i = 1`     :math:`|m_i - 1|`
    :math:`C`                     :math:`m_i \le 1`   :math:`\max(0, m_i - 1)`
    ============================  ==================  ===================================

    so the support vectors (:math:`\alpha_i > 0`) are the points on or inside the margin, misclassified or
    not: not only the misclassified points and the points on the hyperplane. Chapter 14.
    """
    alpha = as_float_vector(alpha, "alpha")
    n = alpha.shape[0]
    y, f = as_float_vector(y, "y"), as_float_vector(f, "f")
    for name, values in (("y", y), ("f", f)):
        if values.shape[0] != n:       # there is no X here: the lengths are alpha's
            raise ValueError(f"{name} has {values.shape[0]} entries but alpha has {n}")
    C = check_scalar(C, "C", Real, min_val=0, include_boundaries="neither")
    _check_signs_and_bounds(y, np.full(n, C))
    atol = check_scalar(atol, "atol", Real, min_val=0)
    if np.any((alpha < -atol) | (alpha > C + atol)):
        raise ValueError(f"alpha must lie in [0, C] = [0, {C}]")
    margin = y * f
    at_zero = alpha <= atol
    at_C = alpha >= C - atol
    free = ~(at_zero | at_C)
    violation = np.zeros(n)
    violation[at_zero] = np.maximum(0.0, 1.0 - margin[at_zero])
    violation[free] = np.abs(margin[free] - 1.0)
    violation[at_C & ~at_zero] = np.maximum(0.0, margin[at_C & ~at_zero] - 1.0)
    return violation


class KernelRowCache:
    r"""Rows of a kernel matrix computed on demand and kept in a least-recently-used cache.

    Parameters
    ----------
    compute_rows : callable, array of int of shape (m,) -> array of shape (m, n_cols)
        Computes the kernel rows :math:`K_{i\cdot}` of the given indices.
    n_cols : int
    cache_size : float
        Megabytes of rows kept (at least two rows are always kept: SMO needs a pair).

    Attributes
    ----------
    capacity : int
        Rows kept.
    hits, misses : int
        Look-ups answered from the cache / computed.
    """

    def __init__(self, compute_rows, n_cols, cache_size):
        self.compute_rows = compute_rows
        self.capacity = max(2, int(cache_size * 2**20 // (8 * max(n_cols, 1))))
        self._rows = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __call__(self, i):
        """The row :math:`K_{i\\cdot}`, shape (n_cols,)."""
        row = self._rows.get(i)
        if row is not None:
            self._rows.move_to_end(i)
            self.hits += 1
            return row
        self.misses += 1
        row = np.asarray(self.compute_rows(np.array([i]))[0], dtype=float)
        self._rows[i] = row
        if len(self._rows) > self.capacity:
            self._rows.popitem(last=False)
        return row


def _check_signs_and_bounds(y, C):
    """Raise ``ValueError`` unless every sign ``y_t`` is -1 or +1 and every bound ``C_t`` is positive."""
    if not np.all(np.abs(y) == 1):
        raise ValueError("y must hold signs in {-1, +1} (encode labels {0, 1} as -1 and +1)")
    if not np.all(C > 0):
        raise ValueError(f"C must be > 0, got {C.min()}")


def smo(kernel_row, K_diag, y, p, C, *, tol=1e-3, max_iter=-1, index=None):
    r"""Minimise :math:`\tfrac12\alpha^\top Q\alpha + p^\top\alpha` s.t. :math:`y^\top\alpha = 0`, :math:`0 \le \alpha \le C` by SMO.

    An addition to the notes (chapter 14).

    Parameters
    ----------
    kernel_row : callable, int -> array of shape (n_kernel,)
        Row :math:`i` of the kernel matrix of the ``n_kernel`` distinct points (e.g. a :class:`KernelRowCache`).
    K_diag : array of shape (n_kernel,)
        The diagonal :math:`K_{ii}`.
    y : array of shape (n_vars,)
        Signs in {-1, +1} of the variables.
    p : array of shape (n_vars,)
        The linear term.
    C : array of shape (n_vars,)
        Upper bounds, positive.
    tol : float, default 1e-3
        Stop when the maximal violating pair's gap :math:`m(\alpha) - M(\alpha) \le` ``tol``.
    max_iter : int, default -1
        -1 for no limit.
    index : array of int of shape (n_vars,), optional
        The kernel point of each variable (default ``arange``); the regressor has two variables per point.

    Returns
    -------
    alpha : ndarray of shape (n_vars,)
    G : ndarray of shape (n_vars,)
        The gradient :math:`Q\alpha + p` at ``alpha``.
    n_iter : int
    converged : bool

    Raises
    ------
    ValueError
        If ``y``, ``p``, ``C`` differ in length or are not finite, a sign is not -1 or +1 (labels {0, 1} must be
        encoded), a bound is not positive, ``tol`` is not positive, ``max_iter`` is neither -1 nor >= 1, or
        ``index`` names a point outside ``K_diag``.

    Notes
    -----
    With :math:`I_{up} = \{t: y_t = 1, \alpha_t < C_t\} \cup \{t: y_t = -1, \alpha_t > 0\}` and
    :math:`I_{low} = \{t: y_t = 1, \alpha_t > 0\} \cup \{t: y_t = -1, \alpha_t < C_t\}`, the KKT conditions are

    .. math:: m(\alpha) = \max_{t \in I_{up}} -y_t G_t \ \le\ M(\alpha) = \min_{t \in I_{low}} -y_t G_t .

    The pair: :math:`i = \arg\max_{I_{up}} -y_t G_t`, then among :math:`t \in I_{low}` with
    :math:`b_t = m(\alpha) + y_t G_t > 0` the :math:`j` minimising :math:`-b_t^2/\eta_{it}`,
    :math:`\eta_{it} = K_{ii} + K_{tt} - 2K_{it}` (the decrease of the objective a step would give, to second
    order: Fan, Chen and Lin 2005, libsvm's rule).
    """
    K_diag, y, p, C = (as_float_vector(v, name) for v, name in ((K_diag, "K_diag"), (y, "y"), (p, "p"), (C, "C")))
    n = y.shape[0]
    if not y.shape == p.shape == C.shape:
        raise ValueError(f"y, p and C must have the same number of entries, got {n}, {p.shape[0]} and {C.shape[0]}")
    _check_signs_and_bounds(y, C)
    tol = check_scalar(tol, "tol", Real, min_val=0, include_boundaries="neither")
    max_iter = check_scalar(max_iter, "max_iter", Integral, min_val=-1)
    if max_iter == 0:
        raise ValueError("max_iter must be -1 (no limit) or >= 1, got 0")
    index = np.arange(n) if index is None else np.asarray(index)
    if index.shape != (n,) or not np.issubdtype(index.dtype, np.integer) or \
            (n and (index.min() < 0 or index.max() >= K_diag.shape[0])):
        raise ValueError(f"index must hold {n} integers in [0, {K_diag.shape[0]}), one kernel point per variable")
    tiled = index.shape[0] != K_diag.shape[0] or not np.array_equal(index, np.arange(n))
    QD = K_diag[index]
    alpha = np.zeros(n)
    G = p.astype(float).copy()
    positive = y > 0
    # I_up and I_low at alpha = 0, kept as additive masks: 0 inside the set, -inf (+inf) outside, so that
    # max over I_up of -y G is one addition and one argmax
    up_mask = np.where(positive, 0.0, -np.inf)
    low_mask = np.where(positive, np.inf, 0.0)
    n_iter = 0
    limit = np.inf if max_iter == -1 else max_iter

    rows = (np.empty(n), np.empty(n))          # the pair's kernel rows over the variables (tiled case)

    def Krow(i, slot):
        row = kernel_row(index[i])
        return np.take(row, index, out=rows[slot]) if tiled else row

    converged = False
    neg_y = -y
    score = np.empty(n)
    low_score = np.empty(n)
    b = np.empty(n)
    eta = np.empty(n)
    step = np.empty(n)
    # the scalars of the loop as Python floats (numpy scalars cost more per operation; the values are equal)
    y_, C_, QD_, positive_ = y.tolist(), C.tolist(), QD.tolist(), positive.tolist()
    while True:
        np.multiply(neg_y, G, out=b)            # -y_t G_t
        np.add(b, up_mask, out=score)
        i = int(score.argmax())
        m = float(score[i])
        np.add(b, low_mask, out=low_score)
        M = low_score.min()
        if m - M <= tol or not np.isfinite(m):
            converged = True
            break
        if n_iter >= limit:
            break
        K_i = Krow(i, 0)
        np.subtract(m, low_score, out=b)        # > 0 on the candidates j, -inf or <= 0 elsewhere
        np.multiply(K_i, -2.0, out=eta)          # eta_it = K_ii + K_tt - 2 K_it
        eta += QD
        eta += QD_[i]
        np.maximum(eta, TAU, out=eta)
        np.maximum(b, 0.0, out=b)                # b = 0 gives no gain: not chosen while a candidate exists
        b *= b
        b /= eta                                 # the decrease b^2 / eta of a step on the pair (i, t)
        j = int(b.argmax())
        if not b[j] > 0:
            converged = True
            break
        K_j = Krow(j, 1)
        alpha_i, alpha_j = float(alpha[i]), float(alpha[j])
        a_i, a_j = _smo_step(alpha_i, alpha_j, y_[i], y_[j], float(G[i]), float(G[j]), QD_[i], QD_[j],
                            float(K_i[j]), C_[i], C_[j])
        d_i, d_j = a_i - alpha_i, a_j - alpha_j
        alpha[i], alpha[j] = a_i, a_j
        # G += Q_i d_i + Q_j d_j with Q_t = y_t y K_t
        np.multiply(K_i, y_[i] * d_i, out=step)
        step += K_j * (y_[j] * d_j)
        step *= y
        G += step
        for t, a_t in ((i, a_i), (j, a_j)):
            up_room, low_room = a_t < C_[t], a_t > 0
            in_up, in_low = (up_room, low_room) if positive_[t] else (low_room, up_room)
            up_mask[t] = 0.0 if in_up else -np.inf
            low_mask[t] = 0.0 if in_low else np.inf
        n_iter += 1
    return alpha, G, n_iter, converged


def intercept(alpha, G, y, C):
    r"""The intercept :math:`b` from the solved dual: the average over the free variables, as libsvm.

    Parameters
    ----------
    alpha, G, y, C : arrays of shape (n_vars,)
        The solution, the gradient :math:`Q\alpha + p` there, the signs and the upper bounds.

    Returns
    -------
    b : float

    Notes
    -----
    For a free variable (:math:`0 < \alpha_t < C_t`) the KKT conditions give :math:`y_t G_t = -b`, so
    :math:`b = -\operatorname{mean}_{free}\, y_t G_t`. Without free variables, :math:`b` is the midpoint of the
    interval the bounded variables allow. Chapter 14.

    Raises
    ------
    ValueError
        If the arrays differ in length or are not finite, a sign is not -1 or +1, a bound is not positive, or an
        :math:`\alpha_t` lies outside :math:`[0, C_t]`.
    """
    alpha, G, y, C = (as_float_vector(v, name) for v, name in ((alpha, "alpha"), (G, "G"), (y, "y"), (C, "C")))
    if not alpha.shape == G.shape == y.shape == C.shape:
        raise ValueError(f"alpha, G, y and C must have the same number of entries, got {alpha.shape[0]}, "
                         f"{G.shape[0]}, {y.shape[0]} and {C.shape[0]}")
    _check_signs_and_bounds(y, C)
    if np.any((alpha < 0) | (alpha > C)):
        raise ValueError("alpha must lie in [0, C]")
    yG = y * G
    at_upper = alpha >= C
    at_lower = alpha <= 0
    free = ~(at_upper | at_lower)
    if free.any():
        rho = yG[free].mean()
    else:
        positive = y > 0
        ub_set = (at_upper & ~positive) | (at_lower & positive)
        lb_set = (at_upper & positive) | (at_lower & ~positive)
        ub = yG[ub_set].min() if ub_set.any() else np.inf
        lb = yG[lb_set].max() if lb_set.any() else -np.inf
        rho = (ub + lb) / 2
    return -float(rho)
