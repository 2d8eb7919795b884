r"""What every kernel estimator shares: its kernel hyperparameters, and the kernel matrices of fit and predict.

The kernel estimators of chapter 16 (``KernelRidge``, ``KernelGDRegressor``, ``KernelGDClassifier``,
``KernelKNeighborsClassifier``, ``KernelNearestCentroid``, and ``KernelKMeans`` and ``KernelPCA`` in their own
families) never see a feature vector :math:`\varphi(x)`: they see the Gram matrix :math:`K_{ij} = k(x_i, x_j)`
of the training points and, to predict, the kernel :math:`k(x, x_i)` between new points and the training
points. :class:`KernelMixin` computes both, with the hyperparameter names of scikit-learn's kernel estimators
(``kernel``, ``gamma``, ``degree``, ``coef0``, ``kernel_params``).
"""

from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_scalar
from ._pairwise import KERNELS, kernel_diagonal, pairwise_kernels
from ._validation import check_kernel_matrix

#: The kernel names a kernel estimator accepts (besides a callable ``k(x, y, **kernel_params) -> float``).
KERNEL_NAMES = (*KERNELS, "precomputed")


class KernelMixin:
    r"""Kernel hyperparameters and kernel matrices for an estimator (a mixin of :class:`sklearn.base.BaseEstimator`).

    The estimator has the attributes ``kernel`` (a name of :data:`KERNEL_NAMES`, ``"precomputed"`` or a callable),
    ``gamma`` (None: :math:`1/d`; else > 0), ``degree`` (int >= 1), ``coef0`` and ``kernel_params`` (a dict of
    extra keyword arguments of a callable kernel, or None). With ``kernel="precomputed"``, ``fit`` takes the
    (n_samples, n_samples) Gram matrix and the prediction methods the (n_test, n_samples) kernel between the
    new points and the training points.

    Fitted attributes it sets: ``X_fit_`` (the training points, shape (n_samples, n_features); for a
    precomputed kernel the training Gram matrix is not kept, and ``X_fit_`` is None), ``n_features_in_``.
    """

    def __init__(self, kernel, gamma, degree, coef0, kernel_params):
        # called by each estimator's __init__ with its own arguments (stored unchanged, scikit-learn's contract)
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params

    def _check_kernel_params(self):
        """Validate the kernel hyperparameters; return the keyword arguments of :func:`pairwise_kernels`."""
        if callable(self.kernel):
            if self.kernel_params is not None and not isinstance(self.kernel_params, dict):
                raise TypeError(f"kernel_params must be a dict or None, got {self.kernel_params!r}")
            return dict(self.kernel_params or {})
        if not isinstance(self.kernel, str) or self.kernel not in KERNEL_NAMES:
            raise ValueError(f"kernel must be one of {KERNEL_NAMES} or a callable k(x, y), got {self.kernel!r}")
        if self.kernel_params is not None:
            raise ValueError(f"kernel_params is only for a callable kernel, got {self.kernel_params!r} with "
                             f"kernel={self.kernel!r}; give gamma, degree and coef0 instead")
        gamma = None if self.gamma is None else check_scalar(self.gamma, "gamma", Real, min_val=0,
                                                              include_boundaries="neither")
        degree = check_scalar(self.degree, "degree", Integral, min_val=1)
        coef0 = check_scalar(self.coef0, "coef0", Real)
        return dict(gamma=gamma, degree=degree, coef0=coef0)

    def _kernel(self, X, Y):
        """The kernel matrix :math:`k(x_i, y_j)` of shape (n_X, n_Y) (never called for a precomputed kernel)."""
        if callable(self.kernel):
            return pairwise_kernels(X, Y, metric=self.kernel, **self._kernel_args)
        return pairwise_kernels(X, Y, metric=self.kernel, filter_params=True, **self._kernel_args)

    def _fit_kernel(self, X, y="no_validation", *, require_psd=False, gram=True, **validate_kwargs):
        r"""Validate the training data and return ``(K, y)``: the Gram matrix :math:`K` of shape (n, n), and ``y``
        (validated, unless it is the default ``"no_validation"`` of an unsupervised estimator).

        ``K`` is a new array the caller may overwrite. A precomputed ``X`` must be square and symmetric. With
        ``require_psd``, :math:`K` must also be positive semidefinite (Mercer's condition, chapter 15: the
        feature-space distances of the distance-based methods exist only then); it is checked unless the kernel is
        one that is PSD on every data set (linear, rbf, laplacian, polynomial with :math:`c_0 \ge 0`), i.e. for a
        precomputed matrix, a callable, the sigmoid kernel and a polynomial kernel with :math:`c_0 < 0`
        (estimators whose factorisation detects a matrix that is not PSD check it there instead). With
        ``gram=False`` only the diagonal :math:`k(x_i, x_i)` is computed and returned in place of ``K`` (a lazy
        learner needs no more; then a precomputed matrix only is checked).
        """
        self._kernel_args = self._check_kernel_params()
        if isinstance(y, str) and y == "no_validation":        # an unsupervised estimator
            X = validate_data(self, X, dtype=np.float64, **validate_kwargs)
        else:
            X, y = validate_data(self, X, y, dtype=np.float64, **validate_kwargs)
        if self.kernel == "precomputed":
            n = X.shape[0]
            K = check_kernel_matrix(X, "X (a precomputed kernel matrix)", shape=(n, n), require_psd=require_psd,
                                    require_symmetric=True, tol=1e-7)
            self.X_fit_ = None
            return (np.array(K, dtype=float, copy=True) if gram else np.diag(K).copy()), y
        self.X_fit_ = X
        if not gram:
            return self._kernel_diagonal(X), y
        K = self._kernel(X, X)
        if require_psd and not self._always_psd():
            try:
                check_kernel_matrix(K, "K", require_psd=True, tol=1e-7)
            except ValueError as error:
                raise ValueError(f"the Gram matrix K of kernel={self.kernel!r} on the training points: {error}") from None
        return K, y

    def _always_psd(self):
        """Whether the named kernel is positive semidefinite on every data set (chapter 15)."""
        return self.kernel in ("linear", "rbf", "laplacian") or (
            self.kernel in ("poly", "polynomial") and self._kernel_args["coef0"] >= 0)

    def _predict_kernel(self, X, *, return_X=False):
        """The kernel between new points and the training points, shape (n_test, n_samples), after validation
        (and the validated ``X`` if ``return_X``)."""
        check_is_fitted(self, "n_features_in_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        # a precomputed X is that kernel: its width was checked, n_features_in_ = n_samples of the training set
        K = X if self.kernel == "precomputed" else self._kernel(X, self.X_fit_)
        return (K, X) if return_X else K

    def _kernel_diagonal(self, X):
        r""":math:`k(x_i, x_i)` of the rows of ``X``, shape (n,), by :func:`kernel_diagonal`. Not for a precomputed
        kernel."""
        return kernel_diagonal(self._kernel, X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags
