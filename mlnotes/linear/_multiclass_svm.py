r"""The multiclass SVM of Crammer and Singer by subgradient descent (chapter 12, *Linear classification*).

A linear compatibility score :math:`h(x, y) = \langle w, \psi(x, y)\rangle` with the *multivector*
feature map :math:`\psi(x, y) = e_y \otimes x` (the input copied into the block of class :math:`y`), so
that :math:`h(x, y) = w_y^\top x` with one weight vector :math:`w_y` per class. The margin of sample
:math:`i` against class :math:`y` is :math:`m_{i,y}(w) = h(x_i, y_i) - h(x_i, y)`, and the objective is
scikit-learn's ``LinearSVC(multi_class="crammer_singer")`` objective

.. math::
    F(w) = \tfrac12\|w\|^2 + C \sum_{i=1}^n \max_{y \ne y_i} \max\big(0,\ 1 - m_{i,y}(w)\big),

which is the notes' :math:`\tfrac12\|w\|^2 + \frac{C'}{n}\sum_i \dots` with :math:`C = C'/n`. It is
1-strongly convex but not differentiable. It is minimised as the quadratic program

.. math::
    \min_{w,\,\xi}\ \tfrac12\|w\|^2 + \sum_i C_i \xi_i \quad\text{s.t.}\quad
    \xi_i \ge e_{i,y} - m_{i,y}(w) \ \text{ for all } i, y, \qquad e_{i,y} = [y \ne y_i]

(the constraint of :math:`y = y_i` is :math:`\xi_i \ge 0`) by the primal-dual interior-point method of
:func:`mlnotes.optim.qp_interior_point`, given this program's structure (its constraints as operators and a
Newton solver that eliminates the losses sample by sample) and stopped by the duality gap against the
Crammer-Singer dual (chapter 7, *Convexity and duality*); or, as derived in the chapter, by subgradient descent
with the step :math:`\eta_t = 1/t`.
"""

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from ._models import linear_scores
from ..optim import inverse_time, qp_interior_point, shifted_cholesky, subgradient_descent
from ..utils.validation import (as_float_matrix, as_float_vector, check_bool, check_classes, check_sample_weight,
                                check_scalar)
from ..utils.validation import check_square_sums


def multivector_feature(X, y, n_classes):
    r"""The multivector feature map :math:`\psi(x, y) = e_y \otimes x`, one row per sample.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of int of shape (n_samples,)
        Class indices in ``0, ..., n_classes - 1``.
    n_classes : int

    Returns
    -------
    Psi : array of shape (n_samples, n_classes * n_features)
        Row ``i`` is zero except for the block ``y_i``, which holds ``x_i``; so
        ``Psi @ W.ravel() = (X @ W.T)[i, y_i]`` for ``W`` of shape (n_classes, n_features).
    """
    X = as_float_matrix(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"y must be an integer array of shape ({X.shape[0]},), got {y.dtype} of shape {y.shape}")
    n_classes = check_scalar(n_classes, "n_classes", Integral, min_val=1)
    if y.size and (y.min() < 0 or y.max() >= n_classes):
        raise ValueError(f"class indices must lie in [0, {n_classes}), got values in [{y.min()}, {y.max()}]")
    n, d = X.shape
    Psi = np.zeros((n, n_classes, d))
    Psi[np.arange(n), y] = X
    return Psi.reshape(n, n_classes * d)


def _check_problem(w, X, y, C):
    X = as_float_matrix(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or not np.issubdtype(y.dtype, np.integer) or (y.size and y.min() < 0):
        raise ValueError(f"y must hold non-negative class indices, shape ({X.shape[0]},), got {y.dtype} {y.shape}")
    w = as_float_vector(w, "w")
    if w.size % X.shape[1] or w.size // X.shape[1] <= y.max():
        raise ValueError(f"w must have n_classes * n_features entries with n_features = {X.shape[1]} and "
                         f"n_classes > {y.max()}, got {w.size} entries")
    return w.reshape(-1, X.shape[1]), X, y, check_scalar(C, "C", min_val=0, include_boundaries="neither")


def _most_violating(W, X, y):
    """Scores S (n, K), the most violating wrong class of each sample and its loss max(0, 1 - m)."""
    S = X @ W.T
    rows = np.arange(X.shape[0])
    augmented = S + 1.0                       # 1 + h(x_i, y) - h(x_i, y_i) + h(x_i, y_i), for y != y_i
    augmented[rows, y] = -np.inf
    y_hat = augmented.argmax(axis=1)
    loss = np.maximum(0.0, augmented[rows, y_hat] - S[rows, y])
    return y_hat, loss


def multiclass_hinge_objective(w, X, y, C):
    r"""The Crammer-Singer objective :math:`\tfrac12\|w\|^2 + C\sum_i \max_{y \ne y_i}(1 - m_{i,y}(w))_+`.

    Parameters
    ----------
    w : array of shape (n_classes * n_features,)
        The rows :math:`w_1, \dots, w_K` of the weight matrix, concatenated.
    X : array of shape (n_samples, n_features)
    y : array of int of shape (n_samples,)
        Class indices.
    C : float > 0

    Returns
    -------
    float
    """
    return _hinge_objective(*_check_problem(w, X, y, C))


def _hinge_objective(W, X, y, C):
    """:func:`multiclass_hinge_objective` on checked arguments, with the weights as a matrix (K, d); ``C`` a
    number or one weight per sample (``C * sample_weight``)."""
    _, loss = _most_violating(W, X, y)
    return float(0.5 * np.sum(W * W) + np.sum(C * loss))


def multiclass_hinge_subgradient(w, X, y, C):
    r"""A subgradient of :func:`multiclass_hinge_objective`.

    For each sample with a positive loss, the most violating class :math:`\hat y_i = \arg\max_{y \ne y_i}
    h(x_i, y)` contributes :math:`\psi(x_i, \hat y_i) - \psi(x_i, y_i)`; the others contribute 0:

    .. math:: g = w + C \sum_{i:\ 1 - m_{i,\hat y_i} > 0} \big(\psi(x_i, \hat y_i) - \psi(x_i, y_i)\big).

    Returns
    -------
    array of shape (n_classes * n_features,)
    """
    return _hinge_subgradient(*_check_problem(w, X, y, C))


def _hinge_subgradient(W, X, y, C):
    """:func:`multiclass_hinge_subgradient` on checked arguments, with the weights as a matrix (K, d)."""
    y_hat, loss = _most_violating(W, X, y)
    active = loss > 0
    CX = np.broadcast_to(C, loss.shape)[active][:, None] * X[active]
    G = np.zeros_like(W)
    np.add.at(G, y_hat[active], CX)
    np.add.at(G, y[active], -CX)
    return (W + G).ravel()


def _dual_value(Lam, X, y, C):
    r"""The Crammer-Singer dual :math:`D(\lambda) = \sum_{i,y} e_{i,y}\lambda_{i,y} - \tfrac12\|W(\lambda)\|^2`,
    with :math:`W(\lambda) = -G^\top X`, :math:`G = \lambda - \operatorname{onehot}(y)\,C`, at ``Lam`` (n, K)
    rescaled so that every row sums to :math:`C_i` (rows of non-negative entries: then it is dual feasible, and
    :math:`D \le F(v)` for every ``v``). Returns the value and :math:`W(\lambda)`."""
    rows = np.arange(X.shape[0])
    Lam = Lam * (C / Lam.sum(axis=1))[:, None]
    G = Lam.copy()
    G[rows, y] -= C
    W = -G.T @ X
    return float(Lam.sum() - Lam[rows, y].sum() - 0.5 * np.sum(W * W)), W


def _newton_matrix(D, X, chunk=4096):
    r""":math:`H = I + \sum_i N_i \otimes x_i x_i^\top` with :math:`N_i = \operatorname{diag}(d_i) - d_i d_i^\top / \mathbf 1^\top d_i`,
    of shape (K p, K p) for ``D`` (n, K) and ``X`` (n, p), as a Fortran array of which only the lower triangle
    is filled (what the Cholesky factorisation reads).

    The off-diagonal blocks :math:`-X^\top \operatorname{diag}(d_a d_b / \sigma) X` come from one symmetric
    rank-n update over chunks of samples; the diagonal blocks are computed apart with the coefficient
    :math:`N_{i,aa} = d_a (\sigma - d_a)/\sigma` and :math:`\sigma - d_a` summed from the other entries, because
    :math:`d_a - d_a^2/\sigma` cancels when one :math:`d_a` dominates (near the minimum)."""
    from scipy.linalg.blas import dsyrk

    n, K = D.shape
    p = X.shape[1]
    sigma = D.sum(axis=1)
    others = sigma[:, None] - D                            # exact enough except for the largest entry of a row
    rows, largest = np.arange(n), D.argmax(axis=1)
    rest = D.copy()
    rest[rows, largest] = 0.0
    others[rows, largest] = rest.sum(axis=1)
    H = np.zeros((K * p, K * p), order="F")
    scaled = D / np.sqrt(sigma)[:, None]
    for start in range(0, n, chunk):
        Z = (scaled[start:start + chunk, :, None] * X[start:start + chunk, None, :]).reshape(-1, K * p)
        H = dsyrk(-1.0, Z, beta=1.0, c=H, trans=1, lower=1, overwrite_c=1)      # - Z^T Z, lower triangle
    for a in range(K):
        block = slice(a * p, (a + 1) * p)
        H[block, block] = X.T @ ((D[:, a] * others[:, a] / sigma)[:, None] * X) + np.eye(p)
    return H


def _interior_point(X, y, C, K, *, tol, max_iter):
    r"""Minimise the Crammer-Singer objective by :func:`mlnotes.optim.qp_interior_point` on the quadratic
    program of the module docstring, with the structure of its constraints.

    Variables :math:`x = (\operatorname{vec} W, \xi)` (``W`` (K, p), ``xi`` (n,)); one constraint per sample
    and class, :math:`(Gx)_{i,y} = s_{i,y} - s_{i,y_i} - \xi_i \le h_{i,y} = -e_{i,y}` (scores
    :math:`s = X W^\top`), stored as (n, K) arrays. The Newton system eliminates :math:`\Delta\xi` sample by
    sample and solves :math:`H\,\Delta W = \text{rhs}` with :math:`H` of :func:`_newton_matrix` by Cholesky: a
    cost of :math:`O(n K^2 p^2 + K^3 p^3)` per step.

    Stops when the duality gap :math:`F(W) - D(\lambda) \le` ``tol`` :math:`\cdot F(W)`, with :math:`\lambda` the
    multipliers made dual feasible (:func:`_dual_value`): this proves :math:`F(W) - F^\star \le` ``tol`` :math:`F(W)`.

    Returns
    -------
    W : array of shape (K, p)
        The best of the primal iterates and the weights :math:`W(\lambda)` of the dual points.
    fun, gap : float
        Its objective and the duality gap that bounds its distance to the minimum.
    n_iter : int
    failure : str or None
        None if the gap met ``tol``; otherwise why the method stopped.
    """
    from scipy.linalg import cho_solve
    from scipy.sparse.linalg import LinearOperator

    weighted = C > 0                                       # a sample of weight 0 adds nothing to F: leave it out
    X, y, C = X[weighted], y[weighted], C[weighted]
    n, p = X.shape
    if n == 0:
        return np.zeros((K, p)), 0.0, 0.0, 0, None
    rows = np.arange(n)
    onehot = np.zeros((n, K))
    onehot[rows, y] = 1.0
    E = 1.0 - onehot                                       # e_{i,y} = [y != y_i]
    size = K * p

    def split(x):
        return x[:size].reshape(K, p), x[size:]

    def G_matvec(x):
        W, xi = split(x)
        s = X @ W.T
        return (s - s[rows, y][:, None] - xi[:, None]).ravel()

    def G_rmatvec(lam):
        Lam = lam.reshape(n, K)
        total = Lam.sum(axis=1)
        return np.concatenate([((Lam - onehot * total[:, None]).T @ X).ravel(), -total])

    def P_matvec(x):                                       # P = diag(I on vec W, 0 on xi)
        return np.concatenate([x[:size], np.zeros(n)])

    G = LinearOperator((n * K, size + n), matvec=G_matvec, rmatvec=G_rmatvec, dtype=float)
    P = LinearOperator((size + n, size + n), matvec=P_matvec, rmatvec=P_matvec, dtype=float)

    def newton_solver(d):
        # P + G^T D G = [[A, B], [B^T, diag(sigma)]]: xi eliminated, the Schur complement is H (_newton_matrix)
        D = d.reshape(n, K)
        sigma = D.sum(axis=1)
        chol = shifted_cholesky(_newton_matrix(D, X))
        coupling = D - onehot * sigma[:, None]             # B v = -(v[:, None] * coupling)^T X

        def solve(r):
            r_W, r_xi = split(r)
            dW = cho_solve(chol, (r_W + ((r_xi / sigma)[:, None] * coupling).T @ X).ravel()).reshape(K, p)
            ds = X @ dW.T
            return np.concatenate([dW.ravel(), (r_xi + (D * ds).sum(axis=1) - sigma * ds[rows, y]) / sigma])
        return solve

    best = {"W": np.zeros((K, p)), "fun": _hinge_objective(np.zeros((K, p)), X, y, C), "dual": -np.inf}

    def certificate(x, lam):
        # the best primal value (of the iterate and of the dual point's W(lambda)) and the best dual value so far
        dual, W_dual = _dual_value(lam.reshape(n, K), X, y, C)
        best["dual"] = max(best["dual"], dual)
        for candidate in (split(x)[0], W_dual):
            value = _hinge_objective(candidate, X, y, C)
            if value < best["fun"]:
                best["W"], best["fun"] = candidate, value
        return max(best["fun"] - best["dual"], 0.0) / best["fun"]

    # a strictly feasible start: W = 0, xi = 2, so the slacks are 2 - e > 0; the multipliers' rows sum to C_i
    # (the xi-stationarity holds), half of each on the constraint xi_i >= 0, whose multiplier is C_i at the
    # minimum for every sample classified with margin (measured: 23 Newton steps on the digits instead of 32
    # from the uniform C_i / K)
    result = qp_interior_point(P, np.concatenate([np.zeros(size), C]), G, -E.ravel(),
                               x0=np.concatenate([np.zeros(size), np.full(n, 2.0)]), s0=(2.0 - E).ravel(),
                               lam0=(C[:, None] * (0.5 / K + 0.5 * onehot)).ravel(), newton_solver=newton_solver,
                               certificate=certificate, tol=tol, max_iter=max_iter, warn=False)
    gap = max(best["fun"] - best["dual"], 0.0)
    return best["W"], best["fun"], gap, result.n_iter, None if result.converged else result.message


class MulticlassSVM(ClassifierMixin, BaseEstimator):
    r"""Multiclass linear SVM (Crammer-Singer), trained by an interior-point method or by subgradient descent.

    Predicts :math:`\arg\max_y \langle w, \psi(x, y)\rangle = \arg\max_y w_y^\top x + b_y`.

    Parameters
    ----------
    C : float > 0, default 1
        Weight of the summed hinge losses, as scikit-learn's ``LinearSVC(multi_class="crammer_singer")``
        (the notes' :math:`C/n`, with the mean loss, is ``C / n_samples`` here).
    fit_intercept : bool, default True
        Append a constant feature 1 to every input; its weights are the intercepts :math:`b_y`. As in
        ``LinearSVC`` (with ``intercept_scaling=1``), they are penalised like the other weights.
    solver : {"interior-point", "subgradient"}, default "interior-point"
        ``"interior-point"``: :func:`mlnotes.optim.qp_interior_point` (Mehrotra's predictor-corrector) on the
        quadratic program of the constraints :math:`\xi_i \ge [y \ne y_i] - m_{i,y}(w)`; it converges on data of
        any scale, in a few dozen Newton steps of cost :math:`O(n K^2 p^2 + K^3 p^3)` (:math:`p` features,
        with the intercept), and stops when the duality gap is at most ``tol`` times the objective.
        ``"subgradient"``: chapter 8's subgradient descent with the step :math:`w \leftarrow w - g/t`, run for
        ``max_iter`` steps; it reaches the minimum only on standardised features.
    tol : float > 0, default 1e-8
        Interior point: stop when the duality gap :math:`F(w) - D(\lambda) \le` ``tol`` :math:`\cdot F(w)`, which
        proves :math:`F(w) - F^\star \le` ``tol`` :math:`\cdot F(w)`. Not used by the subgradient solver.
    max_iter : int, default 1000
        Interior point: the most Newton steps (a warning if the gap is still above ``tol`` then; on the
        data sets of the book it needs 15 to 40). Subgradient: the number of steps.

    Attributes
    ----------
    classes_ : array of shape (n_classes,)
    coef_ : array of shape (n_classes, n_features)
    intercept_ : array of shape (n_classes,)
    objective_ : float
        The objective at the returned weights (for the subgradient solver, the best iterate).
    duality_gap_ : float
        Interior point: the duality gap :math:`F(w) - D(\lambda) \ge F(w) - F^\star` at the returned weights,
        with :math:`\lambda` a feasible point of the Crammer-Singer dual. NaN for the subgradient solver.
    n_iter_ : int
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 12, *Linear classification*: the multivector construction, the margin and the
    subgradient. The objective is 1-strongly convex, so subgradient descent with :math:`\eta_t = 1/t`
    converges (its best value to within :math:`O(G^2 \log t / t)` of the minimum), but the bound :math:`G` of
    the subgradients grows with the scale of the features: on the unscaled digits (features 0 to 16) the
    first steps overshoot and the method makes no progress from :math:`w = 0`, while the interior-point method
    reaches the minimum (measured at C = 1: 24 Newton steps, a duality gap of 7e-9 times the objective,
    training accuracy 1.0).
    """

    def __init__(self, C=1.0, *, fit_intercept=True, solver="interior-point", tol=1e-8, max_iter=1000):
        self.C = C
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y, sample_weight=None):
        """Fit the weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            At least two classes (any labels).
        sample_weight : array-like of shape (n_samples,), optional
            Sample ``i``'s hinge loss is weighted by ``C * sample_weight[i]`` (as in ``LinearSVC``).

        Returns
        -------
        self : object
        """
        C = check_scalar(self.C, "C", min_val=0, include_boundaries="neither")
        tol = check_scalar(self.tol, "tol", min_val=0, max_val=np.inf, include_boundaries="neither")
        max_iter = check_scalar(self.max_iter, "max_iter", Integral, min_val=1)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        if self.solver not in ("interior-point", "subgradient"):
            raise ValueError(f"solver must be 'interior-point' or 'subgradient', got {self.solver!r}")
        X, y, codes = check_classes(self, X, y, dtype=np.float64)
        check_square_sums(X)
        C = C * check_sample_weight(sample_weight, X.shape[0])
        K = len(self.classes_)
        Xt = np.column_stack([X, np.ones(X.shape[0])]) if fit_intercept else X
        if self.solver == "interior-point":
            with threadpool_limits(limits=1, user_api="blas"):     # small matrices: threads only cost here
                W, fun, gap, n_iter, failure = _interior_point(Xt, codes, C, K, tol=tol, max_iter=max_iter)
            if failure:
                warnings.warn(f"MulticlassSVM: the interior-point method stopped ({failure}) with the duality gap "
                              f"{gap:.3g} above tol * objective = {tol * fun:.3g}; increase max_iter, or rescale "
                              "features of very different scales", ConvergenceWarning, stacklevel=2)
        else:
            shape = (K, Xt.shape[1])              # checked once here; the loop calls the unchecked cores
            result = subgradient_descent(lambda w: _hinge_objective(w.reshape(shape), Xt, codes, C),
                                         lambda w: _hinge_subgradient(w.reshape(shape), Xt, codes, C),
                                         np.zeros(K * Xt.shape[1]), step_size=inverse_time(1.0),
                                         max_iter=max_iter)
            W, fun, gap, n_iter = result.x.reshape(shape), result.fun, np.nan, result.n_iter
            if not result.fun < result.values[0]:
                # at w = 0 every loss is 1; no iterate did better: the steps 1/t overshot for the scale of the data
                warnings.warn(f"MulticlassSVM: subgradient descent made no progress from w = 0 in {n_iter} steps "
                              f"(objective {fun:.6g}): the steps 1/t are far too long for features of this "
                              "scale; standardise the features, lower C, or use solver='interior-point'",
                              ConvergenceWarning, stacklevel=2)
        self.coef_ = W[:, : X.shape[1]].copy()
        self.intercept_ = W[:, -1].copy() if fit_intercept else np.zeros(K)
        self.objective_ = fun
        self.duality_gap_ = gap
        self.n_iter_ = n_iter
        return self

    def decision_function(self, X):
        """Compatibility scores :math:`w_y^\\top x + b_y`, shape (n_samples, n_classes); for two classes, as
        scikit-learn, the difference of the two scores, shape (n_samples,) (positive: ``classes_[1]``)."""
        S = linear_scores(self, X)
        return S[:, 1] - S[:, 0] if S.shape[1] == 2 else S

    def predict(self, X):
        """The class of the largest score, shape (n_samples,)."""
        S = linear_scores(self, X)
        return self.classes_[S.argmax(axis=1)]
