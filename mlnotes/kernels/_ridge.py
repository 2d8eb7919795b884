r"""Kernel ridge regression (chapter 16, *Kernel methods*): the interface and results of scikit-learn's."""

from numbers import Real

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, MultiOutputMixin, RegressorMixin

from ..utils.validation import check_scalar
from ._base import KernelMixin


class KernelRidge(MultiOutputMixin, RegressorMixin, KernelMixin, BaseEstimator):
    r"""Kernel ridge regression: ridge regression on the features :math:`\varphi(x)` of a kernel, solved in the dual.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        The penalty :math:`\alpha` of :math:`\lVert y - \Phi w\rVert^2 + \alpha\lVert w\rVert^2` (scikit-learn's
        ``alpha``). It must be positive: it makes :math:`K + \alpha I` positive definite.
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
        the sigmoid kernel; the message gives :math:`\lambda_{\min}`). In ``predict``: a kernel of the wrong
        width.

    Notes
    -----
    By the representer theorem the minimiser is :math:`w = \Phi^\top a`, and

    .. math::
        \min_w \lVert y - \Phi w\rVert^2 + \alpha\lVert w\rVert^2
        \;\Longrightarrow\; a = (K + \alpha I)^{-1} y, \qquad f(x) = \sum_i a_i\, k(x_i, x),

    solved by a Cholesky factorisation of :math:`K + \alpha I` (:math:`\tfrac13 n^3` flops). No intercept (as in
    scikit-learn): a kernel with a constant feature (polynomial with :math:`c_0 > 0`) provides one. The notes
    scale the penalty otherwise: 000's :math:`\lambda` is ``alpha``; 001's
    :math:`\tfrac1n\lVert K a - y\rVert^2 + \lambda a^\top K a` is ``alpha`` :math:`= n\lambda`. Results equal
    :class:`sklearn.kernel_ridge.KernelRidge`'s (same parameters) to rounding. Chapter 16.
    """

    def __init__(self, alpha=1.0, *, kernel="linear", gamma=None, degree=3, coef0=1, kernel_params=None):
        self.alpha = alpha
        super().__init__(kernel, gamma, degree, coef0, kernel_params)

    def fit(self, X, y):
        """Fit on ``X`` (n_samples, n_features) or a precomputed Gram matrix, and targets ``y`` (n_samples,) or
        (n_samples, n_targets). Returns ``self``."""
        alpha = check_scalar(self.alpha, "alpha", Real, min_val=0, include_boundaries="neither")
        K, y = self._fit_kernel(X, y, multi_output=True, y_numeric=True)
        K[np.diag_indices_from(K)] += alpha
        try:
            factor = linalg.cho_factor(K, lower=True, overwrite_a=True, check_finite=False)
        except linalg.LinAlgError:
            K, _ = self._fit_kernel(X, y, multi_output=True, y_numeric=True)
            smallest = linalg.eigvalsh(K, subset_by_index=(0, 0))[0]
            raise ValueError(f"K + alpha I is not positive definite: the smallest eigenvalue of the kernel matrix K "
                             f"is {smallest:.6g} <= -alpha = {-alpha:g}, so K is not positive semidefinite (not the "
                             f"Gram matrix of a kernel, Mercer's condition, chapter 15); use a PSD kernel or a "
                             f"larger alpha") from None
        self.dual_coef_ = linalg.cho_solve(factor, y, overwrite_b=False, check_finite=False)
        return self

    def predict(self, X):
        r"""The prediction :math:`f(x) = \sum_i a_i k(x_i, x)`, shape (n_test,) or (n_test, n_targets).

        ``X`` is (n_test, n_features), or the (n_test, n_samples) kernel if ``kernel="precomputed"``.
        """
        return self._predict_kernel(X) @ self.dual_coef_
