r"""Kernel ridge regression (chapter 16, *Kernel methods*): the interface and results of scikit-learn's."""

import warnings
from numbers import Real

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, MultiOutputMixin, RegressorMixin

from ..utils.validation import check_sample_weight, check_scalar
from ._base import KernelMixin
from ._validation import check_kernel_matrix

#: Relative tolerance below which a negative eigenvalue of K is rounding, not a failure of Mercer's condition (the
#: tolerance of the other kernel estimators' PSD check).
PSD_TOL = 1e-7


def _solve_dual(K, Y, alpha, fresh_gram):
    r"""Solve :math:`(K + \alpha I)C = Y` by a Cholesky factorisation, overwriting ``K``; ``alpha`` a float.

    If the factorisation fails, ``fresh_gram()`` gives :math:`K` again: one that is not PSD is an error, and a PSD
    one (up to rounding) whose :math:`K + \alpha I` is singular to working precision (``alpha`` at the rounding
    level of :math:`K`) gets the least-squares solution with a warning, as in scikit-learn."""
    K[np.diag_indices_from(K)] += alpha
    try:
        factor = linalg.cho_factor(K, lower=True, overwrite_a=True, check_finite=False)
        return linalg.cho_solve(factor, Y, overwrite_b=False, check_finite=False)
    except linalg.LinAlgError:
        pass
    K = fresh_gram()
    try:
        check_kernel_matrix(K, "K", require_psd=True, tol=PSD_TOL)
    except ValueError:
        smallest = linalg.eigvalsh(K, subset_by_index=(0, 0))[0]
        raise ValueError(f"K + alpha I is not positive definite: the smallest eigenvalue of the kernel matrix K "
                         f"is {smallest:.6g} <= -alpha = {-alpha:g}, so K is not positive semidefinite (not the "
                         f"Gram matrix of a kernel, Mercer's condition, chapter 15); use a PSD kernel or a "
                         f"larger alpha") from None
    largest = linalg.eigvalsh(K, subset_by_index=(K.shape[0] - 1, K.shape[0] - 1))[0]
    warnings.warn(f"K + alpha I is singular to working precision: alpha = {alpha:g} is at the rounding level of "
                  f"the kernel matrix (largest eigenvalue {largest:.3g}; K is positive semidefinite up to "
                  f"rounding); using the least-squares solution, as scikit-learn does; a larger alpha gives a "
                  f"well-posed problem", linalg.LinAlgWarning, stacklevel=3)
    K[np.diag_indices_from(K)] += alpha
    return linalg.lstsq(K, Y, check_finite=False)[0]


class KernelRidge(MultiOutputMixin, RegressorMixin, KernelMixin, BaseEstimator):
    r"""Kernel ridge regression: ridge regression on the features :math:`\varphi(x)` of a kernel, solved in the dual.

    Parameters
    ----------
    alpha : float > 0 or array of shape (n_targets,), default 1.0
        The penalty :math:`\alpha` of :math:`\lVert y - \Phi w\rVert^2 + \alpha\lVert w\rVert^2` (scikit-learn's
        ``alpha``; an array gives one penalty per target). It must be positive: it makes :math:`K + \alpha I`
        positive definite.
    kernel : str or callable, default "linear"
        ``"linear"``, ``"poly"``/``"polynomial"``, ``"rbf"``, ``"laplacian"``, ``"sigmoid"``, ``"precomputed"``
        (``X`` in ``fit`` is the (n_samples, n_samples) Gram matrix, in ``predict`` the (n_test, n_samples)
        kernel against the training points), or a function ``k(x, y, **kernel_params) -> float``.
    gamma : float > 0, optional
        :math:`\gamma` of the rbf, laplacian, polynomial and sigmoid kernels; None means :math:`1/d`.
    degree : int >= 1, default 3
        Degree of the polynomial kernel.
    coef0 : float, default 1
        :math:`c_0` of the polynomial and sigmoid kernels.
    kernel_params : dict, optional
        Keyword arguments of a callable kernel.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
        :math:`a = (K + \alpha I)^{-1} y`.
    X_fit_ : ndarray of shape (n_samples, n_features), or None for a precomputed kernel
    n_features_in_ : int

    Raises
    ------
    ValueError
        In ``fit``: a non-positive ``alpha`` or ``gamma``, NaN or infinity, an unknown kernel, a precomputed
        matrix that is not square and symmetric, or a kernel whose Gram matrix :math:`K` makes
        :math:`K + \alpha I` not positive definite (:math:`\lambda_{\min}(K) \le -\alpha`: not a kernel, e.g.
        the sigmoid kernel; the message gives :math:`\lambda_{\min}`), a negative or all-zero ``sample_weight``,
        an ``alpha`` array of the wrong length. In ``predict``: a kernel of the wrong width.

    Warns
    -----
    scipy.linalg.LinAlgWarning
        When :math:`K` is positive semidefinite up to rounding but :math:`K + \alpha I` is singular to working
        precision (``alpha`` at the rounding level of :math:`K`): the least-squares solution is used, as in
        scikit-learn.

    Notes
    -----
    By the representer theorem the minimiser is :math:`w = \Phi^\top a`, and

    .. math::
        \min_w \lVert y - \Phi w\rVert^2 + \alpha\lVert w\rVert^2
        \;\Longrightarrow\; a = (K + \alpha I)^{-1} y, \qquad f(x) = \sum_i a_i\, k(x_i, x),

    solved by a Cholesky factorisation of :math:`K + \alpha I` (:math:`\tfrac13 n^3` flops). With sample weights
    :math:`s_i` the loss is :math:`\sum_i s_i (y_i - w^\top\varphi(x_i))^2` and :math:`a = S^{1/2}(S^{1/2}KS^{1/2} +
    \alpha I)^{-1}S^{1/2}y`, :math:`S = \operatorname{diag}(s)` (scikit-learn's computation). No intercept (as in
    scikit-learn): a kernel with a constant feature (polynomial with :math:`c_0 > 0`) provides one. The notes
    scale the penalty otherwise: 000's :math:`\lambda` is ``alpha``; 001's
    :math:`\tfrac1n\lVert K a - y\rVert^2 + \lambda a^\top K a` is ``alpha`` :math:`= n\lambda`. Results equal
    :class:`sklearn.kernel_ridge.KernelRidge`'s (same parameters) to rounding. Chapter 16.
    """

    def __init__(self, alpha=1.0, *, kernel="linear", gamma=None, degree=3, coef0=1, kernel_params=None):
        self.alpha = alpha
        super().__init__(kernel, gamma, degree, coef0, kernel_params)

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n_samples, n_features) or a precomputed Gram matrix, and targets ``y`` (n_samples,) or
        (n_samples, n_targets); ``sample_weight`` (n_samples,) non-negative, or a float, or None (all 1): sample
        :math:`i` counts :math:`s_i` times in the squared error. Returns ``self``."""
        K, y = self._fit_kernel(X, y, multi_output=True, y_numeric=True)
        Y = y.reshape(-1, 1) if y.ndim == 1 else y
        alphas = self._check_alphas(Y.shape[1])
        root = None if sample_weight is None else np.sqrt(check_sample_weight(sample_weight, K.shape[0]))
        if root is not None:
            Y = Y * root[:, None]
            K *= np.outer(root, root)

        def fresh_gram():
            # K again (the factorisation overwrote it): only when the factorisation failed
            K_again, _ = self._fit_kernel(X, y, multi_output=True, y_numeric=True)
            if root is not None:
                K_again *= np.outer(root, root)
            return K_again

        if len(alphas) == 1 or np.all(alphas == alphas[0]):
            coef = _solve_dual(K, Y, alphas[0], fresh_gram)
        else:
            coef = np.column_stack([_solve_dual(K.copy(), Y[:, [j]], a, fresh_gram)[:, 0]
                                    for j, a in enumerate(alphas)])
        if root is not None:
            coef *= root[:, None]
        self.dual_coef_ = coef.ravel() if y.ndim == 1 else coef
        return self

    def _check_alphas(self, n_targets):
        """``alpha`` as a list of one positive float, or of one per target."""
        if np.ndim(self.alpha) == 0:
            return [check_scalar(self.alpha, "alpha", Real, min_val=0, include_boundaries="neither")]
        try:
            alphas = np.asarray(self.alpha, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"alpha must be a number or a 1-D array of shape (n_targets,), got {self.alpha!r}") from None
        if alphas.ndim != 1:
            raise ValueError(f"alpha must be a number or a 1-D array of shape (n_targets,), got shape {alphas.shape}")
        if alphas.shape[0] != n_targets:
            raise ValueError(f"alpha has {alphas.shape[0]} entries but y has {n_targets} target(s) (columns): one "
                             f"penalty per target")
        if not (np.isfinite(alphas).all() and (alphas > 0).all()):
            raise ValueError(f"alpha must be finite and > 0 for every target, got {alphas.tolist()}")
        return alphas

    def predict(self, X):
        r"""The prediction :math:`f(x) = \sum_i a_i k(x_i, x)`, shape (n_test,) or (n_test, n_targets).

        ``X`` is (n_test, n_features), or the (n_test, n_samples) kernel if ``kernel="precomputed"``.
        """
        return self._predict_kernel(X) @ self.dual_coef_
