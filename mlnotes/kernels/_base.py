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


def check_kernel_params(kernel, gamma, degree, coef0, kernel_params=None, *, names=KERNEL_NAMES,
                        allow_callable=True, min_degree=1, gamma_options=(), X=None):
    r"""Validate the kernel hyperparameters of an estimator; return the keyword arguments of :func:`pairwise_kernels`.

    The one validation of ``kernel``, ``gamma``, ``degree``, ``coef0`` and ``kernel_params`` shared by the kernel
    estimators (:class:`KernelMixin`: ``KernelRidge``, kernelised gradient descent, kernel kNN and nearest centroid,
    ``KernelKMeans``, ``KernelPCA``); the defaults are theirs, and the keywords let an estimator with other
    conventions (scikit-learn's ``SVC``: ``degree >= 0``, ``gamma="scale"``) use it too.

    Parameters
    ----------
    kernel : str or callable
        A name of ``names``, or (if ``allow_callable``) a function ``k(x, y, **kernel_params) -> float``.
    gamma : float > 0, None or str
        None keeps None (:func:`pairwise_kernels` then uses :math:`1/d`); a string must be one of ``gamma_options``:
        ``"scale"`` is :math:`1/(d\operatorname{Var} X)` (1 if the variance is 0) and ``"auto"`` :math:`1/d`,
        computed from ``X``.
    degree : int >= ``min_degree``
    coef0 : float
    kernel_params : dict or None
        Keyword arguments of a callable kernel; only for a callable.
    names : sequence of str, default :data:`KERNEL_NAMES`
    allow_callable : bool, default True
    min_degree : int, default 1
    gamma_options : sequence of str, default ()
        The strings accepted for ``gamma`` (e.g. ``("scale", "auto")``).
    X : ndarray of shape (n_samples, n_features), optional
        The training data, needed to resolve a string ``gamma``.

    Returns
    -------
    params : dict
        ``{"gamma": float or None, "degree": int, "coef0": float}`` for a named kernel; a copy of
        ``kernel_params`` (or ``{}``) for a callable.

    Raises
    ------
    ValueError
        An unknown kernel name or gamma option, a non-positive ``gamma``, ``degree < min_degree``, ``kernel_params``
        with a named kernel.
    TypeError
        ``kernel_params`` that is not a dict, a non-integer ``degree`` or a non-numeric ``gamma``/``coef0``.
    """
    if callable(kernel):
        if not allow_callable:
            raise ValueError(f"kernel must be one of {tuple(names)}, got the callable {kernel!r}")
        if kernel_params is not None and not isinstance(kernel_params, dict):
            raise TypeError(f"kernel_params must be a dict or None, got {kernel_params!r}")
        return dict(kernel_params or {})
    if not isinstance(kernel, str) or kernel not in names:
        accepted = f"one of {tuple(names)}" + (" or a callable k(x, y)" if allow_callable else "")
        raise ValueError(f"kernel must be {accepted}, got {kernel!r}")
    if kernel_params is not None:
        raise ValueError(f"kernel_params is only for a callable kernel, got {kernel_params!r} with "
                         f"kernel={kernel!r}; give gamma, degree and coef0 instead")
    if isinstance(gamma, str):
        if gamma not in gamma_options:
            options = f"one of {tuple(gamma_options)} or " if gamma_options else ""
            raise ValueError(f"gamma must be {options}a positive number, got {gamma!r}")
        if X is None:
            raise ValueError(f"gamma={gamma!r} needs the training data X to be resolved")
        variance = X.var() if gamma == "scale" else 1.0
        gamma = 1.0 / (X.shape[1] * variance) if variance != 0 else 1.0
    elif gamma is not None:
        gamma = check_scalar(gamma, "gamma", Real, min_val=0, include_boundaries="neither")
    degree = check_scalar(degree, "degree", Integral, min_val=min_degree)
    coef0 = check_scalar(coef0, "coef0", Real)
    return dict(gamma=gamma, degree=degree, coef0=coef0)


def kernel_matrix(kernel, A, B, params):
    r"""The kernel matrix :math:`k(a_i, b_j)` of shape (n_A, n_B), with ``params`` from :func:`check_kernel_params`
    (a named kernel takes only the parameters it uses)."""
    return pairwise_kernels(A, B, metric=kernel, filter_params=not callable(kernel), **params)


class KernelMixin:
    r"""Kernel hyperparameters and kernel matrices for an estimator (a mixin of :class:`sklearn.base.BaseEstimator`).

    The estimator has the attributes ``kernel`` (a name of :data:`KERNEL_NAMES`, ``"precomputed"`` or a callable),
    ``gamma`` (None: :math:`1/d`; else > 0), ``degree`` (int >= 1), ``coef0`` and ``kernel_params`` (a dict of
    extra keyword arguments of a callable kernel, or None). With ``kernel="precomputed"``, ``fit`` takes the
    (n_samples, n_samples) Gram matrix and the prediction methods the (n_test, n_samples) kernel between the
    new points and the training points.

    Fitted attributes it sets: ``X_fit_`` (the training points, shape (n_samples, n_features); for a
    precomputed kernel the training Gram matrix is not kept, and ``X_fit_`` is None), ``n_features_in_``.

    The rbf and laplacian kernels, functions of :math:`x - z`, are evaluated on the inputs minus the training mean,
    and so is the linear kernel for an estimator that uses only feature-space distances (``_centre_inputs = True``:
    nearest neighbours, nearest centroid, k-means): the kernel values (rbf, laplacian) or the distances (linear) are
    the same in exact arithmetic, but :math:`\lVert x\rVert^2 + \lVert z\rVert^2 - 2x^\top z` and
    :math:`k(x, x) - 2k(x, z) + k(z, z)` no longer cancel catastrophically for data far from the origin.
    """

    #: Whether the kernel may be evaluated on centred inputs (only feature-space distances are used).
    _centre_inputs = False

    def __init__(self, kernel, gamma, degree, coef0, kernel_params):
        # called by each estimator's __init__ with its own arguments (stored unchanged, scikit-learn's contract)
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params

    def _check_kernel_params(self):
        """Validate the kernel hyperparameters (:func:`check_kernel_params` with its defaults); return the keyword
        arguments of :func:`pairwise_kernels`."""
        return check_kernel_params(self.kernel, self.gamma, self.degree, self.coef0, self.kernel_params)

    def _kernel(self, X, Y):
        """The kernel matrix :math:`k(x_i, y_j)` of shape (n_X, n_Y) (never called for a precomputed kernel).

        Overflow and invalid values are not warned about here: :meth:`_finite` turns them into one clear error."""
        with np.errstate(over="ignore", invalid="ignore"):
            return kernel_matrix(self.kernel, X, Y, self._kernel_args)

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
        # k(x - c, z - c) = k(x, z) for the rbf and laplacian kernels, and feature-space distances do not change
        # for the linear kernel either: evaluating them on centred inputs avoids cancellation far from the origin
        shift = self.kernel in ("rbf", "laplacian") or (self._centre_inputs and self.kernel == "linear")
        self._shift = X.mean(axis=0) if shift else None
        self._X_kernel = X if self._shift is None else X - self._shift
        if not gram:
            return self._finite(self._kernel_diagonal(self._X_kernel), "k(x_i, x_i) of the training points"), y
        K = self._finite(self._kernel(self._X_kernel, self._X_kernel), "the Gram matrix K of the training points")
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
        (and, if ``return_X``, the validated ``X`` as the kernel sees it: minus the training mean when the estimator
        centres its inputs, so that :meth:`_kernel_diagonal` of it is consistent)."""
        check_is_fitted(self, "n_features_in_")
        if self.kernel == "precomputed" and np.ndim(X) == 2 and np.shape(X)[1] != self.n_features_in_:
            raise ValueError(f"X must be the precomputed kernel between the new points and the {self.n_features_in_} "
                             f"training points, of shape (n_test, {self.n_features_in_}); got shape {np.shape(X)}")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.kernel == "precomputed":
            # a precomputed X is that kernel: its width was checked, n_features_in_ = n_samples of the training set
            return (X, X) if return_X else X
        if self._shift is not None:
            X = X - self._shift
        K = self._finite(self._kernel(X, self._X_kernel), "the kernel between the new and the training points")
        return (K, X) if return_X else K

    def _finite(self, K, what):
        """``K`` if every entry is finite; else a ValueError naming the kernel, its parameters and the likely cause."""
        if np.isfinite(K).all():
            return K
        bad = "NaN" if np.isnan(K).any() else "infinite"
        if callable(self.kernel):
            cause = f"the callable kernel {getattr(self.kernel, '__name__', self.kernel)!r} returned {bad} values"
        else:
            params = ", ".join(f"{k}={v!r}" for k, v in self._kernel_args.items())
            cause = (f"kernel={self.kernel!r} ({params}) overflows float64 on these data; rescale X or lower "
                     f"gamma/degree")
        raise ValueError(f"{what} has {bad} entries: {cause}")

    def _kernel_diagonal(self, X):
        r""":math:`k(x_i, x_i)` of the rows of ``X``, shape (n,), by :func:`kernel_diagonal`. Not for a precomputed
        kernel."""
        return kernel_diagonal(self._kernel, X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags
